package outgoing

import (
	"strings"
	"testing"

	"github.com/pbem/pbem/store"
)

// unsubSeat is seat 1 of game 12, played by alice.
func unsubSeat() store.Seat {
	return store.Seat{GameID: 12, Seat: 1, Address: "alice@example.org", Token: "k7qpz2xw9mr4tb8vn3cj"}
}

// TestUnsubscribeToken: a seat's token is its own, as the seat is now,
// and no other seat's: not another game's, place's or address's, nor the
// same seat's once its secret or its player changed; a token changed in
// any character is nobody's; and it is neither the seat's mail token nor
// has its shape.
func TestUnsubscribeToken(t *testing.T) {
	t.Parallel()
	st := unsubSeat()
	tok := UnsubscribeToken(st)
	if !strings.HasPrefix(tok, "12-1-") || len(tok) != len("12-1-")+unsubscribeMACLen {
		t.Fatalf("token %q: want 12-1- and a MAC of %d characters", tok, unsubscribeMACLen)
	}
	if tok != UnsubscribeToken(st) {
		t.Fatal("the same seat's token differs from one call to the next")
	}
	if strings.Contains(tok, st.Token) {
		t.Fatal("the token holds the seat's mail token")
	}
	if !CheckUnsubscribeToken(tok, st) {
		t.Fatal("the seat's own token is refused")
	}
	upper := st
	upper.Address = "Alice@Example.ORG"
	if !CheckUnsubscribeToken(tok, upper) {
		t.Error("the token is refused for the same address spelt in other case")
	}
	others := map[string]func(*store.Seat){
		"another game":        func(s *store.Seat) { s.GameID = 13 },
		"another place":       func(s *store.Seat) { s.Seat = 2 },
		"another address":     func(s *store.Seat) { s.Address = "bob@example.org" },
		"a new seat secret":   func(s *store.Seat) { s.Token = "aaaaaaaaaaaaaaaaaaaa" },
		"a bot (no secret)":   func(s *store.Seat) { s.Token = "" },
		"a seat with no mail": func(s *store.Seat) { s.Address = "" },
	}
	for name, change := range others {
		other := unsubSeat()
		change(&other)
		if CheckUnsubscribeToken(tok, other) {
			t.Errorf("%s: the token of seat 1 of game 12 is taken", name)
		}
		if o := UnsubscribeToken(other); o != "" && o == tok {
			t.Errorf("%s: has the same token", name)
		}
	}
	// Every one-character change of the token is refused.
	for i := range tok {
		for _, c := range "abz27-09" {
			if byte(c) == tok[i] {
				continue
			}
			forged := tok[:i] + string(c) + tok[i+1:]
			if CheckUnsubscribeToken(forged, st) {
				t.Fatalf("forged token %q is taken", forged)
			}
		}
	}
}

// TestParseUnsubscribeToken: the game and the place are read from a
// token's shape alone; what has not the shape is nothing.
func TestParseUnsubscribeToken(t *testing.T) {
	t.Parallel()
	mac := strings.Repeat("a", unsubscribeMACLen)
	for tok, want := range map[string]struct {
		game int64
		seat int
		ok   bool
	}{
		"12-1-" + mac:                   {12, 1, true},
		"7-0-" + mac:                    {7, 0, true},
		"0-1-" + mac:                    {},
		"012-1-" + mac:                  {},
		"12-01-" + mac:                  {},
		"-1-1-" + mac:                   {},
		"12-1-" + mac[1:]:               {},
		"12-1-" + mac + "a":             {},
		"12-1-" + strings.ToUpper(mac):  {},
		"12-1-" + mac[1:] + "1":         {},
		"12-1":                          {},
		"":                              {},
		"99999999999999999999-1-" + mac: {},
		"12-1-" + mac + "-x":            {},
		"12-" + strings.Repeat("9", 19) + "-" + mac: {},
	} {
		g, s, ok := ParseUnsubscribeToken(tok)
		if ok != want.ok || g != want.game || s != want.seat {
			t.Errorf("%q: %d, %d, %v; want %d, %d, %v", tok, g, s, ok, want.game, want.seat, want.ok)
		}
	}
	g, s, ok := ParseUnsubscribeToken(UnsubscribeToken(unsubSeat()))
	if !ok || g != 12 || s != 1 {
		t.Errorf("a made token reads as %d, %d, %v", g, s, ok)
	}
}

// TestUnsubscribeURL: a seat's one-click address is under the web pages'
// base URL, and there is none when pbem serves no pages.
func TestUnsubscribeURL(t *testing.T) {
	t.Parallel()
	p := testPost()
	if got := p.unsubscribeURL(unsubSeat()); got != "" {
		t.Errorf("without web pages: %q", got)
	}
	p.cfg.WebURL = "https://pbem.example.org/"
	if got, want := p.unsubscribeURL(unsubSeat()), "https://pbem.example.org/u/"+UnsubscribeToken(unsubSeat()); got != want {
		t.Errorf("with web pages: %q, want %q", got, want)
	}
}
