package main

import (
	"strings"
	"testing"
)

func TestArenaCommand(t *testing.T) {
	code, out, errs := runPbem(t, "", "arena", "--game", "gracias", "--players", "3", "--games", "4", "--seat", "easy", "--others", "random", "--playouts", "5")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"Gracias, 3 players: easy at one seat against random", "games        4", "win rate", "95% CI", "equal strength 33.3%", "bot moves", "wall time"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	for _, bad := range [][]string{
		{"arena", "--seat", "hard"},
		{"arena", "--others", "nobody"},
		{"arena", "--game", "chess"},
		{"arena", "extra"},
	} {
		if code, _, _ := runPbem(t, "", bad...); code != 2 {
			t.Errorf("%v: exit %d, want 2", bad, code)
		}
	}
	if code, _, errs := runPbem(t, "", "arena", "--players", "9", "--games", "1"); code != 1 || !strings.Contains(errs, "3 to 5 players") {
		t.Errorf("9 players: exit %d, %s", code, errs)
	}
}
