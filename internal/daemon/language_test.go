package daemon

import (
	"context"
	"strings"
	"testing"

	"github.com/pbem/pbem/templates"
)

// lang is the language the store keeps for addr.
func (w *world) lang(addr string) string {
	w.t.Helper()
	p, err := w.st.Player(context.Background(), addr)
	if err != nil {
		w.t.Fatal(err)
	}
	return p.Language
}

// TestFirstMailSetsLanguage: a player's first mail decides his
// language (German when it shows German, English otherwise); the first
// German answer says why and how to switch, once; an invitation to an
// address pbem has not met is in the inviter's language, and the
// invitee's own first mail decides his.
func TestFirstMailSetsLanguage(t *testing.T) {
	w := newWorld(t)
	de := templates.For("de")
	w.send("anna@x.test", "pbem@example.test", "neu felix mit bob@x.test carol@x.test", "Content-Language: de-DE")
	if got := w.lang("anna@x.test"); got != "de" {
		t.Fatalf("anna's language %q, want de", got)
	}
	created := w.last("anna@x.test")
	if !strings.Contains(flat(created.Text), flat(de.LanguageChosenForYou())) {
		t.Errorf("the first German answer does not say how to switch:\n%s", created.Text)
	}
	time := de.TimePerDecision(de.Duration(w.svc.cfg.TurnTime), w.svc.standIn().in(de).movesForYou())
	for _, addr := range []string{"anna@x.test", "bob@x.test", "carol@x.test"} {
		if got := w.last(addr).Text; !strings.Contains(flat(got), flat(time)) {
			t.Errorf("%s's first mail lacks the German time sentence %q:\n%s", addr, time, got)
		}
	}
	if got := w.lang("bob@x.test"); got != "" {
		t.Errorf("bob, only invited, has language %q", got)
	}
	inv := w.last("bob@x.test")
	w.send("bob@x.test", inv.ReplyTo, "join")
	if got := w.lang("bob@x.test"); got != "en" {
		t.Errorf("bob's English join made his language %q", got)
	}
	inv = w.last("carol@x.test")
	w.send("carol@x.test", inv.ReplyTo, "beitreten")
	if got := w.lang("carol@x.test"); got != "de" {
		t.Errorf("carol's German join made her language %q", got)
	}
	// The start mails: each in his own language.
	en := templates.Say
	for addr, say := range map[string]templates.Words{"anna@x.test": de, "bob@x.test": en, "carol@x.test": de} {
		text := flat(w.last(addr).Text)
		want := say.TimePerDecision(say.Duration(w.svc.cfg.TurnTime), w.svc.standIn().in(say).movesForYou())
		if !strings.Contains(text, flat(want)) {
			t.Errorf("%s's start mail lacks %q:\n%s", addr, want, text)
		}
	}
	// The note comes once: anna's next answer does not repeat it.
	w.send("anna@x.test", created.ReplyTo, "Stand")
	if strings.Contains(flat(w.last("anna@x.test").Text), flat(de.LanguageChosenForYou())) {
		t.Error("the language note came twice")
	}
}

// TestLanguageCommand: `language` and `sprache` switch the words of
// every later answer, and answer in the language chosen.
func TestLanguageCommand(t *testing.T) {
	w := newWorld(t)
	reply, _ := w.startGame("felix", "alice@x.test", "bob@x.test", "carol@x.test")
	if got := w.lang("alice@x.test"); got != "en" {
		t.Fatalf("alice's language %q", got)
	}
	w.send("alice@x.test", reply["alice@x.test"], "sprache deutsch")
	if got := w.lang("alice@x.test"); got != "de" {
		t.Fatalf("sprache deutsch made %q", got)
	}
	if text := flat(w.last("alice@x.test").Text); !strings.Contains(text, flat(templates.For("de").LanguageSet(true))) {
		t.Errorf("the answer is not German:\n%s", text)
	}
	w.send("alice@x.test", reply["alice@x.test"], "quiet off")
	if text := flat(w.last("alice@x.test").Text); !strings.Contains(text, flat(templates.For("de").QuietOff())) {
		t.Errorf("a later answer is not German:\n%s", text)
	}
	w.send("alice@x.test", reply["alice@x.test"], "language english")
	if got := w.lang("alice@x.test"); got != "en" {
		t.Fatalf("language english made %q", got)
	}
	if text := flat(w.last("alice@x.test").Text); !strings.Contains(text, flat(templates.Say.LanguageSet(false))) {
		t.Errorf("the answer is not English:\n%s", text)
	}
}

// flat is s with its line breaks and runs of spaces made one space: a
// mail wraps its lines.
func flat(s string) string { return strings.Join(strings.Fields(s), " ") }
