package daemon

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pbem/pbem/engine/games"
	"github.com/pbem/pbem/internal/config"
	"github.com/pbem/pbem/internal/outbox"
	"github.com/pbem/pbem/mailer"
)

// serveConfigFile is the Config `pbem serve` runs with when nothing is
// configured: config.Default() translated by wiring.ConfigFrom. The
// daemon's tests cannot call wiring.ConfigFrom (wiring imports daemon),
// so wiring's TestServeConfigFile writes the translation here and fails
// when it changes; the tests here read it.
const serveConfigFile = "testdata/serve-config.json"

// serveConfig is serveConfigFile's Config, read once.
var serveConfig = sync.OnceValue(func() Config {
	b, err := os.ReadFile(serveConfigFile)
	if err != nil {
		panic(err)
	}
	var c Config
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		panic(fmt.Sprintf("%s: %v", serveConfigFile, err))
	}
	return c
})

// testConfig is the configuration `pbem serve` runs with when nothing is
// configured (serveConfigFile), at the address pbem@example.test.
func testConfig() Config {
	c := serveConfig()
	c.Address = "pbem@example.test"
	return c
}

// testOutbox is the outbox configuration `pbem serve` runs with when
// nothing is configured: wiring.OutboxFrom(config.Default()), said again
// here (wiring imports daemon) and checked by TestOutboxLikeServe.
func testOutbox() outbox.Config {
	o := config.Default().Outbox
	return outbox.Config{
		Poll: o.PollInterval.Duration, Batch: o.Batch, MaxAttempts: o.MaxAttempts,
		RetryMin: o.RetryMin.Duration, RetryMax: o.RetryMax.Duration,
		Permanent: mailer.IsPermanent, Unreachable: mailer.IsUnreachable,
		SendTimeout: mailer.DefaultSendTimeout,
	}
}

// The LMTP server's bounds as pbem serve sets them (wiring.LMTPFrom), for
// the tests that deliver up to them.
const (
	lmtpHardLimitTimes = 32
	lmtpMaxRecipients  = 50
)

// lmtpFrom is the LMTP server's configuration as pbem serve makes it
// (wiring.LMTPFrom) for c, taking mail for s's addresses.
func lmtpFrom(c config.Config, s *Service) mailer.LMTPConfig {
	return mailer.LMTPConfig{
		Addr: c.LMTP.Addr, Accept: s.Accepts, Separator: c.Service.Separator,
		MaxSize: c.Service.MaxMessageBytes, HardLimit: lmtpHardLimitTimes * c.Service.MaxMessageBytes,
		MaxRecipients: lmtpMaxRecipients, MaxConns: 32, MailsPerConn: 1000,
		Timeout: 2 * time.Minute, MaxBatch: 32, Logger: s.log,
	}
}

// The daemon's tests run with what pbem serve runs with when nothing is
// configured, but for the address; New keeps it unchanged, and refuses
// a zero that means nothing rather than filling it in.
func TestConfigLikeServe(t *testing.T) {
	t.Parallel()
	want := serveConfig()
	want.Address = "pbem@example.test"
	if !reflect.DeepEqual(testConfig(), want) {
		t.Errorf("testConfig() is\n%+v\nnot the defaults'\n%+v", testConfig(), want)
	}
	w := newWorldConfig(t, nil)
	if !reflect.DeepEqual(w.svc.cfg, want) {
		t.Errorf("New changed the configuration:\n%+v\nwas\n%+v", w.svc.cfg, want)
	}
	svc, st, r := w.svc, w.st, w.svc.render
	if _, err := svc.Outbox(nil, testOutbox()); err != nil {
		t.Errorf("Outbox with serve's configuration: %v", err)
	}
	for _, unset := range []func(*Config){
		func(c *Config) { c.Name = "" },
		func(c *Config) { c.Mailbox = "" },
		func(c *Config) { c.TurnTime = 0 },
		func(c *Config) { c.RefusalMax = 0 },
		func(c *Config) { c.Limits.LoopPerMinute = 0 },
		func(c *Config) { c.RetentionEvery = 0 },
	} {
		c := want
		unset(&c)
		if _, err := New(c, st, r, games.Lookup, games.Names()); err == nil || !strings.Contains(err.Error(), "ConfigFrom") {
			t.Errorf("New(%+v): %v; want a refusal that points at ConfigFrom", c, err)
		}
	}
	if _, err := svc.Outbox(nil, outbox.Config{}); err == nil || !strings.Contains(err.Error(), "OutboxFrom") {
		t.Errorf("Outbox with a zero outbox.Config: %v; want a refusal that points at OutboxFrom", err)
	}
}

// remindBefore is one reminder step, d before the deadline; none for 0.
func remindBefore(d time.Duration) []Reminder {
	if d <= 0 {
		return nil
	}
	return []Reminder{{Before: d}}
}
