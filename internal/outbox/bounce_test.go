package outbox

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pbem/pbem/mailer"
	"github.com/pbem/pbem/store"
)

// With a bounce key, each mail goes out from a bounce address of its
// own, valid for its row and recipient; a permanent refusal makes the
// recipient unreachable and a temporary one does not.
func TestOutboxBounceAddresses(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	q := newQueue(t)
	q.add(t, "help", "alice@x.test", "bob@x.test", "carol@x.test")
	key := []byte("0123456789abcdef0123456789abcdef")
	permanent := errors.New("550 no such user")
	cfg := testConfig()
	cfg.Permanent = func(err error) bool { return err == permanent }
	var mu sync.Mutex
	senders := map[string]string{}
	told := 0
	o := q.outbox(t, CourierFunc(func(_ context.Context, from string, to []string, _ []byte) error {
		mu.Lock()
		senders[to[0]] = from
		mu.Unlock()
		switch to[0] {
		case "bob@x.test":
			return permanent
		case "carol@x.test":
			return errors.New("421 try later")
		}
		return nil
	}), cfg, WithBounceKey(key, "+"), WithRefused(func(context.Context) { told++ }))
	if _, err := o.SendDue(ctx); err != nil {
		t.Fatal(err)
	}
	if told != 1 {
		t.Errorf("told of a refusal %d times, want once", told)
	}
	for i, to := range []string{"alice@x.test", "bob@x.test", "carol@x.test"} {
		local, domain, _ := strings.Cut(senders[to], "@")
		token, ok := strings.CutPrefix(local, "pbem+")
		id, idOK := mailer.BounceTokenID(token)
		if !ok || domain != "example.test" || !idOK || id != int64(i+1) || !mailer.ValidBounceToken(key, token, id, to) {
			t.Errorf("mail %d to %s sent from %q, not its own bounce address", i+1, to, senders[to])
		}
	}
	for to, want := range map[string]bool{"alice@x.test": false, "bob@x.test": true, "carol@x.test": false} {
		if got, err := q.st.IsUnreachable(ctx, to); err != nil || got != want {
			t.Errorf("%s unreachable: %t, %v; want %t", to, got, err, want)
		}
	}
}

// Without a bounce key the envelope sender is the service's address and
// a refusal records no bounce.
func TestOutboxNoBounceKey(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	q := newQueue(t)
	q.add(t, "help", "bob@x.test")
	cfg := testConfig()
	cfg.Permanent = func(error) bool { return true }
	var from string
	o := q.outbox(t, CourierFunc(func(_ context.Context, f string, _ []string, _ []byte) error {
		from = f
		return errors.New("550 no")
	}), cfg)
	if _, err := o.SendDue(ctx); err != nil {
		t.Fatal(err)
	}
	if from != "pbem@example.test" {
		t.Errorf("envelope sender %q", from)
	}
	if u, err := q.st.IsUnreachable(ctx, "bob@x.test"); u || err != nil {
		t.Errorf("bob unreachable %t, %v", u, err)
	}
}

// Mail to an unreachable address is withheld, but for one probe every
// ProbeEvery; once its player writes (store.Tx.Reachable) it is sent.
func TestOutboxWithholdsAndProbes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	q := newQueue(t)
	key := []byte("0123456789abcdef0123456789abcdef")
	var sent []string
	o := q.outbox(t, CourierFunc(func(_ context.Context, _ string, to []string, _ []byte) error {
		sent = append(sent, to[0])
		return nil
	}), testConfig(), WithBounceKey(key, "+"))
	if err := q.st.Tx(ctx, func(tx *store.Tx) error {
		_, err := tx.RecordBounce(ctx, "bob@x.test", true, "5.1.1", q.clock, mailer.SoftBounceDays)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	step := func(what string, want ...string) {
		t.Helper()
		sent = nil
		q.add(t, what, "alice@x.test", "bob@x.test")
		if _, err := o.SendDue(ctx); err != nil {
			t.Fatal(err)
		}
		if strings.Join(sent, " ") != strings.Join(want, " ") {
			t.Errorf("%s: sent to %v, want %v", what, sent, want)
		}
	}
	step("withheld", "alice@x.test")
	q.clock = q.clock.Add(ProbeEvery)
	step("probe", "alice@x.test", "bob@x.test")
	u, err := q.st.UnreachableAddress(ctx, "bob@x.test")
	if err != nil || !u.ProbedAt.Equal(q.clock) {
		t.Errorf("bob's probe recorded at %s (%v), want %s", u.ProbedAt, err, q.clock)
	}
	q.clock = q.clock.Add(ProbeEvery - time.Second)
	step("withheld after the probe", "alice@x.test")
	if err := q.st.Tx(ctx, func(tx *store.Tx) error {
		_, err := tx.Reachable(ctx, "bob@x.test")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	step("reachable again", "alice@x.test", "bob@x.test")
	stats, err := q.st.OutboxStats(ctx, q.clock)
	if err != nil || stats.Dead != 2 || stats.Sent != 6 || stats.Pending != 0 {
		t.Errorf("outbox %+v, %v; want 2 withheld (dead), 6 sent", stats, err)
	}
}
