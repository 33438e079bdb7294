package parser

import (
	"testing"
)

// TestGermanCommandReadsBack: every lobby command written in German
// (GermanCommand) reads back as the English command it was written from.
func TestGermanCommandReadsBack(t *testing.T) {
	g := Grammar{Games: []string{"felix", "gracias"}}
	for _, en := range []string{
		"help", "rules", "rules felix", "games", "join", "decline", "never", "status", "history",
		"rematch", "standings", "standings detail", "back", "resign", "undo", "agree", "refuse", "poke",
		"notify normal", "notify all", "notify turns", "notify digest", "notify off", "notify digest 19", "notify off here",
		"confirm on", "confirm off", "timezone Europe/Berlin", "quiet 23-7", "quiet off", "vacation 5d",
		"vacation until 2026-12-24", "language german", "language english", "spectators on", "spectators off",
		"link new", "name robert", "address bob@example.org", "address add bob@example.org",
		"new felix with bob@example.org carol@example.org", "new felix with bob@example.org carol@example.org and a bot",
		"new felix with bob@example.org carol@example.org and a bot deadline 48h weekends off",
		"new felix with bob@example.org and 2 bots deadline 48h",
	} {
		de := GermanCommand(en)
		want, prob := Read(en, g)
		if prob != nil || len(want) != 1 {
			t.Fatalf("%q does not read: %v", en, prob)
		}
		got, prob := Read(de, g)
		if prob != nil || len(got) != 1 {
			t.Errorf("%q (German of %q) does not read: %v", de, en, prob)
			continue
		}
		if got[0].Text != want[0].Text || got[0].Kind != want[0].Kind {
			t.Errorf("%q reads as %q, %q as %q", de, got[0].Text, en, want[0].Text)
		}
		if de == en && len(GermanWordsOf(want[0].Kind)) > 0 {
			t.Errorf("%q has no German form", en)
		}
		t.Logf("%s -> %s", en, de)
	}
}

// TestGermanWordsOf: the first German word of each lobby command is one
// Read takes as it, written as a mail writes it.
func TestGermanWordsOf(t *testing.T) {
	for _, lc := range LobbyCommands() {
		for _, w := range GermanWordsOf(lc.Kind) {
			cmds, prob := Read(w, Grammar{})
			if prob != nil && len(cmds) == 0 {
				// a command that needs an argument reads with one
				continue
			}
			if len(cmds) != 1 || cmds[0].Kind != lc.Kind {
				t.Errorf("%s: %q reads as %v", lc.Name, w, cmds)
			}
		}
	}
	if got := GermanWordsOf(KindHelp); len(got) != 1 || got[0] != "Hilfe" {
		t.Errorf("help: %q", got)
	}
	if got := GermanWordsOf(KindBack); len(got) != 1 || got[0] != "zurück" {
		t.Errorf("back: %q", got)
	}
	if got := GermanWordsOf(KindName); len(got) != 0 {
		t.Errorf("name: %q", got)
	}
}

// TestEndsGermanMail: the German footers' last lines end pbem's mail, as
// the English ones do; a player's line that names the same commands
// does not.
func TestEndsGermanMail(t *testing.T) {
	for line, want := range map[string]bool{
		"Jederzeit: Hilfe · Stand · Verlauf · Regeln · Benachrichtigung Zusammenfassung": true,
		"Jederzeit: Hilfe Stand Verlauf Regeln Benachrichtigung Zusammenfassung":         true,
		"pbem: Schicke `Hilfe` für die Befehle, `Partien` für deine Partien.":            true,
		"pbem: Schicke \"Hilfe\" für die Befehle, \"Partien\" für deine Partien.":        true,
		"Hilfe":                         false,
		"Jederzeit: Hilfe":              false,
		"Schicke Hilfe für die Befehle": false,
		": Schicke Hilfe für die Befehle, Partien für deine Partien.": false,
	} {
		if got := EndsOwnMail(line); got != want {
			t.Errorf("EndsOwnMail(%q) = %v, want %v", line, got, want)
		}
	}
}
