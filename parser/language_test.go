package parser

import (
	"strings"
	"testing"
)

// TestLanguageOf: the signs of German in a first mail, and mails that
// show none, English ones among them.
func TestLanguageOf(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		m    Message
		want string
	}{
		{"content-language", Message{ContentLanguage: "de-DE", Text: "join"}, LangGerman},
		{"content-language list", Message{ContentLanguage: "de-AT, en", Text: "join"}, LangGerman},
		{"content-language english", Message{ContentLanguage: "en-US", Text: "join"}, ""},
		{"content-language dutch", Message{ContentLanguage: "nl", Text: "join"}, ""},
		{"mutt's attribution", Message{Body: "join\n\nAm Di, 01. Dez 2026 schrieb pbem:\n> Felix #1", Text: "join"}, LangGerman},
		{"thunderbird's", Message{Body: "join\n\npbem schrieb am 01.12.26 um 19:36:\n> Felix #1", Text: "join"}, LangGerman},
		{"outlook's separator", Message{Body: "pass\n-------- Ursprüngliche Nachricht --------\nVon: pbem", Text: "pass"}, LangGerman},
		{"an iphone", Message{Body: "pass\n\nVon meinem iPhone gesendet", Text: "pass"}, LangGerman},
		{"english attribution", Message{Body: "join\n\nOn Tue, 1 Dec 2026, pbem wrote:\n> Felix", Text: "join"}, ""},
		{"quoted german is the other's", Message{Body: "join\n> Am 1.12. schrieb Hans:\n>> hallo", Text: "join"}, ""},
		{"a german command", Message{Text: "beitreten"}, LangGerman},
		{"a german command with umlaut", Message{Text: "Zurück"}, LangGerman},
		{"spelt out", Message{Text: "zurueck"}, LangGerman},
		{"a greeting", Message{Text: "Hallo zusammen,\njoin"}, LangGerman},
		{"thanks", Message{Text: "join\nDanke!"}, LangGerman},
		{"prose", Message{Text: "ich bin dabei, das wird gut"}, LangGerman},
		{"english prose", Message{Text: "I am in, and the game will be good"}, ""},
		{"english with die", Message{Text: "join. I will die laughing at the game"}, ""},
		{"an english command", Message{Text: "join"}, ""},
		{"nothing", Message{}, ""},
		{"details is english too", Message{Text: "details below"}, ""},
		// Addresses are no prose: a random suffix once held "vg"
		// (CI, stop 58), and an address may hold "die" or "lg".
		{"a sign-off inside an address", Message{Text: "new gracias with yuri-yn74vg@example.test zoe-yn74vg@example.test"}, ""},
		{"everyday words inside an address", Message{Text: "new felix with ich-und-du@example.test die.mit@example.test"}, ""},
		{"a link", Message{Text: "join https://example.test/lg/vg/danke"}, ""},
		{"a sign-off inside a token", Message{Text: "join ab12lg"}, ""},
		{"a sign-off with its comma", Message{Text: "join\nLG,\nAnna"}, LangGerman},
		{"a greeting before an address", Message{Text: "Hallo! new gracias with bob@example.test"}, LangGerman},
	}
	for _, tt := range tests {
		if got := LanguageOf(tt.m); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestLanguageOfBounded: a long body is read only to its first lines.
func TestLanguageOfBounded(t *testing.T) {
	t.Parallel()
	body := strings.Repeat("pass\n", maxLanguageLines) + "Am 1.12. schrieb pbem:\n"
	if got := LanguageOf(Message{Body: body, Text: "pass"}); got != "" {
		t.Errorf("a header below %d lines was read: %q", maxLanguageLines, got)
	}
}

// TestLanguageChoices: each choice of `language` names a tag.
func TestLanguageChoices(t *testing.T) {
	t.Parallel()
	lc, _ := lobbyByKind(KindLanguage)
	for _, c := range lc.choices {
		if LangOfChoice(c) == "" {
			t.Errorf("choice %q has no tag", c)
		}
	}
	if LangOfChoice("klingon") != "" {
		t.Error("an unknown choice has a tag")
	}
}
