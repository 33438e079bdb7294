package daemon

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/pbem/pbem/internal/web"
	"github.com/pbem/pbem/internal/webpage"
	"github.com/pbem/pbem/store"
)

// oneClickField is a seat mail's List-Unsubscribe when pbem serves
// pages: the one-click address, then the mailto: of `notify off`.
var oneClickField = regexp.MustCompile(`^<https://web\.pbem\.test(/u/[0-9]+-[0-9]+-[a-z2-7]+)>, <mailto:pbem\+[a-z2-7]+@example\.test\?subject=notify%20off>$`)

// oneClickIn is the path of the one-click address of a mail, checking
// that it carries List-Unsubscribe-Post as RFC 8058 asks.
func oneClickIn(t *testing.T, m received) string {
	t.Helper()
	got := oneClickField.FindStringSubmatch(m.Unsubscribe)
	if got == nil {
		t.Fatalf("List-Unsubscribe %q has no one-click address beside the mailto:", m.Unsubscribe)
	}
	if m.UnsubscribePost != "List-Unsubscribe=One-Click" {
		t.Fatalf("List-Unsubscribe-Post %q", m.UnsubscribePost)
	}
	return got[1]
}

// oneClickServer serves the world's pages and one-click addresses as pbem
// serve does.
func oneClickServer(t *testing.T, w *world) *httptest.Server {
	srv := httptest.NewServer(web.New(w.svc.Pages(), web.WithUnsubscribe(w.svc),
		web.WithNoPage(func(err error) bool { return errors.Is(err, webpage.ErrNoPage) })))
	t.Cleanup(srv.Close)
	return srv
}

func notifyOf(t *testing.T, w *world, addr string) store.Notify {
	t.Helper()
	p, err := w.st.Player(context.Background(), addr)
	if err != nil {
		t.Fatal(err)
	}
	return p.Notify
}

func readBody(t *testing.T, res *http.Response) string {
	t.Helper()
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestOneClickUnsubscribe is issue 37's "done when": every mail to a
// seat, from the invitation on, carries a one-click address; a GET of it
// shows the button and changes nothing, not even after the seat's other
// mails; a one-click POST turns the seat's player's game mail off, as
// `notify off` does, and again changes nothing more; the address of one
// seat does nothing to another's.
func TestOneClickUnsubscribe(t *testing.T) {
	t.Parallel()
	w := webWorld(t)
	alice, bob, carol := "alice@x.test", "bob@y.test", "carol@z.test"
	w.send(alice, "pbem@example.test", "new felix with "+bob+" "+carol)
	invitation := oneClickIn(t, w.last(bob))
	w.send(bob, w.last(bob).ReplyTo, "join")
	w.send(carol, w.last(carol).ReplyTo, "join")
	bobs := oneClickIn(t, w.last(bob))
	if bobs != invitation {
		t.Errorf("bob's seat has two one-click addresses: %s and %s", invitation, bobs)
	}
	carols := oneClickIn(t, w.last(carol))
	if carols == bobs {
		t.Fatal("bob and carol have the same one-click address")
	}
	srv := oneClickServer(t, w)
	before := notifyOf(t, w, bob)
	if before == store.NotifyOff {
		t.Fatal("bob's mail is off before anything")
	}

	res, err := http.Get(srv.URL + bobs)
	if err != nil {
		t.Fatal(err)
	}
	page := readBody(t, res)
	if res.StatusCode != 200 || !strings.Contains(page, `<form method="post">`) || !strings.Contains(page, "notify off") {
		t.Fatalf("GET: %d\n%s", res.StatusCode, page)
	}
	if got := notifyOf(t, w, bob); got != before {
		t.Fatalf("a GET changed bob's notify from %q to %q", before, got)
	}

	// A token of bob's, made to name another seat or game, is no page.
	b, c := strings.Split(strings.TrimPrefix(bobs, "/u/"), "-"), strings.Split(strings.TrimPrefix(carols, "/u/"), "-")
	for _, forged := range []string{
		"/u/" + b[0] + "-" + c[1] + "-" + b[2],           // bob's MAC on carol's seat
		"/u/" + c[0] + "-" + b[1] + "-" + c[2],           // carol's MAC on bob's seat
		"/u/" + b[0] + "1-" + b[1] + "-" + b[2],          // bob's on another game
		"/u/" + b[0] + "-" + b[1] + "-" + b[2][1:] + "a", // a changed MAC
	} {
		if forged == bobs {
			t.Fatalf("the forgery %s is bob's own address", forged)
		}
		res, err := http.PostForm(srv.URL+forged, url.Values{"List-Unsubscribe": {"One-Click"}})
		if err != nil {
			t.Fatal(err)
		}
		if b := readBody(t, res); res.StatusCode != 404 {
			t.Errorf("forged %s: %d\n%s", forged, res.StatusCode, b)
		}
	}
	for _, p := range []string{alice, carol} {
		if got := notifyOf(t, w, p); got == store.NotifyOff {
			t.Errorf("%s's mail was turned off by forged addresses", p)
		}
	}

	mailsBefore := len(w.inbox[bob])
	for i := range 2 {
		res, err := http.PostForm(srv.URL+bobs, url.Values{"List-Unsubscribe": {"One-Click"}})
		if err != nil {
			t.Fatal(err)
		}
		if b := readBody(t, res); res.StatusCode != 200 || !strings.Contains(b, "is off") {
			t.Fatalf("POST %d: %d\n%s", i, res.StatusCode, b)
		}
		if got := notifyOf(t, w, bob); got != store.NotifyOff {
			t.Fatalf("after POST %d bob's notify is %q", i, got)
		}
	}
	if got := notifyOf(t, w, carol); got == store.NotifyOff {
		t.Error("bob's one-click turned carol's mail off")
	}
	w.flush()
	if len(w.inbox[bob]) != mailsBefore {
		t.Errorf("the one-click POST mailed bob: %d mails after %d", len(w.inbox[bob]), mailsBefore)
	}
	if log := w.logs.String(); strings.Contains(log, b[2]) || !strings.Contains(log, "one-click unsubscribe") {
		t.Error("the log holds the one-click token, or does not tell of the unsubscribe")
	}
	// As with notify off, bob hears nothing of the others' moves.
	w.send(alice, w.last(alice).ReplyTo, "play rabbit")
	if len(w.inbox[bob]) != mailsBefore {
		t.Error("bob was mailed alice's move though his mail is off")
	}
}

// TestNoOneClickWithoutWeb: a pbem that serves no pages writes the
// mailto: alone, and no List-Unsubscribe-Post.
func TestNoOneClickWithoutWeb(t *testing.T) {
	t.Parallel()
	w := newWorldConfig(t, func(c *Config) { c.Limits = unlimited })
	w.startGame("felix", "alice@x.test", "bob@y.test", "carol@z.test")
	m := w.last("bob@y.test")
	if !strings.HasPrefix(m.Unsubscribe, "<mailto:") || strings.Contains(m.Unsubscribe, "http") || m.UnsubscribePost != "" {
		t.Errorf("List-Unsubscribe %q, List-Unsubscribe-Post %q", m.Unsubscribe, m.UnsubscribePost)
	}
}
