package daemon

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"io"
	"log/slog"
	"math/rand/v2"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-message/mail"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/games"
	"github.com/pbem/pbem/internal/highbid"
	"github.com/pbem/pbem/mailer"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// A game is a plug-in: High Bid (internal/highbid), a game that no
// package of pbem knows, joins the catalogue in one line below and is
// then played whole by mail, with its own table, options, help, rules
// and final result, and without telling anyone another player's cards.

// pluginWorld is a world whose catalogue is games.All() and High Bid,
// and which keeps the HTML part of every mail beside its text.
type pluginWorld struct {
	*world
	html map[string][]string // by address, in step with world.inbox
}

func newPluginWorld(t *testing.T) *pluginWorld {
	catalogue := games.All()
	catalogue["highbid"] = highbid.Rules{} // the one line that registers the game
	var names []string
	for n := range catalogue {
		names = append(names, n)
	}
	sort.Strings(names)
	lookup := func(name string) (engine.Rules, bool) { r, ok := catalogue[name]; return r, ok }

	cfg := testConfig()
	cfg.Limits = unlimited
	st, err := store.Open(context.Background(), worldDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	r, err := templates.New(catalogue)
	if err != nil {
		t.Fatal(err)
	}
	w := &world{t: t, st: st, clock: time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC), inbox: map[string][]received{}}
	seeds := rand.New(rand.NewPCG(1, 2))
	w.svc, err = New(cfg, st, r, lookup, names,
		WithClock(func() time.Time { return w.clock }),
		WithSeeds(seeds.Uint64),
		WithLogger(slog.New(slog.NewTextHandler(&w.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	if err != nil {
		t.Fatal(err)
	}
	return &pluginWorld{world: w, html: map[string][]string{}}
}

// send is world.send, whose mails are read by flush below.
func (w *pluginWorld) send(from, to, body string) {
	w.t.Helper()
	w.uid++
	raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: Re: pbem\r\nMessage-ID: <m%d.%s>\r\nDate: Sat, 21 Nov 2026 10:00:00 +0000\r\n\r\n%s\r\n", from, to, w.uid, from, body)
	if err := w.svc.HandleMail(context.Background(), mailer.Message{Mailbox: "INBOX", UIDValidity: 1, UID: w.uid, Raw: []byte(raw)}); err != nil {
		w.t.Fatalf("handle mail from %s: %v", from, err)
	}
	w.flush()
}

// flush sends every due mail into the fake inboxes, text and HTML.
func (w *pluginWorld) flush() {
	w.t.Helper()
	sendAllDue(w.t, w.svc, func(_ context.Context, from string, to []string, raw []byte) error {
		w.inbox[to[0]] = append(w.inbox[to[0]], readMail(w.t, raw))
		w.html[to[0]] = append(w.html[to[0]], htmlPart(w.t, raw))
		return nil
	})
}

// htmlPart is a mail's text/html part, or "".
func htmlPart(t testing.TB, raw []byte) string {
	r, err := mail.CreateReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	for {
		p, err := r.NextPart()
		if err == io.EOF {
			return ""
		}
		if err != nil {
			t.Fatal(err)
		}
		if h, ok := p.Header.(*mail.InlineHeader); ok {
			if ct, _, _ := h.ContentType(); ct == "text/html" {
				b, _ := io.ReadAll(p.Body)
				return string(b)
			}
		}
	}
}

var (
	htmlTag   = regexp.MustCompile(`(?s)<(/?)([a-zA-Z0-9]+)[^>]*>`)
	htmlHead  = regexp.MustCompile(`(?s)<head>.*</head>`)
	htmlBlock = map[string]bool{"p": true, "br": true, "tr": true, "div": true, "h1": true, "h2": true, "li": true, "table": true}
)

// visibleText is an HTML part's text as a reader sees it: a line for each
// block, cells apart.
func visibleText(s string) string {
	s = htmlHead.ReplaceAllString(s, "")
	s = htmlTag.ReplaceAllStringFunc(s, func(tag string) string {
		m := htmlTag.FindStringSubmatch(tag)
		switch name := strings.ToLower(m[2]); {
		case htmlBlock[name]:
			return "\n"
		case name == "td" || name == "th":
			return "\t"
		}
		return ""
	})
	var lines []string
	for _, l := range strings.Split(html.UnescapeString(s), "\n") {
		var cells []string
		for _, c := range strings.Split(l, "\t") {
			if c = strings.Join(strings.Fields(c), " "); c != "" {
				cells = append(cells, c)
			}
		}
		if len(cells) > 0 {
			lines = append(lines, strings.Join(cells, "\t"))
		}
	}
	return strings.Join(lines, "\n")
}

func (w *pluginWorld) startGame(game string, players ...string) (map[string]string, int64) {
	w.t.Helper()
	w.send(players[0], "pbem@example.test", "new "+game+" with "+strings.Join(players[1:], " "))
	reply := map[string]string{players[0]: w.last(players[0]).ReplyTo}
	for _, p := range players[1:] {
		inv := w.last(p)
		if !strings.Contains(inv.Text, "join") {
			w.t.Fatalf("invitation to %s does not say how to join:\n%s", p, inv.Text)
		}
		reply[p] = inv.ReplyTo
	}
	for _, p := range players[1:] {
		w.send(p, reply[p], "join")
	}
	seat, err := w.st.SeatByToken(context.Background(), strings.TrimSuffix(strings.TrimPrefix(reply[players[0]], "pbem+"), "@example.test"))
	if err != nil {
		w.t.Fatal(err)
	}
	return reply, seat.GameID
}

func TestPluginGameByMail(t *testing.T) {
	t.Parallel()
	w := newPluginWorld(t)
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test", "dave@x.test"}

	// The lobby knows the game's rules.
	w.send("erin@x.test", "pbem@example.test", "rules highbid")
	if got := hbUnwrap(w.last("erin@x.test").Text); !strings.Contains(got, "High Bid: The Highest Lone Card, in short") ||
		!strings.Contains(got, "the highest card that nobody else played scores its value") {
		t.Fatalf("rules highbid:\n%s", w.last("erin@x.test").Text)
	}
	if got := visibleText(w.html["erin@x.test"][0]); !strings.Contains(hbUnwrap(got), "nobody else played scores its value") {
		t.Errorf("the HTML part of rules highbid:\n%s", got)
	}

	reply, id := w.startGame("highbid", players...)
	tb := w.loaded(id)
	if tb.Rules.Name() != "highbid" {
		t.Fatalf("the game is %s", tb.Rules.Name())
	}
	names := tb.Names
	// Two players take every mail (notify all), so that the checks below
	// see the game after each move; the others get the default's fewer.
	w.send(players[2], reply[players[2]], "notify all")
	w.send(players[3], reply[players[3]], "notify all")

	// help in the game's thread lists its command with its help.
	w.send(players[1], reply[players[1]], "help")
	help := w.last(players[1]).Text
	for _, want := range []string{"play N", "Put card N from your hand face down for this round.", "Example: play 4"} {
		if !strings.Contains(help, want) {
			t.Errorf("help in the thread lacks %q:\n%s", want, help)
		}
	}

	// Every mail so far, and every mail from now on, is checked against
	// the game as it was when the mail was written.
	seen := map[string]int{}
	var stats leakStats
	check := func() {
		t.Helper()
		tb := w.loaded(id)
		for seat, addr := range players {
			for i := seen[addr]; i < len(w.inbox[addr]); i++ {
				checkHighBidMail(t, tb.State.(*highbid.Game), names, seat, w.inbox[addr][i], w.html[addr][i], &stats)
			}
			seen[addr] = len(w.inbox[addr])
		}
	}
	check()

	rng := rand.New(rand.NewPCG(12, 21))
	var secrets []string // what must not be logged
	for steps := 0; ; steps++ {
		if steps > 200 {
			t.Fatal("the game does not end")
		}
		tb := w.loaded(id)
		if tb.State.Result().Finished {
			break
		}
		waiting := tb.State.Waiting()
		p := waiting[rng.IntN(len(waiting))]
		if rng.IntN(3) == 0 {
			if bad, words := refused(tb.State, tb.Rules.Specs(), tb.Names, p, rng); bad != "" {
				for _, s := range words {
					if len(s) >= 8 {
						secrets = append(secrets, s)
					}
				}
				w.send(players[p], reply[players[p]], bad)
				if got := w.last(players[p]).Text; !strings.Contains(got, "Not applied: "+bad) {
					t.Fatalf("the refusal of %q:\n%s", bad, got)
				}
				check()
			}
		}
		opts := tb.State.Options(p)
		cmds := opts[0].Commands
		w.send(players[p], reply[players[p]], cmds[rng.IntN(len(cmds))])
		check()
	}

	// The end mail names the winner, in both parts.
	final := w.loaded(id)
	if final.Row.Status != store.StatusFinished {
		t.Fatalf("status %s", final.Row.Status)
	}
	var winners []string
	for _, s := range final.State.Result().Winners {
		winners = append(winners, names[s])
	}
	for _, addr := range players {
		end := w.last(addr)
		endHTML := visibleText(w.html[addr][len(w.html[addr])-1])
		for _, win := range winners {
			if !strings.Contains(end.Headline, win) || !strings.Contains(end.Text, win) || !strings.Contains(endHTML, win) {
				t.Errorf("%s's last mail does not name the winner %s:\n%s\n%s\n%s", addr, win, end.Headline, end.Text, endHTML)
			}
		}
		for _, want := range []string{"game over", "Final scores"} {
			if !strings.Contains(end.Headline+end.Text, want) || (want == "Final scores" && !strings.Contains(endHTML, want)) {
				t.Errorf("%s's last mail lacks %q:\n%s\n%s", addr, want, end.Headline, end.Text)
			}
		}
	}
	t.Logf("checked %d table mails, %d face-down cards of others, %d reveals seen", stats.tables, stats.faceDown, stats.reveals)
	if stats.tables < 50 || stats.faceDown < 50 || stats.reveals < 20 || stats.options < 20 {
		t.Fatalf("too little checked (%+v): the checks would prove little", stats)
	}

	// Nothing pbem logs or keeps tells a player's cards.
	if len(secrets) < 3 {
		t.Fatalf("only %d refused commands were tried", len(secrets))
	}
	inbound, err := w.st.AllInbound(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var details strings.Builder
	for _, in := range inbound {
		details.WriteString(in.Detail + "\n")
	}
	for where, text := range map[string]string{"log": w.logs.String(), "inbound details": details.String()} {
		if !strings.Contains(text, "illegal command") {
			t.Errorf("the %s never mentions an illegal command: the check would prove nothing", where)
		}
		for _, s := range append(secrets, "face down in round", "Your hand", "play 1", "play 6") {
			if strings.Contains(text, s) {
				t.Errorf("the %s holds %q", where, s)
			}
		}
	}
	checkThreads(t, w.world, players)
	checkReplay(t, w.world, id)
}

type leakStats struct{ tables, faceDown, reveals, options int }

var playerLine = regexp.MustCompile(`^- ([a-z][a-z0-9_-]*)( \(you\))?: (.*)$`)

// checkHighBidMail checks one mail to seat against g, the game as it was
// when the mail was written: the reader's own cards are as they are;
// nobody else's hand or face-down card shows, in the text or the HTML
// part; each player's line says nothing but the public counts.
func checkHighBidMail(t *testing.T, g *highbid.Game, names []string, seat int, m received, htmlBody string, st *leakStats) {
	t.Helper()
	text := strings.ReplaceAll(m.Text, "\r\n", "\n")
	visible := visibleText(htmlBody)
	for _, part := range []struct{ name, s string }{{"text", text}, {"HTML", visible}} {
		for q, name := range names {
			if q == seat {
				continue
			}
			for c := 1; c <= highbid.Cards; c++ {
				hidden := g.S.Hands[q]&(1<<c) != 0 || g.S.Down[q] == c
				if !hidden {
					continue
				}
				if regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\W{0,3}` + fmt.Sprint(c) + `\b`).MatchString(part.s) {
					t.Fatalf("the %s part of a mail to %s shows %s's hidden %d:\n%s", part.name, names[seat], name, c, part.s)
				}
				if g.S.Down[q] == c && part.name == "text" && strings.Contains(text, "The table:") {
					st.faceDown++
				}
			}
		}
	}
	if !strings.Contains(text, "The table:") {
		return
	}
	st.tables++
	if !strings.Contains(visible, "The table:") {
		t.Fatalf("the HTML part of a mail to %s has no table:\n%s", names[seat], visible)
	}
	var hand []string
	for c := 1; c <= highbid.Cards; c++ {
		if g.S.Hands[seat]&(1<<c) != 0 {
			hand = append(hand, fmt.Sprint(c))
		}
	}
	wantText, wantHTML := "Your hand: "+strings.Join(hand, ", "), "Your hand:\t"+strings.Join(hand, " ")
	if len(hand) == 0 {
		wantText, wantHTML = "Your hand: none", "Your hand:\tnone"
	}
	if !strings.Contains(text, wantText+"\n") || !strings.Contains(visible, wantHTML+"\n") {
		t.Fatalf("a mail to %s does not show the own hand %v:\n%s\n%s", names[seat], hand, text, visible)
	}
	if d := g.S.Down[seat]; d != 0 && (!strings.Contains(text, fmt.Sprintf("Your card this round: %d, face down", d)) ||
		!strings.Contains(visible, fmt.Sprintf("Your card this round:\t%d yours, face down", d))) {
		t.Fatalf("a mail to %s does not show the own face-down %d:\n%s\n%s", names[seat], d, text, visible)
	}
	for _, l := range strings.Split(text, "\n") {
		if pl := playerLine.FindStringSubmatch(l); pl != nil {
			q := slices.Index(names, pl[1])
			if q < 0 {
				t.Fatalf("a player line names no player: %q", l)
			}
			n := hbBits(g.S.Hands[q])
			state := "not played yet"
			if g.S.Down[q] != 0 {
				state = "card face down"
			}
			want := fmt.Sprintf("%s, %s in hand, %s", hbPoints(g.S.Points[q]), hbPlural(n, "card", "cards"), state)
			if pl[3] != want {
				t.Fatalf("a mail to %s says of %s %q, want %q", names[seat], pl[1], pl[3], want)
			}
		}
	}
	if strings.Contains(text, "Cards turned up:") {
		st.reveals++
		// The reveal lines use the very form the leak check looks for.
		r := g.S.Reveals[0]
		if !strings.Contains(text, fmt.Sprintf("%s %d", names[0], r[0])) || !strings.Contains(visible, fmt.Sprintf("%s %d", names[0], r[0])) {
			t.Fatalf("a mail to %s does not show round 1's cards:\n%s\n%s", names[seat], text, visible)
		}
	}
	if opts := g.Options(seat); len(opts) > 0 && strings.Contains(m.Headline, "your turn") {
		st.options++
		for _, c := range opts[0].Commands {
			// "play 2" is offered on a line of its own or among its
			// kind, "play 1 · 2 · 3", the value a button in HTML.
			prefix, value, _ := strings.Cut(c, " ")
			line := regexp.MustCompile(`(?m)^\s*` + regexp.QuoteMeta(prefix) + `( \S+ ·)* ` + regexp.QuoteMeta(value) + `( ·|\s*$)`)
			if !line.MatchString(text) || !strings.Contains(visible, prefix) || !strings.Contains(visible, value) {
				t.Fatalf("a turn mail to %s does not offer %q:\n%s\n%s", names[seat], c, text, visible)
			}
		}
	}
}

func hbPoints(n int) string { return hbPlural(n, "point", "points") }

func hbPlural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

func hbBits(b uint8) int {
	n := 0
	for ; b != 0; b &= b - 1 {
		n++
	}
	return n
}

// unwrap undoes the line wrapping of a text part.
func hbUnwrap(s string) string { return strings.Join(strings.Fields(s), " ") }
