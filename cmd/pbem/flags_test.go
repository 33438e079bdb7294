package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pbem/pbem/store"
)

// onOff is a flag.Value that is a boolean flag by IsBoolFlag, as
// flag.Bool's is, without being flag.Bool's.
type onOff struct{ on bool }

func (o *onOff) String() string     { return map[bool]string{true: "on", false: "off"}[o != nil && o.on] }
func (o *onOff) Set(s string) error { o.on = s == "true"; return nil }
func (o *onOff) IsBoolFlag() bool   { return true }

func TestParseInterspersed(t *testing.T) {
	type values struct {
		JSON    bool
		Custom  bool
		Config  string
		N       int
		Markers []string
	}
	tests := []struct {
		name string
		args []string
		pos  []string // the arguments, when no error is wanted
		want values
		err  string // "help" for --help; else part of the error
	}{
		{"nothing", nil, nil, values{}, ""},
		{"arguments only", []string{"a", "b"}, []string{"a", "b"}, values{}, ""},
		{"flags first", []string{"--json", "--config", "x.toml", "a"}, []string{"a"}, values{JSON: true, Config: "x.toml"}, ""},
		{"flags last", []string{"a", "--json", "--config", "x.toml"}, []string{"a"}, values{JSON: true, Config: "x.toml"}, ""},
		{"flags between", []string{"12", "extend", "--config", "x.toml", "bob", "-json", "24h"}, []string{"12", "extend", "bob", "24h"}, values{JSON: true, Config: "x.toml"}, ""},
		{"single dash and =", []string{"a", "-config=y.toml", "-n=3", "b"}, []string{"a", "b"}, values{Config: "y.toml", N: 3}, ""},
		{"bool with =", []string{"a", "--json=false", "b"}, []string{"a", "b"}, values{}, ""},
		{"bool takes no value", []string{"--json", "a"}, []string{"a"}, values{JSON: true}, ""},
		{"IsBoolFlag Var takes no value", []string{"--custom", "a"}, []string{"a"}, values{Custom: true}, ""},
		{"Var takes a value", []string{"--marker", "--json", "a", "--marker", "m2"}, []string{"a"}, values{Markers: []string{"--json", "m2"}}, ""},
		{"value that looks like a flag", []string{"--config", "-", "a"}, []string{"a"}, values{Config: "-"}, ""},
		{"lone dash is an argument", []string{"-", "--json"}, []string{"-"}, values{JSON: true}, ""},
		{"-- ends the flags", []string{"a", "--", "--json", "-n", "-"}, []string{"a", "--json", "-n", "-"}, values{}, ""},
		{"flags before --", []string{"--json", "a", "--", "--config", "x"}, []string{"a", "--config", "x"}, values{JSON: true}, ""},
		{"-- as a flag's value", []string{"--config", "--", "a"}, []string{"a"}, values{Config: "--"}, ""},
		{"second -- is an argument", []string{"--", "a", "--"}, []string{"a", "--"}, values{}, ""},
		{"empty argument", []string{"", "--json"}, []string{""}, values{JSON: true}, ""},
		{"missing value", []string{"a", "--config"}, nil, values{}, "flag needs an argument: -config"},
		{"bad value", []string{"a", "-n", "many"}, nil, values{}, "invalid value"},
		{"unknown flag", []string{"a", "--bogus", "b"}, nil, values{}, "flag provided but not defined: -bogus"},
		{"bad syntax", []string{"a", "---json"}, nil, values{}, "bad flag syntax"},
		{"--help after arguments", []string{"a", "b", "--help"}, nil, values{}, "help"},
		{"-h", []string{"-h", "a"}, nil, values{}, "help"},
		{"help after --", []string{"--", "--help"}, []string{"--help"}, values{}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := flag.NewFlagSet("test", flag.ContinueOnError)
			var stderr strings.Builder
			fs.SetOutput(&stderr)
			setUsage(fs, "usage: pbem test [OPTIONS] ARGS")
			var got values
			var custom onOff
			var markers stringList
			fs.BoolVar(&got.JSON, "json", false, "a bool")
			fs.Var(&custom, "custom", "a boolean Var")
			fs.StringVar(&got.Config, "config", "", "a string")
			fs.IntVar(&got.N, "n", 0, "an int")
			fs.Var(&markers, "marker", "repeatable")
			pos, err := parseInterspersed(fs, tt.args)
			got.Custom, got.Markers = custom.on, markers
			switch {
			case tt.err == "help":
				var he *helpError
				if !errors.As(err, &he) || !errors.Is(err, flag.ErrHelp) || !strings.Contains(he.usage, "usage: pbem test") {
					t.Fatalf("%q: error %v, want --help's with the usage", tt.args, err)
				}
				if stderr.Len() != 0 {
					t.Errorf("--help printed on the flag set's output: %q", stderr.String())
				}
			case tt.err != "":
				var ee *exitError
				if err == nil || !strings.Contains(err.Error(), tt.err) || !errors.As(err, &ee) || ee.code != 2 {
					t.Fatalf("%q: error %v, want a usage error with %q", tt.args, err, tt.err)
				}
				if !strings.Contains(stderr.String(), "usage: pbem test") {
					t.Errorf("a mistake did not print the usage: %q", stderr.String())
				}
			default:
				if err != nil {
					t.Fatalf("%q: %v", tt.args, err)
				}
				if !slices.Equal(pos, tt.pos) || !slices.Equal(fs.Args(), tt.pos) {
					t.Errorf("%q: arguments %q, fs.Args() %q; want %q", tt.args, pos, fs.Args(), tt.pos)
				}
				if g, w := mustJSON(got), mustJSON(tt.want); g != w {
					t.Errorf("%q: flags %s, want %s", tt.args, g, w)
				}
			}
		})
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestHelp: every subcommand's --help, -h, and pbem help COMMAND print its
// usage on standard output and exit 0, wherever the flag stands; a wrong
// flag exits 2 with the usage on standard error.
func TestHelp(t *testing.T) {
	t.Setenv("PBEM_STORE_DATABASE", filepath.Join(t.TempDir(), "pbem.db"))
	for name := range commands() {
		for _, args := range [][]string{
			{name, "--help"},
			{name, "-h"},
			{name, "12", "x", "--help"},
			{"help", name},
		} {
			code, stdout, stderr := runPbem(t, "", args...)
			if code != 0 || !strings.Contains(stdout, "usage: pbem "+name) || stderr != "" {
				t.Errorf("pbem %s: exit %d, stdout %q, stderr %q; want 0 and the usage on stdout", strings.Join(args, " "), code, stdout, stderr)
			}
		}
		code, stdout, stderr := runPbem(t, "", name, "--no-such-flag")
		if code != 2 || stdout != "" || !strings.Contains(stderr, "usage: pbem "+name) || !strings.Contains(stderr, "-no-such-flag") {
			t.Errorf("pbem %s --no-such-flag: exit %d, stdout %q, stderr %q; want 2 and the usage on stderr", name, code, stdout, stderr)
		}
	}
	if code, stdout, _ := runPbem(t, "", "help"); code != 0 || !strings.Contains(stdout, "usage: pbem COMMAND") {
		t.Errorf("pbem help: exit %d, stdout %q", code, stdout)
	}
	if code, _, stderr := runPbem(t, "", "help", "chess"); code != 2 || !strings.Contains(stderr, `unknown command "chess"`) {
		t.Errorf("pbem help chess: exit %d, stderr %q", code, stderr)
	}
	if code, _, stderr := runPbem(t, ""); code != 2 || !strings.Contains(stderr, "usage: pbem COMMAND") {
		t.Errorf("pbem: exit %d, stderr %q", code, stderr)
	}
}

// TestFlagsAfterArguments: each subcommand reads its options after its
// arguments as before them.
func TestFlagsAfterArguments(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := filepath.Join(dir, "pbem.db")
	t.Setenv("PBEM_STORE_DATABASE", db)
	t.Setenv("PBEM_CONFIG", "")
	// A configuration that only --config can bring in: an unknown key makes
	// it an error, so the error shows that --config was read.
	badCfg := filepath.Join(dir, "bad.toml")
	if err := os.WriteFile(badCfg, []byte("[service]\nno_such_key = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	goodCfg := filepath.Join(dir, "good.toml")
	if err := os.WriteFile(goodCfg, []byte("[log]\nlevel = \"error\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	st, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	var id int64
	if err := st.Tx(ctx, func(tx *store.Tx) error {
		id, err = tx.CreateGame(ctx, store.NewGame{Kind: "felix", Creator: "alice@x.test", CreatedAt: time.Now(),
			Setup: []byte(`{"Players":["alice","bob","carol","dave"],"Seed":7}`)})
		if err != nil {
			return err
		}
		for i, p := range []string{"alice", "bob", "carol", "dave"} {
			if err := tx.AddSeat(ctx, id, i, p+"@x.test", p, "t"+p); err != nil {
				return err
			}
		}
		return tx.SetGameStatus(ctx, id, store.StatusActive)
	}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	const felix = "../../examples/felix-4p.txt"
	const corpus = "../../parser/testdata/corpus/"

	tests := []struct {
		args     []string
		code     int
		stdout   string // part of standard output
		inStderr string
	}{
		{[]string{"replay", felix, "--json"}, 0, `"game": "felix"`, ""},
		{[]string{"replay", felix, "--quiet", "--json"}, 0, `"game": "felix"`, ""},
		{[]string{"replay", "--", felix}, 0, "Felix", ""},
		{[]string{"replay", felix, "extra", "--json"}, 2, "", "one transcript file expected"},
		{[]string{"parse", corpus + "felix-gmail-top-posting.eml", "--game", "felix"}, 0, "bid 6\n", ""},
		{[]string{"parse", corpus + "felix-gmail-top-posting.eml", "--game=felix", "-v"}, 0, "bid 6\n", "--- text read from"},
		{[]string{"export", "1", "--config", goodCfg}, 0, "felix", ""},
		{[]string{"export", "#1", "--config", badCfg}, 1, "", "no_such_key"},
		{[]string{"export", "2", "--config", goodCfg}, 1, "", ""},
		{[]string{"games", "--config", goodCfg}, 0, "alice", ""},
		// One game: a page of one may be followed by more; after it, none.
		{[]string{"games", "--limit", "1", "--config", goodCfg}, 0, "(more: pbem games --after 1 --limit 1)", ""},
		{[]string{"games", "--after", "1", "--config", goodCfg}, 0, "GAME", ""},
		{[]string{"games", "--config", badCfg}, 1, "", "no_such_key"},
		{[]string{"games", "extra"}, 2, "", "games takes no arguments"},
		{[]string{"admin", "1", "pause", "for", "a", "test", "--as", "root", "--config", goodCfg}, 0, "pause done", ""},
		{[]string{"admin", "1", "extend", "bob", "24h", "--config", badCfg}, 1, "", "no_such_key"},
		{[]string{"admin", "1", "resume", "--as", "root", "--", "--not-a-flag"}, 0, "resume done", ""},
		{[]string{"backup", filepath.Join(dir, "copy.db"), "--config", badCfg}, 1, "", "no_such_key"},
		{[]string{"backup", filepath.Join(dir, "copy.db"), "--config", goodCfg}, 0, "backed up", ""},
		{[]string{"demo", "extra", "--seed", "1"}, 2, "", "demo takes no arguments"},
		{[]string{"loadtest", "extra", "--games", "1"}, 2, "", "loadtest takes no arguments"},
		{[]string{"loadtest", "--games", "1", "--game", "chess"}, 2, "", `unknown game "chess"`},
		{[]string{"serve", "--config", badCfg}, 1, "", "no_such_key"},
	}
	for _, tt := range tests {
		code, stdout, stderr := runPbem(t, "", tt.args...)
		if code != tt.code || !strings.Contains(stdout, tt.stdout) || !strings.Contains(stderr, tt.inStderr) {
			t.Errorf("pbem %s: exit %d, stdout %q, stderr %q; want exit %d, stdout with %q, stderr with %q",
				strings.Join(tt.args, " "), code, stdout, stderr, tt.code, tt.stdout, tt.inStderr)
		}
	}

	// The audit log names the admin given by --as after the arguments.
	st, err = store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	audit, err := st.Audit(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	var acts []string
	for _, a := range audit {
		acts = append(acts, a.Actor+" "+a.Action+" "+a.Detail)
	}
	if got := strings.Join(acts, "\n"); !strings.Contains(got, "root pause") || !strings.Contains(got, "for a test") || !strings.Contains(got, "--not-a-flag") {
		t.Errorf("audit log:\n%s\nwant root's pause for a test and resume --not-a-flag", got)
	}
}

// TestDemoPrintsSeed: the first line of pbem demo names the seed, so that
// a run can be repeated. The demo itself is not run: a cancelled context
// stops it at the start.
func TestDemoPrintsSeed(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"demo", "--seed", "42"}, "Seed 42: pbem demo --seed 42 "},
		{[]string{"demo", "--seed=0"}, "Seed 0: "},
		{[]string{"demo"}, "Seed "},
	} {
		var out strings.Builder
		run(ctx, &env{stdin: strings.NewReader(""), stdout: &out, stderr: io.Discard}, tt.args)
		if first, _, _ := strings.Cut(out.String(), "\n"); !strings.HasPrefix(first, tt.want) {
			t.Errorf("pbem %s: first line %q, want it to start with %q", strings.Join(tt.args, " "), first, tt.want)
		}
	}
}
