package outbox

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/pbem/pbem/mailer"
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
	}), cfg, WithBounceKey(key, "+"))
	if _, err := o.SendDue(ctx); err != nil {
		t.Fatal(err)
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
