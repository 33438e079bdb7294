package daemon

import (
	"strings"
	"testing"

	"github.com/pbem/pbem/templates"
)

// TestProblemInPlayersLanguage: why a line was not read is told in the
// sender's language, at pbem's address and in a game's thread, and
// stays English for an English player.
func TestProblemInPlayersLanguage(t *testing.T) {
	w := newWorld(t)
	de := templates.For("de")
	w.send("anna@x.test", "pbem@example.test", "Urlaub bis morgen", "Content-Language: de-DE")
	got := flat(w.last("anna@x.test").Text)
	want := de.CouldNotRead("Urlaub bis morgen", `"morgen" ist kein Datum: schreibe es als JAHR-MONAT-TAG, etwa „Urlaub bis 2026-12-24“`)
	if !strings.Contains(got, flat(want)) {
		t.Errorf("anna's answer lacks %q:\n%s", want, got)
	}
	w.send("ben@x.test", "pbem@example.test", "vacation until tomorrow")
	got = flat(w.last("ben@x.test").Text)
	if want := `"tomorrow" is not a date: write it as YEAR-MONTH-DAY, such as vacation until 2026-12-24`; !strings.Contains(got, want) {
		t.Errorf("ben's answer lacks %q:\n%s", want, got)
	}

	reply, _ := w.startGame("felix", "alice@x.test", "bob@x.test", "carol@x.test")
	w.send("alice@x.test", reply["alice@x.test"], "sprache deutsch")
	w.send("alice@x.test", reply["alice@x.test"], "Stand\nbiete viele")
	got = flat(w.last("alice@x.test").Text)
	if want := `N muss eine ganze Zahl sein, nicht "viele"`; !strings.Contains(got, want) {
		t.Errorf("alice's answer in the game lacks %q:\n%s", want, got)
	}
}
