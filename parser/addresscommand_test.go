package parser

import (
	"slices"
	"testing"
)

// TestAddressCommand: `address NEW` and `address add OTHER` read one
// bare address, lower-case; anything else is refused with the usage.
func TestAddressCommand(t *testing.T) {
	for _, c := range []struct {
		text     string
		addr     string
		add      bool
		wantText string
	}{
		{"address new@y.test", "new@y.test", false, "address new@y.test"},
		{"address New@Y.Test.", "new@y.test", false, "address new@y.test"},
		{"address to <new@y.test>", "new@y.test", false, "address new@y.test"},
		{"address add work@z.test", "work@z.test", true, "address add work@z.test"},
		{"Address add to work@z.test", "work@z.test", true, "address add work@z.test"},
	} {
		cmds, prob := Read(c.text, Grammar{Games: []string{"felix"}})
		if prob != nil || len(cmds) != 1 {
			t.Errorf("%q: %v, %v", c.text, cmds, prob)
			continue
		}
		got := cmds[0]
		if got.Kind != KindAddress || !slices.Equal(got.Addresses, []string{c.addr}) || got.AddAddress != c.add || got.Text != c.wantText {
			t.Errorf("%q read as %+v", c.text, got)
		}
	}
	for _, text := range []string{
		"address",
		"address add",
		"address new@y.test other@y.test",
		"address nobody",
		"address add nobody",
		"address @y.test",
		"addr new@y.test", // too grave to take from a prefix
	} {
		cmds, prob := Read(text, Grammar{Games: []string{"felix"}})
		if prob == nil && len(cmds) == 1 && cmds[0].Kind == KindAddress {
			t.Errorf("%q was read as %+v", text, cmds[0])
		}
	}
}
