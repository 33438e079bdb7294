package daemon

import (
	"time"

	"github.com/pbem/pbem/internal/outbox"
)

// Observer is told what the turn loop does, so that an operator can see it
// (the metrics package implements it with Prometheus counters). Its
// methods are called after the fact they report has committed, never from
// inside a transaction that may still roll back, and they must not block.
//
// The daemon knows nothing of Prometheus: it only reports.
type Observer interface {
	// Inbound reports one inbound mail whose handling committed, with its
	// outcome: any Outcome but OutcomeHandling.
	Inbound(outcome Outcome)
	// SetAside reports a mail, a deadline or a reminder set aside
	// after repeated errors.
	SetAside(what AsideWhat)
	// GameSetAside reports a game set aside.
	GameSetAside()
	// Sent and SendFailed report what the outbox sent.
	outbox.Observer
	// Sweep reports one pass of the deadline sweep: how long it took and
	// how many due deadlines and reminders it found.
	Sweep(took time.Duration, due int)
}

// AsideWhat is what was set aside, reported to
// Observer.SetAside; its text is the metrics label.
type AsideWhat string

// What may be set aside.
const (
	AsideMail     AsideWhat = "mail"     // an inbound mail
	AsideDeadline AsideWhat = "deadline" // a seat's deadline
	AsideReminder AsideWhat = "reminder" // a seat's reminder
	AsideDigest   AsideWhat = "digest"   // a player's day's digest, skipped
)

// nopObserver is the Observer of a Service given none.
type nopObserver struct{}

func (nopObserver) Inbound(Outcome)               {}
func (nopObserver) SetAside(AsideWhat)            {}
func (nopObserver) GameSetAside()                 {}
func (nopObserver) Sent()                         {}
func (nopObserver) SendFailed(outbox.SendFailure) {}
func (nopObserver) Sweep(time.Duration, int)      {}

// WithObserver sets who is told what the turn loop does.
func WithObserver(o Observer) Option { return func(s *Service) { s.obs = o } }
