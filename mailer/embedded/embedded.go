// Package embedded runs a small mail system inside the process: an IMAP
// server (go-imap's imapserver over a small mail store of our own) and an
// SMTP server (go-smtp) on loopback. Every address is deliverable: mail to
// alice+tag@example.test lands in the INBOX of the user alice@example.test
// with a Delivered-To: alice+tag@example.test header, just as Postfix
// handing mail to Dovecot over LMTP does, so a program reading the mailbox
// sees the same thing in both worlds. Users come into being on their first
// mail or login and share one password.
//
// It is meant for `pbem serve` without mail configuration, for demos and for
// tests. With Config.Dir the mail is kept on disk and survives a restart:
// mailboxes, messages, their UIDs, flags and UIDNEXT, and each mailbox's
// UIDVALIDITY, so a client's remembered UIDs stay right (see store.go for
// the layout). A message is on disk, synced, before SMTP answers 250 to its
// DATA and before IMAP answers OK to its APPEND. A file put into
// DIR/USER/INBOX/new/ (written elsewhere, then renamed in) is delivered when
// the servers start; while they run it waits for the next start. Without a
// directory mail lives in memory and is gone when the process ends.
//
// UIDVALIDITY is the time in seconds when a mailbox was created, kept above
// every value handed out before from the same directory, so a new directory,
// a deleted and re-created mailbox or a reset one never repeats a value a
// client may remember with other UIDs.
package embedded

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Config configures the embedded servers.
type Config struct {
	// IMAPAddr and SMTPAddr are the listening addresses. They should be on
	// loopback: the servers speak plain text and accept anyone with the
	// password. Empty means 127.0.0.1:1143 and 127.0.0.1:1025; use
	// 127.0.0.1:0 for a free port.
	IMAPAddr, SMTPAddr string
	// Domain is the domain of the users; logins without a domain get it.
	// Empty means "pbem.test".
	Domain string
	// Password is every user's IMAP password (and SMTP AUTH password, which
	// is optional). Empty means a random one, made at the first start and
	// kept in Dir (DIR/password, mode 0600) so that a mail client set up
	// with it keeps working after a restart; without Dir, a new one at
	// every start. See Servers.Password.
	Password string
	// TLSConfig, if set, makes both servers offer STARTTLS.
	TLSConfig *tls.Config
	// MaxMessageBytes limits the size of one message. Zero means 10 MB.
	MaxMessageBytes int64
	// Logger receives the servers' errors. Nil means slog.Default().
	Logger *slog.Logger
	// Dir, if set, is where the mail is kept, so it survives a restart.
	// It is created if missing. Empty keeps mail in memory only. Only one
	// process may use a directory at a time.
	Dir string
}

// Servers are running embedded IMAP and SMTP servers.
type Servers struct {
	domain   string
	password string
	kept     bool // the password is the one kept in the mail directory
	log      *slog.Logger
	caps     imap.CapSet
	tls      *tls.Config

	st *store

	mu     sync.Mutex
	imap   *imapserver.Server
	imapLn net.Listener
	// imapServed is closed when the running IMAP server's Serve returns.
	imapServed <-chan struct{}
	imapAddr   string
	closed     bool

	smtp     *smtp.Server
	smtpLn   net.Listener
	smtpAddr string
	wg       sync.WaitGroup
}

// Start starts both servers. They run until Close, or until ctx is done.
func Start(ctx context.Context, cfg Config) (*Servers, error) {
	if cfg.IMAPAddr == "" {
		cfg.IMAPAddr = "127.0.0.1:1143"
	}
	if cfg.SMTPAddr == "" {
		cfg.SMTPAddr = "127.0.0.1:1025"
	}
	if cfg.Domain == "" {
		cfg.Domain = "pbem.test"
	}
	if cfg.MaxMessageBytes <= 0 {
		cfg.MaxMessageBytes = 10 << 20
	}
	log := cfg.Logger
	if log == nil {
		log = slog.Default()
	}
	s := &Servers{
		domain:   strings.ToLower(cfg.Domain),
		password: cfg.Password,
		log:      log.With("component", "embedded-mail"),
		tls:      cfg.TLSConfig,
		// IMAP4rev1 plus the extensions pbem and common mail clients use.
		// Not IMAP4rev2: older clients understand rev1 best.
		caps: imap.CapSet{
			imap.CapIMAP4rev1: {},
			imap.CapIdle:      {},
			imap.CapMove:      {},
			imap.CapUIDPlus:   {},
			imap.CapNamespace: {},
			imap.CapUnselect:  {},
		},
	}

	st, err := openStore(cfg.Dir, s.log)
	if err != nil {
		return nil, err
	}
	s.st = st
	if s.password == "" {
		if s.password, err = keptPassword(cfg.Dir); err != nil {
			st.close()
			return nil, err
		}
		s.kept = cfg.Dir != ""
	}
	imapLn, err := net.Listen("tcp", cfg.IMAPAddr)
	if err != nil {
		st.close()
		return nil, &ListenError{Server: "imap", Addr: cfg.IMAPAddr, Err: err}
	}
	smtpLn, err := net.Listen("tcp", cfg.SMTPAddr)
	if err != nil {
		imapLn.Close()
		st.close()
		return nil, &ListenError{Server: "smtp", Addr: cfg.SMTPAddr, Err: err}
	}
	s.imapAddr = imapLn.Addr().String()
	s.smtpAddr = smtpLn.Addr().String()
	s.serveIMAP(imapLn)

	srv := smtp.NewServer(&backend{s: s})
	srv.Domain = s.domain
	srv.MaxMessageBytes = cfg.MaxMessageBytes
	srv.MaxRecipients = 100
	srv.AllowInsecureAuth = true
	srv.ReadTimeout = 5 * time.Minute
	srv.WriteTimeout = time.Minute
	srv.ErrorLog = slogPrinter{s.log.With("server", "smtp")}
	srv.TLSConfig = cfg.TLSConfig
	s.smtp = srv
	s.smtpLn = smtpLn
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		if err := srv.Serve(smtpLn); err != nil && !errors.Is(err, smtp.ErrServerClosed) {
			s.log.Error("smtp server stopped", "err", err)
		}
	}()

	context.AfterFunc(ctx, func() { s.Close() })
	return s, nil
}

// ListenError is Start's error when a server cannot listen on its
// address: it says which server, so that the caller can name the setting
// to change.
type ListenError struct {
	Server string // "imap" or "smtp"
	Addr   string // the address asked for
	Err    error
}

func (e *ListenError) Error() string { return "embedded: " + e.Server + ": " + e.Err.Error() }
func (e *ListenError) Unwrap() error { return e.Err }

// passwordFile is the file in Config.Dir that keeps the generated
// password beside the mail it opens.
const passwordFile = "password"

// keptPassword is the password kept in dir, made and kept there (mode
// 0600, written whole or not at all: writeFileAtomic) if there is none
// yet. Without a
// directory there is nowhere to keep it, and it is new every time.
func keptPassword(dir string) (string, error) {
	if dir == "" {
		return newPassword(), nil
	}
	path := filepath.Join(dir, passwordFile)
	b, err := os.ReadFile(path)
	if err == nil {
		if pw := strings.TrimSpace(string(b)); pw != "" {
			return pw, nil
		}
		return "", fmt.Errorf("embedded: %s is empty: delete it for a new password, or write one in it", path)
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("embedded: password: %w", err)
	}
	pw := newPassword()
	if err := writeFileAtomic(path, []byte(pw+"\n")); err != nil {
		return "", fmt.Errorf("embedded: password: %w", err)
	}
	return pw, nil
}

// newPassword is 16 random hexadecimal digits.
func newPassword() string {
	b := make([]byte, 8)
	rand.Read(b)
	return hex.EncodeToString(b)
}

func (s *Servers) newIMAPServer() *imapserver.Server {
	return imapserver.New(&imapserver.Options{
		NewSession: func(*imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			return &session{s: s}, nil, nil
		},
		Caps:         s.caps,
		TLSConfig:    s.tls,
		Logger:       slogPrinter{s.log.With("server", "imap")},
		InsecureAuth: true,
	})
}

// serveIMAP starts a new IMAP server on ln. Callers hold no lock.
func (s *Servers) serveIMAP(ln net.Listener) {
	srv := s.newIMAPServer()
	served := make(chan struct{})
	s.mu.Lock()
	s.imap = srv
	s.imapLn = ln
	s.imapServed = served
	s.mu.Unlock()
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer close(served)
		if err := srv.Serve(ln); err != nil {
			s.log.Debug("imap server stopped", "err", err)
		}
	}()
}

// stopIMAP stops one IMAP server: its listener first, then, once Serve has
// returned, the server and its connections. The order matters: go-imap's
// Server.Close waits on a WaitGroup that Serve adds to after registering
// its listener, so a Close while Serve is starting is a data race inside
// the library (seen in CI under -race). Closing our listener makes Serve
// return whether or not it got that far.
func stopIMAP(srv *imapserver.Server, ln net.Listener, served <-chan struct{}) {
	ln.Close()
	<-served
	srv.Close()
}

// IMAPAddr is the address the IMAP server listens on.
func (s *Servers) IMAPAddr() string { return s.imapAddr }

// SMTPAddr is the address the SMTP server listens on.
func (s *Servers) SMTPAddr() string { return s.smtpAddr }

// Domain is the users' domain.
func (s *Servers) Domain() string { return s.domain }

// Password is every user's password.
func (s *Servers) Password() string { return s.password }

// Address returns the address of the user with the given local part.
func (s *Servers) Address(local string) string { return local + "@" + s.domain }

// Instructions tells a person how to point a mail client at the servers.
func (s *Servers) Instructions() string {
	ih, ip, _ := net.SplitHostPort(s.imapAddr)
	sh, sp, _ := net.SplitHostPort(s.smtpAddr)
	where := "in memory; mail and password are lost when pbem stops"
	pass := s.password
	if s.st.dir != "" {
		where = "mail kept in " + s.st.dir
		if s.kept {
			pass += " (kept in " + filepath.Join(s.st.dir, passwordFile) + ", the same at every start)"
		}
	}
	return fmt.Sprintf(`Embedded mail servers (%s):
  IMAP  %s port %s, no encryption, normal password
  SMTP  %s port %s, no encryption, no authentication needed
  user  any address @%s, for example alice@%s
  pass  %s
Every address exists: mail to alice+anything@%s reaches alice@%s's INBOX.
`, where, ih, ip, sh, sp, s.domain, s.domain, pass, s.domain, s.domain)
}

// Close stops both servers and drops every connection. Mail in memory is
// kept until the Servers are garbage; mail on disk stays there.
func (s *Servers) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	imapSrv, imapLn, imapServed := s.imap, s.imapLn, s.imapServed
	s.mu.Unlock()
	// The servers close only the listeners their Serve has registered, and
	// Serve may not have got that far yet: close ours too, or Serve would
	// wait for a connection forever.
	stopIMAP(imapSrv, imapLn, imapServed)
	s.smtp.Close()
	s.smtpLn.Close()
	s.wg.Wait()
	s.st.close()
	return nil
}

// RestartIMAP drops the IMAP listener and every IMAP connection and listens
// again on the same address, keeping all mail: what a client sees when a
// real server restarts. It is there to test reconnection.
func (s *Servers) RestartIMAP() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return errors.New("embedded: servers closed")
	}
	old, oldLn, oldServed := s.imap, s.imapLn, s.imapServed
	s.mu.Unlock()
	stopIMAP(old, oldLn, oldServed)
	// The port is free as soon as the listener is closed; retry briefly in
	// case the kernel has not caught up.
	var (
		ln  net.Listener
		err error
	)
	for i := 0; i < 50; i++ {
		if ln, err = net.Listen("tcp", s.imapAddr); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		return fmt.Errorf("embedded: imap restart: %w", err)
	}
	s.serveIMAP(ln)
	return nil
}

// ResetMailbox deletes a user's folder and creates it again, empty and with
// a new UIDVALIDITY, as a server restored from a backup may. It is there to
// test clients that remember UIDs.
func (s *Servers) ResetMailbox(user, mailbox string) error {
	u, err := s.st.user(s.userName(user))
	if err != nil {
		return err
	}
	if err := u.delete(mailbox); err != nil {
		return err
	}
	return u.create(mailbox)
}

// userName maps an address or login name to the user it belongs to: the
// local part without its +detail, lower-cased, at its domain (or ours).
func (s *Servers) userName(addr string) string {
	addr = strings.ToLower(strings.TrimSpace(addr))
	local, domain, ok := strings.Cut(addr, "@")
	if !ok || domain == "" {
		domain = s.domain
	}
	if i := strings.IndexByte(local, '+'); i >= 0 {
		local = local[:i]
	}
	return local + "@" + domain
}

// Deliver puts raw into the INBOX of each recipient's user, with the
// headers an LMTP delivery by Dovecot would add on top.
func (s *Servers) Deliver(from string, to []string, raw []byte) error {
	now := time.Now()
	for _, rcpt := range to {
		var b bytes.Buffer
		fmt.Fprintf(&b, "Return-Path: <%s>\r\n", from)
		fmt.Fprintf(&b, "Delivered-To: %s\r\n", rcpt)
		fmt.Fprintf(&b, "Received: by %s (pbem embedded) for <%s>; %s\r\n",
			s.domain, rcpt, now.Format(time.RFC1123Z))
		b.Write(raw)
		u, err := s.st.user(s.userName(rcpt))
		if err != nil {
			return fmt.Errorf("embedded: deliver to %s: %w", rcpt, err)
		}
		inbox, err := u.inbox()
		if err != nil {
			return fmt.Errorf("embedded: deliver to %s: %w", rcpt, err)
		}
		if _, err := inbox.append(newMail{buf: b.Bytes(), date: now}); err != nil {
			return fmt.Errorf("embedded: deliver to %s: %w", rcpt, err)
		}
	}
	return nil
}

// backend is the SMTP side: every recipient is accepted.
type backend struct{ s *Servers }

func (be *backend) NewSession(c *smtp.Conn) (smtp.Session, error) {
	return &smtpSession{s: be.s}, nil
}

type smtpSession struct {
	s    *Servers
	from string
	to   []string
}

func (ss *smtpSession) AuthMechanisms() []string { return []string{sasl.Plain} }

func (ss *smtpSession) Auth(mech string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(identity, username, password string) error {
		if subtle.ConstantTimeCompare([]byte(password), []byte(ss.s.password)) != 1 {
			return smtp.ErrAuthFailed
		}
		return nil
	}), nil
}

func (ss *smtpSession) Mail(from string, _ *smtp.MailOptions) error {
	ss.from = from
	ss.to = nil
	return nil
}

func (ss *smtpSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	if !strings.Contains(to, "@") {
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 3}, Message: "address needs a domain"}
	}
	ss.to = append(ss.to, to)
	return nil
}

func (ss *smtpSession) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	return ss.s.Deliver(ss.from, ss.to, raw)
}

func (ss *smtpSession) Reset() {
	ss.from = ""
	ss.to = nil
}

func (ss *smtpSession) Logout() error { return nil }

// slogPrinter adapts slog to the Printf/Println loggers of the servers.
type slogPrinter struct{ log *slog.Logger }

func (p slogPrinter) Printf(format string, v ...any) {
	p.log.Warn(strings.TrimSpace(fmt.Sprintf(format, v...)))
}

func (p slogPrinter) Println(v ...any) {
	p.log.Warn(strings.TrimSpace(fmt.Sprintln(v...)))
}
