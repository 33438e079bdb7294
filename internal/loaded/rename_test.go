package loaded

import (
	"reflect"
	"testing"

	"github.com/pbem/pbem/engine"
)

// TestRenameInSetup: a rename reaches the seat order, the start player
// and the set-up lines' arguments that are the name or name=VALUE, and
// nothing that merely begins with the name; the set-up renamed from is
// left as it was.
func TestRenameInSetup(t *testing.T) {
	t.Parallel()
	su := engine.Setup{Players: []string{"al", "bob"}, Start: "al", Lines: []engine.SetupLine{
		{Key: "removed", Args: []string{"al=-8", "bob=rabbit", "alf=3"}},
		{Key: "dealer", Args: []string{"al"}},
	}}
	got := RenameInSetup(su, "al", "alice")
	want := engine.Setup{Players: []string{"alice", "bob"}, Start: "alice", Lines: []engine.SetupLine{
		{Key: "removed", Args: []string{"alice=-8", "bob=rabbit", "alf=3"}},
		{Key: "dealer", Args: []string{"alice"}},
	}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("renamed:\n%+v\nwant\n%+v", got, want)
	}
	if su.Players[0] != "al" || su.Lines[0].Args[0] != "al=-8" {
		t.Errorf("the set-up renamed from changed: %+v", su)
	}
}
