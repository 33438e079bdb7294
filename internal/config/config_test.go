package config

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestLoadLayers(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "pbem.toml")
	err := os.WriteFile(path, []byte(`
[service]
address = "game@pbem.example"
turn_time = "48h"

[imap]
addr = "imap.pbem.example:993"
username = "game@pbem.example"

[smtp]
addr = "smtp.pbem.example:587"
`), 0o600)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Load(path, []string{"PBEM_IMAP_PASSWORD=secret", "PBEM_SERVICE_TURN_TIME=24h", "HOME=/root", "PBEM_SERVICE_REFUSAL_MAX=5"})
	if err != nil {
		t.Fatal(err)
	}
	if c.Service.Address != "game@pbem.example" || c.IMAP.Password != "secret" || c.Service.TurnTime.Duration != 24*time.Hour || c.Service.RefusalMax != 5 {
		t.Fatalf("%+v", c)
	}
	if c.IMAP.Security != "tls" || c.SMTP.Security != "starttls" || c.Store.Database != "pbem.db" {
		t.Fatalf("defaults lost: %+v", c)
	}
	if c.UsesEmbedded() {
		t.Fatal("a configured IMAP server means no embedded servers")
	}
}

func TestLoadErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.toml")
	os.WriteFile(bad, []byte("[service]\nadress = \"x\"\n"), 0o600)
	tests := []struct {
		path string
		env  []string
		want string
	}{
		{bad, nil, `unknown key "service.adress"`},
		{"", []string{"PBEM_SERVICE_TURN_TIME=soon"}, "not a duration"},
		{"", []string{"PBEM_SERVICE_REFUSAL_MAX=many"}, "not a whole number"},
		{"", []string{"PBEM_IMAP_ADRR=x"}, "unknown environment variable PBEM_IMAP_ADRR"},
		{"", []string{"PBEM_IMAP_ADDR=imap:993"}, "[smtp] addr is not"},
		{"", []string{"PBEM_IMAP_ADDR=imap:993", "PBEM_SMTP_ADDR=smtp:25"}, "[service] address is required"},
		{"", []string{"PBEM_SERVICE_SEPARATOR=@"}, "separator"},
		{"", []string{"PBEM_SERVICE_TRUST_AUTHENTICATION_RESULTS=mx.example.org; dmarc"}, "not an authserv-id"},
		{"", []string{"PBEM_SMTP_DKIM_KEY=/k.pem"}, "dkim_key and dkim_selector go together"},
		{"", []string{"PBEM_METRICS_ADDR=9464"}, "[metrics] addr \"9464\" is not host:port"},
		{"", []string{"PBEM_METRICS_IMAP_STALE_AFTER=0s"}, "[metrics] imap_stale_after 0s must be at least 1s"},
		{"", []string{"PBEM_METRICS_OUTBOX_STUCK_AFTER=-5m"}, "[metrics] outbox_stuck_after -5m0s must be at least 1s"},
		{"", []string{"PBEM_METRICS_OUTBOX_STUCK_AFTER=soon"}, "not a duration"},
		{"", []string{"PBEM_METRICS_ADDR=:9464", "PBEM_METRICS_IMAP_STALE_AFTER=1m"}, "must be longer than [imap] poll_interval 1m0s"},
		{filepath.Join(dir, "missing.toml"), nil, "missing.toml"},
	}
	for _, tt := range tests {
		_, err := Load(tt.path, tt.env)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v %v: error %v, want %q", tt.path, tt.env, err, tt.want)
		}
	}
}

func TestDefaultIsEmbedded(t *testing.T) {
	t.Parallel()
	c, err := Load("", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !c.UsesEmbedded() {
		t.Fatal("the default should run the embedded servers")
	}
}

// TestKeysDocumented keeps docs/configuration.md's table complete.
func TestKeysDocumented(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("../../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	keys := Keys()
	if !slices.Contains(keys, "PBEM_SERVICE_ADDRESS") || len(keys) < 20 {
		t.Fatalf("keys %v", keys)
	}
	for _, k := range keys {
		if !strings.Contains(string(doc), k) {
			t.Errorf("docs/configuration.md does not document %s", k)
		}
	}
}

func TestMetricsConfig(t *testing.T) {
	t.Parallel()
	c, err := Load("", nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Metrics.Addr != "" || c.Metrics.IMAPStaleAfter.Duration != 15*time.Minute || c.Metrics.OutboxStuckAfter.Duration != 30*time.Minute {
		t.Fatalf("metrics defaults: %+v", c.Metrics)
	}
	c, err = Load("", []string{"PBEM_METRICS_ADDR=127.0.0.1:9464", "PBEM_METRICS_IMAP_STALE_AFTER=5m"})
	if err != nil {
		t.Fatal(err)
	}
	if c.Metrics.Addr != "127.0.0.1:9464" || c.Metrics.IMAPStaleAfter.Duration != 5*time.Minute {
		t.Fatalf("metrics from the environment: %+v", c.Metrics)
	}
	// Any free port, on every address: host:port even with both defaulted.
	if _, err := Load("", []string{"PBEM_METRICS_ADDR=:0"}); err != nil {
		t.Fatalf(":0: %v", err)
	}
}

// A value that means nothing is refused with what is wrong: the defaults
// are Default()'s, and nothing downstream fills a zero in.
func TestMeaninglessValuesRefused(t *testing.T) {
	t.Parallel()
	if err := Default().check(); err != nil {
		t.Fatalf("the defaults are refused: %v", err)
	}
	for env, want := range map[string]string{
		"PBEM_SERVICE_NAME=":                       "name",
		"PBEM_SERVICE_TURN_TIME=0s":                "turn_time",
		"PBEM_SERVICE_REMINDER_BEFORE=24h":         "PBEM_SERVICE_REMINDERS",
		"PBEM_SERVICE_REMINDERS=0%":                "1% to 99%",
		"PBEM_SERVICE_REMINDERS=12":                "PBEM_SERVICE_REMINDERS",
		"PBEM_SERVICE_REMINDERS=1h,2h,3h,4h,5h,6h": "at most 5",
		"PBEM_SERVICE_MAX_MESSAGE_BYTES=0":         "max_message_bytes",
		"PBEM_SERVICE_VACATION_DAYS=-1":            "vacation_days",
		"PBEM_SERVICE_VACATION_DAYS=400":           "vacation_days",
		"PBEM_SERVICE_REFUSAL_WINDOW=0s":           "refusal_window",
		"PBEM_SERVICE_REFUSAL_MAX=0":               "refusal_max",
		"PBEM_SERVICE_DEADLINE_SCHEDULE=":          "deadline_schedule",
		"PBEM_IMAP_MAILBOX=":                       "mailbox",
		"PBEM_IMAP_POLL_INTERVAL=0s":               "poll_interval",
		"PBEM_OUTBOX_POLL_INTERVAL=0s":             "[outbox] poll_interval",
		"PBEM_OUTBOX_BATCH=0":                      "batch",
		"PBEM_OUTBOX_MAX_ATTEMPTS=0":               "max_attempts",
		"PBEM_OUTBOX_RETRY_MIN=0s":                 "retry_min",
		"PBEM_OUTBOX_RETRY_MAX=1s":                 "retry_max",
		"PBEM_RUNTIME_GC_PERCENT=0":                "gc_percent",
		"PBEM_RUNTIME_GC_PERCENT=5000":             "gc_percent",
		"PBEM_RUNTIME_MEMORY_LIMIT=lots":           "memory_limit",
		"PBEM_RUNTIME_MEMORY_LIMIT=1MiB":           "at least 16MiB",
		"PBEM_RUNTIME_MEMORY_LIMIT=-96MiB":         "memory_limit",
		"PBEM_RUNTIME_MEMORY_LIMIT=96MB":           "memory_limit",
		"PBEM_RUNTIME_MEMORY_LIMIT=99999999999TiB": "too large",
	} {
		if _, err := Load("", []string{env}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v; want an error about %s", env, err, want)
		}
	}
	if c, err := Load("", []string{"PBEM_SERVICE_REMINDERS="}); err != nil || len(c.Service.Reminders) != 0 {
		t.Errorf("no reminders: %v, %v", c.Service.Reminders, err)
	}
}

// service.reminders is a TOML array of steps, or one comma-separated
// environment variable; the default is halfway and 12 hours before. The
// old reminder_before is refused with the form that replaced it.
func TestReminders(t *testing.T) {
	t.Parallel()
	c, err := Load("", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(c.Service.Reminders); got != "[50% 12h0m0s]" {
		t.Errorf("default reminders %s", got)
	}
	if l := c.Service.Reminders[0].Lead(48 * time.Hour); l != 24*time.Hour {
		t.Errorf("50%% of 48h is due %v before the deadline", l)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "pbem.toml")
	if err := os.WriteFile(path, []byte("[service]\nreminders = [\"75%\", \"2h\", \"30m\"]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err = Load(path, nil)
	if err != nil || fmt.Sprint(c.Service.Reminders) != "[75% 2h0m0s 30m0s]" {
		t.Errorf("file reminders %v, %v", c.Service.Reminders, err)
	}
	c, err = Load(path, []string{"PBEM_SERVICE_REMINDERS=24h, 50%"})
	if err != nil || fmt.Sprint(c.Service.Reminders) != "[24h0m0s 50%]" {
		t.Errorf("environment reminders %v, %v", c.Service.Reminders, err)
	}
	if err := os.WriteFile(path, []byte("[service]\nreminder_before = \"24h\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(path, nil); err == nil || !strings.Contains(err.Error(), `reminders = ["24h"]`) {
		t.Errorf("reminder_before: %v; want the form that replaced it", err)
	}
	// 0 days is a pbem without vacations; the default is three weeks.
	if c, err := Load("", []string{"PBEM_SERVICE_VACATION_DAYS=0"}); err != nil || c.Service.VacationDays != 0 {
		t.Errorf("vacation_days 0 (no vacation): %v, %d", err, c.Service.VacationDays)
	}
	if d := Default().Service.VacationDays; d != 21 {
		t.Errorf("vacation_days defaults to %d, want 21", d)
	}
}

func TestDefaultPlayer(t *testing.T) {
	t.Parallel()
	c, err := Load("", nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Service.DefaultPlayer != DefaultPlayerBot {
		t.Errorf("default_player defaults to %q, want bot", c.Service.DefaultPlayer)
	}
	c, err = Load("", []string{"PBEM_SERVICE_DEFAULT_PLAYER=simple"})
	if err != nil || c.Service.DefaultPlayer != DefaultPlayerSimple {
		t.Errorf("default_player from the environment: %q, %v", c.Service.DefaultPlayer, err)
	}
	if _, err := Load("", []string{"PBEM_SERVICE_DEFAULT_PLAYER=random"}); err == nil || !strings.Contains(err.Error(), `default_player "random" is neither "bot" nor "simple"`) {
		t.Errorf("default_player random: %v", err)
	}
}

// lmtp.addr: unset by default; set, pbem runs no embedded servers and
// reads IMAP only if imap.addr is set too; an address that could face
// the internet is refused.
func TestLMTPConfig(t *testing.T) {
	c, err := Load("", nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.LMTP.Addr != "" || !c.UsesEmbedded() || !c.ReadsIMAP() {
		t.Fatalf("defaults: lmtp %q, embedded %v, IMAP %v", c.LMTP.Addr, c.UsesEmbedded(), c.ReadsIMAP())
	}
	realMail := []string{"PBEM_SERVICE_ADDRESS=pbem@example.org", "PBEM_SMTP_ADDR=mail.example.org:587"}
	for _, tc := range []struct {
		env        []string
		ok, imap   bool
		errorNames string
	}{
		{env: append([]string{"PBEM_LMTP_ADDR=127.0.0.1:2424"}, realMail...), ok: true},
		{env: append([]string{"PBEM_LMTP_ADDR=unix:/run/pbem/lmtp.sock"}, realMail...), ok: true},
		{env: append([]string{"PBEM_LMTP_ADDR=[::1]:2424"}, realMail...), ok: true},
		{env: append([]string{"PBEM_LMTP_ADDR=10.1.2.3:2424"}, realMail...), ok: true},
		{env: append([]string{"PBEM_LMTP_ADDR=localhost:2424", "PBEM_IMAP_ADDR=mail.example.org:993"}, realMail...), ok: true, imap: true},
		{env: append([]string{"PBEM_LMTP_ADDR=:2424"}, realMail...), errorNames: "[lmtp] addr"},
		{env: append([]string{"PBEM_LMTP_ADDR=0.0.0.0:2424"}, realMail...), errorNames: "must never face the internet"},
		{env: append([]string{"PBEM_LMTP_ADDR=203.0.113.5:2424"}, realMail...), errorNames: "must never face the internet"},
		{env: append([]string{"PBEM_LMTP_ADDR=mx.example.org:2424"}, realMail...), errorNames: "must never face the internet"},
		{env: append([]string{"PBEM_LMTP_ADDR=unix:"}, realMail...), errorNames: "names no socket"},
		{env: []string{"PBEM_LMTP_ADDR=127.0.0.1:2424", "PBEM_SERVICE_ADDRESS=pbem@example.org"}, errorNames: "[lmtp] addr is set but [smtp] addr is not"},
		{env: []string{"PBEM_LMTP_ADDR=127.0.0.1:2424", "PBEM_SMTP_ADDR=mail.example.org:587"}, errorNames: "[service] address is required"},
	} {
		c, err := Load("", tc.env)
		if !tc.ok {
			if err == nil || !strings.Contains(err.Error(), tc.errorNames) {
				t.Errorf("%v: error %v, want one saying %q", tc.env, err, tc.errorNames)
			}
			continue
		}
		if err != nil {
			t.Errorf("%v: %v", tc.env, err)
			continue
		}
		if c.UsesEmbedded() || c.ReadsIMAP() != tc.imap {
			t.Errorf("%v: embedded %v, reads IMAP %v; want no embedded servers, IMAP %v", tc.env, c.UsesEmbedded(), c.ReadsIMAP(), tc.imap)
		}
	}
}

// TestWebConfig: the pages are off by default with a real mail server,
// come from the environment, and a half or malformed [web] section stops
// pbem.
func TestWebConfig(t *testing.T) {
	c, err := Load("", []string{"PBEM_LMTP_ADDR=127.0.0.1:2424", "PBEM_SMTP_ADDR=smtp:25", "PBEM_SERVICE_ADDRESS=pbem@example.org"})
	if err != nil {
		t.Fatal(err)
	}
	if c.Web.Addr != "" || c.Web.URL != "" || c.Web.MaxConnections != 1024 || c.Web.MaxConnectionsPerClient != 64 {
		t.Fatalf("web defaults: %+v", c.Web)
	}
	c, err = Load("", []string{"PBEM_WEB_ADDR=127.0.0.1:8080", "PBEM_WEB_URL=https://pbem.example.org",
		"PBEM_WEB_MAX_CONNECTIONS=200", "PBEM_WEB_MAX_CONNECTIONS_PER_CLIENT=200"})
	if err != nil {
		t.Fatal(err)
	}
	if c.Web.Addr != "127.0.0.1:8080" || c.Web.URL != "https://pbem.example.org" || c.Web.MaxConnections != 200 || c.Web.MaxConnectionsPerClient != 200 {
		t.Fatalf("web from the environment: %+v", c.Web)
	}
	for _, env := range [][]string{
		{"PBEM_WEB_ADDR=127.0.0.1:8080"},
		{"PBEM_WEB_URL=https://pbem.example.org"},
		{"PBEM_WEB_ADDR=8080", "PBEM_WEB_URL=https://pbem.example.org"},
		{"PBEM_WEB_ADDR=127.0.0.1:8080", "PBEM_WEB_URL=pbem.example.org"},
		{"PBEM_WEB_ADDR=127.0.0.1:8080", "PBEM_WEB_URL=ftp://pbem.example.org"},
		{"PBEM_WEB_ADDR=127.0.0.1:8080", "PBEM_WEB_URL=https://pbem.example.org/?x=1"},
		{"PBEM_WEB_ADDR=127.0.0.1:8080", "PBEM_WEB_URL=https://u:p@pbem.example.org"},
		{"PBEM_WEB_MAX_CONNECTIONS_PER_CLIENT=0"},
		{"PBEM_WEB_MAX_CONNECTIONS=10", "PBEM_WEB_MAX_CONNECTIONS_PER_CLIENT=11"},
	} {
		if _, err := Load("", env); err == nil || !strings.Contains(err.Error(), "[web]") {
			t.Errorf("%v: err %v, want a [web] error", env, err)
		}
	}
}

// store.database takes a PostgreSQL URL; the embedded servers' mail then
// has no file to sit beside. PBEM_TEST_… are the tests' own variables,
// not configuration pbem refuses.
func TestDatabaseURL(t *testing.T) {
	t.Parallel()
	c, err := Load("", []string{"PBEM_STORE_DATABASE=postgres://pbem:pw@db:5432/pbem", "PBEM_TEST_POSTGRES=postgres://x"})
	if err != nil {
		t.Fatal(err)
	}
	if c.Store.Database != "postgres://pbem:pw@db:5432/pbem" || c.EmbeddedMailDir() != "pbem.mail" {
		t.Errorf("database %q, embedded mail in %q; want the URL and pbem.mail", c.Store.Database, c.EmbeddedMailDir())
	}
}

// TestDatabaseSettingRefused (issue 33, finding 8): a store.database that
// is neither a path nor a postgres:// URL (a libpq key=value string,
// another URL scheme) is refused when the configuration is read, and the
// message names the key without repeating the value, which holds a
// password.
func TestDatabaseSettingRefused(t *testing.T) {
	t.Parallel()
	for _, v := range []string{
		"host=db.example port=5432 dbname=pbem user=pbem password=s3cret",
		"mysql://pbem:s3cret@db.example/pbem",
	} {
		_, err := Load("", []string{"PBEM_STORE_DATABASE=" + v})
		if err == nil {
			t.Errorf("a store.database of that form was taken")
			continue
		}
		if msg := err.Error(); strings.Contains(msg, "s3cret") || !strings.Contains(msg, "store.database") {
			t.Errorf("the refusal %q repeats the secret, or does not name store.database", msg)
		}
	}
}

// [runtime] sets the collector: Go's GOGC 100 and no memory limit by
// default, a limit written as GOMEMLIMIT is.
func TestRuntimeConfig(t *testing.T) {
	t.Parallel()
	c, err := Load("", nil)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := c.Runtime.MemoryLimitBytes(); c.Runtime.GCPercent != 100 || n != 0 || err != nil {
		t.Fatalf("runtime defaults: %+v, limit %d, %v", c.Runtime, n, err)
	}
	for in, want := range map[string]int64{
		"96MiB": 96 << 20, "1GiB": 1 << 30, "20000000": 20000000, "20000KiB": 20000 << 10, "16777216B": 16 << 20, "1TiB": 1 << 40,
	} {
		c, err := Load("", []string{"PBEM_RUNTIME_MEMORY_LIMIT=" + in, "PBEM_RUNTIME_GC_PERCENT=150"})
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if n, err := c.Runtime.MemoryLimitBytes(); n != want || err != nil || c.Runtime.GCPercent != 150 {
			t.Errorf("%s: %d, %v, %+v; want %d", in, n, err, c.Runtime, want)
		}
	}
}
