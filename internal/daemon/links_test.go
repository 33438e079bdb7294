package daemon

import (
	"html"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// tap is what a mail program writes when its player taps a one-tap link.
type tap struct{ to, subject, body string }

var hrefRe = regexp.MustCompile(`<a [^>]*href="(mailto:[^"]*)"[^>]*>([^<]*)</a>`)

// taps decodes the one-tap links of a mail's HTML part, by the command
// each writes.
func taps(t *testing.T, m received) map[string]tap {
	t.Helper()
	out := map[string]tap{}
	for _, sub := range hrefRe.FindAllStringSubmatch(m.HTML, -1) {
		u, err := url.Parse(html.UnescapeString(sub[1]))
		if err != nil {
			t.Fatalf("link %q: %v", sub[1], err)
		}
		to, err := url.PathUnescape(u.Opaque)
		if err != nil {
			t.Fatal(err)
		}
		q, err := url.ParseQuery(u.RawQuery)
		if err != nil {
			t.Fatal(err)
		}
		// By the command it writes: a button may show only the value
		// that sets it apart ("3" for "play 3").
		cmd, _, _ := strings.Cut(q.Get("body"), "\r\n")
		out[cmd] = tap{to: to, subject: q.Get("subject"), body: q.Get("body")}
	}
	if len(out) == 0 {
		t.Fatalf("the mail %q has no one-tap links", m.Subject)
	}
	return out
}

// send mails what the tap wrote, as a fresh mail: no In-Reply-To, no
// References, as most mail programs send a mailto: link's mail.
func (w *world) tap(from string, tp tap) {
	w.t.Helper()
	w.send(from, tp.to, strings.ReplaceAll(tp.body, "\r\n", "\n"), "Subject: "+tp.subject)
}

// A tap on a link of an old mail, sent after the table changed, is
// refused as stale exactly as a reply to that mail is; a tap on the
// current mail is applied. Every game mail with options carries links to
// the seat's own address. A reference to another seat's mail says
// nothing about this seat: the mail counts as fresh.
func TestTapOnOldMailIsStale(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test", "dave@x.test"}
	reply, id := w.startGame("felix", players...)
	// Everyone places, by tapping a link of the start mail.
	starts := make([]map[string]tap, len(players))
	for p := range players {
		links := taps(t, w.last(players[p]))
		starts[p] = links
		tp, ok := links[w.legal(id, p)]
		if !ok {
			t.Fatalf("no link for %q among %q", w.legal(id, p), slices.Collect(mapKeys(links)))
		}
		if tp.to != reply[players[p]] {
			t.Fatalf("the link writes to %q, not the seat's address %q", tp.to, reply[players[p]])
		}
		n := w.moves(id)
		w.tap(players[p], tp)
		if w.moves(id) != n+1 {
			t.Fatalf("a tap on the current mail was not applied:\n%s", w.last(players[p]).Text)
		}
	}

	// The auction: the first bidder's mail now; he bids, the others
	// answer until he must decide again.
	p := w.loaded(id).State.Waiting()[0]
	old := w.last(players[p])
	oldTaps := taps(t, old)
	w.send(players[p], reply[players[p]], w.legal(id, p))
	for steps := 0; ; steps++ {
		if steps > 100 {
			t.Fatal("the bidder never had to decide again")
		}
		if slices.Contains(w.loaded(id).State.Waiting(), p) {
			break
		}
		q := w.loaded(id).State.Waiting()[0]
		w.send(players[q], reply[players[q]], w.legal(id, q))
	}
	// pass is offered now as it was then: only the mail it came from
	// tells a stale tap from a current one.
	if _, ok := oldTaps["pass"]; !ok {
		t.Fatalf("the old mail offers no pass: %q", slices.Collect(mapKeys(oldTaps)))
	}
	n := w.moves(id)
	w.tap(players[p], oldTaps["pass"])
	if w.moves(id) != n {
		t.Fatalf("a tap on an older decision's mail was applied")
	}
	answer := w.last(players[p])
	text := strings.Join(strings.Fields(answer.Text), " ")
	if !strings.Contains(text, "Not applied: pass: your mail answers an older mail of this game") {
		t.Errorf("the stale tap's answer does not say why:\n%s", answer.Text)
	}

	// The answer's own link is current: applied.
	w.tap(players[p], taps(t, answer)["pass"])
	if w.moves(id) != n+1 {
		t.Fatalf("a tap on the current mail was not applied:\n%s", w.last(players[p]).Text)
	}

	// A reference to another seat's old mail, in a mail to one's own
	// address, says nothing of what this seat saw: the mail is fresh,
	// and applied, though that mail is as old as they come.
	for steps := 0; !slices.Contains(w.loaded(id).State.Waiting(), p); steps++ {
		if steps > 100 {
			t.Fatal("the bidder never had to decide again")
		}
		q := w.loaded(id).State.Waiting()[0]
		w.send(players[q], reply[players[q]], w.legal(id, q))
	}
	q := (p + 1) % len(players)
	var foreignRef string
	for _, tp := range starts[q] {
		_, foreignRef, _ = strings.Cut(tp.body, "\r\n\r\n")
	}
	if foreignRef == "" {
		t.Fatalf("the start mail's link carries no reference: %q", starts[q])
	}
	n = w.moves(id)
	cmd := w.legal(id, p)
	w.tap(players[p], tap{to: reply[players[p]], subject: "Re: Felix", body: cmd + "\r\n\r\n" + foreignRef})
	if w.moves(id) != n+1 {
		t.Fatalf("a mail naming another seat's mail was not taken as fresh:\n%s", w.last(players[p]).Text)
	}
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}
