package config

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestDurationForms (issue 35, finding 9): a configured duration is
// written as a mail's `deadline` is, or as Go writes one, which the
// configurations before took alone. `turn_time = "2 days"` was refused
// with Go's own message: time: unknown unit " days" in duration "2 days".
func TestDurationForms(t *testing.T) {
	t.Parallel()
	const day = 24 * time.Hour
	tests := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		// As in mail.
		{"2 days", 2 * day, true},
		{"2d", 2 * day, true},
		{"1 day", day, true},
		{"36 hours", 36 * time.Hour, true},
		{"90 minutes", 90 * time.Minute, true},
		{"90 mins", 90 * time.Minute, true},
		{"1 week", 7 * day, true},
		{"2 days 12 hours", 60 * time.Hour, true},
		{"1 day and 6 hours", 30 * time.Hour, true},
		{"two days", 2 * day, true},
		{"  3 Days ", 3 * day, true},
		// As Go writes them.
		{"48h", 48 * time.Hour, true},
		{"72h0m0s", 72 * time.Hour, true},
		{"90s", 90 * time.Second, true},
		{"1h30m", 90 * time.Minute, true},
		{"30ms", 30 * time.Millisecond, true},
		{"0s", 0, true},
		{"-5m", -5 * time.Minute, true},
		// Neither.
		{"", 0, false},
		{"soon", 0, false},
		{"2 dayz", 0, false},
		{"2", 0, false},
		{"days", 0, false},
		{"1.5 days", 0, false},
		{"2 days 3", 0, false},
	}
	for _, tt := range tests {
		var d Duration
		err := d.UnmarshalText([]byte(tt.in))
		if ok := err == nil; ok != tt.ok || (ok && d.Duration != tt.want) {
			t.Errorf("%q: %v, %v; want %v, ok %v", tt.in, d.Duration, err, tt.want, tt.ok)
		}
		if err != nil && !strings.Contains(err.Error(), durationForms) {
			t.Errorf("%q: %v does not say how to write a duration", tt.in, err)
		}
	}
}

// TestDurationErrorsNameTheKey: a refused duration names its key, in the
// file as the other messages do ("[service] turn_time") and in the
// environment by its variable, and says which forms are taken.
func TestDurationErrorsNameTheKey(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	tests := []struct {
		path string
		env  []string
		want string
	}{
		{write("turn.toml", "[service]\nturn_time = \"2 dayz\"\n"), nil, `line 2: [service] turn_time: "2 dayz" is not a duration: ` + durationForms},
		{write("poll.toml", "[service]\nname = \"p\"\n[outbox]\npoll_interval = \"often\"\n"), nil, `line 4: [outbox] poll_interval: "often" is not a duration`},
		{write("reminder.toml", "[service]\nreminders = [\"half a day\"]\n"), nil, `[service] reminders: reminder "half a day" is neither`},
		{"", []string{"PBEM_SERVICE_TURN_TIME=2 dayz"}, `PBEM_SERVICE_TURN_TIME="2 dayz" is not a duration: ` + durationForms},
		{"", []string{"PBEM_RETENTION_EVERY=daily"}, `PBEM_RETENTION_EVERY="daily" is not a duration`},
	}
	for _, tt := range tests {
		_, err := Load(tt.path, tt.env)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s %v: %v, want %q", filepath.Base(tt.path), tt.env, err, tt.want)
		}
	}
}

// TestDurationsInMailFormLoad: a file and the environment written with
// mail's words load, reminders included.
func TestDurationsInMailFormLoad(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "pbem.toml")
	text := "[service]\nturn_time = \"2 days\"\nreminders = [\"50%\", \"12 hours\"]\n[retention]\nmail_bodies = \"4 weeks\"\n"
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := Load(path, []string{"PBEM_OUTBOX_RETRY_MAX=2 hours"})
	if err != nil {
		t.Fatal(err)
	}
	if c.Service.TurnTime.Duration != 48*time.Hour || c.Retention.MailBodies.Duration != 28*24*time.Hour ||
		c.Outbox.RetryMax.Duration != 2*time.Hour || len(c.Service.Reminders) != 2 || c.Service.Reminders[1].Before != 12*time.Hour {
		t.Errorf("loaded %+v %+v %+v %+v", c.Service.TurnTime, c.Retention.MailBodies, c.Outbox.RetryMax, c.Service.Reminders)
	}
}

// TestDocumentedDurationsLoad: every example docs/configuration.md gives
// of how a duration is written is one Duration reads.
func TestDocumentedDurationsLoad(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("../../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(doc), "## Durations")
	if !ok {
		t.Fatal(`docs/configuration.md has no "## Durations" section`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	examples := regexp.MustCompile("`\"([^\"`]+)\"`").FindAllStringSubmatch(section, -1)
	if len(examples) < 6 {
		t.Fatalf("the Durations section gives %d examples, want both forms", len(examples))
	}
	for _, m := range examples {
		var d Duration
		if err := d.UnmarshalText([]byte(m[1])); err != nil {
			t.Errorf("docs/configuration.md's %q: %v", m[1], err)
		}
	}
}

// TestEmbeddedWeb (issue 35, finding 9): the quick start, pbem on its
// embedded servers with nothing configured, serves the seat pages on
// loopback, so that its first game's mails carry a link; a [web] of its
// own, a real mail server or an empty embedded.web_addr is left alone,
// and an address the mails could not link is refused.
func TestEmbeddedWeb(t *testing.T) {
	t.Parallel()
	real := []string{"PBEM_IMAP_ADDR=imap:993", "PBEM_SMTP_ADDR=smtp:25", "PBEM_SERVICE_ADDRESS=pbem@example.org"}
	tests := []struct {
		name     string
		env      []string
		addr     string
		url, err string
	}{
		{"the quick start", nil, "127.0.0.1:8080", "http://127.0.0.1:8080", ""},
		{"another port", []string{"PBEM_EMBEDDED_WEB_ADDR=127.0.0.1:9090"}, "127.0.0.1:9090", "http://127.0.0.1:9090", ""},
		{"localhost", []string{"PBEM_EMBEDDED_WEB_ADDR=localhost:9090"}, "localhost:9090", "http://localhost:9090", ""},
		{"turned off", []string{"PBEM_EMBEDDED_WEB_ADDR="}, "", "", ""},
		{"[web] set", []string{"PBEM_WEB_ADDR=127.0.0.1:7000", "PBEM_WEB_URL=https://pbem.example.org"}, "127.0.0.1:7000", "https://pbem.example.org", ""},
		{"a real mail server", real, "", "", ""},
		{"half a [web]", []string{"PBEM_WEB_ADDR=127.0.0.1:7000"}, "", "", "[web] addr and url go together"},
		{"no fixed port", []string{"PBEM_EMBEDDED_WEB_ADDR=127.0.0.1:0"}, "", "", "[embedded] web_addr \"127.0.0.1:0\" is not host:port with a fixed port"},
		{"no port", []string{"PBEM_EMBEDDED_WEB_ADDR=8080"}, "", "", "[embedded] web_addr \"8080\" is not host:port"},
		{"not loopback", []string{"PBEM_EMBEDDED_WEB_ADDR=0.0.0.0:8080"}, "", "", "[embedded] web_addr \"0.0.0.0:8080\" is not on loopback"},
	}
	for _, tt := range tests {
		c, err := Load("", tt.env)
		switch {
		case tt.err != "":
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: %v, want %q", tt.name, err, tt.err)
			}
		case err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case c.Web.Addr != tt.addr || c.Web.URL != tt.url:
			t.Errorf("%s: [web] addr %q url %q, want %q %q", tt.name, c.Web.Addr, c.Web.URL, tt.addr, tt.url)
		}
	}
}
