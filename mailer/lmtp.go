package mailer

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/emersion/go-smtp"
)

// LMTP: the mail server hands mail to pbem directly (RFC 2033), instead
// of pbem polling a mailbox. The server answers a recipient 250 only once
// the BatchHandler has committed the mail, and 4xx when it could not (the
// database failed, pbem is stopping): the MTA keeps the mail and delivers
// it again later. A mail delivered again (after a 4xx, or after a crash
// between the commit and the 250) carries the same Message-ID, or, without
// one, the same bytes, hence the same Message.ID: the handler's
// exactly-once record makes it a no-op.
//
// One mail is one Message, whatever its number of recipients: it is handed
// over once, with a Delivered-To field naming one recipient (the first
// with a detail, local+detail@domain, else the first), and every
// recipient gets the one answer its commit earned. A recipient the server
// does not accept is refused at RCPT (550), alone.

// LMTPMailbox is the Mailbox of every Message the LMTP server hands over:
// mail delivered by LMTP lies in no IMAP folder, and has no UID.
const LMTPMailbox = "LMTP"

// LMTPConfig configures an LMTPServer.
type LMTPConfig struct {
	// Addr is a TCP address (127.0.0.1:2424) or "unix:" and a socket's path.
	Addr string
	// Accept says whether a recipient (an address, as the client wrote
	// it) is one the server takes mail for; others are refused at RCPT.
	Accept func(rcpt string) bool
	// Separator separates an address's local part from its detail ("+").
	Separator string
	// MaxSize: a mail larger than this is handed over as its header only,
	// with TooLarge set, so that its sender can be told. HardLimit: a mail
	// larger than this is refused (552); the MTA bounces it to its sender.
	MaxSize, HardLimit int64
	// MaxRecipients bounds the recipients of one mail.
	MaxRecipients int
	// MaxConns bounds the connections served at once; more are answered
	// 421 and closed. MailsPerConn bounds the mails taken over one
	// connection; past it MAIL is answered 421, which ends the session
	// (the MTA opens another).
	MaxConns, MailsPerConn int
	// Timeout bounds the wait for each command, for a whole DATA
	// transfer and for each answer written.
	Timeout time.Duration
	// MaxBatch bounds the mails committed together (group commit: the
	// mails delivered while a batch commits are the next batch).
	MaxBatch int
	Logger   *slog.Logger
}

// LMTPServer is an LMTP server that hands each delivered mail to a
// BatchHandler.
type LMTPServer struct {
	cfg  LMTPConfig
	ln   net.Listener
	log  *slog.Logger
	addr string

	queue    chan *delivery
	stopping chan struct{} // closed when the server stops taking mail
	stopOnce sync.Once
}

// delivery is one mail waiting for its commit.
type delivery struct {
	msg  Message
	done chan error // nil: committed
}

// Answers an LMTP client gets when pbem cannot take a mail now. Their
// text names no internal detail: it reaches the MTA's logs and, in delay
// notices, the sender.
var (
	errLMTPNotCommitted = &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "pbem could not store the mail now; try again later"}
	errLMTPStopping     = &smtp.SMTPError{Code: 421, EnhancedCode: smtp.EnhancedCode{4, 3, 2}, Message: "pbem is stopping; try again later"}
	errLMTPBusy         = &smtp.SMTPError{Code: 421, EnhancedCode: smtp.EnhancedCode{4, 3, 2}, Message: "too many connections; try again later"}
	errLMTPEnough       = &smtp.SMTPError{Code: 421, EnhancedCode: smtp.EnhancedCode{4, 3, 2}, Message: "enough mail on this connection; open another"}
	errLMTPUnknown      = &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "no such address here"}
	errLMTPBadAddress   = &smtp.SMTPError{Code: 501, EnhancedCode: smtp.EnhancedCode{5, 1, 7}, Message: "address not usable"}
)

// NewLMTPServer listens on cfg.Addr, so that an address in use stops pbem
// at start; RunBatch serves it. A Unix socket left behind by a pbem that
// died is replaced; one another process listens on is not.
func NewLMTPServer(cfg LMTPConfig) (*LMTPServer, error) {
	switch {
	case cfg.Accept == nil || cfg.Separator == "":
		return nil, errors.New("mailer: LMTP server needs Accept and Separator")
	case cfg.MaxSize <= 0 || cfg.HardLimit < cfg.MaxSize || cfg.MaxRecipients <= 0 || cfg.MaxConns <= 0 ||
		cfg.MailsPerConn <= 0 || cfg.Timeout <= 0 || cfg.MaxBatch <= 0:
		return nil, fmt.Errorf("mailer: LMTP limits not set: %+v", cfg)
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	ln, err := listenLMTP(cfg.Addr)
	if err != nil {
		return nil, err
	}
	ln = &limitListener{Listener: ln, max: int64(cfg.MaxConns)}
	s := &LMTPServer{cfg: cfg, ln: ln, log: log, queue: make(chan *delivery), stopping: make(chan struct{})}
	s.addr = ln.Addr().String()
	if ln.Addr().Network() == "unix" {
		s.addr = "unix:" + s.addr
	}
	return s, nil
}

// listenLMTP listens on a TCP address or on "unix:PATH".
func listenLMTP(addr string) (net.Listener, error) {
	path, unix := strings.CutPrefix(addr, "unix:")
	if !unix {
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			return nil, fmt.Errorf("mailer: LMTP listener: %w", err)
		}
		return ln, nil
	}
	if _, err := os.Lstat(path); err == nil {
		if c, err := net.DialTimeout("unix", path, time.Second); err == nil {
			c.Close()
			return nil, fmt.Errorf("mailer: LMTP listener: something already listens on %s", path)
		}
		if err := os.Remove(path); err != nil {
			return nil, fmt.Errorf("mailer: LMTP listener: remove stale socket: %w", err)
		}
	}
	ln, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("mailer: LMTP listener: %w", err)
	}
	// Who may connect is up to the directory the socket is in
	// (docs/operations.md): the MTA runs as a user of its own.
	if err := os.Chmod(path, 0o666); err != nil {
		ln.Close()
		return nil, fmt.Errorf("mailer: LMTP listener: %w", err)
	}
	return ln, nil
}

// Addr is the address the server listens on (unix:PATH for a socket).
func (s *LMTPServer) Addr() string { return s.addr }

// RunBatch serves LMTP until ctx is done, handing the mail delivered to h
// in the order it arrived: one batch at a time, of the mails that arrived
// while the one before committed. It stops taking mail when ctx is done,
// lets the batch in hand commit and answers it, and closes every
// connection; a mail whose DATA was cut is not answered 250 and comes
// again.
func (s *LMTPServer) RunBatch(ctx context.Context, h BatchHandler) error {
	srv := smtp.NewServer(lmtpBackend{s})
	srv.LMTP = true
	srv.Domain = "pbem"
	srv.MaxRecipients = s.cfg.MaxRecipients
	srv.MaxMessageBytes = s.cfg.HardLimit
	// go-smtp bounds every line, DATA's too. A mail server folds lines
	// at 998 bytes; a client that does not may still send a mail pbem
	// reads (the parser bounds what a long line costs), as over IMAP, so
	// a line may be as long as a mail. A command line is held in memory
	// whole: at most this much a connection.
	srv.MaxLineLength = int(s.cfg.MaxSize) + 2
	srv.ReadTimeout, srv.WriteTimeout = s.cfg.Timeout, s.cfg.Timeout
	srv.ErrorLog = slogPrinter{s.log}

	served := make(chan error, 1)
	go func() { served <- srv.Serve(s.ln) }()
	committer := make(chan struct{})
	go func() {
		defer close(committer)
		s.commit(ctx, h)
	}()
	var err error
	select {
	case <-ctx.Done():
	case err = <-served:
		err = fmt.Errorf("mailer: LMTP server: %w", err)
	}
	s.stopOnce.Do(func() { close(s.stopping) })
	<-committer // the batch in hand is committed and answered
	srv.Close()
	if err == nil {
		<-served
	}
	if path, ok := strings.CutPrefix(s.addr, "unix:"); ok {
		os.Remove(path)
	}
	return err
}

// commit hands the deliveries to h, one batch at a time, until stopped.
func (s *LMTPServer) commit(ctx context.Context, h BatchHandler) {
	for {
		var batch []*delivery
		select {
		case d := <-s.queue:
			batch = append(batch, d)
		case <-s.stopping:
			return
		case <-ctx.Done():
			return
		}
	more:
		for len(batch) < s.cfg.MaxBatch {
			select {
			case d := <-s.queue:
				batch = append(batch, d)
			default:
				break more
			}
		}
		s.handle(ctx, h, batch)
	}
}

// handle commits a batch and answers each of its mails. The handler
// commits the mails in order up to one that fails; that one is given
// back to the client (451: it delivers it again later), and the mails
// after it are handed over again at once, rather than waiting for the
// client's next try as mail behind it in an IMAP mailbox waits: each
// mail gets a try of its own.
func (s *LMTPServer) handle(ctx context.Context, h BatchHandler, batch []*delivery) {
	for len(batch) > 0 {
		if ctx.Err() != nil {
			for _, d := range batch {
				d.done <- errLMTPStopping
			}
			return
		}
		msgs := make([]Message, len(batch))
		for i, d := range batch {
			msgs[i] = d.msg
		}
		n, err := h(ctx, msgs)
		for _, d := range batch[:n] {
			d.done <- nil
		}
		if n >= len(batch) {
			return
		}
		s.log.Warn("lmtp: a mail was not committed; the client will deliver it again", "id", batch[n].msg.ID, "err", err)
		batch[n].done <- errLMTPNotCommitted
		batch = batch[n+1:]
	}
}

// deliver hands m to the committer and waits for its commit.
func (s *LMTPServer) deliver(m Message) error {
	d := &delivery{msg: m, done: make(chan error, 1)}
	select {
	case s.queue <- d:
	case <-s.stopping:
		return errLMTPStopping
	}
	return <-d.done
}

type lmtpBackend struct{ s *LMTPServer }

func (b lmtpBackend) NewSession(*smtp.Conn) (smtp.Session, error) {
	return &lmtpSession{s: b.s}, nil
}

// lmtpSession is one connection's state.
type lmtpSession struct {
	s     *LMTPServer
	from  string
	rcpts []string
	mails int
}

func (x *lmtpSession) Reset()        { x.from, x.rcpts = "", nil }
func (x *lmtpSession) Logout() error { return nil }

func (x *lmtpSession) Mail(from string, _ *smtp.MailOptions) error {
	select {
	case <-x.s.stopping:
		return errLMTPStopping
	default:
	}
	if x.mails >= x.s.cfg.MailsPerConn {
		// The client opens a new connection (RFC 5321 4.2.2: 421
		// closes the session).
		return errLMTPEnough
	}
	if !usableAddress(from) {
		return errLMTPBadAddress
	}
	x.mails++
	x.from, x.rcpts = from, nil
	return nil
}

func (x *lmtpSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	if !usableAddress(to) || to == "" {
		return errLMTPBadAddress
	}
	if !x.s.cfg.Accept(to) {
		return errLMTPUnknown
	}
	x.rcpts = append(x.rcpts, to)
	return nil
}

// usableAddress refuses addresses that would break the header fields
// written from them.
func usableAddress(a string) bool {
	for i := 0; i < len(a); i++ {
		if a[i] < 0x20 || a[i] == 0x7f || a[i] == '<' || a[i] == '>' {
			return false
		}
	}
	return len(a) <= 320
}

func (x *lmtpSession) Data(r io.Reader) error {
	return x.LMTPData(r, nil)
}

// LMTPData reads the mail and hands it over once; every recipient gets
// the answer of its one commit (status nil: go-smtp gives the returned
// error to all).
func (x *lmtpSession) LMTPData(r io.Reader, _ smtp.StatusCollector) error {
	m, err := x.read(r)
	var serr *smtp.SMTPError
	if errors.As(err, &serr) {
		return serr // too large: 552
	}
	if err != nil {
		// The connection failed or timed out: the client tries again.
		return errLMTPNotCommitted
	}
	return x.s.deliver(m)
}

// read reads the mail: all of it up to MaxSize, and past that only its
// digest (the header is kept, TooLarge set). Delivered-To and
// Return-Path are put first, as a delivery agent writes them.
func (x *lmtpSession) read(r io.Reader) (Message, error) {
	max := x.s.cfg.MaxSize
	h := sha256.New()
	var body bytes.Buffer
	n, err := io.Copy(io.MultiWriter(h, &body), io.LimitReader(r, max+1))
	if err != nil {
		return Message{}, err
	}
	tooLarge := n > max
	if tooLarge {
		rest, err := io.Copy(h, r) // bounded by HardLimit and Timeout
		if err != nil {
			return Message{}, err
		}
		n += rest
	}
	raw := body.Bytes()
	if tooLarge {
		raw = headerOnly(raw)
	}
	var out bytes.Buffer
	fmt.Fprintf(&out, "Return-Path: <%s>\r\nDelivered-To: %s\r\n", x.from, x.deliveredTo())
	out.Write(raw)
	return Message{
		Mailbox:  LMTPMailbox,
		Size:     n,
		Raw:      out.Bytes(),
		TooLarge: tooLarge,
		ID:       "lmtp:sha256:" + hex.EncodeToString(h.Sum(nil)),
	}, nil
}

// deliveredTo is the recipient the mail is handed over for: the first
// with a detail (a seat's address), else the first.
func (x *lmtpSession) deliveredTo() string {
	for _, r := range x.rcpts {
		local, _, _ := strings.Cut(r, "@")
		if strings.Contains(local, x.s.cfg.Separator) {
			return r
		}
	}
	return x.rcpts[0]
}

// headerOnly is the header of a raw mail and the empty line after it, or
// the first 64 KB when no empty line ends a header there.
func headerOnly(raw []byte) []byte {
	const most = 64 << 10
	head := raw[:min(len(raw), most)]
	for _, sep := range []string{"\r\n\r\n", "\n\n"} {
		if i := bytes.Index(head, []byte(sep)); i >= 0 {
			return raw[:i+len(sep)]
		}
	}
	return head
}

// limitListener serves at most max connections at once: one more is
// answered 421 and closed at once, so that no one holds more of pbem.
type limitListener struct {
	net.Listener
	max int64
	n   atomic.Int64
}

func (l *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if l.n.Add(1) > l.max {
			l.n.Add(-1)
			go func() { // not in the accept loop: the peer may be slow to read
				c.SetWriteDeadline(time.Now().Add(time.Second))
				e := errLMTPBusy
				fmt.Fprintf(c, "%d %d.%d.%d %s\r\n", e.Code, e.EnhancedCode[0], e.EnhancedCode[1], e.EnhancedCode[2], e.Message)
				c.Close()
			}()
			continue
		}
		return &countedConn{Conn: c, l: l}, nil
	}
}

// countedConn gives its place back when closed (once).
type countedConn struct {
	net.Conn
	l    *limitListener
	once sync.Once
}

func (c *countedConn) Close() error {
	c.once.Do(func() { c.l.n.Add(-1) })
	return c.Conn.Close()
}

// slogPrinter is go-smtp's error log, into pbem's.
type slogPrinter struct{ log *slog.Logger }

func (p slogPrinter) Printf(format string, v ...any) {
	p.log.Warn("lmtp: " + fmt.Sprintf(format, v...))
}
func (p slogPrinter) Println(v ...any) { p.log.Warn("lmtp: " + fmt.Sprint(v...)) }
