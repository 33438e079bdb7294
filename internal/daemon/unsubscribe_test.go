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
// pages: the one-click address, then the mailto: of `never` (an
// invitation) or `notify off here` (a seat joined).
var oneClickField = regexp.MustCompile(`^<https://web\.pbem\.test(/u/[0-9]+-[0-9]+-[a-z2-7]+)>, <mailto:pbem\+[a-z2-7]+@example\.test\?subject=(never|notify%20off%20here)>$`)

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

// seatNotifyOf is the game's own notify setting of a seat ("" for none).
func seatNotifyOf(t *testing.T, w *world, id int64, seat int) store.Notify {
	t.Helper()
	st, err := w.st.Seat(context.Background(), id, seat)
	if err != nil {
		t.Fatal(err)
	}
	return st.Notify
}

// postOneClick POSTs RFC 8058's one-click body to path and returns the
// status and page.
func postOneClick(t *testing.T, srv *httptest.Server, path string) (int, string) {
	t.Helper()
	res, err := http.PostForm(srv.URL+path, url.Values{"List-Unsubscribe": {"One-Click"}})
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, readBody(t, res)
}

// getPage GETs path and returns the status and page.
func getPage(t *testing.T, srv *httptest.Server, path string) (int, string) {
	t.Helper()
	res, err := http.Get(srv.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, readBody(t, res)
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
// seat, from the invitation on, carries a one-click address; once the
// seat is joined, a GET of it shows the button and changes nothing; a
// one-click POST turns that game's mail off for the seat, as `notify off
// here` does, and again changes nothing more; the player's other games
// and setting are untouched; the address of one seat does nothing to
// another's.
func TestOneClickUnsubscribe(t *testing.T) {
	t.Parallel()
	w := webWorld(t)
	alice, bob, carol := "alice@x.test", "bob@y.test", "carol@z.test"
	w.send(alice, "pbem@example.test", "new felix with "+bob+" "+carol)
	invitation := oneClickIn(t, w.last(bob))
	if !strings.HasSuffix(w.last(bob).Unsubscribe, "?subject=never>") {
		t.Errorf("the invitation's List-Unsubscribe %q does not send never", w.last(bob).Unsubscribe)
	}
	w.send(bob, w.last(bob).ReplyTo, "join")
	w.send(carol, w.last(carol).ReplyTo, "join")
	id := w.gameOf(w.last(bob).ReplyTo)
	bobs := oneClickIn(t, w.last(bob))
	if bobs != invitation {
		t.Errorf("bob's seat has two one-click addresses: %s and %s", invitation, bobs)
	}
	if !strings.HasSuffix(w.last(bob).Unsubscribe, "?subject=notify%20off%20here>") {
		t.Errorf("a game mail's List-Unsubscribe %q does not send notify off here", w.last(bob).Unsubscribe)
	}
	carols := oneClickIn(t, w.last(carol))
	if carols == bobs {
		t.Fatal("bob and carol have the same one-click address")
	}
	aliceReply := w.last(alice).ReplyTo
	// bob has a second game, which must go on mailing him.
	w.send(carol, "pbem@example.test", "new felix with "+bob+" "+alice)
	other := w.last(bob).ReplyTo
	w.send(bob, other, "join")
	aliceOther := w.last(alice).ReplyTo
	w.send(alice, aliceOther, "join")
	otherID := w.gameOf(other)
	srv := oneClickServer(t, w)
	before := notifyOf(t, w, bob)
	if before == store.NotifyOff {
		t.Fatal("bob's mail is off before anything")
	}

	status, page := getPage(t, srv, bobs)
	if status != 200 || !strings.Contains(page, `<form method="post">`) || !strings.Contains(page, "notify off here") {
		t.Fatalf("GET: %d\n%s", status, page)
	}
	if got := seatNotifyOf(t, w, id, 1); got != "" {
		t.Fatalf("a GET set bob's game setting to %q", got)
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
		if status, page := postOneClick(t, srv, forged); status != 404 {
			t.Errorf("forged %s: %d\n%s", forged, status, page)
		}
	}
	for seat := range 3 {
		if got := seatNotifyOf(t, w, id, seat); got != "" {
			t.Errorf("forged addresses set seat %d's game setting to %q", seat, got)
		}
	}

	mailsBefore := len(w.inbox[bob])
	for i := range 2 {
		if status, page := postOneClick(t, srv, bobs); status != 200 || !strings.Contains(page, "is off") {
			t.Fatalf("POST %d: %d\n%s", i, status, page)
		}
		if got := seatNotifyOf(t, w, id, 1); got != store.NotifyOff {
			t.Fatalf("after POST %d bob's game setting is %q", i, got)
		}
	}
	if got := notifyOf(t, w, bob); got != before {
		t.Errorf("the one-click POST changed bob's own setting from %q to %q", before, got)
	}
	if got := seatNotifyOf(t, w, id, 2); got != "" {
		t.Error("bob's one-click set carol's game setting")
	}
	if got := seatNotifyOf(t, w, otherID, 1); got != "" {
		t.Errorf("bob's one-click set his other game's setting to %q", got)
	}
	w.flush()
	if len(w.inbox[bob]) != mailsBefore {
		t.Errorf("the one-click POST mailed bob: %d mails after %d", len(w.inbox[bob]), mailsBefore)
	}
	if log := w.logs.String(); strings.Contains(log, b[2]) || !strings.Contains(log, "one-click unsubscribe") {
		t.Error("the log holds the one-click token, or does not tell of the unsubscribe")
	}
	// As with notify off here, bob hears nothing of the others' moves
	// and words in that game (notify normal mails a say at once), and
	// still hears of his other game.
	w.send(alice, aliceReply, "play rabbit")
	w.send(alice, aliceReply, "say hello bob")
	if len(w.inbox[bob]) != mailsBefore {
		t.Error("bob was mailed alice's move or words though that game's mail is off")
	}
	if status, page := getPage(t, srv, carols); status != 200 || strings.Contains(page, "never") {
		t.Errorf("carol's page: %d\n%s", status, page)
	}
	w.send(alice, aliceOther, "say hello bob")
	if len(w.inbox[bob]) != mailsBefore+1 || w.gameOf(w.last(bob).ReplyTo) != otherID {
		t.Error("bob was not mailed alice's words in his other game")
	}
}

// TestOneClickInvitation: the one-click address of an invitation not yet
// answered does `never`, as its mailto: asks: a GET says so and changes
// nothing; the POST declines the invitation, tells the others (not the
// one who clicked: the page tells him) and stops every invitation to his
// mailbox; doing it again changes nothing more.
func TestOneClickInvitation(t *testing.T) {
	t.Parallel()
	w := webWorld(t)
	alice, bob, carol := "alice@x.test", "bob@y.test", "carol@z.test"
	w.send(alice, "pbem@example.test", "new felix with "+bob+" "+carol)
	id := w.gameOf(w.last(bob).ReplyTo)
	path := oneClickIn(t, w.last(bob))
	srv := oneClickServer(t, w)
	status, page := getPage(t, srv, path)
	if status != 200 || !strings.Contains(page, "`never`") || !strings.Contains(page, "changed nothing") {
		t.Fatalf("GET: %d\n%s", status, page)
	}
	if g, err := w.st.Game(context.Background(), id); err != nil || g.Status != store.StatusInviting {
		t.Fatalf("after a GET the game is %+v (%v)", g, err)
	}
	bobMails, aliceMails := len(w.inbox[bob]), len(w.inbox[alice])
	for i := range 2 {
		if status, page := postOneClick(t, srv, path); status != 200 || !strings.Contains(page, "will not invite") {
			t.Fatalf("POST %d: %d\n%s", i, status, page)
		}
	}
	w.flush()
	if g, err := w.st.Game(context.Background(), id); err != nil || g.Status != store.StatusDeclined {
		t.Fatalf("after the POST the game is %+v (%v)", g, err)
	}
	if len(w.inbox[bob]) != bobMails {
		t.Errorf("bob was mailed after his one-click: %s", w.last(bob).Headline)
	}
	if len(w.inbox[alice]) != aliceMails+1 || !strings.Contains(w.last(alice).Text, "declined") {
		t.Errorf("alice got %d mails, the last:\n%s", len(w.inbox[alice])-aliceMails, w.last(alice).Text)
	}
	// No invitation reaches bob again.
	w.send(carol, "pbem@example.test", "new felix with "+bob+" "+alice)
	if len(w.inbox[bob]) != bobMails {
		t.Errorf("bob was invited again: %s", w.last(bob).Headline)
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
