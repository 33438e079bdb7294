package daemon

import (
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pbem/pbem/internal/admin"
	"github.com/pbem/pbem/internal/web"
	"github.com/pbem/pbem/internal/webpage"
	"github.com/pbem/pbem/store"
)

// confirmOf is the reply address of the last confirmation mailed to
// addr, failing the test if its last mail is none.
func (w *world) confirmOf(addr string) string {
	w.t.Helper()
	m := w.last(addr)
	if m.Subject != "Confirm this address for pbem" || !strings.HasPrefix(m.ReplyTo, "pbem+"+addressTokenPrefix) {
		w.t.Fatalf("the last mail to %s is no confirmation: %q, Reply-To %q\n%s", addr, m.Subject, m.ReplyTo, m.Text)
	}
	return m.ReplyTo
}

// A way to confirm a change of address at the new address: it confirms
// the last confirmation mailed to next, and returns what tries the same
// again (which must change nothing).
type confirmWay func(w *world, next string) (again func())

// byReply confirms by a reply from next to the confirmation.
func byReply(w *world, next string) func() {
	w.t.Helper()
	confirm := w.confirmOf(next)
	w.send(next, confirm, "yes")
	return func() { w.send(next, confirm, "yes") }
}

// byButton confirms by the confirmation's link, through the web server
// as pbem serve runs it: a GET of its page, which must change nothing,
// then a POST of the page's own form, as its button sends it. Again, the
// POST is the 404 of any unknown page.
func byButton(w *world, next string) func() {
	w.t.Helper()
	ctx := context.Background()
	w.confirmOf(next)
	link := "/a/" + buttonToken(w.t, w.last(next))
	srv := confirmServer(w)
	before, err := w.st.PlayerOf(ctx, next)
	if err != nil {
		w.t.Fatal(err)
	}
	mails := w.mailCount()
	res, err := http.Get(srv.URL + link)
	if err != nil {
		w.t.Fatal(err)
	}
	form := httpBody(w.t, res)
	field := formField.FindStringSubmatch(form)
	if res.StatusCode != 200 || field == nil || !strings.Contains(form, next) {
		w.t.Fatalf("the page of the link: %d\n%s", res.StatusCode, form)
	}
	w.flush()
	if after, err := w.st.PlayerOf(ctx, next); err != nil || after != before || w.mailCount() != mails {
		w.t.Fatalf("a GET of the link changed something: %q -> %q (%v), %d mails -> %d", before, after, err, mails, w.mailCount())
	}
	if seats, _ := w.st.GamesOf(ctx, next); len(seats) != 0 {
		w.t.Fatalf("a GET of the link moved seats: %v", seats)
	}
	press := func() (int, string) {
		res, err := http.PostForm(srv.URL+link, url.Values{field[1]: {field[2]}})
		if err != nil {
			w.t.Fatal(err)
		}
		return res.StatusCode, httpBody(w.t, res)
	}
	if code, page := press(); code != 200 || !strings.Contains(page, "Done: ") || strings.Contains(page, "<form") {
		w.t.Fatalf("the page after the button: %d\n%s", code, page)
	}
	w.flush()
	return func() {
		w.t.Helper()
		if code, page := press(); code != http.StatusNotFound {
			w.t.Errorf("a second POST of the button: %d, want the 404 of any unknown page\n%s", code, page)
		}
		w.flush()
	}
}

// formField is the hidden field of a page's form: its name and value.
var formField = regexp.MustCompile(`<form method="post"><input type="hidden" name="([^"]+)" value="([^"]+)">`)

// confirmServer serves the world's pages and confirmation links as pbem
// serve does.
func confirmServer(w *world) *httptest.Server {
	srv := httptest.NewServer(web.New(w.svc.Pages(), web.WithAddressConfirm(w.svc),
		web.WithNoPage(func(err error) bool { return errors.Is(err, webpage.ErrNoPage) })))
	w.t.Cleanup(srv.Close)
	return srv
}

// httpBody reads a response's body whole.
func httpBody(t testing.TB, res *http.Response) string {
	t.Helper()
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// buttonLink is the confirmation's link in its text, and in its HTML.
var (
	buttonLink     = regexp.MustCompile(`Confirm on the web:\s+https://web\.pbem\.test/a/([a-z2-7]{16})\s`)
	buttonLinkHTML = regexp.MustCompile(`<a class="pb-tap" href="https://web\.pbem\.test/a/([a-z2-7]{16})"[^>]*>Confirm on the web</a>`)
)

// buttonToken is the token of the confirmation m's link, failing the test
// unless its text and HTML parts carry the same one, and say so.
func buttonToken(t testing.TB, m received) string {
	t.Helper()
	text, html := buttonLink.FindStringSubmatch(m.Text), buttonLinkHTML.FindStringSubmatch(m.HTML)
	if text == nil || html == nil || text[1] != html[1] || !strings.Contains(unwrapText(m.Text), "open the link below and press the button on its page, or reply") {
		t.Fatalf("the confirmation's link, text %v, HTML %v:\n%s\n%s", text, html, m.Text, m.HTML)
	}
	return text[1]
}

// mailCount is how many mails the world's addresses have received.
func (w *world) mailCount() int {
	n := 0
	for _, box := range w.inbox {
		n += len(box)
	}
	return n
}

// TestAddressMovesEverything is issue 37's "Done when": a player with two
// running games, a finished rated game and a vacation moves to a new
// address with `address NEW` and a reply from NEW, or the button of the
// confirmation's link when pbem serves pages; his seats, settings,
// vacation, rating and standings follow, he plays on from NEW, mail from
// the old address is his no more, the old address gets one notice, and
// no mail of the change names a game's hidden state. Both ways do it
// alike, and once.
func TestAddressMovesEverything(t *testing.T) {
	t.Parallel()
	t.Run("reply", func(t *testing.T) {
		t.Parallel()
		testAddressMoves(t, newWorld(t), byReply)
	})
	t.Run("button", func(t *testing.T) {
		t.Parallel()
		testAddressMoves(t, webWorld(t), byButton)
	})
}

func testAddressMoves(t *testing.T, w *world, confirmBy confirmWay) {
	ctx := context.Background()
	alice, bob, carol := "alice@x.test", "bob@y.test", "carol@z.test"
	const next = "alice@new.test"
	players := []string{alice, bob, carol}

	// A finished, rated game.
	reply0, done := w.startGame("felix", players...)
	w.playOut(done, reply0, players, rand.New(rand.NewPCG(8, 1)))
	before, err := w.st.Ratings(ctx, "felix", []string{alice})
	if err != nil || before[alice].Games != 1 {
		t.Fatalf("alice's rating before: %+v, %v", before, err)
	}
	// Two running games, a setting and a vacation.
	reply1, g1 := w.startGame("felix", players...)
	reply2, g2 := w.startGame("gracias", bob, alice, carol)
	w.send(alice, reply1[alice], "timezone Europe/Paris")
	w.send(alice, reply1[alice], "vacation 4d")
	if !strings.Contains(w.last(alice).Text, "You are away until") {
		t.Fatalf("vacation not taken:\n%s", w.last(alice).Text)
	}
	deadline := w.deadline(g1, 0)

	// The move, asked in a game's thread.
	w.send(alice, reply2[alice], "address "+next)
	if got := unwrapText(w.last(alice).Text); !strings.Contains(got, "A confirmation was mailed to "+next) {
		t.Fatalf("answer to address:\n%s", got)
	}
	w.confirmOf(next)
	if text := w.last(next).Text; strings.Contains(text, "felix") || strings.Contains(text, "gracias") || strings.Contains(text, "#") {
		t.Errorf("the confirmation speaks of a game:\n%s", text)
	}
	if w.svc.cfg.WebURL == "" && (strings.Contains(w.last(next).Text, "https://") || strings.Contains(w.last(next).Text, "link")) {
		t.Errorf("a confirmation without web pages speaks of a link:\n%s", w.last(next).Text)
	}
	// Nothing moved yet: alice still plays from her old address.
	if seats, _ := w.st.GamesOf(ctx, next); len(seats) != 0 {
		t.Fatalf("seats moved before the confirmation: %v", seats)
	}
	oldMails := len(w.inbox[alice])
	again := confirmBy(w, next)

	if got := w.last(next); got.Subject != "Your pbem address has changed" || !strings.Contains(unwrapText(got.Text), "are yours at this address now") {
		t.Fatalf("the new address was told:\n%s %s", got.Subject, got.Text)
	}
	if n := len(w.inbox[alice]) - oldMails; n != 1 {
		t.Errorf("the old address got %d mails for the move, want 1", n)
	}
	if got := unwrapText(w.last(alice).Text); !strings.Contains(got, "have moved to "+next) {
		t.Errorf("the old address's notice:\n%s", got)
	}
	for _, id := range []int64{done, g1, g2} {
		var addrs []string
		for _, st := range w.loaded(id).Seats {
			addrs = append(addrs, st.Address)
		}
		if !strings.Contains(strings.Join(addrs, " "), next) || strings.Contains(strings.Join(addrs, " "), alice) {
			t.Errorf("game %d's seats: %v", id, addrs)
		}
	}
	p, err := w.st.Player(ctx, next)
	if err != nil || p.TimeZone != "Europe/Paris" {
		t.Errorf("settings at the new address: %+v, %v", p, err)
	}
	if v, err := w.st.CurrentVacation(ctx, next); err != nil || !v.Until.After(w.clock) {
		t.Errorf("vacation at the new address: %+v, %v", v, err)
	}
	if got := w.deadline(g1, 0); !got.Equal(deadline) {
		t.Errorf("the deadline changed with the move: %s, was %s", got, deadline)
	}
	after, err := w.st.Ratings(ctx, "felix", []string{next, alice})
	if err != nil || after[next] != (store.PlayerRating{Kind: "felix", Mailbox: next, Mu: before[alice].Mu, Sigma: before[alice].Sigma, Games: 1, Name: after[next].Name}) || len(after) != 1 {
		t.Errorf("ratings after the move: %+v, %v (before %+v)", after, err, before)
	}
	if st, err := w.st.Standings(ctx, next); err != nil || len(st) == 0 {
		t.Errorf("standings at the new address: %v, %v", st, err)
	}

	// She plays on from the new address, in the same threads; the old
	// address is a stranger to them now.
	w.send(next, reply1[alice], "status")
	if got := w.last(next); got.ReplyTo != reply1[alice] {
		t.Errorf("status from the new address answered at %q, want the seat's thread %q", got.ReplyTo, reply1[alice])
	}
	w.send(alice, reply1[alice], "status")
	if got := w.last(alice); got.ReplyTo == reply1[alice] || strings.Contains(got.Text, "Hand:") {
		t.Errorf("the old address was answered as the player:\n%s", got.Text)
	}
	// The confirmation does nothing a second time.
	mails := len(w.inbox[alice])
	again()
	if got := w.last(next).Subject; got == "Your pbem address has changed" || len(w.inbox[alice]) != mails {
		t.Errorf("a second confirmation was taken")
	}
}

// TestAddressButtonRefusals: the confirmation's link past its day shows
// a page that says so, without a button, and changes nothing; its POST
// is refused with the same sentence as a late reply, sends no mail, and
// forgets the change, whose link then is no page, as one that never was.
// The page names the two addresses and nothing of any game.
func TestAddressButtonRefusals(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := webWorld(t)
	alice, bob, carol := "alice@x.test", "bob@y.test", "carol@z.test"
	const next = "alice@new.test"
	reply, id := w.startGame("felix", alice, bob, carol)
	w.send(alice, reply[alice], "address "+next)
	w.confirmOf(next)
	token := buttonToken(t, w.last(next))
	form, err := w.svc.AddressConfirmForm(ctx, token)
	if err != nil {
		t.Fatal(err)
	}
	for _, never := range []string{"felix", "Felix", "#", bob, carol, reply[alice]} {
		if strings.Contains(form, never) {
			t.Errorf("the page of the link holds %q:\n%s", never, form)
		}
	}
	if !strings.Contains(form, alice) || !strings.Contains(form, next) {
		t.Errorf("the page of the link does not name both addresses:\n%s", form)
	}

	w.clock = w.clock.Add(25 * time.Hour)
	const late = "this confirmation was more than 24 hours old"
	for i := 0; i < 2; i++ { // a GET, twice: it changes nothing
		page, err := w.svc.AddressConfirmForm(ctx, token)
		if err != nil || !strings.Contains(page, late) || strings.Contains(page, "<form") {
			t.Fatalf("GET of a late link: %v\n%s", err, page)
		}
	}
	mails := w.mailCount()
	page, err := w.svc.ConfirmAddressByLink(ctx, token)
	if err != nil || !strings.Contains(page, late) || strings.Contains(page, "Done") || strings.Contains(page, "<form") {
		t.Fatalf("POST of a late link: %v\n%s", err, page)
	}
	w.flush()
	if w.mailCount() != mails {
		t.Errorf("a refused POST sent %d mails", w.mailCount()-mails)
	}
	if seats, _ := w.st.GamesOf(ctx, alice); len(seats) != 1 {
		t.Errorf("alice's seats after a late POST: %v", seats)
	}
	if !strings.Contains(strings.Join(seatAddresses(w, id), " "), alice) {
		t.Errorf("the seat moved on a late POST: %v", seatAddresses(w, id))
	}
	for _, tok := range []string{token, "", addressTokenPrefix + token, "nosuchtokenatall"} {
		if _, err := w.svc.AddressConfirmForm(ctx, tok); !errors.Is(err, webpage.ErrNoPage) {
			t.Errorf("GET of %q after the refusal: %v, want no page", tok, err)
		}
		if _, err := w.svc.ConfirmAddressByLink(ctx, tok); !errors.Is(err, webpage.ErrNoPage) {
			t.Errorf("POST of %q after the refusal: %v, want no page", tok, err)
		}
	}
	// The reply to the same confirmation finds it gone too.
	w.send(next, w.confirmOf(next), "yes")
	if got := w.last(next).Text; strings.Contains(got, "Done") || strings.Contains(got, "confirmation") {
		t.Errorf("the reply after a refused POST:\n%s", got)
	}
}

// TestAddressAddByButton: a second address is added by its link's button
// as by a reply: mail from it is read as the player's.
func TestAddressAddByButton(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := webWorld(t)
	alice, bob, carol := "alice@x.test", "bob@y.test", "carol@z.test"
	const work = "alice@work.test"
	reply, _ := w.startGame("felix", alice, bob, carol)
	w.send(alice, reply[alice], "address add "+work)
	w.confirmOf(work)
	token := buttonToken(t, w.last(work))
	page, err := w.svc.ConfirmAddressByLink(ctx, token)
	if err != nil || !strings.Contains(page, "Done: mail from "+work) {
		t.Fatalf("the page after the button: %v\n%s", err, page)
	}
	w.flush()
	if got := unwrapText(w.last(alice).Text); !strings.Contains(got, "mail from "+work+" is read as yours") {
		t.Errorf("the player was told:\n%s", got)
	}
	if p, err := w.st.PlayerOf(ctx, work); err != nil || p != alice {
		t.Errorf("PlayerOf(%s) = %q, %v", work, p, err)
	}
}

// seatAddresses are the addresses of game id's seats.
func seatAddresses(w *world, id int64) []string {
	var addrs []string
	for _, st := range w.loaded(id).Seats {
		addrs = append(addrs, st.Address)
	}
	return addrs
}

// TestAddressRefusals: each refusal is one true sentence, and changes
// nothing.
func TestAddressRefusals(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	alice, bob, carol := "alice@x.test", "bob@y.test", "carol@z.test"
	reply, _ := w.startGame("felix", alice, bob, carol)
	ask := func(cmd, want string) {
		t.Helper()
		w.send(alice, reply[alice], cmd)
		if got := unwrapText(w.last(alice).Text); !strings.Contains(got, want) {
			t.Errorf("%q answered:\n%s\nwant %q", cmd, got, want)
		}
	}
	ask("address "+alice, "Not done: "+alice+" is already your address.")
	ask("address "+bob, "Not done: "+bob+" has games or ratings of its own at pbem, and pbem does not merge two players.")
	// pbem's own addresses: the reader drops a line naming them (a
	// quoted header), so the refusal is asked of the daemon directly.
	for _, own := range []string{"pbem@example.test", "pbem+games@example.test", "x@bot.pbem.invalid"} {
		err := w.st.Tx(context.Background(), func(tx *store.Tx) error {
			why, err := w.svc.workIn(context.Background(), tx).addressRefusal(alice, own, false)
			if want := "Not done: " + own + " is one of pbem's own addresses."; why != want {
				t.Errorf("address %s: %q, want %q", own, why, want)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	ask("address nobody", "is not a mail address")

	// At pbem's own address, without authenticated senders: anyone may
	// write alice's From.
	w.send(alice, "pbem@example.test", "address alice@new.test")
	if got := unwrapText(w.last(alice).Text); !strings.Contains(got, "send address in reply to a mail of one of your games") {
		t.Errorf("address at the bare address:\n%s", got)
	}
	if len(w.inbox["alice@new.test"]) != 0 {
		t.Error("a confirmation went out for a mail anyone could have written")
	}

	// A confirmation from another address, and one too late.
	w.send(alice, reply[alice], "address alice@new.test")
	confirm := w.confirmOf("alice@new.test")
	w.send("mallory@evil.test", confirm, "yes")
	if got := unwrapText(w.last("mallory@evil.test").Text); !strings.Contains(got, "a confirmation counts only when it is answered from the address it was mailed to") {
		t.Errorf("confirmation from another address:\n%s", got)
	}
	w.clock = w.clock.Add(25 * time.Hour)
	w.send("alice@new.test", confirm, "yes")
	if got := unwrapText(w.last("alice@new.test").Text); !strings.Contains(got, "this confirmation was more than 24 hours old") {
		t.Errorf("late confirmation:\n%s", got)
	}
	if seats, _ := w.st.GamesOf(context.Background(), alice); len(seats) != 1 {
		t.Errorf("alice's seats after the refusals: %v", seats)
	}
	// A token that is no one's is answered as any other.
	w.send("alice@new.test", "pbem+"+addressTokenPrefix+"nosuchtoken@example.test", "yes")
	if got := w.last("alice@new.test").Text; strings.Contains(got, "confirmation") {
		t.Errorf("an unknown confirmation token was told apart:\n%s", got)
	}
}

// TestAddressAdd: a second address, confirmed from there, is read as
// the player in his games' threads; mail still goes to his address; it
// spends his budget.
func TestAddressAdd(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	alice, bob, carol := "alice@x.test", "bob@y.test", "carol@z.test"
	const work = "alice@work.test"
	reply, _ := w.startGame("felix", alice, bob, carol)
	w.send(alice, reply[alice], "address add "+work)
	confirm := w.confirmOf(work)
	w.send(work, confirm, "ok")
	if got := unwrapText(w.last(alice).Text); !strings.Contains(got, "mail from "+work+" is read as yours") {
		t.Fatalf("the player was told:\n%s", got)
	}
	if p, err := w.st.PlayerOf(ctx, work); err != nil || p != alice {
		t.Fatalf("PlayerOf(%s) = %q, %v", work, p, err)
	}
	workMails := len(w.inbox[work])
	w.send(work, reply[alice], "status")
	if len(w.inbox[work]) != workMails {
		t.Errorf("mail went to the added address: %s", w.last(work).Text)
	}
	if got := w.last(alice); got.ReplyTo != reply[alice] {
		t.Errorf("status from the added address was not answered in alice's thread: %q", got.ReplyTo)
	}
	// An invitation to the added address seats the player, at his own
	// address.
	w.send(bob, "pbem@example.test", "new felix with "+carol+" "+work)
	if got := w.last(alice); !strings.Contains(got.Text, "join") || got.ReplyTo == reply[alice] {
		t.Errorf("the invitation to %s did not reach alice:\n%s", work, got.Text)
	}
	if len(w.inbox[work]) != workMails {
		t.Errorf("the invitation went to the added address")
	}
	// Adding it again is refused.
	w.send(alice, reply[alice], "address add "+work)
	if got := unwrapText(w.last(alice).Text); !strings.Contains(got, "Not done: "+work+" is already an address of yours.") {
		t.Errorf("adding again:\n%s", got)
	}
}

// TestAdminAddress: the host moves a player without a confirmation; the
// act is audited, both addresses are told, and what the player could not
// do the host cannot either.
func TestAdminAddress(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	alice, bob, carol := "alice@x.test", "bob@y.test", "carol@z.test"
	reply, id := w.startGame("felix", alice, bob, carol)
	if err := w.svc.AdminAddress(ctx, alice, bob, "host"); !errors.Is(err, admin.ErrRefused) || !strings.Contains(err.Error(), "does not merge two players") {
		t.Errorf("a move onto another player: %v", err)
	}
	if err := w.svc.AdminAddress(ctx, "nobody@x.test", "n@y.test", "host"); !errors.Is(err, admin.ErrRefused) {
		t.Errorf("a move of no player: %v", err)
	}
	if err := w.svc.AdminAddress(ctx, alice, "Alice <a@new.test>", "host"); !errors.Is(err, admin.ErrRefused) {
		t.Errorf("a move to a named address: %v", err)
	}
	if err := w.svc.AdminAddress(ctx, alice, "alice@new.test", "host"); err != nil {
		t.Fatal(err)
	}
	w.flush()
	if got := unwrapText(w.last(alice).Text); !strings.Contains(got, "the host of this pbem moved them") {
		t.Errorf("the old address was told:\n%s", got)
	}
	if got := w.last("alice@new.test").Subject; got != "Your pbem address has changed" {
		t.Errorf("the new address was told: %q", got)
	}
	found := false
	for _, st := range w.loaded(id).Seats {
		found = found || st.Address == "alice@new.test"
	}
	if !found {
		t.Error("the seat did not move")
	}
	log, err := w.st.Audit(ctx, 0)
	if err != nil || len(log) != 1 || log[0].Action != "address" || log[0].Actor != "host" {
		t.Errorf("audit: %+v, %v", log, err)
	}
	w.send("alice@new.test", reply[alice], "status")
	if got := w.last("alice@new.test"); got.ReplyTo != reply[alice] {
		t.Errorf("the new address does not play the seat: %q", got.ReplyTo)
	}
}
