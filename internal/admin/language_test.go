package admin

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// Usage shows game numbers where a game's number belongs: each act's
// form starts with GAME, and its example with a number.
func TestUsageShowsGameNumbers(t *testing.T) {
	t.Parallel()
	u := Usage()
	if len(u) != 2*len(acts) {
		t.Fatalf("%d lines of usage for %d acts", len(u), len(acts))
	}
	for i, line := range u {
		if i%2 == 0 && !strings.HasPrefix(line, "GAME ") || i%2 == 1 && !strings.HasPrefix(line, "  e.g. 12 ") {
			t.Errorf("usage %q", line)
		}
	}
}

// Every act in the table is read by Parse into the act of its word, from
// the table's own example: the table and the parser name the same acts.
func TestParseReadsEveryExample(t *testing.T) {
	t.Parallel()
	for _, d := range acts {
		act, err := Parse(string(d.word), strings.Fields(d.example))
		if err != nil {
			t.Errorf("%s %s: %v", d.word, d.example, err)
			continue
		}
		if act.Word() != d.word {
			t.Errorf("%s read as %s", d.word, act.Word())
		}
	}
}

func TestParse(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		word   string
		params []string
		want   Act
		detail string
	}{
		{"extend", []string{"bob", "90m"}, ExtendAct{Who: "bob", By: 90 * time.Minute}, "bob by 1h30m0s"},
		{"extend", []string{"bob", "2", "days"}, ExtendAct{Who: "bob", By: 48 * time.Hour}, "bob by 48h0m0s"},
		{"extend", []string{"bob", "1", "day", "and", "12", "hours"}, ExtendAct{Who: "bob", By: 36 * time.Hour}, "bob by 36h0m0s"},
		{"move", []string{"bob", "play", "the", "rabbit"}, MoveAct{Who: "bob", Command: "play the rabbit"}, "bob: play the rabbit"},
		{"replace", []string{"bob", "Rob@Example.org"}, ReplaceAct{Who: "bob", Address: "Rob@Example.org"}, "bob -> Rob@Example.org"},
		{"pause", []string{"back", "soon"}, StatusAct{To: Pause, Reason: "back soon"}, "back soon"},
		{"resume", nil, StatusAct{To: Resume}, ""},
		{"abort", []string{"cheating"}, StatusAct{To: Abort, Reason: "cheating"}, "cheating"},
		{"retry", []string{"ignored"}, RetryAct{}, ""},
		{"undo", []string{"carol"}, UndoAct{Who: "carol"}, "carol"},
		{"unrate", nil, UnrateAct{}, ""},
	} {
		got, err := Parse(c.word, c.params)
		if err != nil || got != c.want || got.Detail() != c.detail {
			t.Errorf("Parse(%s %v) = %#v (%q), %v; want %#v (%q)", c.word, c.params, got, detailOf(got), err, c.want, c.detail)
		}
	}
}

func detailOf(a Act) string {
	if a == nil {
		return ""
	}
	return a.Detail()
}

// A mistake in an act's words is refused, in words the admin reads.
func TestParseRefuses(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		word   string
		params []string
		want   string
	}{
		{"dance", nil, `"dance" is not an admin act`},
		{"Extend", []string{"bob", "2h"}, `"Extend" is not an admin act`}, // the command line's words are taken as written
		{"extend", []string{"bob"}, "extend PLAYER DURATION"},
		{"extend", []string{"bob", "soon"}, `"soon"`},
		{"extend", []string{"bob", "2", "dayz"}, `"2 dayz" is not a duration such as "2 days"`},
		{"move", []string{"bob"}, "move PLAYER COMMAND"},
		{"replace", []string{"bob"}, "replace PLAYER ADDRESS"},
		{"undo", nil, "undo PLAYER"},
	} {
		act, err := Parse(c.word, c.params)
		if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), c.want) || act != nil {
			t.Errorf("Parse(%s %v) = %v, %v; want a refusal with %q", c.word, c.params, act, err, c.want)
		}
	}
}

func TestReadLine(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		line string
		want Line
		err  error
	}{
		{"", Line{}, nil},
		{"   ", Line{}, nil},
		{"HELP me", Line{}, nil},
		{"#12 PAUSE back soon", Line{Game: 12, Act: StatusAct{To: Pause, Reason: "back soon"}}, nil},
		{"3 Extend bob 2h", Line{Game: 3, Act: ExtendAct{Who: "bob", By: 2 * time.Hour}}, nil},
		{"nonsense here", Line{}, ErrNoGame},
		{"12", Line{}, ErrNoGame},
		{"12 dance", Line{Game: 12}, ErrRefused},
	} {
		got, err := ReadLine(c.line)
		if got != c.want || !errors.Is(err, c.err) || (c.err == nil) != (err == nil) {
			t.Errorf("ReadLine(%q) = %#v, %v; want %#v, %v", c.line, got, err, c.want, c.err)
		}
	}
}

func TestIs(t *testing.T) {
	t.Parallel()
	admins := "root@ops.test, Boss@Ops.Test,,"
	for addr, want := range map[string]bool{"root@ops.test": true, "boss@ops.test": true, "alice@x.test": false, "": false} {
		if Is(addr, admins) != want {
			t.Errorf("Is(%q) = %v", addr, !want)
		}
	}
}
