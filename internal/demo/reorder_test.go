package demo

import (
	"bytes"
	"context"
	"fmt"
	"net/mail"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pbem/pbem/internal/outbox"
)

// reorderer delivers pbem's mails out of the order pbem sent them, as a
// mail system that delivers in parallel does (Postfix to Dovecot over
// LMTP, issue 15): a mail that asks nothing of its reader ("waiting for
// carol") is held until the next mail to the same reader has been
// delivered, or for hold at most, so that the later mail gets the lower
// IMAP UID. The outbox sees every mail sent at once.
type reorderer struct {
	courier outbox.Courier
	hold    time.Duration

	mu      sync.Mutex
	held    map[string]*heldMail // by recipient
	swapped int                  // mails delivered after a mail sent later
	closed  bool
}

type heldMail struct {
	from string
	to   []string
	raw  []byte
}

func newReorderer(hold time.Duration) *reorderer {
	return &reorderer{hold: hold, held: map[string]*heldMail{}}
}

// wrap is Options.wrapCourier.
func (r *reorderer) wrap(c outbox.Courier) outbox.Courier {
	r.courier = c
	return r
}

// Deliver delivers a mail, or holds it back.
func (r *reorderer) Deliver(ctx context.Context, from string, to []string, raw []byte) error {
	key := strings.Join(to, ",")
	m := ReadMail(raw)
	r.mu.Lock()
	prev := r.held[key]
	delete(r.held, key)
	if prev == nil && !asks(m) && !gameOver(m) {
		h := &heldMail{from: from, to: to, raw: raw}
		r.held[key] = h
		r.mu.Unlock()
		time.AfterFunc(r.hold, func() { r.flush(key, h) })
		return nil
	}
	if prev != nil {
		r.swapped++
	}
	r.mu.Unlock()
	err := r.courier.Deliver(ctx, from, to, raw)
	if prev != nil {
		r.deliver(prev)
	}
	return err
}

// flush delivers h if it is still held.
func (r *reorderer) flush(key string, h *heldMail) {
	r.mu.Lock()
	mine := r.held[key] == h && !r.closed
	if mine {
		delete(r.held, key)
	}
	r.mu.Unlock()
	if mine {
		r.deliver(h)
	}
}

func (r *reorderer) deliver(h *heldMail) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	r.courier.Deliver(ctx, h.from, h.to, h.raw)
}

func (r *reorderer) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.swapped
}

func (r *reorderer) stop() (swapped int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closed = true
	return r.swapped
}

// TestPlayersFollowThreadOutOfOrder plays a Gracias and a Felix game
// whose mails reach the players out of order: a "waiting for …" mail
// pbem wrote first is delivered after the "your turn" mail that followed
// it, and so has the higher UID. The scripted players follow the game's
// thread, not the UIDs (follow.go): the games do not stall, and no player
// answers a mail twice. Players who took the mail with the highest UID
// for the latest (before issue 15) waited on the "waiting" mail forever.
func TestPlayersFollowThreadOutOfOrder(t *testing.T) {
	ctx := context.Background()
	r := newReorderer(1500 * time.Millisecond)
	w, err := Start(ctx, Options{Seed: 5, wrapCourier: r.wrap})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for _, tc := range []struct {
		kind    string
		players []string
	}{
		{"gracias", []string{"alice@pbem.test", "bob@pbem.test", "carol@pbem.test"}},
		{"felix", []string{"alice@pbem.test", "bob@pbem.test", "carol@pbem.test", "dave@pbem.test"}},
	} {
		g, err := w.Play(ctx, tc.kind, tc.players, 90*time.Second)
		if err != nil {
			t.Fatalf("%v (mails delivered out of order so far: %d)", err, r.count())
		}
		checkReplay(t, ctx, w.Store, g)
		for _, p := range tc.players {
			if !slices.ContainsFunc(g.Mails[p], gameOver) {
				t.Errorf("%s #%d: %s never got the game's end", g.Kind, g.ID, p)
			}
		}
	}
	swapped := r.stop()
	t.Logf("%d mails were delivered after a mail pbem sent later", swapped)
	if swapped < 5 {
		t.Fatalf("only %d mails were delivered out of order: the test proves nothing", swapped)
	}
	// No player answered a mail of pbem's twice.
	answered := map[string]int{}
	for _, s := range w.SentMails() {
		h, err := mail.ReadMessage(bytes.NewReader(s.Raw))
		if err != nil {
			t.Fatal(err)
		}
		if irt := h.Header.Get("In-Reply-To"); irt != "" {
			answered[s.From+" "+irt]++
		}
	}
	for k, n := range answered {
		if n > 1 {
			t.Errorf("%s answered %d times", k, n)
		}
	}
}

// TestFollowerPicksLatest gives a player one game's mails in orders that
// are not pbem's, as a mailbox with later mails at lower UIDs shows them.
func TestFollowerPicksLatest(t *testing.T) {
	t0 := time.Date(2026, 11, 24, 1, 0, 0, 0, time.UTC)
	seat := "pbem+tok@pbem.test"
	mk := func(id string, sec int, text string) Mail {
		return Mail{MessageID: id, ReplyTo: seat, Date: t0.Add(time.Duration(sec) * time.Second), Text: text,
			Headline: "Gracias #1: " + id}
	}
	offer := func(cmds ...string) string {
		return "Your move: reply with one of these:\n  " + strings.Join(cmds, "\n  ") + "\n\n-- \nAny time: help\n"
	}
	invite := mk("invite", 0, "Reply `join` to take your seat.")
	waiting := mk("waiting", 5, "Now: carol to take a triplet.")
	turn := mk("turn", 5, offer("take 1", "take 2"))
	turnLater := mk("turn-later", 6, offer("take 3"))
	turnAgain := mk("turn-again", 7, offer("take 1"))
	bare := Mail{MessageID: "bare", Date: t0.Add(9 * time.Second), Text: offer("games")}
	name := func(m Mail, ok bool) string {
		if !ok {
			return "none"
		}
		return m.MessageID
	}
	f := newFollower()
	step := func(read []Mail, want string) {
		t.Helper()
		m, ok := f.next(read)
		if got := name(m, ok); got != want {
			var order []string
			for _, x := range read {
				order = append(order, x.MessageID)
			}
			t.Fatalf("having read %v: acts on %s, want %s", order, got, want)
		}
		if ok {
			f.answer(m, read)
		}
	}
	step([]Mail{invite}, "invite")
	step([]Mail{invite}, "none") // answered once only
	// pbem wrote "waiting" then "turn" in the same second; "turn" came
	// first, at the lower UID. The highest UID is "waiting".
	step([]Mail{invite, turn, waiting}, "turn")
	step([]Mail{invite, turn, waiting}, "none")
	// Two mails of one decision, the newer one delivered first: the
	// newer (by Date) is answered, and the older one, arriving after the
	// answer, is behind the player.
	f = newFollower()
	step([]Mail{turnLater, turn}, "turn-later")
	step([]Mail{turnLater, turn, waiting}, "none")
	// A mail that asks nothing never hides one that does, and a mail
	// from pbem's bare address is no game's.
	step([]Mail{turnLater, turn, waiting, turnAgain, bare}, "turn-again")
	step([]Mail{turnLater, turn, waiting, turnAgain, bare, mk("waiting-2", 8, "Now: alice.")}, "none")

	if m, ok := Current([]Mail{invite, turn, waiting}); !ok || m.MessageID != "turn" {
		t.Errorf("Current = %v, %v", name(m, ok), ok)
	}
	if got := fmt.Sprint(len(byDate([]Mail{waiting, turnLater, turn}))); got != "3" {
		t.Errorf("byDate lost mails: %s", got)
	}
	if o := byDate([]Mail{turnLater, waiting, turn}); o[0].MessageID != "waiting" || o[1].MessageID != "turn" || o[2].MessageID != "turn-later" {
		t.Errorf("byDate: %s %s %s", o[0].MessageID, o[1].MessageID, o[2].MessageID)
	}
}
