package outbox

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/pbem/pbem/mailer"
	"github.com/pbem/pbem/store"
)

var testBounceKey = []byte("0123456789abcdef0123456789abcdef")

// bounceHard makes the addresses unreachable, as a DSN would.
func (q *queue) bounceHard(t *testing.T, to ...string) {
	t.Helper()
	ctx := context.Background()
	if err := q.st.Tx(ctx, func(tx *store.Tx) error {
		for _, a := range to {
			if _, err := tx.RecordBounce(ctx, a, true, "5.1.1", q.clock, mailer.SoftBounceDays); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// recorder is a courier that keeps the recipients it was given, in
// order, and calls each, if set, before it takes the mail.
type recorder struct {
	mu   sync.Mutex
	to   []string
	each func(to string)
}

func (r *recorder) Deliver(_ context.Context, _ string, to []string, _ []byte) error {
	if r.each != nil {
		r.each(to[0])
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.to = append(r.to, to[0])
	return nil
}

func (r *recorder) got() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.to)
}

// TestOutboxBatchBounces: the bounces of a whole batch are read at
// once, and a batch with unreachable addresses among reachable ones
// sends exactly the reachable ones, withholds the others (dead, "the
// address bounced") and sends the probe that is due.
func TestOutboxBatchBounces(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name        string
		unreachable []string
		want        []string // sent, in order
		dead        int64
	}{
		{"all reachable", nil, []string{"alice@x.test", "bob@x.test", "carol@x.test", "dan@x.test"}, 0},
		{"one unreachable", []string{"bob@x.test"}, []string{"alice@x.test", "carol@x.test", "dan@x.test"}, 1},
		{"spelt otherwise", []string{"Carol@X.test"}, []string{"alice@x.test", "bob@x.test", "dan@x.test"}, 1},
		{"first and last", []string{"alice@x.test", "dan@x.test"}, []string{"bob@x.test", "carol@x.test"}, 2},
		{"all unreachable", []string{"alice@x.test", "bob@x.test", "carol@x.test", "dan@x.test"}, nil, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			q := newQueue(t)
			q.bounceHard(t, tc.unreachable...)
			q.add(t, "status", "alice@x.test", "bob@x.test", "carol@x.test", "dan@x.test")
			r := &recorder{}
			o := q.outbox(t, r, testConfig(), WithBounceKey(testBounceKey, "+"))
			if n, err := o.SendDue(ctx); err != nil || n != 4 {
				t.Fatalf("SendDue: %d, %v; want the 4 mails taken", n, err)
			}
			if got := r.got(); !slices.Equal(got, tc.want) {
				t.Errorf("sent to %v, want %v", got, tc.want)
			}
			stats, err := q.st.OutboxStats(ctx, q.clock)
			if err != nil || stats.Dead != tc.dead || stats.Sent != int64(len(tc.want)) || stats.Pending != 0 {
				t.Errorf("outbox %+v, %v; want %d sent and %d withheld", stats, err, len(tc.want), tc.dead)
			}
			if n := strings.Count(q.logs.String(), "withheld: the address bounced"); n != int(tc.dead) {
				t.Errorf("%d withheld mails logged, want %d", n, tc.dead)
			}
		})
	}
}

// TestOutboxWithheldReachableMeanwhile: a batch reads its addresses'
// bounces before its first mail; a player who writes while the batch
// is out (store's Reachable) made his address reachable, and the mail
// the batch withheld from him is not given up but sent, at once.
func TestOutboxWithheldReachableMeanwhile(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	q := newQueue(t)
	q.bounceHard(t, "alice@x.test")
	q.add(t, "status", "alice@x.test", "bob@x.test")
	r := &recorder{}
	r.each = func(to string) {
		if to != "bob@x.test" {
			return
		}
		// Alice writes while bob's mail goes out, after her mail was
		// withheld.
		if err := q.st.Tx(ctx, func(tx *store.Tx) error {
			_, err := tx.Reachable(ctx, "alice@x.test")
			return err
		}); err != nil {
			t.Error(err)
		}
	}
	o := q.outbox(t, r, testConfig(), WithBounceKey(testBounceKey, "+"))
	if _, err := o.SendDue(ctx); err != nil {
		t.Fatal(err)
	}
	if got, want := r.got(), []string{"bob@x.test", "alice@x.test"}; !slices.Equal(got, want) {
		t.Errorf("sent to %v, want %v", got, want)
	}
	stats, err := q.st.OutboxStats(ctx, q.clock)
	if err != nil || stats.Dead != 0 || stats.Sent != 2 || stats.Pending != 0 {
		t.Errorf("outbox %+v, %v; want both sent, none dead", stats, err)
	}
}

// TestOutboxClaimsWithMarks: mail queued while a batch is out is
// claimed by the transaction that marks the batch, and SendDue goes on
// sending it until a claim finds nothing due, each mail once and in the
// order it was queued.
func TestOutboxClaimsWithMarks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	q := newQueue(t)
	q.add(t, "first", "p0@x.test")
	const more = 5
	queued := 0
	r := &recorder{}
	r.each = func(string) {
		// The turn loop answers a mail while the outbox sends.
		if queued < more {
			queued++
			q.add(t, "next", "p0@x.test", "p1@x.test")
		}
	}
	cfg := testConfig()
	cfg.Batch = 3
	o := q.outbox(t, r, cfg, WithBounceKey(testBounceKey, "+"))
	n, err := o.SendDue(ctx)
	if err != nil || n != 1+2*more {
		t.Fatalf("SendDue: %d, %v; want all %d mails, those queued while it sent included", n, err, 1+2*more)
	}
	got := r.got()
	if len(got) != 1+2*more {
		t.Fatalf("%d mails sent, want %d", len(got), 1+2*more)
	}
	stats, err := q.st.OutboxStats(ctx, q.clock)
	if err != nil || stats.Sent != int64(n) || stats.Pending != 0 {
		t.Errorf("outbox %+v, %v; want %d sent, none pending", stats, err, n)
	}
	// In the order queued: the log says "sent" by Message-ID.
	var ids []string
	for _, line := range strings.Split(q.logs.String(), "\n") {
		if _, rest, ok := strings.Cut(line, "msg=sent "); ok {
			_, id, _ := strings.Cut(rest, "message_id=")
			ids = append(ids, id)
		}
	}
	if len(ids) != n {
		t.Fatalf("%d mails logged sent, want %d", len(ids), n)
	}
	for i, id := range ids {
		if want := "test" + strconv.Itoa(i+1) + "@example.test"; id != want {
			t.Fatalf("mail %d sent was %s, want %s: not in the order queued (%v)", i+1, id, want, ids)
		}
	}
}
