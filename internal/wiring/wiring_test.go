package wiring

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"reflect"
	"testing"
	"time"

	"github.com/pbem/pbem/internal/config"
	"github.com/pbem/pbem/internal/outbox"
	"github.com/pbem/pbem/mailer"
)

var update = flag.Bool("update", false, "rewrite internal/daemon/testdata/serve-config.json")

// Fields of daemon.Config whose zero is a setting, not a missing value: off.
var zeroIsOff = map[string]string{
	"Admins":          "no admins",
	"AdminToken":      "no admin mail",
	"TrustAuthServID": "no Authentication-Results trusted",
	"WebURL":          "no web pages, no links in mails",
}

// What `pbem serve` runs with when nothing is configured is
// config.Default() translated by ConfigFrom and OutboxFrom: every field
// set there, none left to a default of the daemon's or the outbox's own.
func TestConfigFromDefaults(t *testing.T) {
	t.Parallel()
	loaded, err := config.Load("", nil) // `pbem serve` with no file and no PBEM_ variables
	if err != nil {
		t.Fatal(err)
	}
	cfg := ConfigFrom(loaded)
	want := ConfigFrom(config.Default())
	// The one value Load derives: on the embedded servers with no [web],
	// the quick start's pages on Default()'s embedded.web_addr (issue 35).
	want.WebURL = "http://" + config.Default().Embedded.WebAddr
	if !reflect.DeepEqual(cfg, want) {
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
	if _, err := outbox.New(nil, cfg.Address, nil, oc); err != nil {
		t.Errorf("outbox.New with OutboxFrom's configuration: %v", err)
	}
}

// The daemon's tests run with what serve runs with (they cannot call
// ConfigFrom: this package imports the daemon), read from the file this
// test keeps true: run `go test ./internal/wiring -run TestServeConfigFile
// -update` after changing a default.
func TestServeConfigFile(t *testing.T) {
	t.Parallel()
	const path = "../daemon/testdata/serve-config.json"
	want, err := json.MarshalIndent(ConfigFrom(config.Default()), "", "\t")
	if err != nil {
		t.Fatal(err)
	}
	want = append(want, '\n')
	if *update {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is not ConfigFrom(config.Default()): the daemon's tests would run with another configuration than pbem serve's. Run go test ./internal/wiring -run TestServeConfigFile -update\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}

// The daemon's tests say the outbox's and the LMTP server's
// configuration again (internal/daemon/configfrom_test.go); they must say
// what serve runs with.
func TestOutboxAndLMTPAsTheDaemonTestsSay(t *testing.T) {
	t.Parallel()
	oc := OutboxFrom(config.Default())
	if oc.Poll != config.Default().Outbox.PollInterval.Duration || oc.SendTimeout != mailer.DefaultSendTimeout {
		t.Errorf("OutboxFrom(config.Default()) = %+v", oc)
	}
	c := config.Default()
	lc := LMTPFrom(c, nil, nil)
	if lc.HardLimit != 32*c.Service.MaxMessageBytes || lc.MaxRecipients != 50 || lc.MaxConns != 32 || lc.MailsPerConn != 1000 ||
		lc.Timeout != 2*time.Minute || lc.MaxBatch != 32 {
		t.Errorf("LMTPFrom's bounds are %+v: not those internal/daemon's lmtpFrom says (configfrom_test.go)", lc)
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
