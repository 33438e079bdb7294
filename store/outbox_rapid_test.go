package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// outModel is what the outbox should hold for one Message-ID.
type outModel struct {
	id        int64
	state     OutState
	attempts  int
	notBefore time.Time
	sentAt    time.Time
	lastError string
}

// TestOutboxStateMachine drives the outbox with random enqueues, failures,
// sends, deaths, rolled-back transactions and the passing of time, and
// checks after every step that the outbox holds exactly one row per
// Message-ID ever enqueued, each in the state a simple model predicts.
func TestOutboxStateMachine(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	mids := make([]string, 8)
	for i := range mids {
		mids[i] = fmt.Sprintf("<%d@pbem>", i)
	}

	rapid.Check(t, func(rt *rapid.T) {
		rtTx(rt, s, func(tx *Tx) error { _, err := tx.exec(ctx, `DELETE FROM outbox`); return err })
		model := map[string]*outModel{}
		now := t0

		// pick draws a Message-ID, enqueued or not: marking one never
		// enqueued must fail too.
		pick := func(rt *rapid.T) (string, int64) {
			mid := rapid.SampledFrom(mids).Draw(rt, "mid")
			if m, ok := model[mid]; ok {
				return mid, m.id
			}
			return mid, 1 << 40
		}
		// mark runs a transition and checks it succeeds exactly when the
		// mail is pending.
		mark := func(rt *rapid.T, mid string, id int64, do func(tx *Tx) error) bool {
			err := s.Tx(ctx, do)
			m := model[mid]
			pending := m != nil && m.state == OutPending
			switch {
			case pending && err != nil:
				rt.Fatalf("transition of pending %s: %v", mid, err)
			case !pending && !errors.Is(err, ErrNotFound):
				rt.Fatalf("transition of %s in state %v: %v, want ErrNotFound", mid, m, err)
			}
			return pending
		}

		rt.Repeat(map[string]func(*rapid.T){
			"enqueue": func(rt *rapid.T) {
				mid := rapid.SampledFrom(mids).Draw(rt, "mid")
				delay := time.Duration(rapid.IntRange(0, 120).Draw(rt, "delay")) * time.Minute
				var id int64
				var added bool
				rtTx(rt, s, func(tx *Tx) error {
					var err error
					id, added, err = tx.Enqueue(ctx, Outgoing{MessageID: mid, To: "ann@example.org", Raw: []byte(mid), NotBefore: now.Add(delay)})
					return err
				})
				if m, ok := model[mid]; ok {
					if added || id != m.id {
						rt.Fatalf("enqueue of known %s: id %d, added %v; want %d, false", mid, id, added, m.id)
					}
					return
				}
				if !added {
					rt.Fatalf("enqueue of new %s not added", mid)
				}
				model[mid] = &outModel{id: id, state: OutPending, notBefore: now.Add(delay)}
			},
			"enqueue and roll back": func(rt *rapid.T) {
				mid := rapid.SampledFrom(mids).Draw(rt, "mid")
				boom := errors.New("boom")
				err := s.Tx(ctx, func(tx *Tx) error {
					if _, _, err := tx.Enqueue(ctx, Outgoing{MessageID: mid, To: "ann@example.org", Raw: []byte(mid), NotBefore: now}); err != nil {
						return err
					}
					if _, ok := model[mid]; ok {
						// A transition inside the rolled-back transaction is undone too.
						if err := tx.MarkFailed(ctx, model[mid].id, "undone", now); err != nil && !errors.Is(err, ErrNotFound) {
							return err
						}
					}
					return boom
				})
				if !errors.Is(err, boom) {
					rt.Fatalf("rolled-back transaction: %v", err)
				}
			},
			"fail": func(rt *rapid.T) {
				mid, id := pick(rt)
				next := now.Add(time.Duration(rapid.IntRange(1, 60).Draw(rt, "backoff")) * time.Minute)
				reason := fmt.Sprintf("451 attempt at %v", now)
				if mark(rt, mid, id, func(tx *Tx) error { return tx.MarkFailed(ctx, id, reason, next) }) {
					m := model[mid]
					m.attempts++
					m.notBefore = next
					m.lastError = reason
				}
			},
			"sent": func(rt *rapid.T) {
				mid, id := pick(rt)
				if mark(rt, mid, id, func(tx *Tx) error { return tx.MarkSent(ctx, id, now) }) {
					model[mid].state = OutSent
					model[mid].sentAt = now
				}
			},
			"dead": func(rt *rapid.T) {
				mid, id := pick(rt)
				if mark(rt, mid, id, func(tx *Tx) error { return tx.MarkDead(ctx, id, "too many attempts") }) {
					model[mid].state = OutDead
					model[mid].lastError = "too many attempts"
				}
			},
			"tick": func(rt *rapid.T) {
				now = now.Add(time.Duration(rapid.IntRange(0, 90).Draw(rt, "minutes")) * time.Minute)
			},
			"": func(rt *rapid.T) {
				checkOutboxModel(rt, s, model, now)
			},
		})
	})
}

// rtTx runs fn in a transaction and fails the check on error.
func rtTx(rt *rapid.T, s *Store, fn func(*Tx) error) {
	rt.Helper()
	if err := s.Tx(context.Background(), fn); err != nil {
		rt.Fatalf("Tx: %v", err)
	}
}

func checkOutboxModel(rt *rapid.T, s *Store, model map[string]*outModel, now time.Time) {
	ctx := context.Background()
	// One query for all rows keeps the check cheap enough to run after
	// every step.
	rows, err := s.q.QueryContext(ctx, `SELECT `+outColumns+` FROM `+outFrom+` ORDER BY id`)
	if err != nil {
		rt.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		o, err := scanOutgoing(rows)
		if err != nil {
			rt.Fatal(err)
		}
		n++
		m, ok := model[o.MessageID]
		if !ok {
			rt.Fatalf("row %+v is not in the model", o)
		}
		if o.ID != m.id || o.State != m.state || o.Attempts != m.attempts || !o.NotBefore.Equal(m.notBefore) ||
			!o.SentAt.Equal(m.sentAt) || o.LastError != m.lastError || string(o.Raw) != o.MessageID {
			rt.Fatalf("row %+v, model %+v", o, *m)
		}
	}
	if err := rows.Err(); err != nil {
		rt.Fatal(err)
	}
	if n != len(model) {
		rt.Fatalf("outbox has %d rows, model %d", n, len(model))
	}

	var want OutboxStats
	type due struct {
		at time.Time
		id int64
	}
	var wantDue []due
	for _, m := range model {
		switch m.state {
		case OutPending:
			want.Pending++
			if !m.notBefore.After(now) {
				want.Due++
				wantDue = append(wantDue, due{m.notBefore, m.id})
				if want.OldestDue.IsZero() || m.notBefore.Before(want.OldestDue) {
					want.OldestDue = m.notBefore
				}
			}
		case OutSent:
			want.Sent++
		case OutDead:
			want.Dead++
		}
	}
	stats, err := s.OutboxStats(ctx, now)
	if err != nil || stats != want {
		rt.Fatalf("OutboxStats = %+v, %v; want %+v", stats, err, want)
	}
	slices.SortFunc(wantDue, func(a, b due) int {
		if c := a.at.Compare(b.at); c != 0 {
			return c
		}
		return int(a.id - b.id)
	})
	got, err := s.DueOutgoing(ctx, now, 100)
	if err != nil {
		rt.Fatal(err)
	}
	if len(got) != len(wantDue) {
		rt.Fatalf("DueOutgoing: %d mails, want %d", len(got), len(wantDue))
	}
	for i := range got {
		if got[i].ID != wantDue[i].id {
			rt.Fatalf("DueOutgoing[%d] = %d, want %d", i, got[i].ID, wantDue[i].id)
		}
	}
}
