// Package demo plays whole games through pbem's real mail loop: embedded
// IMAP and SMTP servers, the daemon, and scripted players who read their
// mail over IMAP and answer over SMTP with one of the commands their last
// mail offers, exactly as a person would copy one.
package demo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"mime"
	"net"
	"net/mail"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/pbem/pbem/engine/games"
	"github.com/pbem/pbem/internal/config"
	"github.com/pbem/pbem/internal/daemon"
	"github.com/pbem/pbem/internal/loaded"
	"github.com/pbem/pbem/internal/outbox"
	"github.com/pbem/pbem/internal/wiring"
	"github.com/pbem/pbem/mailer"
	"github.com/pbem/pbem/mailer/embedded"
	"github.com/pbem/pbem/parser"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// Options tunes a demo run.
type Options struct {
	Seed    uint64        // decides the players' choices
	Timeout time.Duration // for each game; default 5 minutes
	Log     *slog.Logger  // the service's log; nil discards it
	Dir     string        // where the database goes; empty: a temporary folder
	// Mail is an external mail system to use instead of the embedded
	// servers, such as Postfix + Dovecot on loopback; nil runs the
	// embedded servers.
	Mail *MailSystem
	// Suffix is added to every local part (pbem-SUFFIX@, alice-SUFFIX@),
	// so that runs against a mail system that keeps its mailboxes never
	// see each other's mail. Empty with Mail set: a random one.
	Suffix string
	// NoService starts the mail servers and the players but no service:
	// the service runs elsewhere (another process) against Servers, and
	// Play then returns the players' mails without reading the store.
	NoService bool
	// Settings are commands every player sends to pbem's bare address
	// before his first game, such as "notify turns\nconfirm off"; Play
	// waits for their answer, which is not counted as a game's mail.
	Settings string

	// LMTP has the service take its mail by LMTP, on a free loopback
	// port, instead of reading a mailbox: its address is then in the
	// domain lmtp-PORT.DOMAIN, which the mail system must deliver to
	// 127.0.0.1:PORT by LMTP (scripts/mailstack does). Only with Mail.
	LMTP bool

	// ServeLimits runs the service with the per-address limits `pbem
	// serve` has when nothing is configured (config.Default()'s
	// [limits]), in place of HarnessLimits: to show that players who
	// answer at machine speed are not taken for a flood.
	ServeLimits bool

	// Admins are the service's admins (daemon.Config.Admins,
	// comma-separated addresses): they get its admin notices.
	Admins string

	// wrapCourier, for tests, wraps the service's courier: to deliver
	// pbem's mails late or out of order (reorder_test.go).
	wrapCourier func(outbox.Courier) outbox.Courier
	// webURL, for tests, is the base URL of the web pages the service's
	// mails link (daemon.Config.WebURL); the test serves them.
	webURL string
}

// MailSystem is an external mail system: an SMTP server that delivers
// every address of Domain, plus-addressing included (local+tag@Domain
// lands in local's INBOX with a Delivered-To header), to IMAP mailboxes
// where every user logs in with his full address and Password.
type MailSystem struct {
	IMAPAddr, SMTPAddr, Domain, Password string
}

// Game is the outcome of one demo game.
type Game struct {
	ID         int64
	Kind       string
	Players    []string       // addresses, in seat order
	Scores     map[string]int // by address
	Winners    []string       // addresses
	Transcript string         // the exported transcript
	Mails      map[string][]Mail
	// Decisions counts each player's decisions in the game: his moves in
	// its log, and the creation or his join. Nil with NoService.
	Decisions map[string]int
	// ReplyLatencies are the times from a player's mail to the next mail
	// he found from pbem (its answer), polling included.
	ReplyLatencies []time.Duration
	// Commands counts the mails the players sent to the game: the
	// creation, the joins and every command.
	Commands int
	// CommandLatencies are, for each command, the time from the start of
	// its SMTP submission to the last of the players' mails it caused
	// landing in their mailboxes (found by their polling), as far as the
	// players can tell: see commandLatencies.
	CommandLatencies []time.Duration
}

// MailsPerPlayer is how many mails a player got from the game's creation
// to its result, on average over the players.
func (g Game) MailsPerPlayer() float64 {
	n := 0
	for _, p := range g.Players {
		n += len(g.Mails[p])
	}
	return float64(n) / float64(max(1, len(g.Players)))
}

// MailsPerDecision is how many mails the players got for each decision
// of theirs, all players together; 0 when the decisions are not known.
func (g Game) MailsPerDecision() float64 {
	mails, decisions := 0, 0
	for _, p := range g.Players {
		mails += len(g.Mails[p])
		decisions += g.Decisions[p]
	}
	if decisions == 0 {
		return 0
	}
	return float64(mails) / float64(decisions)
}

// Mail is one mail a player received.
type Mail struct {
	MessageID, Subject, ReplyTo, Text string
	// Date is the mail's Date field, when pbem wrote it (to the second);
	// zero when it has none that parses.
	Date time.Time
	// Headline is what the mail is about: in a game's thread, whose
	// mails share one Subject, the text's first line (above pbem's
	// marker line); else the Subject.
	Headline string
}

// World is a running service with its mail servers.
type World struct {
	Servers *embedded.Servers // nil with an external mail system
	Store   *store.Store      // nil with NoService
	Service *daemon.Service   // nil with NoService
	Address string            // the service's address
	Mail    MailSystem        // the servers in use, embedded or not
	// LMTPAddr is where the service takes its mail by LMTP
	// (Options.LMTP); empty when it reads its mailbox.
	LMTPAddr string
	Suffix   string // added to local parts; see Options.Suffix
	rng      *rand.Rand
	stop     func()
	sender   *mailer.Sender // the service's, closed with the world
	out      *mailer.Sender // the players', closed with the world
	done     chan error
	tmp      string
	limits   daemon.Limits // the service's, for tests

	mu         sync.Mutex
	sent       []Sent
	boxes      map[string]*inbox // by address: what each player has read
	closed     bool              // Close was called: no new sessions
	settings   string            // Options.Settings
	configured map[string]bool   // players who sent the settings
}

// Sent is one mail a player sent.
type Sent struct {
	MessageID, From, To, Text string
	Raw                       []byte
}

// Player is the address of a player with the local part name, suffixed as
// the world's addresses are.
func (w *World) Player(name string) string {
	return name + w.Suffix + "@" + w.Mail.Domain
}

// SentMails lists every mail the players sent through Send, in order.
func (w *World) SentMails() []Sent {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]Sent(nil), w.sent...)
}

// SentCount is how many mails the players sent through Send so far.
func (w *World) SentCount() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.sent)
}

// randomSuffix is "-" and a few random letters and digits.
func randomSuffix() string {
	const chars = "abcdefghijkmnpqrstuvwxyz23456789"
	b := []byte("-")
	for range 6 {
		b = append(b, chars[rand.IntN(len(chars))])
	}
	return string(b)
}

// Start starts the mail servers (embedded ones on free loopback ports,
// unless opts.Mail names a mail system) and the service.
func Start(ctx context.Context, opts Options) (*World, error) {
	log := opts.Log
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	w := &World{rng: rand.New(rand.NewPCG(opts.Seed, 77)), done: make(chan error, 1), Suffix: opts.Suffix,
		settings: opts.Settings, configured: map[string]bool{}}
	if err := w.startMail(ctx, opts, log); err != nil {
		return nil, err
	}
	if err := w.startPlayers(opts); err != nil {
		return nil, err
	}
	if opts.NoService {
		w.stop = func() {}
		w.done <- nil
		return w, nil
	}
	if err := w.startService(ctx, opts, log); err != nil {
		return nil, err
	}
	return w, nil
}

// startMail connects w to opts.Mail, or starts embedded mail servers on
// free loopback ports.
func (w *World) startMail(ctx context.Context, opts Options, log *slog.Logger) error {
	if opts.Mail != nil {
		m := *opts.Mail
		if m.IMAPAddr == "" || m.SMTPAddr == "" || m.Domain == "" || m.Password == "" {
			return fmt.Errorf("demo: the mail system needs IMAP and SMTP addresses, a domain and a password: %+v", m)
		}
		w.Mail = m
		if w.Suffix == "" {
			w.Suffix = randomSuffix()
		}
	} else {
		srv, err := embedded.Start(ctx, embedded.Config{IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0", Domain: "pbem.test", Logger: log})
		if err != nil {
			return err
		}
		w.Servers = srv
		w.Mail = MailSystem{IMAPAddr: srv.IMAPAddr(), SMTPAddr: srv.SMTPAddr(), Domain: srv.Domain(), Password: srv.Password()}
	}
	return nil
}

// startPlayers opens the players' shared SMTP sessions and sets pbem's
// address: on the mail system's domain, or with opts.LMTP on the domain
// it delivers to pbem by LMTP.
func (w *World) startPlayers(opts Options) error {
	// The players' mail goes over a few SMTP sessions they share and
	// keep between mails, as a mail client keeps its own: a connection
	// for each mail would make the players, not pbem, the load on the
	// mail system. Shared, because hundreds of players each holding a
	// session would hold as many smtpd processes (Postfix runs 100 at
	// most by default) while the service waits for one.
	out, err := mailer.NewSender(mailer.SenderConfig{Addr: w.Mail.SMTPAddr, Security: mailer.SecurityNone, MaxIdle: playerSMTPSessions})
	if err != nil {
		w.closeServers()
		return fmt.Errorf("demo: the players' sender: %w", err)
	}
	w.out = out
	w.Address = w.Player("pbem")
	if opts.LMTP {
		if opts.Mail == nil {
			w.out.Close()
			w.closeServers()
			return errors.New("demo: LMTP needs an external mail system")
		}
		port, err := freePort()
		if err != nil {
			w.out.Close()
			return err
		}
		w.LMTPAddr = fmt.Sprintf("127.0.0.1:%d", port)
		w.Address = fmt.Sprintf("pbem%s@%s", w.Suffix, LMTPDomain(w.Mail.Domain, port))
	}
	return nil
}

// startService opens the store in opts.Dir (a new temporary folder if
// none) and runs the service with its inbox and outbox until w stops.
func (w *World) startService(ctx context.Context, opts Options, log *slog.Logger) error {
	dir := opts.Dir
	if dir == "" {
		var err error
		if dir, err = os.MkdirTemp("", "pbem-demo-"); err != nil {
			w.closeServers()
			return err
		}
		w.tmp = dir
	}
	fail := func(err error) error {
		w.out.Close()
		if w.Store != nil {
			w.Store.Close()
		}
		w.closeServers()
		if w.tmp != "" {
			os.RemoveAll(w.tmp)
		}
		return err
	}
	st, err := store.Open(ctx, filepath.Join(dir, "pbem.db"))
	if err != nil {
		return fail(err)
	}
	w.Store = st
	r, err := templates.New(games.All())
	if err != nil {
		return fail(err)
	}
	cfg := harnessConfig(w.Address)
	cfg.WebURL = opts.webURL
	cfg.Admins = opts.Admins
	if opts.ServeLimits {
		cfg.Limits = wiring.ConfigFrom(config.Default()).Limits
	}
	w.limits = cfg.Limits
	w.Service, err = daemon.New(cfg, st, r, games.Lookup, games.Names(), daemon.WithLogger(log))
	if err != nil {
		return fail(err)
	}
	var inbox daemon.Inbox
	if w.LMTPAddr != "" {
		c := config.Default()
		c.Service.Address, c.LMTP.Addr = w.Address, w.LMTPAddr
		inbox, err = mailer.NewLMTPServer(wiring.LMTPFrom(c, w.Service, log))
	} else {
		inbox, err = mailer.NewInbox(mailer.InboxConfig{
			Addr: w.Mail.IMAPAddr, Username: w.Address, Password: w.Mail.Password, Security: mailer.SecurityNone,
			PollInterval: 200 * time.Millisecond, IdleRefresh: 2 * time.Second, Logger: log,
		}, w.Service)
	}
	if err != nil {
		return fail(err)
	}
	sender, err := mailer.NewSender(mailer.SenderConfig{Addr: w.Mail.SMTPAddr, Security: mailer.SecurityNone})
	if err != nil {
		return fail(err)
	}
	w.sender = sender
	var courier outbox.Courier = sender
	if opts.wrapCourier != nil {
		courier = opts.wrapCourier(courier)
	}
	runCtx, cancel := context.WithCancel(ctx)
	w.stop = cancel
	go func() {
		oc := wiring.OutboxFrom(config.Default())
		oc.Poll = 200 * time.Millisecond
		w.done <- w.Service.Run(runCtx, []daemon.Inbox{inbox}, courier, oc, "@every 1m")
	}()
	return nil
}

// LMTPDomain is the domain whose mail scripts/mailstack delivers by
// LMTP to 127.0.0.1:port, beside domain (its own, delivered to Dovecot),
// for a port from LMTPPortFirst to LMTPPortLast.
func LMTPDomain(domain string, port int) string {
	return fmt.Sprintf("lmtp-%d.%s", port, domain)
}

// The ports scripts/mailstack routes lmtp-PORT domains to (Postfix's
// transport maps allow no pattern, so it lists each).
const (
	LMTPPortFirst = 12400
	LMTPPortLast  = 12499
)

// freePort is a port from LMTPPortFirst to LMTPPortLast on loopback that
// was free a moment ago, tried in random order, so that runs side by
// side take different ones.
func freePort() (int, error) {
	n := LMTPPortLast - LMTPPortFirst + 1
	for _, i := range rand.Perm(n) {
		ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", LMTPPortFirst+i))
		if err == nil {
			ln.Close()
			return LMTPPortFirst + i, nil
		}
	}
	return 0, fmt.Errorf("demo: no free port from %d to %d for LMTP", LMTPPortFirst, LMTPPortLast)
}

// harnessConfig is the service's configuration: pbem's defaults
// (config.Default()) at address, with the harness's limits.
func harnessConfig(address string) daemon.Config {
	c := wiring.ConfigFrom(config.Default())
	c.Address, c.Limits = address, HarnessLimits()
	return c
}

func (w *World) closeServers() {
	if w.Servers != nil {
		w.Servers.Close()
	}
}

// playerSMTPSessions is how many idle SMTP sessions the players keep
// between their mails, all players together.
const playerSMTPSessions = 32

// Close stops the service and the servers and removes temporary files.
func (w *World) Close() error {
	w.stop()
	err := <-w.done
	if w.sender != nil {
		w.sender.Close() // its SMTP sessions, kept for reuse
	}
	w.out.Close()
	w.mu.Lock()
	w.closed = true
	boxes := w.boxes
	w.mu.Unlock()
	for _, box := range boxes {
		box.reader.Close() // an error ending a session changes nothing now
	}
	if w.Store != nil {
		w.Store.Close()
	}
	w.closeServers()
	if w.tmp != "" {
		os.RemoveAll(w.tmp)
	}
	return err
}

// HarnessLimits are the per-address limits of the demo's service: its
// scripted players answer at machine speed, many games at once, which the
// limits meant for people (config's [limits]) would take for a flood.
func HarnessLimits() daemon.Limits {
	return daemon.Limits{AnswersPerDay: 1 << 30, LobbyPerHour: 1 << 30, LoopPerMinute: 1 << 30}
}

// HarnessInviteLimits are the invitation limits of pbem loadtest's
// service: its players are all new addresses, invited at machine speed,
// and a load test of more than 66 four-player games invites more than
// the 200 new addresses a day pbem's default allows (docs/security.md,
// "One mailbox, one limit"); the creators told so would wait for ever.
// The in-process worlds keep pbem's default invitation limits, which
// tests such as TestRealMailOneMailboxOneLimit check.
func HarnessInviteLimits() daemon.InviteLimits {
	return daemon.InviteLimits{PerWeek: 1 << 30, PerInviter: 1 << 30, PerDay: 1 << 30}
}

// Send mails text from a player to an address, as a mail client would.
// intN and uint64 draw from the world's random source, which concurrent
// games share.
func (w *World) intN(n int) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.rng.IntN(n)
}

func (w *World) uint64() uint64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.rng.Uint64()
}

func (w *World) Send(ctx context.Context, from, to, subject, inReplyTo, text string) error {
	id := fmt.Sprintf("%d.%s", w.uint64(), from)
	var b strings.Builder
	fmt.Fprintf(&b, "From: %s\r\nTo: %s\r\nSubject: %s\r\n", from, to, encodeHeader(subject))
	fmt.Fprintf(&b, "Message-ID: <%s>\r\nDate: %s\r\n", id, time.Now().UTC().Format(time.RFC1123Z))
	if inReplyTo != "" {
		fmt.Fprintf(&b, "In-Reply-To: <%s>\r\nReferences: <%s>\r\n", inReplyTo, inReplyTo)
	}
	b.WriteString("MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n")
	b.WriteString(strings.ReplaceAll(text, "\n", "\r\n") + "\r\n")
	if err := w.SendRaw(ctx, from, to, []byte(b.String())); err != nil {
		return err
	}
	w.mu.Lock()
	w.sent = append(w.sent, Sent{MessageID: id, From: from, To: to, Text: text, Raw: []byte(b.String())})
	w.mu.Unlock()
	return nil
}

// SendRaw hands a whole message to the SMTP server with the envelope
// sender from ("" for a bounce's null sender) and the one recipient to.
func (w *World) SendRaw(ctx context.Context, from, to string, raw []byte) error {
	return w.out.Send(ctx, from, []string{to}, raw)
}

// encodeHeader writes a header value that may hold non-ASCII text.
func encodeHeader(s string) string { return mime.QEncoding.Encode("utf-8", s) }

// Inbox reads every mail of a player. Like a mail client it keeps what it
// read, and its IMAP session: it logs in once, and each look fetches only
// the mail above the last UID it read (mailer.MailboxReader).
func (w *World) Inbox(ctx context.Context, addr string) ([]Mail, error) {
	box, err := w.box(addr)
	if err != nil {
		return nil, err
	}
	box.mu.Lock() // one reader per mailbox at a time
	defer box.mu.Unlock()
	msgs, err := box.reader.ReadSince(ctx, box.last)
	if err != nil {
		return nil, err
	}
	for _, m := range msgs {
		box.mails = append(box.mails, ReadMail(m.Raw))
		box.last = m.UID
	}
	return slices.Clone(box.mails), nil
}

// inbox is what a player has read of his mailbox.
type inbox struct {
	reader *mailer.MailboxReader // his kept IMAP session; set once
	mu     sync.Mutex
	last   uint32 // the highest UID read
	mails  []Mail
}

// box is addr's inbox, made on his first look.
func (w *World) box(addr string) (*inbox, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return nil, fmt.Errorf("demo: %s's mailbox: the world is closed", addr)
	}
	if box := w.boxes[addr]; box != nil {
		return box, nil
	}
	// He looks every 50 ms rather than wait in IDLE: Dovecot tells an
	// idling session of new mail half a second after it lands (0.50 s
	// measured on scripts/mailstack's Dovecot 2.3), which would add that
	// to every answer and cap a game near one command a second. A look
	// over a kept session that finds nothing is a NOOP and a UID FETCH
	// without bodies.
	r, err := mailer.NewMailboxReader(mailer.InboxConfig{Addr: w.Mail.IMAPAddr, Password: w.Mail.Password, Security: mailer.SecurityNone, DisableIdle: true}, addr)
	if err != nil {
		return nil, fmt.Errorf("demo: %s's mailbox: %w", addr, err)
	}
	if w.boxes == nil {
		w.boxes = map[string]*inbox{}
	}
	box := &inbox{reader: r}
	w.boxes[addr] = box
	return box, nil
}

// Offered lists the commands a mail asks its reader to choose from: the
// lines under its "Your move:" line, each indented by two spaces. A line
// is a command ("pass"); the words of several commands and the values
// that set them apart ("play -8 · 3 · rabbit", "bid 2 · 3 · 4 · … · 17",
// every whole number between for the "…", which NFKC makes "...");
// or a pattern with a real
// example ("take T keep COLOUR give PLAYER, e.g. take 4 keep red give
// bob"), of which only the example is a command.
func Offered(text string) []string {
	var cmds []string
	in := false
	for _, line := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(line, "Your move:"):
			in = true
		case in && strings.HasPrefix(line, "  "):
			cmds = append(cmds, spelledOut(strings.TrimSpace(line))...)
		default:
			in = false
		}
	}
	return cmds
}

// spelledOut is the commands one offered line stands for.
func spelledOut(line string) []string {
	if _, ex, ok := strings.Cut(line, ", e.g. "); ok {
		return []string{ex}
	}
	parts := strings.Split(line, " · ")
	i := strings.LastIndexByte(parts[0], ' ')
	if len(parts) == 1 || i < 0 {
		return []string{line}
	}
	prefix := parts[0][:i]
	vals := append([]string{parts[0][i+1:]}, parts[1:]...)
	var out []string
	for j, v := range vals {
		// "…", or "..." once the parser's NFKC has read the mail.
		if v != "…" && v != "..." {
			out = append(out, prefix+" "+v)
			continue
		}
		if j == 0 || j == len(vals)-1 {
			continue
		}
		lo, err1 := strconv.Atoi(vals[j-1])
		hi, err2 := strconv.Atoi(vals[j+1])
		if err1 != nil || err2 != nil {
			continue
		}
		for n := lo + 1; n < hi; n++ {
			out = append(out, prefix+" "+strconv.Itoa(n))
		}
	}
	return out
}

// configure has a player send the world's Settings once, and waits for
// pbem's answer to them.
func (w *World) configure(ctx context.Context, p string) error {
	w.mu.Lock()
	done := w.settings == "" || w.configured[p]
	w.mu.Unlock()
	if done {
		return nil
	}
	had, err := w.Inbox(ctx, p)
	if err != nil {
		return err
	}
	if err := w.Send(ctx, p, w.Address, "settings", "", w.settings); err != nil {
		return err
	}
	for {
		got, err := w.Inbox(ctx, p)
		if err != nil {
			return err
		}
		if len(got) > len(had) {
			break
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("demo: %s's settings were not answered: %w", p, ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
	w.mu.Lock()
	w.configured[p] = true
	w.mu.Unlock()
	return nil
}

// Play plays one game of kind among the players by mail: the first creates
// it, the others join, and everyone answers the mail of the game's thread
// that asks something of him now (follow.go: the newest by Date, not the
// last to arrive) with one of the commands it offers, chosen at random,
// until the game is over.
func (w *World) Play(ctx context.Context, kind string, players []string, timeout time.Duration) (Game, error) {
	return w.PlayWithout(ctx, kind, players, "", timeout)
}

// PlayWithout is Play with one player, absent, who joins the game and
// then never answers again: the game goes on by its deadlines, default
// moves and autopilot (absent "" is Play). Play's timeout must then allow
// for the deadlines.
func (w *World) PlayWithout(ctx context.Context, kind string, players []string, absent string, timeout time.Duration) (Game, error) {
	return w.play(ctx, kind, players, absent, "", timeout)
}

// PlayWithBots is Play with bot seats besides the players: bots is what
// the creator's `new` asks for after the addresses ("a strong bot", "2
// bots"). The bots move by themselves and get no mail.
func (w *World) PlayWithBots(ctx context.Context, kind string, players []string, bots string, timeout time.Duration) (Game, error) {
	return w.play(ctx, kind, players, "", bots, timeout)
}

// play plays a game: absent never answers after joining, and bots are the
// bot seats asked for in `new`.
func (w *World) play(ctx context.Context, kind string, players []string, absent, bots string, timeout time.Duration) (Game, error) {
	if timeout <= 0 {
		timeout = 5 * time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	for _, p := range players {
		if err := w.configure(ctx, p); err != nil {
			return Game{}, err
		}
	}
	look := newLooker()
	before, earlier, err := w.inboxesBefore(ctx, look, players)
	if err != nil {
		return Game{}, err
	}
	sendStart := time.Now()
	if err := w.Send(ctx, players[0], w.Address, "new game", "", newCommand(kind, players[1:], bots)); err != nil {
		return Game{}, err
	}
	// Each player follows his game's thread by the rule in follow.go:
	// never by the order his mail arrived in.
	pl := &playing{players: players, absent: absent, look: look, before: before, earlier: earlier,
		follow: map[string]*follower{}, over: map[string]bool{}, mails: map[string][]Mail{}, waiting: map[string]time.Time{},
		sends: []sent{{at: sendStart, pass: 0}}}
	for _, p := range players {
		pl.follow[p] = newFollower()
	}
	for pass := 1; len(pl.over) < len(players); pass++ {
		if ctx.Err() != nil {
			debugLastMails(players, pl.mails)
			return Game{}, fmt.Errorf("demo: %s did not finish in %s (finished: %d of %d players)", kind, timeout, len(pl.over), len(players))
		}
		progress := false
		for _, p := range players {
			answered, err := pl.turn(ctx, w, p, pass)
			if err != nil {
				return Game{}, err
			}
			progress = progress || answered
		}
		if !progress {
			select {
			case <-ctx.Done():
			case <-time.After(50 * time.Millisecond):
			}
		}
	}
	cl := commandLatencies(pl.sends, pl.landed)
	if w.Store == nil {
		return Game{Kind: kind, Players: players, Mails: pl.mails, ReplyLatencies: pl.latencies,
			Commands: len(pl.sends), CommandLatencies: cl}, nil
	}
	g, err := Result(ctx, w.Store, w.Address, players, pl.mails)
	g.ReplyLatencies, g.Commands, g.CommandLatencies = pl.latencies, len(pl.sends), cl
	return g, err
}

// playing is what play keeps while a game runs: where each player's mail
// of this game begins, how he follows its thread, and the timings the
// report is made of.
type playing struct {
	players []string
	absent  string // never answers after joining
	look    *looker
	before  map[string]int             // mails each player held before the game
	earlier map[string]map[string]bool // by player, the threads of his earlier games
	follow  map[string]*follower
	over    map[string]bool
	mails   map[string][]Mail
	waiting map[string]time.Time // since when a player waits for pbem's answer
	// What the latencies are made of: when each command was submitted
	// and in which pass over the players, and when each of the game's
	// mails was first found.
	latencies []time.Duration
	sends     []sent
	landed    []time.Time
}

// turn is player p's look at his mail in one pass: he notes what came,
// and answers the mail of the game that asks something of him, if any.
// answered says whether he sent a mail.
func (pl *playing) turn(ctx context.Context, w *World, p string, pass int) (answered bool, err error) {
	all, err := pl.look.inbox(ctx, w, p)
	if err != nil {
		return false, err
	}
	if all == nil {
		return false, nil // the server turned him away; he looks again next pass
	}
	mine := thisGame(all[pl.before[p]:], pl.earlier[p])
	pl.noteLanded(p, mine)
	if pl.over[p] {
		return false, nil
	}
	m, ok := pl.follow[p].next(mine)
	if !ok || (p == pl.absent && !invitation(m)) {
		return false, nil
	}
	answer := "join"
	if !invitation(m) {
		cmds := Offered(m.Text)
		answer = cmds[w.intN(len(cmds))]
	}
	pl.follow[p].answer(m, mine)
	pl.waiting[p] = time.Now()
	pl.sends = append(pl.sends, sent{at: pl.waiting[p], pass: pass})
	if err := w.Send(ctx, p, m.ReplyTo, "Re: "+m.Subject, m.MessageID, answer+"\n\n> "+strings.ReplaceAll(m.Text, "\n", "\n> ")); err != nil {
		return true, err
	}
	return true, nil
}

// noteLanded records p's mails of the game as they stand now: when new
// ones landed, the latency of the answer he waited for, and whether the
// game is over for him.
func (pl *playing) noteLanded(p string, mine []Mail) {
	if len(mine) > len(pl.mails[p]) {
		now := time.Now()
		for range len(mine) - len(pl.mails[p]) {
			pl.landed = append(pl.landed, now)
		}
		if since, ok := pl.waiting[p]; ok {
			pl.latencies = append(pl.latencies, now.Sub(since))
			delete(pl.waiting, p)
		}
	}
	pl.mails[p] = byDate(mine)
	if slices.ContainsFunc(mine, gameOver) {
		pl.over[p] = true
	}
}

// inboxesBefore waits until each player's INBOX can be read, and returns
// how many mails each holds before the game and, by player, the threads
// (Reply-To) of his earlier games.
func (w *World) inboxesBefore(ctx context.Context, look *looker, players []string) (map[string]int, map[string]map[string]bool, error) {
	before := map[string]int{}
	earlier := map[string]map[string]bool{}
	for _, p := range players {
		m, err := look.wait(ctx, w, p)
		if err != nil {
			return nil, nil, err
		}
		before[p] = len(m)
		earlier[p] = map[string]bool{}
		for _, x := range m {
			earlier[p][x.ReplyTo] = x.ReplyTo != ""
		}
	}
	return before, earlier, nil
}

// thisGame is the mails of the game being played among those read since
// it began: all but late mails of an earlier game's thread.
func thisGame(since []Mail, earlier map[string]bool) []Mail {
	var mine []Mail
	for _, m := range since {
		if !earlier[m.ReplyTo] {
			mine = append(mine, m)
		}
	}
	return mine
}

// debugLastMails shows, when PBEM_DEMO_DEBUG is set, where each player
// stopped: his last mail.
func debugLastMails(players []string, mails map[string][]Mail) {
	if os.Getenv("PBEM_DEMO_DEBUG") == "" {
		return
	}
	for _, p := range players {
		if n := len(mails[p]); n > 0 {
			fmt.Fprintf(os.Stderr, "=== %s last mail:\n%s\n", p, mails[p][n-1].Text)
		}
	}
}

// newCommand is the `new` that creates a game of kind with the invited
// addresses and the bots asked for.
func newCommand(kind string, invited []string, bots string) string {
	cmd := "new " + kind + " with " + strings.Join(invited, " ")
	if bots != "" {
		cmd += " and " + bots
	}
	return cmd
}

// looker is the players' patience with their IMAP server. A mail system
// that many players poll at once may turn a login away (Dovecot, out of
// login processes, closes the connection or never greets): a person's
// mail client tries again later, and so does a player, on his next pass.
// Only a player who could not read his mail for a whole lookPatience
// gives up, with the last error.
type looker struct{ lastOK map[string]time.Time }

// lookPatience is how long a player keeps trying to read his mailbox.
const lookPatience = 2 * time.Minute

func newLooker() *looker { return &looker{lastOK: map[string]time.Time{}} }

// inbox is w.Inbox(ctx, p), but for a read that failed within the
// player's patience: then nil and no error, nothing read this time.
func (l *looker) inbox(ctx context.Context, w *World, p string) ([]Mail, error) {
	all, err := w.Inbox(ctx, p)
	now := time.Now()
	if err == nil {
		l.lastOK[p] = now
		if all == nil {
			all = []Mail{}
		}
		return all, nil
	}
	if ctx.Err() != nil {
		return nil, err
	}
	if _, ok := l.lastOK[p]; !ok {
		l.lastOK[p] = now
	}
	if now.Sub(l.lastOK[p]) > lookPatience {
		return nil, fmt.Errorf("demo: %s could not read his mail for %s: %w", p, lookPatience, err)
	}
	return nil, nil
}

// wait reads p's mailbox, trying again every 50 ms within his patience.
func (l *looker) wait(ctx context.Context, w *World, p string) ([]Mail, error) {
	for {
		all, err := l.inbox(ctx, w, p)
		if err != nil || all != nil {
			return all, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// sent is one command a player submitted: when its submission began, and
// in which pass over the players (0 for the creation).
type sent struct {
	at   time.Time
	pass int
}

// commandLatencies tells, for each command, the time from its submission
// to the last mail it caused landing. pbem's mails do not name the
// command that caused them (a Message-ID is a hash, the thread is flat),
// so the players attribute by time: the mails found after a pass's
// commands were submitted and before the next pass submitted any are the
// results of that pass's commands (each command of the pass is measured
// from its own submission). A mail that lands after the next command went
// out is counted for that one, so the figure leans low when pbem is
// slow to send a command's last mails. A pass whose window holds no mail
// gives no figure. sends and landed are in time order.
func commandLatencies(sends []sent, landed []time.Time) []time.Duration {
	var out []time.Duration
	j := 0 // the first mail not yet attributed
	for i := 0; i < len(sends); {
		k := i // sends[i:k] are one pass
		for k < len(sends) && sends[k].pass == sends[i].pass {
			k++
		}
		var end time.Time
		for ; j < len(landed) && (k == len(sends) || landed[j].Before(sends[k].at)); j++ {
			if !landed[j].Before(sends[i].at) {
				end = landed[j]
			}
		}
		if !end.IsZero() {
			for _, s := range sends[i:k] {
				out = append(out, end.Sub(s.at))
			}
		}
		i = k
	}
	return out
}

// Result reads the latest game of players[0] back from the store: its
// standing, winners and exported transcript, with the players' mails.
// address is the service's.
func Result(ctx context.Context, st *store.Store, address string, players []string, mails map[string][]Mail) (Game, error) {
	gs, err := st.GamesOf(ctx, players[0])
	if err != nil || len(gs) == 0 {
		return Game{}, fmt.Errorf("demo: no game found: %v", err)
	}
	g := gs[0]
	for _, x := range gs {
		if x.ID > g.ID {
			g = x
		}
	}
	out := Game{ID: g.ID, Kind: g.Kind, Players: players, Scores: map[string]int{}, Mails: mails, Decisions: map[string]int{}}
	var buf strings.Builder
	if err := loaded.Export(ctx, st, games.Lookup, g.ID, &buf); err != nil {
		return out, err
	}
	out.Transcript = buf.String()
	r, err := templates.New(games.All())
	if err != nil {
		return out, err
	}
	svc, err := daemon.New(harnessConfig(address), st, r, games.Lookup, games.Names())
	if err != nil {
		return out, err
	}
	res, err := svc.Standing(ctx, g.ID)
	if err != nil {
		return out, err
	}
	seats, err := st.Seats(ctx, g.ID)
	if err != nil {
		return out, err
	}
	moves, err := st.Moves(ctx, g.ID, 0)
	if err != nil {
		return out, err
	}
	for i, seat := range seats {
		out.Scores[seat.Address] = res.Scores[i]
		out.Decisions[seat.Address] = 1 // the creation, or his join
	}
	for _, m := range moves {
		out.Decisions[seats[m.Seat].Address]++
	}
	for _, win := range res.Winners {
		out.Winners = append(out.Winners, seats[win].Address)
	}
	return out, nil
}

// headline is a mail's headline: the first paragraph of its text when
// pbem's marker line follows it, else its subject.
func headline(subject, text string) string {
	first, rest, _ := strings.Cut(strings.ReplaceAll(text, "\r\n", "\n"), "\n\n")
	if !strings.HasPrefix(rest, parser.ReplyMarker) {
		return subject
	}
	return strings.Join(strings.Fields(first), " ")
}

// ReadMail decodes a mail the way pbem's own parser does, keeping the
// whole body.
func ReadMail(raw []byte) Mail {
	m, err := parser.Extract(bytes.NewReader(raw), parser.ExtractOptions{})
	if err != nil {
		return Mail{Text: string(raw)}
	}
	out := Mail{MessageID: m.MessageID, Subject: m.Subject, Text: m.Body, Headline: headline(m.Subject, m.Body)}
	if h, err := mail.ReadMessage(bytes.NewReader(raw)); err == nil {
		if rt, err := mail.ParseAddress(h.Header.Get("Reply-To")); err == nil {
			out.ReplyTo = rt.Address
		}
		if d, err := h.Header.Date(); err == nil {
			out.Date = d
		}
	}
	return out
}
