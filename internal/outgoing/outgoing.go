// Package outgoing is the turn loop's last stage: the mails one unit of
// work sends. It gives each its Message-ID, derived from what caused it;
// threads a mail to a seat under its game's one Subject; composes it
// (templates, then mailer); holds back, by the loop breaker, the answers
// to a sender who floods a thread; keeps every address within its limits;
// and puts what may go in the store's outbox, in the unit of work's own
// transaction (docs/architecture.md, "Queue").
//
// One word names what bounds the mail an address gets: a limit. A limit
// is counted in the store's budget table (store.Tx.Spend and Note), per
// mailbox (internal/mailbox), whatever spelling of it a mail names.
//
// It knows no daemon and no configuration file: the daemon gives it a
// Config of its own.
package outgoing

import (
	"context"
	"log/slog"
	"time"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/internal/mailbox"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// Config is what composing and limiting outgoing mail needs to know of
// the service. The daemon fills it from its own Config.
type Config struct {
	Name      string // the service's display name, "pbem"
	Address   string // the service's bare address, "pbem@example.test"
	Separator string // between the local part and a seat's token: "+"
	// BotDomain is the domain of bot seats' addresses, which reach no
	// one: a mail to one is never written.
	BotDomain string
	// Admins are the configured admins' addresses, normalised: told of a
	// loop, of a mail set aside, of a broken game.
	Admins []string
	// AnswersPerDay limits the mails sent to a mailbox about anything
	// but a running game it plays in (withinLimit).
	AnswersPerDay int
	// LoopPerMinute is the loop breaker's limit (breaker.go).
	LoopPerMinute int
	// RefusalWindow and RefusalMax limit the refusals one mailbox is
	// sent (TellFailed; the daemon's refusals likewise).
	RefusalWindow time.Duration
	RefusalMax    int
	// Mailbox says which addresses reach one mailbox: the key of every
	// limit (MailboxOf).
	Mailbox mailbox.Rule
	// WebURL is the web pages' public base URL, "" when pbem serves
	// none: a seat's mails then carry no one-click unsubscribe
	// (unsubscribe.go).
	WebURL string
}

// Lookup finds a game's rules by name.
type Lookup func(name string) (engine.Rules, bool)

// Post composes, limits and queues the mails of every unit of work of
// one service. Between units it keeps only the mailboxes known to have
// answered pbem (answered.go): it is safe for concurrent use.
type Post struct {
	cfg           Config
	render        *templates.Renderer
	games         Lookup
	log           *slog.Logger
	now           func() time.Time
	answeredBoxes answeredBoxes
}

// New makes the service's Post.
func New(cfg Config, render *templates.Renderer, games Lookup, log *slog.Logger, now func() time.Time) *Post {
	return &Post{cfg: cfg, render: render, games: games, log: log, now: now}
}

// Unit is the unit of work the mails come from, as composing and
// queueing them needs it: the transaction they are queued in, what
// caused them (for their ids), whom they answer, and the mails gathered
// so far.
type Unit struct {
	Ctx context.Context
	Tx  *store.Tx
	// Key identifies what caused the mails: every id is derived from it
	// and the mail's place among Out's, so that the same work done again
	// after a crash yields the same mails.
	Key string
	// From is the sender answered, bare and normalised; "" for work no
	// mail caused.
	From string
	// InReplyTo is the Message-ID of the mail answered: a mail outside
	// a game's thread replies to it.
	InReplyTo string
	// GameID is the game the work is about, so far: an outbox row of a
	// notice outside a thread names it.
	GameID int64
	// FirstLines are the lines to put first in a mail to an address
	// (the note that commands came from the Subject); nil for none.
	FirstLines func(to string) []string
	Out        *Mails
}

func (u Unit) firstLines(to string) []string {
	if u.FirstLines == nil {
		return nil
	}
	return u.FirstLines(to)
}

// Mail is one mail to queue when the unit of work's transaction commits.
type Mail struct {
	// ID is the Message-ID the mail was rendered for ("" when its
	// rendering needed none): a game mail's links name it. Enqueue
	// derives every id the same way and refuses a mail whose id moved.
	ID     string
	To     string
	Token  string // the seat's token for Reply-To; "" means the bare address
	GameID int64
	Seat   int // the seat the mail is threaded under; -1 for none
	Mail   templates.Mail
	Admin  bool // to a configured admin: not limited
	Digest bool // a player's daily digest of his games: a game mail, not limited
	// Invitation marks an invitation to a game (NoticeInvite): the one
	// mail a mailbox that never answered gets of that game.
	Invitation bool
	// GameMail marks a seat's game mail, and SeenBefore is the seat's
	// LastMailedEvent before it: what the seat was mailed is set back to
	// it if the loop breaker holds the mail.
	GameMail   bool
	SeenBefore int64

	held bool // an answer the loop breaker holds: not written (breaker.go)
}

// Mails are the mails one unit of work will send, gathered while it
// runs, and what became of them at its end. The zero value has none.
type Mails struct {
	list []Mail
	// dropped counts the mails not sent for their address's limits
	// (withinLimit), held the answers the loop breaker held.
	dropped, held int
	// loop is where the loop breaker counted the mail answered: its
	// seat's thread when it came to a seat's address from the seat's
	// player (Breaker sets it; withinLimit reads it).
	loop LoopThread
}

// Reset drops every mail and count: a transaction may be tried again.
func (m *Mails) Reset() { *m = Mails{} }

// Add gathers one more mail.
func (m *Mails) Add(om Mail) { m.list = append(m.list, om) }

// Len is how many mails were gathered, held ones included.
func (m *Mails) Len() int { return len(m.list) }

// Truncate drops the mails gathered after the first n.
func (m *Mails) Truncate(n int) { m.list = m.list[:n] }

// Dropped is how many mails Enqueue did not write for their address's
// limits.
func (m *Mails) Dropped() int { return m.dropped }

// Held is how many answers the loop breaker held.
func (m *Mails) Held() int { return m.held }
