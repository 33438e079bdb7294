package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"io"
	"log/slog"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/pbem/pbem/mailer/embedded"
	"github.com/pbem/pbem/mailer/mailtest"
	"github.com/pbem/pbem/store/storetest"
)

// mailSetup is a working configuration against in-process servers: the
// embedded IMAP server (plain text, one password) and a test SMTP server
// that takes mail without AUTH.
type mailSetup struct {
	imap, smtp, password string
	noAuthSMTP           string // a server that offers no AUTH
	loginSMTP            string // a server that takes mail only after AUTH
}

func newMailSetup(t *testing.T) mailSetup {
	t.Helper()
	srv, err := embedded.Start(context.Background(), embedded.Config{
		IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0", Domain: "example.test", Password: "imap-secret",
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	plain := mailtest.StartSMTP(t, mailtest.SMTPOptions{})
	login := mailtest.StartSMTP(t, mailtest.SMTPOptions{User: "pbem@example.test", Password: "smtp-secret", RequireAuth: true})
	return mailSetup{imap: srv.IMAPAddr(), smtp: plain, password: "imap-secret", noAuthSMTP: plain, loginSMTP: login}
}

// env sets the PBEM_ variables of the working configuration, then the
// changes.
func (m mailSetup) env(t *testing.T, changes map[string]string) {
	t.Helper()
	vars := map[string]string{
		"PBEM_STORE_DATABASE":     filepath.Join(t.TempDir(), "pbem.db"),
		"PBEM_SERVICE_ADDRESS":    "pbem@example.test",
		"PBEM_IMAP_ADDR":          m.imap,
		"PBEM_IMAP_USERNAME":      "pbem@example.test",
		"PBEM_IMAP_PASSWORD":      m.password,
		"PBEM_IMAP_SECURITY":      "none",
		"PBEM_SMTP_ADDR":          m.smtp,
		"PBEM_SMTP_SECURITY":      "none",
		"PBEM_IMAP_POLL_INTERVAL": "1s",
	}
	for k, v := range changes {
		vars[k] = v
	}
	for k, v := range vars {
		t.Setenv(k, v)
	}
}

// watcher is a log writer that calls onServing once pbem says it serves.
type watcher struct {
	mu        sync.Mutex
	buf       bytes.Buffer
	onServing func()
}

func (w *watcher) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if w.onServing != nil && strings.Contains(w.buf.String(), "pbem serving") {
		w.onServing()
		w.onServing = nil
	}
	return len(p), nil
}

func (w *watcher) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// wrongConfigurations are mistakes pbem serve and pbem check must stop
// at, each with what the message must say: the key to change.
var wrongConfigurations = []struct {
	name    string
	changes func(m mailSetup, t *testing.T) map[string]string
	want    []string
}{
	{"smtp.username against a server without AUTH", func(m mailSetup, _ *testing.T) map[string]string {
		return map[string]string{"PBEM_SMTP_ADDR": m.noAuthSMTP, "PBEM_SMTP_USERNAME": "pbem@example.test", "PBEM_SMTP_PASSWORD": "x"}
	}, []string{"smtp.username", "smtp.password", "offers no AUTH", `smtp.security = "starttls"`}},
	{"no smtp.username against a server that wants a login", func(m mailSetup, _ *testing.T) map[string]string {
		return map[string]string{"PBEM_SMTP_ADDR": m.loginSMTP}
	}, []string{"without a login", "set smtp.username and smtp.password"}},
	{"wrong SMTP password", func(m mailSetup, _ *testing.T) map[string]string {
		return map[string]string{"PBEM_SMTP_ADDR": m.loginSMTP, "PBEM_SMTP_USERNAME": "pbem@example.test", "PBEM_SMTP_PASSWORD": "wrong"}
	}, []string{"refused AUTH", "smtp.username and smtp.password"}},
	{"wrong IMAP password", func(mailSetup, *testing.T) map[string]string {
		return map[string]string{"PBEM_IMAP_PASSWORD": "wrong"}
	}, []string{"refused the login", "imap.username and imap.password"}},
	{"smtp.security starttls, server offers none", func(mailSetup, *testing.T) map[string]string {
		return map[string]string{"PBEM_SMTP_SECURITY": "starttls"}
	}, []string{"smtp.security", "offers no STARTTLS"}},
	{"imap.security tls against a plain port", func(mailSetup, *testing.T) map[string]string {
		return map[string]string{"PBEM_IMAP_SECURITY": "tls"}
	}, []string{"imap.security", `"tls"`}},
	{"database directory missing", func(_ mailSetup, t *testing.T) map[string]string {
		return map[string]string{"PBEM_STORE_DATABASE": filepath.Join(t.TempDir(), "no-such-dir", "pbem.db")}
	}, []string{"store.database", "no-such-dir does not exist"}},
}

// TestServeStopsOnWrongConfiguration (issue 23, finding 9): pbem serve
// checks the database's directory, the IMAP login and the SMTP session
// before it accepts work, and stops with a message that names the key to
// change. It once started, took `new`, made the game, and then every
// send failed with "server does not support SMTP AUTH"; a missing
// database directory said "unable to open database file (14)".
func TestServeStopsOnWrongConfiguration(t *testing.T) {
	for _, tc := range wrongConfigurations {
		t.Run(tc.name, func(t *testing.T) {
			m := newMailSetup(t)
			m.env(t, tc.changes(m, t))
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			// Were pbem to start serving, stop it: the test fails below
			// on its exit status rather than waiting for ever.
			stderr := &watcher{onServing: cancel}
			code := run(ctx, &env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: stderr}, []string{"serve"})
			out := stderr.String()
			if code != 1 {
				t.Fatalf("pbem serve exited %d; want 1 before serving\n%s", code, out)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("the message does not say %q:\n%s", w, out)
				}
			}
			if strings.Contains(out, "(14)") {
				t.Errorf("SQLite's bare error reached the operator:\n%s", out)
			}
		})
	}
}

// TestCheckCommand: pbem check runs the same checks and exits 0 when all
// pass, 1 with the same message when one fails.
func TestCheckCommand(t *testing.T) {
	t.Run("working", func(t *testing.T) {
		m := newMailSetup(t)
		m.env(t, nil)
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), &env{stdout: &stdout, stderr: &stderr, resolver: fakeDNS{}}, []string{"check"}); code != 0 {
			t.Fatalf("pbem check exited %d\n%s", code, stderr.String())
		}
		for _, w := range []string{"store.database:", "imap: logged in to " + m.imap + " as pbem@example.test", "smtp: " + m.smtp + " (no TLS, no AUTH) takes mail",
			"dkim: off: pbem signs nothing", "spf: example.test publishes no SPF record", "dmarc: example.test publishes no DMARC record",
			"mail authentication: 3 of the findings above to act on"} {
			if !strings.Contains(stdout.String(), w) {
				t.Errorf("pbem check did not say %q:\n%s", w, stdout.String())
			}
		}
	})
	for _, tc := range wrongConfigurations {
		t.Run(tc.name, func(t *testing.T) {
			m := newMailSetup(t)
			m.env(t, tc.changes(m, t))
			var stdout, stderr bytes.Buffer
			if code := run(context.Background(), &env{stdout: &stdout, stderr: &stderr}, []string{"check"}); code != 1 {
				t.Fatalf("pbem check exited %d; want 1\n%s%s", code, stdout.String(), stderr.String())
			}
			for _, w := range tc.want {
				if !strings.Contains(stderr.String(), w) {
					t.Errorf("the message does not say %q:\n%s", w, stderr.String())
				}
			}
		})
	}
}

// fakeDNS answers pbem check's TXT look-ups from its map, so that tests
// never touch the network; any other name does not exist.
type fakeDNS map[string][]string

func (f fakeDNS) LookupTXT(_ context.Context, name string) ([]string, error) {
	if txts, ok := f[name]; ok {
		return txts, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: name, IsNotFound: true}
}

// writeDKIMKey writes a new Ed25519 key as PKCS #8 PEM, as openssl
// genpkey does, and returns its path and its DKIM record.
func writeDKIMKey(t *testing.T) (path, record string) {
	t.Helper()
	pub, key, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	path = filepath.Join(t.TempDir(), "dkim.pem")
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	return path, "v=DKIM1; k=ed25519; p=" + base64.StdEncoding.EncodeToString(pub)
}

// TestCheckSenderAuth (issue 37): with DKIM on, pbem check loads the key
// as pbem serve would, and says what DNS publishes for it, for SPF and
// for DMARC; a key that does not load fails the check, naming the key;
// what DNS lacks is said, and does not.
func TestCheckSenderAuth(t *testing.T) {
	keyPath, record := writeDKIMKey(t)
	_, otherRecord := writeDKIMKey(t)
	for _, tc := range []struct {
		name    string
		key     string
		dns     fakeDNS
		code    int
		want    []string
		wantNot []string
	}{
		{"all published", keyPath, fakeDNS{
			"pbem2026._domainkey.example.test": {record},
			"example.test":                     {"v=spf1 mx -all"},
			"_dmarc.example.test":              {"v=DMARC1; p=quarantine"},
		}, 0, []string{
			"dkim: on: pbem signs every mail with d=example.test s=pbem2026 (Ed25519)\n",
			"dkim: d=example.test is the From domain: aligned, strictly and relaxed, as DMARC needs\n",
			"dkim: pbem2026._domainkey.example.test publishes the public half of smtp.dkim_key: receivers can verify pbem's signatures\n",
			"spf: example.test publishes \"v=spf1 mx -all\"",
			"dmarc: _dmarc.example.test says p=quarantine",
		}, []string{"mail authentication:"}},
		{"another key published", keyPath, fakeDNS{"pbem2026._domainkey.example.test": {otherRecord}}, 0, []string{
			"dkim: the key published at pbem2026._domainkey.example.test is not the public half of smtp.dkim_key, so receivers fail every signature pbem makes: publish " + record + " there",
			"mail authentication: 3 of the findings above to act on",
		}, nil},
		{"key missing", filepath.Join(t.TempDir(), "none.pem"), nil, 1, []string{"smtp.dkim_key (PBEM_SMTP_DKIM_KEY)", "none.pem"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := newMailSetup(t)
			m.env(t, map[string]string{"PBEM_SMTP_DKIM_KEY": tc.key, "PBEM_SMTP_DKIM_SELECTOR": "pbem2026"})
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), &env{stdout: &stdout, stderr: &stderr, resolver: tc.dns}, []string{"check"})
			out := stdout.String() + stderr.String()
			if code != tc.code {
				t.Fatalf("pbem check exited %d; want %d\n%s", code, tc.code, out)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("pbem check did not say %q:\n%s", w, out)
				}
			}
			for _, w := range tc.wantNot {
				if strings.Contains(out, w) {
					t.Errorf("pbem check said %q:\n%s", w, out)
				}
			}
		})
	}
}

// A PostgreSQL URL's password never shows in what pbem check prints,
// whether the server answers or not.
func TestCheckHidesDatabasePassword(t *testing.T) {
	dbs := []string{"postgres://pbem:s3cret@127.0.0.1:1/pbem?connect_timeout=2"}
	if storetest.OnPostgres() {
		dbs = append(dbs, storetest.Database(t))
	}
	for i, db := range dbs {
		u, err := url.Parse(db)
		if err != nil {
			t.Fatal(err)
		}
		password, _ := u.User.Password()
		t.Setenv("PBEM_STORE_DATABASE", db)
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), &env{stdout: &stdout, stderr: &stderr}, []string{"check"})
		if want := min(i, 1); (code == 0) != (want == 1) {
			t.Errorf("database %d: pbem check exited %d\n%s%s", i, code, stdout.String(), stderr.String())
		}
		out := stdout.String() + stderr.String()
		if !strings.Contains(out, "store.database") || strings.Contains(out, password) {
			t.Errorf("database %d: pbem check printed the password, or nothing of store.database:\n%s", i, out)
		}
	}
}

// TestDatabaseSettingNeverAFile (issue 33, finding 8): a libpq key=value
// string in store.database was taken as a SQLite path, and pbem serve
// made a file named after the password in its working directory. serve
// and check now refuse it as they read the configuration: nothing is
// created, and neither the message nor the log repeats the password.
func TestDatabaseSettingNeverAFile(t *testing.T) {
	const secret = "s3cret"
	for _, cmd := range []string{"serve", "check"} {
		t.Run(cmd, func(t *testing.T) {
			dir := t.TempDir()
			t.Chdir(dir)
			t.Setenv("PBEM_CONFIG", "")
			t.Setenv("PBEM_STORE_DATABASE", "host=127.0.0.1 dbname=pbem user=pbem password="+secret)
			t.Setenv("PBEM_EMBEDDED_IMAP_ADDR", "127.0.0.1:0")
			t.Setenv("PBEM_EMBEDDED_SMTP_ADDR", "127.0.0.1:0")
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			stderr := &watcher{onServing: cancel}
			var stdout bytes.Buffer
			code := run(ctx, &env{stdin: strings.NewReader(""), stdout: &stdout, stderr: stderr}, []string{cmd})
			out := stdout.String() + stderr.String()
			if code == 0 {
				t.Errorf("pbem %s exited 0 with that store.database:\n%s", cmd, out)
			}
			if strings.Contains(out, secret) {
				t.Errorf("pbem %s repeated the password:\n%s", cmd, out)
			}
			if !strings.Contains(out, "store.database") {
				t.Errorf("pbem %s did not name store.database:\n%s", cmd, out)
			}
			if left, _ := filepath.Glob(filepath.Join(dir, "*")); len(left) > 0 {
				t.Errorf("pbem %s left files in its working directory: %v", cmd, left)
			}
		})
	}
}

// TestStoreCopyRefusesKeyValueDatabase: pbem store copy takes its
// databases as arguments; a libpq key=value string there is refused too,
// and not repeated (its os.Stat error named it).
func TestStoreCopyRefusesKeyValueDatabase(t *testing.T) {
	t.Chdir(t.TempDir())
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), &env{stdout: &stdout, stderr: &stderr},
		[]string{"store", "copy", "host=db password=s3cret", filepath.Join(t.TempDir(), "to.db")})
	out := stdout.String() + stderr.String()
	if code == 0 || strings.Contains(out, "s3cret") || !strings.Contains(out, "FROM") {
		t.Errorf("pbem store copy exited %d:\n%s", code, out)
	}
}
