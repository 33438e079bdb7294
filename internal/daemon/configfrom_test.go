package daemon

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/pbem/pbem/engine/games"
	"github.com/pbem/pbem/internal/config"
	"github.com/pbem/pbem/internal/outbox"
)

// Fields of Config whose zero is a setting, not a missing value: off.
var zeroIsOff = map[string]string{
	"Admins":          "no admins",
	"AdminToken":      "no admin mail",
	"TrustAuthServID": "no Authentication-Results trusted",
	"WebURL":          "no web pages, no links in mails",
}

// What `pbem serve` runs with when nothing is configured is
// config.Default() translated by ConfigFrom, unchanged by New: every field
// set there, none left to a default of the daemon's own.
func TestConfigFromDefaults(t *testing.T) {
	t.Parallel()
	loaded, err := config.Load("", nil) // `pbem serve` with no file and no PBEM_ variables
	if err != nil {
		t.Fatal(err)
	}
	cfg := ConfigFrom(loaded)
	if want := ConfigFrom(config.Default()); !reflect.DeepEqual(cfg, want) {
		t.Fatalf("config.Load with nothing set gives\n%+v\nnot config.Default()'s\n%+v", cfg, want)
	}
	// The defaults the issue found disagreeing.
	if cfg.VacationDays != 21 {
		t.Errorf("VacationDays %d: not config.Default()'s 21", cfg.VacationDays)
	}
	if fmt.Sprint(cfg.Reminders) != "[50% 12h0m0s]" || cfg.TurnTime != 72*time.Hour || cfg.Address != "pbem@pbem.test" {
		t.Errorf("Reminders %s, TurnTime %s, Address %q: not config.Default()'s", cfg.Reminders, cfg.TurnTime, cfg.Address)
	}
	nonZero(t, "Config", reflect.ValueOf(cfg), zeroIsOff)
	oc := OutboxFrom(loaded)
	nonZero(t, "outbox.Config", reflect.ValueOf(oc), map[string]string{"after": "a test's hook on the waits: nil is time.After"})

	// The daemon's tests run with the same, but for the address.
	want := cfg
	want.Address = "pbem@example.test"
	if !reflect.DeepEqual(testConfig(), want) {
		t.Errorf("testConfig() is\n%+v\nnot the defaults'\n%+v", testConfig(), want)
	}
	w := newWorldConfig(t, nil)
	if !reflect.DeepEqual(w.svc.cfg, want) {
		t.Errorf("New changed the configuration:\n%+v\nwas\n%+v", w.svc.cfg, want)
	}
	svc, st, r := w.svc, w.st, w.svc.render
	if _, err := svc.Outbox(nil, oc); err != nil {
		t.Errorf("Outbox with OutboxFrom's configuration: %v", err)
	}

	// A zero that means nothing is refused, not filled in.
	for _, unset := range []func(*Config){
		func(c *Config) { c.Name = "" },
		func(c *Config) { c.Mailbox = "" },
		func(c *Config) { c.TurnTime = 0 },
		func(c *Config) { c.RefusalMax = 0 },
		func(c *Config) { c.Limits.LoopPerMinute = 0 },
		func(c *Config) { c.RetentionEvery = 0 },
	} {
		c := cfg
		unset(&c)
		if _, err := New(c, st, r, games.Lookup, games.Names()); err == nil || !strings.Contains(err.Error(), "ConfigFrom") {
			t.Errorf("New(%+v): %v; want a refusal that points at ConfigFrom", c, err)
		}
	}
	if _, err := svc.Outbox(nil, outbox.Config{}); err == nil || !strings.Contains(err.Error(), "OutboxFrom") {
		t.Errorf("Outbox with a zero outbox.Config: %v; want a refusal that points at OutboxFrom", err)
	}
}

// nonZero fails for every zero field of v (a struct), recursively, but
// those in allowed.
func nonZero(t *testing.T, path string, v reflect.Value, allowed map[string]string) {
	t.Helper()
	for i := 0; i < v.NumField(); i++ {
		f, name := v.Field(i), v.Type().Field(i).Name
		if _, ok := allowed[name]; ok {
			continue
		}
		if f.Kind() == reflect.Struct {
			nonZero(t, path+"."+name, f, nil)
			continue
		}
		if f.IsZero() {
			t.Errorf("%s.%s is zero in config.Default(): a value left to a package default", path, name)
		}
	}
}

// remindBefore is one reminder step, d before the deadline; none for 0.
func remindBefore(d time.Duration) []config.Reminder {
	if d <= 0 {
		return nil
	}
	return []config.Reminder{{Before: d}}
}
