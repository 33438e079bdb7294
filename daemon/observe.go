package daemon

import "time"

// Observer is told what the turn loop does, so that an operator can see it
// (the metrics package implements it with Prometheus counters). Its
// methods are called after the fact they report has committed, never from
// inside a transaction that may still roll back, and they must not block.
//
// The daemon knows nothing of Prometheus: it only reports.
type Observer interface {
	// Inbound reports one inbound mail whose handling committed, with its
	// outcome: applied, answered, refused, ignored, unusable or failed.
	Inbound(outcome string)
	// Quarantined reports a mail or a deadline set aside after repeated
	// errors (what is "mail", "deadline" or "reminder").
	Quarantined(what string)
	// GameBroken reports a game marked broken.
	GameBroken()
	// Sent reports one mail the mail server took.
	Sent()
	// SendFailed reports one failed attempt to send a mail; class is
	// "temporary" or "permanent".
	SendFailed(class string)
	// Sweep reports one pass of the deadline sweep: how long it took and
	// how many due deadlines and reminders it found.
	Sweep(took time.Duration, due int)
}

// Send failure classes reported to Observer.SendFailed.
const (
	SendTemporary = "temporary"
	SendPermanent = "permanent"
)

// Quarantine subjects reported to Observer.Quarantined.
const (
	QuarantineMail     = "mail"
	QuarantineDeadline = "deadline"
	QuarantineReminder = "reminder"
)

// nopObserver is the Observer of a Service given none.
type nopObserver struct{}

func (nopObserver) Inbound(string)           {}
func (nopObserver) Quarantined(string)       {}
func (nopObserver) GameBroken()              {}
func (nopObserver) Sent()                    {}
func (nopObserver) SendFailed(string)        {}
func (nopObserver) Sweep(time.Duration, int) {}

// WithObserver sets who is told what the turn loop does.
func WithObserver(o Observer) Option { return func(s *Service) { s.obs = o } }
