package embedded

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// startIn starts the servers on free ports with their mail in dir and no
// password configured, and stops them before returning them.
func startIn(t *testing.T, dir string) *Servers {
	t.Helper()
	s, err := Start(context.Background(), Config{
		IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0", Dir: dir,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	return s
}

// TestPasswordKeptBesideTheMail (issue 35, finding 9): the generated
// password is made at the first start, kept in the mail directory, mode
// 0600, and is the same at the next start, so that a mail client set up
// with it keeps working; Instructions prints it at every start. It was
// new at every start while the mail stayed.
func TestPasswordKeptBesideTheMail(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "mail")
	first := startIn(t, dir)
	second := startIn(t, dir)
	if first.Password() == "" || first.Password() != second.Password() {
		t.Fatalf("two starts on one directory: passwords %q and %q, want one, not empty", first.Password(), second.Password())
	}
	for _, s := range []*Servers{first, second} {
		if !strings.Contains(s.Instructions(), "pass  "+first.Password()+" (kept in "+filepath.Join(dir, passwordFile)+", the same at every start)\n") {
			t.Errorf("the instructions do not give the password:\n%s", s.Instructions())
		}
	}
	info, err := os.Stat(filepath.Join(dir, passwordFile))
	if err != nil {
		t.Fatal(err)
	}
	if mode := info.Mode().Perm(); mode != 0o600 {
		t.Errorf("%s: mode %v, want 0600 (it opens every mailbox)", passwordFile, mode)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, passwordFile)); strings.TrimSpace(string(b)) != first.Password() {
		t.Errorf("the file holds %q, the servers use %q", b, first.Password())
	}
	other := startIn(t, filepath.Join(t.TempDir(), "mail"))
	if other.Password() == first.Password() || len(other.Password()) != 16 {
		t.Errorf("a fresh directory: password %q, want a new random one of 16 hex digits (the first was %q)", other.Password(), first.Password())
	}
	// A password the configuration sets is used and not written down.
	s, err := Start(context.Background(), Config{IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0", Dir: t.TempDir(), Password: "set", Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := os.Stat(filepath.Join(s.st.dir, passwordFile)); s.Password() != "set" || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a configured password: servers use %q, file: %v; want \"set\" and no file", s.Password(), err)
	}
}

// TestPasswordFileEmpty: an emptied password file is refused with what
// to do, rather than opening every mailbox with the empty password.
func TestPasswordFileEmpty(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, passwordFile), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Start(context.Background(), Config{IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0", Dir: dir, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err == nil || !strings.Contains(err.Error(), "is empty: delete it") {
		t.Fatalf("an empty password file: %v", err)
	}
}

// TestListenErrorSaysWhichServer: a busy port is reported as a
// *ListenError naming the server, so that pbem can name the key to change.
func TestListenErrorSaysWhichServer(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	for _, server := range []string{"imap", "smtp"} {
		cfg := Config{IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0", Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
		if server == "imap" {
			cfg.IMAPAddr = busy.Addr().String()
		} else {
			cfg.SMTPAddr = busy.Addr().String()
		}
		_, err := Start(context.Background(), cfg)
		var le *ListenError
		if !errors.As(err, &le) || le.Server != server || le.Addr != busy.Addr().String() {
			t.Errorf("%s on a busy port: %v, want a *ListenError for %s", server, err, server)
		}
	}
}
