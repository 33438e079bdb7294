package daemon

import (
	"strings"
	"testing"

	"github.com/pbem/pbem/store"
)

// Help says which confirm setting is the default, as the store gives a
// new player (it said "on (the default)" after issue 25 made off the
// default).
func TestHelpConfirmDefault(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.send("alice@x.test", "pbem@example.test", "help")
	text := strings.Join(strings.Fields(w.last("alice@x.test").Text), " ")
	want, wrong := "Off (the default)", "On (the default)"
	if store.DefaultConfirm {
		want, wrong = wrong, want
	}
	if !strings.Contains(text, "confirm on|off "+want) || strings.Contains(text, wrong) {
		t.Errorf("help does not say confirm is %q by default:\n%s", want, text)
	}
}
