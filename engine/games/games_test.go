package games

import (
	"strings"
	"testing"

	"github.com/pbem/pbem/engine"
)

// TestUndoIsNoGameCommand: "NAME: undo" in a transcript takes a command
// back (engine.UndoCommand), so no game may have a command that reads as
// undo; and every game says which of its events reveal and decide, which
// is what lets its commands be taken back fairly.
func TestUndoIsNoGameCommand(t *testing.T) {
	t.Parallel()
	for name, r := range All() {
		for _, sp := range r.Specs() {
			if sp.Name == engine.UndoCommand || (len(sp.Words) > 0 && sp.Words[0].Kind == engine.Literal && strings.EqualFold(sp.Words[0].Text, engine.UndoCommand)) {
				t.Errorf("%s has a command %q that reads as undo", name, sp.Name)
			}
		}
		if _, err := engine.ParseCommand(r.Specs(), []string{"alice", "bob", "carol"}, engine.UndoCommand); err == nil {
			t.Errorf("%s reads %q as one of its commands", name, engine.UndoCommand)
		}
		if _, ok := r.(engine.Reveals); !ok {
			t.Errorf("%s does not implement engine.Reveals", name)
		}
		if _, ok := r.(engine.Results); !ok {
			t.Errorf("%s does not implement engine.Results", name)
		}
	}
}
