package demo

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/games"
	"github.com/pbem/pbem/engine/transcript"
	"github.com/pbem/pbem/internal/daemon"
	"github.com/pbem/pbem/store"
)

// This file holds the checks the integration and crash tests share: a
// finished game against a replay of its export, each mail a player
// received against what he may know, and each player's inbox against the
// outbox.

// checkReplay replays the exported transcript of g and compares it with
// what the store holds: the scores, the saved state (snapshot) and the
// whole event log. A command applied twice or lost would show in all
// three.
func checkReplay(t *testing.T, ctx context.Context, st *store.Store, g Game) {
	t.Helper()
	tr, err := transcript.Read(strings.NewReader(g.Transcript), games.Lookup)
	if err != nil {
		t.Fatalf("%s #%d: the export does not read: %v\n%s", g.Kind, g.ID, err, g.Transcript)
	}
	rg, log, err := tr.Replay()
	if err != nil {
		t.Fatalf("%s #%d: the export does not replay: %v\n%s", g.Kind, g.ID, err, g.Transcript)
	}
	if tr.Bots != nil {
		// Every bot line is the bot's move, computed again.
		if err := tr.CheckBots(); err != nil {
			t.Errorf("%s #%d: %v\n%s", g.Kind, g.ID, err, g.Transcript)
		}
	}
	res := rg.Result()
	if !res.Finished {
		t.Fatalf("%s #%d: the replayed game is not finished", g.Kind, g.ID)
	}
	for i, p := range g.Players {
		if g.Scores[p] != res.Scores[i] {
			t.Errorf("%s #%d: %s scored %d by mail, %d by replay", g.Kind, g.ID, p, g.Scores[p], res.Scores[i])
		}
	}
	row, err := st.Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if row.Status != store.StatusFinished {
		t.Errorf("%s #%d: stored status %s, want finished", g.Kind, g.ID, row.Status)
	}
	if row.SnapshotSeq != row.LastSeq || int64(len(tr.Moves)) != row.LastSeq {
		t.Errorf("%s #%d: snapshot at move %d, log at %d, transcript has %d moves", g.Kind, g.ID, row.SnapshotSeq, row.LastSeq, len(tr.Moves))
	}
	replayed, err := rg.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if !sameJSON(replayed, row.Snapshot) {
		t.Errorf("%s #%d: the stored state differs from the replayed one:\nstored   %s\nreplayed %s", g.Kind, g.ID, row.Snapshot, replayed)
	}
	events, err := st.Events(ctx, g.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	var stored, want []string
	for _, e := range events {
		if daemon.IsServiceEvent(e.Kind) {
			continue // the service's own words, not the game's
		}
		stored = append(stored, fmt.Sprintf("%d %s", e.To, e.Text))
	}
	for _, e := range log {
		want = append(want, fmt.Sprintf("%d %s", e.To, e.Text))
	}
	if !reflect.DeepEqual(stored, want) {
		t.Errorf("%s #%d: the stored event log (%d events) differs from the replay's (%d events)", g.Kind, g.ID, len(stored), len(want))
	}
}

func sameJSON(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return bytes.Equal(a, b)
	}
	return reflect.DeepEqual(x, y)
}

// reader is what the leak check knows about the one a mail was sent to.
type reader struct {
	seat  int
	name  string // his name in the game
	felix bool
}

var (
	moneyWord = regexp.MustCompile(`(?i)\bmoney\b`)
	ownMoney  = regexp.MustCompile(`^Money: \d+ (mice|mouse)( in hand, \d+ staked)?$`)
)

// leaks lists what a mail shows that its reader may not know: the text of
// another seat's private event (unless the same words are also in an
// event the reader may see), and, before the game is over, any mention of
// money not in the reader's own words ("Money: 15 mice"), or more than
// one hand, set-aside card, face-down cards or money line.
func leaks(m Mail, r reader, events []store.Event) []string {
	var out []string
	text := unwrap(m.Subject + "\n" + m.Text)
	var visible []string
	for _, e := range events {
		if (engine.Event{To: e.To}).VisibleTo(r.seat) {
			visible = append(visible, e.Text)
		}
	}
	own := func(s string) bool {
		for _, v := range visible {
			if strings.Contains(v, s) {
				return true
			}
		}
		return false
	}
	for _, e := range events {
		if e.To >= 0 && e.To != r.seat && strings.Contains(text, unwrap(e.Text)) && !own(e.Text) {
			out = append(out, fmt.Sprintf("private event of seat %d: %q", e.To, e.Text))
		}
	}
	if strings.Contains(m.Headline, "game over") {
		return out // everything but private events is public now
	}
	counts := map[string]int{}
	for _, l := range strings.Split(m.Text, "\n") {
		// A mail shows its reader's own hand, money and set-aside card
		// once each, in his own words ("Hand: ", "Money: 15 mice"), and
		// nobody else's.
		mine := true
		for _, prefix := range []string{"Hand: ", "Set aside at the start: ", "Your face-down cards: "} {
			if strings.HasPrefix(l, prefix) {
				counts[prefix]++
				if (r.felix && !mine) || counts[prefix] > 1 {
					out = append(out, "hidden cards: "+l)
				}
			}
		}
		if r.felix && moneyWord.MatchString(l) {
			counts["money"]++
			if !mine || !ownMoney.MatchString(l) || counts["money"] > 1 {
				out = append(out, "money: "+l)
			}
		}
	}
	return out
}

// unwrap undoes line wrapping so that event texts can be found.
func unwrap(s string) string { return strings.Join(strings.Fields(s), " ") }

// checkLeaks runs leaks over every mail each player of g received.
func checkLeaks(t *testing.T, ctx context.Context, st *store.Store, g Game) {
	t.Helper()
	events, err := st.Events(ctx, g.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	private := 0
	for _, e := range events {
		if e.To >= 0 {
			private++
		}
	}
	if private == 0 {
		t.Fatalf("%s #%d has no private events: the leak check would prove nothing", g.Kind, g.ID)
	}
	seats, err := st.Seats(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range seats {
		if s.Bot != "" {
			if n := len(g.Mails[s.Address]); n > 0 {
				t.Errorf("%s #%d: the bot %s received %d mails", g.Kind, g.ID, s.Name, n)
			}
			continue
		}
		r := reader{seat: s.Seat, name: s.Name, felix: g.Kind == "felix"}
		mails := g.Mails[s.Address]
		if len(mails) == 0 {
			t.Errorf("%s received no mail", s.Address)
		}
		for _, m := range mails {
			for _, l := range leaks(m, r, events) {
				t.Errorf("%s #%d: the mail %q to %s leaks %s", g.Kind, g.ID, m.Subject, s.Address, l)
			}
		}
	}
}

// inboxReport compares the Message-IDs in a player's inbox with the
// outbox rows addressed to him.
type inboxReport struct {
	mails      int      // mails in the inbox
	duplicates int      // mails whose Message-ID came before
	unknown    []string // Message-IDs the outbox never sent him
	missing    []string // outbox rows marked sent that are not in the inbox
}

func compareInbox(mails []Mail, rows []store.Outgoing, player string) inboxReport {
	rep := inboxReport{mails: len(mails)}
	mine := map[string]store.OutState{}
	for _, o := range rows {
		if o.To == store.NormalizeAddress(player) {
			mine[o.MessageID] = o.State
		}
	}
	seen := map[string]bool{}
	for _, m := range mails {
		if seen[m.MessageID] {
			rep.duplicates++
			continue
		}
		seen[m.MessageID] = true
		if _, ok := mine[m.MessageID]; !ok {
			rep.unknown = append(rep.unknown, m.MessageID)
		}
	}
	for id, state := range mine {
		if state == store.OutSent && !seen[id] {
			rep.missing = append(rep.missing, id)
		}
	}
	sort.Strings(rep.missing)
	return rep
}

func TestLeakCheckCatches(t *testing.T) {
	events := []store.Event{
		{To: store.Public, Text: "alice bids 3."},
		{To: 0, Text: "You take the rabbit."},
		{To: 1, Text: "The card set aside from your set is your large dog: nobody else knows it."},
		{To: 0, Text: "The card set aside from your set is your rabbit: nobody else knows it."},
	}
	clean := Mail{Subject: "Felix #1 with alice, bob, carol", Headline: "Felix #1: your turn", Text: "- alice bids 3.\n- You take the\n  rabbit.\n\nHand: -8, 3\nMoney: 15 mice\nSet aside at the start: rabbit (only you know it)\n"}
	alice := reader{seat: 0, name: "alice", felix: true}
	if l := leaks(clean, alice, events); len(l) != 0 {
		t.Fatalf("a clean mail is reported: %v", l)
	}
	for _, tc := range []struct{ name, text string }{
		{"another's private event", clean.Text + "- The card set aside from your set is your large\n  dog: nobody else knows it.\n"},
		{"another's money", clean.Text + "\nbob: money 12 mice\n"},
		{"another's money in the players", "- bob: 7 cards, money 12\n" + clean.Text},
		{"two money lines", clean.Text + "Money: 9 mice\n"},
		{"two hands", clean.Text + "Hand: 5, 8\n"},
	} {
		m := clean
		m.Text = tc.text
		if l := leaks(m, alice, events); len(l) == 0 {
			t.Errorf("%s: not reported", tc.name)
		}
	}
	over := clean
	over.Headline = "Felix #1: game over — alice wins"
	over.Text += "\nbob: money 12 mice\n"
	if l := leaks(over, alice, events); len(l) != 0 {
		t.Errorf("money in the last mail is public, but reported: %v", l)
	}
	over.Text += "The card set aside from your set is your large dog: nobody else knows it.\n"
	if l := leaks(over, alice, events); len(l) != 1 {
		t.Errorf("a private event in the last mail: got %v", l)
	}
}

func TestCompareInbox(t *testing.T) {
	rows := []store.Outgoing{
		{MessageID: "a", To: "alice@x", State: store.OutSent},
		{MessageID: "b", To: "alice@x", State: store.OutSent},
		{MessageID: "c", To: "bob@x", State: store.OutSent},
		{MessageID: "d", To: "alice@x", State: store.OutPending},
	}
	rep := compareInbox([]Mail{{MessageID: "a"}, {MessageID: "a"}, {MessageID: "c"}}, rows, "Alice@x")
	if rep.duplicates != 1 || !reflect.DeepEqual(rep.unknown, []string{"c"}) || !reflect.DeepEqual(rep.missing, []string{"b"}) {
		t.Errorf("compareInbox = %+v", rep)
	}
}
