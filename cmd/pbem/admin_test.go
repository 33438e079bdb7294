package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
)

func TestAdminCommandLine(t *testing.T) {
	t.Setenv("PBEM_STORE_DATABASE", filepath.Join(t.TempDir(), "pbem.db"))
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"admin"}, 2, "admin needs a game and an act"},
		{[]string{"admin", "x", "pause"}, 2, `"x" is not a game number`},
		{[]string{"admin", "1", "dance"}, 1, `"dance" is not an admin act`},
		{[]string{"admin", "1", "extend", "bob", "soon"}, 1, "not a duration"},
		{[]string{"admin", "1", "move", "bob"}, 1, "move PLAYER COMMAND"},
		{[]string{"admin", "1", "pause"}, 1, "there is no game 1"},
		{[]string{"admin", "address", "a@x.test"}, 2, "admin address needs the old address and the new"},
		{[]string{"admin", "address", "a@x.test", "b@y.test"}, 1, "pbem knows no player at a@x.test"},
		{[]string{"admin", "address", "a@x.test", "not an address"}, 1, `"not an address" is not a mail address`},
		{[]string{"games"}, 0, "GAME"},
		{[]string{"games", "--limit", "0"}, 2, "--limit must be at least 1"},
	}
	for _, tt := range tests {
		var out, errOut bytes.Buffer
		code := run(context.Background(), &env{stdout: &out, stderr: &errOut}, tt.args)
		if code != tt.code || !strings.Contains(out.String()+errOut.String(), tt.want) {
			t.Errorf("%v: exit %d, output %q %q; want exit %d with %q", tt.args, code, out.String(), errOut.String(), tt.code, tt.want)
		}
	}
}

func TestLoadtestArguments(t *testing.T) {
	for _, args := range [][]string{
		{"loadtest", "--game", "chess"},
		{"loadtest", "--game", "felix", "--players", "6"},
		{"loadtest", "--games", "0"},
	} {
		var out, errOut bytes.Buffer
		if code := run(context.Background(), &env{stdout: &out, stderr: &errOut}, args); code != 2 {
			t.Errorf("%v: exit %d (%s), want 2", args, code, errOut.String())
		}
	}
}
