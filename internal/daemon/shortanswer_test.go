package daemon

import (
	"strings"
	"testing"
)

// TestShortAnswer: with confirm on, the answer to a move that asks
// nothing more of its player is a few lines without the table: what was
// applied, what he may see of what followed, and whom the game waits for,
// which is true. A move that makes it his turn again is answered with
// that turn's mail.
func TestShortAnswer(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test", "dave@x.test"}
	reply, id := w.startGame("felix", players...)
	w.confirmOn(players...)
	for placed := 0; placed < len(players); placed++ {
		tb := w.loaded(id)
		p := tb.State.Waiting()[0]
		cmd := tb.State.Options(p)[0].Commands[0]
		before := len(w.inbox[players[p]])
		w.send(players[p], reply[players[p]], cmd)
		got := w.inbox[players[p]][before:]
		if len(got) != 1 {
			t.Fatalf("%s got %d mails for his move, want one answer", players[p], len(got))
		}
		text := oneLine(got[0].Text)
		hidden := w.hidden(id, p) // what p's mails must never show
		after := w.loaded(id)
		if waitsOn(after, p) {
			// The auction came to him: his turn's mail.
			if !strings.Contains(text, "Applied: "+cmd+".") || !strings.Contains(text, "What you can do now") {
				t.Errorf("%s's turn came, and the answer is not his turn's mail:\n%s", players[p], got[0].Text)
			}
			continue
		}
		var waiting []string
		for _, q := range after.State.Waiting() {
			waiting = append(waiting, after.Names[q])
		}
		want := "Next: the game waits for " + joinAnd(waiting) + "."
		if !strings.Contains(text, "above this line --- Applied: "+cmd+".") || !strings.Contains(text, want) {
			t.Errorf("%s's answer does not say what was applied and %q:\n%s", players[p], want, got[0].Text)
		}
		if strings.Contains(text, "The table") || strings.Contains(text, "What you can do now") || strings.Count(got[0].Text, "\n") > 20 {
			t.Errorf("%s's answer is not short:\n%s", players[p], got[0].Text)
		}
		for _, h := range hidden {
			if strings.Contains(text, h) {
				t.Errorf("%s's short answer shows %q, which he may not see:\n%s", players[p], h, got[0].Text)
			}
		}
	}
}

// TestBadCommandShortAnswer: the answer to a command that cannot be read
// quotes the line, says what was wrong and lists what the player may do
// (in a game: his options now; from the bare address: the commands, in
// a line), in at most 15 lines, never with the whole help; and what he
// may do now stays out of the log.
func TestBadCommandShortAnswer(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	const maxLines = 15 // before the signature, which every notice has
	lines := func(text string) int {
		text = strings.ReplaceAll(text, "\r\n", "\n")
		body, _, _ := strings.Cut(text, "\n-- \n")
		return strings.Count(body, "\n")
	}
	w.send("alice@x.test", "pbem@example.test", "new felix with bob@y.test carol@z.test deadline 20 minutes")
	got := w.last("alice@x.test").Text
	for _, want := range []string{`"new felix with bob@y.test carol@z.test deadline 20 minutes"`, "between 1 hour and 14 days, not 20 minutes"} {
		if !strings.Contains(oneLine(got), want) {
			t.Errorf("the answer to a bad deadline lacks %q:\n%s", want, got)
		}
	}
	if n := lines(got); n > maxLines || strings.Contains(got, "Example:") {
		t.Errorf("the answer to a bad deadline is %d lines, with the help:\n%s", n, got)
	}
	w.send("alice@x.test", "pbem@example.test", "hlep me")
	got = w.last("alice@x.test").Text
	if n := lines(got); n > maxLines || !strings.Contains(oneLine(got), "new GAME with ADDRESS") || strings.Contains(got, "Example:") {
		t.Errorf("the answer to an unknown command is %d lines, or lacks the commands in a line:\n%s", n, got)
	}

	// A setting done, then a line not understood: what was done, where
	// the reading stopped, and no help.
	w.send("alice@x.test", "pbem@example.test", "confirm on\ndeadline 20 minutes")
	got = w.last("alice@x.test").Text
	if n := lines(got); n > maxLines || !strings.Contains(oneLine(got), `"deadline 20 minutes"`) || strings.Contains(got, "Example:") || strings.Contains(got, "Commands") {
		t.Errorf("the answer to a setting and a bad line is %d lines, or has the help:\n%s", n, got)
	}

	players := []string{"alice@x.test", "bob@y.test", "carol@z.test"}
	reply, id := w.startGame("felix", players...)
	p := w.loaded(id).State.Waiting()[0]
	opts := w.loaded(id).State.Options(p)
	w.send(players[p], reply[players[p]], "play elefant")
	got = w.last(players[p]).Text
	text := oneLine(got)
	for _, want := range []string{`"play elefant"`, `"elefant" is not a card you can choose now`} {
		if !strings.Contains(text, want) {
			t.Errorf("the answer to play elefant lacks %q:\n%s", want, got)
		}
	}
	for _, c := range opts[0].Commands {
		if !strings.Contains(text, strings.TrimPrefix(c, "play ")) {
			t.Errorf("the answer to play elefant does not list %q:\n%s", c, got)
		}
	}
	if n := lines(got); n > maxLines || strings.Contains(text, "is one of") {
		t.Errorf("the answer to play elefant is %d lines, or lists every card:\n%s", n, got)
	}
	if logs := w.logs.String(); strings.Contains(logs, "elefant") || strings.Contains(logs, "choose now") {
		t.Errorf("the log holds the player's words or what he may choose:\n%s", logs)
	}
}
