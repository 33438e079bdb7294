// Package daemon is pbem's turn loop: inbound mail → parser → engine →
// store → outbox. It turns one inbound message into one store transaction
// that records the message, applies its commands, appends them to the
// game's log and queues every resulting mail, so that a crash at any point
// may delay a reply but never loses a command nor applies it twice. A
// separate loop drains the outbox, and another makes the default move when
// a deadline passes.
package daemon

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/internal/intake"
	"github.com/pbem/pbem/internal/lease"
	"github.com/pbem/pbem/internal/loaded"
	"github.com/pbem/pbem/internal/mailbox"
	"github.com/pbem/pbem/internal/outgoing"
	"github.com/pbem/pbem/internal/sweeps"
	"github.com/pbem/pbem/internal/tries"
	"github.com/pbem/pbem/internal/webpage"
	"github.com/pbem/pbem/mailer"
	"github.com/pbem/pbem/parser"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// Config is what the turn loop needs to know about the service. Every
// field is a value to use, not a wish to be defaulted: pbem serve builds
// it from pbem's configuration with wiring.ConfigFrom (config.Default()
// holds the defaults), and New refuses a zero where zero means nothing.
// It uses types of its own, not internal/config's: the turn loop does
// not read pbem's configuration, it is handed the values.
type Config struct {
	Name      string // the service's display name, "pbem"
	Address   string // the service's bare address, "pbem@example.test"
	Separator string // between the local part and a seat's token: "+"
	Mailbox   string // the IMAP mailbox read, for the cursor: "INBOX"
	// MaxMessageBytes bounds an inbound message; bigger ones are refused.
	MaxMessageBytes int64
	// TurnTime is how long a player has for each decision in a game
	// started without a time of its own (or before games stored theirs).
	TurnTime time.Duration
	// Reminders are the reminder steps before every deadline; none sends
	// no reminders. Players whose mail setting is digest or off get only
	// the last step that fits a decision.
	Reminders []Reminder
	// AutopilotAfter is how many deadlines in a row a seat's player may
	// miss before pbem plays the seat with the default moves at once, so
	// that the others stop waiting a turn_time per turn; zero never does.
	AutopilotAfter int
	// DefaultPlayer is who moves for a player who does not: pbem's bot
	// (DefaultPlayerBot) or the game's fixed default move
	// (DefaultPlayerSimple, and "") (standin.go).
	DefaultPlayer DefaultPlayer
	// VacationDays is how many days of vacation a player may take in a
	// calendar year of his time zone (vacation.go); zero allows none.
	VacationDays int
	// RefusalWindow and RefusalMax limit how many refusals one address
	// is sent, so that pbem cannot be made to mail someone endlessly.
	RefusalWindow time.Duration
	RefusalMax    int
	// Admins lists the addresses (comma-separated) that may repair games
	// by mail, writing to the admin address local+AdminToken@domain.
	Admins     string
	AdminToken string // secret; empty turns admin mail off
	// Limits bounds what pbem sends to and takes from one address.
	Limits Limits
	// Invitations bounds the invitations to mailboxes that never
	// answered pbem.
	Invitations InviteLimits
	// TrustAuthServID, when set, is the authserv-id of the receiving mail
	// server: pbem acts only on mail whose Authentication-Results from it
	// show the From domain authenticated (mailer.CheckAuthResults).
	TrustAuthServID string
	// RetainMail is how long the bodies of sent mails and the details of
	// inbound mails are kept (sweeps.Sweeper.RunRetention); zero keeps them for ever.
	// RetentionEvery is how often retention runs.
	RetainMail     time.Duration
	RetentionEvery time.Duration
	// WebURL is the public base URL of the web pages (internal/web):
	// every game mail links its seat's page under it. "" serves no pages
	// and links none.
	WebURL string
}

// Reminder is one reminder step before a deadline: a fixed time before
// it, or a share of the decision's time passed.
type Reminder struct {
	Before  time.Duration // this long before the deadline
	Percent int           // when this share (1-99) of the decision's time has passed
}

// Lead is how long before the deadline the step falls due, for a decision
// of turn (the game's time for each decision).
func (r Reminder) Lead(turn time.Duration) time.Duration {
	if r.Percent > 0 {
		return (turn * time.Duration(100-r.Percent) / 100).Truncate(time.Second)
	}
	return r.Before
}

func (r Reminder) String() string {
	if r.Percent > 0 {
		return strconv.Itoa(r.Percent) + "%"
	}
	return r.Before.String()
}

// DefaultPlayer chooses who makes the moves of a player who does not.
type DefaultPlayer string

const (
	// DefaultPlayerBot: pbem's bot (standin.go).
	DefaultPlayerBot DefaultPlayer = "bot"
	// DefaultPlayerSimple: each game's fixed default move.
	DefaultPlayerSimple DefaultPlayer = "simple"
)

// Limits bound what one address can make pbem do (docs/security.md): the
// internet can write to pbem, and pbem must not become a way to mail
// someone without end, nor be kept busy by one sender.
type Limits struct {
	// AnswersPerDay bounds the mails sent to an address about anything but
	// a running game it plays in: answers, help, rules, refusals and
	// invitations.
	AnswersPerDay int
	// LobbyPerHour bounds the commands read from one sender's mail to
	// pbem's bare address.
	LobbyPerHour int
	// LoopPerMinute is the loop breaker: when more mails than this from
	// one address called for an answer at one of pbem's addresses
	// within a minute, pbem holds its answers to them there (every
	// mail is still read and acted on), tells the sender once and the
	// admins once an hour. A seat's mail that changes its game never
	// counts. See loopBreaker.
	LoopPerMinute int
	// Mailbox says which addresses reach one mailbox: every limit above
	// counts a mailbox, whatever spelling of it a mail names
	// (outgoing.Post.MailboxOf).
	Mailbox mailbox.Rule
}

// InviteLimits bound the invitations to a mailbox that never answered
// pbem (answeredBy): a stranger can name any address in `new`, and pbem
// must not become a way to mail strangers (docs/security.md, "One
// mailbox, one budget"). An invitation to a mailbox that answered is
// bounded only by `never` and its answer budget.
type InviteLimits struct {
	// PerWeek bounds the invitations one such mailbox gets in 7 days,
	// from every inviter together.
	PerWeek int
	// PerInviter bounds the invitations one inviter's mailbox sends to
	// such mailboxes in 24 hours.
	PerInviter int
	// PerDay bounds the invitations the whole service sends to such
	// mailboxes in 24 hours.
	PerDay int
}

// check refuses a configuration the turn loop cannot run with. A zero
// that means nothing is an error, not a default: the defaults are
// config.Default()'s, translated by wiring.ConfigFrom.
func (c Config) check() error {
	zero := func(field string) error {
		return fmt.Errorf("daemon: Config.%s is not set (build the Config with wiring.ConfigFrom; config.Default() holds the defaults)", field)
	}
	switch {
	case c.Name == "":
		return zero("Name")
	case c.Separator == "":
		return zero("Separator")
	case c.Mailbox == "":
		return zero("Mailbox")
	case c.MaxMessageBytes <= 0:
		return zero("MaxMessageBytes")
	case c.TurnTime <= 0:
		return zero("TurnTime")
	case c.AutopilotAfter < 0:
		return fmt.Errorf("daemon: Config.AutopilotAfter %d is negative (zero never puts a seat on autopilot)", c.AutopilotAfter)
	case c.VacationDays < 0:
		return fmt.Errorf("daemon: Config.VacationDays %d is negative (zero allows no vacation)", c.VacationDays)
	case c.RefusalWindow <= 0:
		return zero("RefusalWindow")
	case c.RefusalMax <= 0:
		return zero("RefusalMax")
	case c.Limits.AnswersPerDay <= 0 || c.Limits.LobbyPerHour <= 0 || c.Limits.LoopPerMinute <= 0:
		return zero("Limits")
	case c.Invitations.PerWeek <= 0 || c.Invitations.PerInviter <= 0 || c.Invitations.PerDay <= 0:
		return zero("Invitations")
	case c.RetainMail < 0:
		return fmt.Errorf("daemon: Config.RetainMail %s is negative (zero keeps mail for ever)", c.RetainMail)
	case c.RetentionEvery <= 0:
		return zero("RetentionEvery")
	}
	local, domain, ok := strings.Cut(c.Address, "@")
	if !ok || local == "" || domain == "" {
		return fmt.Errorf("daemon: the service address %q is not local@domain", c.Address)
	}
	if strings.Contains(local, c.Separator) {
		return fmt.Errorf("daemon: the service address %q contains the separator %q", c.Address, c.Separator)
	}
	if c.AdminToken != "" && !outgoing.StrongToken(c.AdminToken) {
		return fmt.Errorf("daemon: the admin token must be at least %d random lower-case letters and digits, with at least %d different characters (make one with: openssl rand -hex 16)", outgoing.MinTokenLen, outgoing.MinTokenDistinct)
	}
	return nil
}

// Lookup finds a game's rules by name.
type Lookup func(name string) (engine.Rules, bool)

// Service is the turn loop. It is safe for concurrent use: every change
// happens inside one store transaction.
type Service struct {
	cfg    Config
	store  *store.Store
	render *templates.Renderer
	games  Lookup
	// states keeps the engine state of each game's last snapshot, which
	// the next command's load copies rather than decodes.
	states *loaded.States
	// phrases keeps the events' phrases read from the store, which the
	// next command's mails tell again.
	phrases *loaded.Phrases
	post    *outgoing.Post // composes, limits and queues the mails of every unit of work
	names   []string       // the games' names, for the command language
	// markers start the headlines of pbem's mails (outgoing.OwnMarkers), for
	// the parser to cut a copy of them from a reply.
	markers []string
	service *parser.Service // the service's address, compiled once for the parser
	now     func() time.Time
	seed    func() uint64
	log     *slog.Logger
	wake    chan struct{} // outbox: mail was queued
	obs     Observer
	tries   *tries.Counter // failures of mails, deadlines and reminders, by key
	// readMail reads and judges a mail: intake.Read, which a test may
	// replace to make reading fail.
	readMail func(intake.Config, mailer.Message) intake.Mail
	lease    *lease.Config // WithLease: the reader lease this node takes part in
	node     *lease.Node   // this node among the nodes on its database, made by New from lease
	seats    seatCache     // gameOf's tokens, on PostgreSQL
	lexicons lexicons      // the games' command grammars, for seatGrammar
	bounces  bounceKey     // the key of the bounce addresses (bounce.go)

	// sweeper is the deadline sweep and retention (Sweeper).
	sweeper *sweeps.Sweeper
	// changes hears of each game a commit touched, for the web pages'
	// event streams (internal/webpage).
	changes *webpage.Changes
	// unreachableDue says that an address may be unreachable with
	// nothing done about it yet (actOnUnreachable): so at the start,
	// where a node may have stopped before it acted, after a mail made
	// one so, and after a pass that left some for the next.
	unreachableDue atomic.Bool
	// unreachableLooked is when it last looked, in Unix nanoseconds.
	unreachableLooked atomic.Int64
}

// Option changes how a Service is made.
type Option func(*Service)

// WithClock sets the clock (tests use a fixed one).
func WithClock(now func() time.Time) Option { return func(s *Service) { s.now = now } }

// WithSeeds sets where new games' random seeds come from.
func WithSeeds(seed func() uint64) Option { return func(s *Service) { s.seed = seed } }

// WithLogger sets the logger.
func WithLogger(l *slog.Logger) Option { return func(s *Service) { s.log = l } }

// WithLease makes the service take part in the reader lease
// (internal/lease): Run then reads the mailbox and runs retention only
// while this node holds it. Without it, Run runs them at once, alone on
// its database. The lease's node name is also the name the outbox claims
// mail under. An Observer (WithObserver) that implements lease.Observer
// is told when this node takes or loses the lease.
func WithLease(l lease.Config) Option { return func(s *Service) { s.lease = &l } }

// New makes the turn loop.
func New(cfg Config, st *store.Store, render *templates.Renderer, games Lookup, names []string, opts ...Option) (*Service, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	s := &Service{
		cfg: cfg, store: st, render: render, games: games, names: names,
		states: loaded.NewStates(), phrases: loaded.NewPhrases(),
		now:  time.Now,
		seed: randomSeed,
		log:  slog.Default(),
		wake: make(chan struct{}, 1),
		obs:  nopObserver{},

		readMail: intake.Read,
		changes:  webpage.NewChanges(),
	}
	for _, o := range opts {
		o(s)
	}
	s.tries = tries.NewCounter(s.log, store.Unavailable)
	lo, _ := s.obs.(lease.Observer)
	s.node = lease.NewNode(st, s.lease, s.log, lo)
	s.markers = outgoing.OwnMarkers(names, outgoing.Lookup(games))
	s.service = parser.CompileService(s.cfg.Address)
	s.newPost()
	s.sweeper = newSweeper(s)
	s.unreachableDue.Store(true)
	return s, nil
}

func randomSeed() uint64 {
	var b [8]byte
	rand.Read(b[:]) // never fails; see crypto/rand.Read
	return binary.LittleEndian.Uint64(b[:])
}

// ResumeAt is the IMAP cursor (mailer.Cursor): the inbox asks where to
// resume, and the turn loop moves the cursor in the same transaction as
// each message's effects.
func (s *Service) ResumeAt(ctx context.Context, mailbox string) (uidValidity, lastUID uint32, err error) {
	uv, last, err := s.store.Cursor(ctx, mailbox)
	if errors.Is(err, store.ErrNotFound) {
		return 0, 0, nil
	}
	return uv, last, err
}
