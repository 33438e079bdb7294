package admin

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/internal/intake"
	"github.com/pbem/pbem/parser"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// Admin acts repair stalled games (docs/felix.md, "Deadlines and admin
// acts"). Each act below reads and changes the game Table lends it; the
// daemon writes the act to the game's audit log, announces it to every
// player in the game's log, and mails them.

// RetryAct takes up a game set aside as broken, once it loads again
// (after a deploy that fixed what broke it).
type RetryAct struct{}

// Word is Retry.
func (RetryAct) Word() Word { return Retry }

// Detail is empty: a retry has no arguments.
func (RetryAct) Detail() string { return "" }

// Do runs on a game that loads again (the daemon loaded it): it is no
// longer set aside, and everyone it waits on gets a fresh deadline, since
// time stood still for it.
func (RetryAct) Do(ctx context.Context, g Table, _ string) (Outcome, error) {
	row := g.Row()
	if err := g.Store().ClearGameAside(ctx, row.ID); err != nil {
		return Outcome{}, err
	}
	row.Aside = ""
	if row.Status == store.StatusActive {
		if err := freshDeadlines(g); err != nil {
			return Outcome{}, err
		}
	}
	return Outcome{Announce: templates.Say.RepairedGameGoesOn(), Say: phrase(templates.Phrases.RepairedGameGoesOn())}, nil
}

// freshDeadlines gives everyone the game waits on a fresh deadline.
func freshDeadlines(g Table) error {
	for _, st := range g.Seats() {
		if !st.Deadline.IsZero() {
			if err := g.FreshDeadline(st.Seat); err != nil {
				return err
			}
		}
	}
	return nil
}

// seatNamed finds a seat by the player's name or address.
func seatNamed(g Table, who string) (store.Seat, error) {
	who = strings.ToLower(strings.TrimSpace(who))
	for _, st := range g.Seats() {
		if st.Name == who || st.Address == store.NormalizeAddress(who) {
			return st, nil
		}
	}
	return store.Seat{}, refuse(templates.Say.NoSuchPlayer(g.Row().ID, who, strings.Join(g.Names(), ", ")))
}

// ExtendAct moves a seat's deadline by By (from now if it has none).
type ExtendAct struct {
	Who string // the player's name or address
	By  time.Duration
}

// Word is Extend.
func (ExtendAct) Word() Word { return Extend }

// Detail is "bob by 24h0m0s".
func (a ExtendAct) Detail() string { return fmt.Sprintf("%s by %s", a.Who, a.By) }

// Do sets the new deadline and the reminder before it.
func (a ExtendAct) Do(ctx context.Context, g Table, _ string) (Outcome, error) {
	st, err := seatNamed(g, a.Who)
	if err != nil {
		return Outcome{}, err
	}
	if a.By <= 0 {
		return Outcome{}, refuse(templates.Say.ExtendNeedsPositiveDuration())
	}
	if st.Bot != "" {
		return Outcome{}, refuse(templates.Say.BotHasNoDeadline(st.Name))
	}
	now := g.Now()
	from := st.Deadline
	if from.IsZero() || from.Before(now) {
		from = now
	}
	// Added to the deadline as it is, then out of the player's quiet
	// hours, as every deadline (docs/commands.md, "Which clock wins").
	deadline, err := g.ExtendedDeadline(st.Seat, from, a.By)
	if err != nil {
		return Outcome{}, err
	}
	if err := g.Store().SetDeadline(ctx, g.Row().ID, st.Seat, deadline); err != nil {
		return Outcome{}, err
	}
	// The new deadline gets the steps still to come of a decision that
	// runs from its start to the new deadline.
	start := st.WaitingSince
	if start.IsZero() {
		start = now
	}
	if err := g.NextReminder(st.Seat, deadline, deadline.Sub(start), now); err != nil {
		return Outcome{}, err
	}
	return Outcome{Announce: templates.Say.DeadlineExtended(st.Name, a.By), Say: phrase(templates.Phrases.DeadlineExtended(st.Name, a.By))}, nil
}

// MoveAct makes a move for a player, as if he had sent it.
type MoveAct struct {
	Who     string // the player's name or address
	Command string // the move, in the player's language
}

// Word is Move.
func (MoveAct) Word() Word { return Move }

// Detail is "bob: pass".
func (a MoveAct) Detail() string { return a.Who + ": " + a.Command }

// Do reads the command as the player's mail would and applies it.
func (a MoveAct) Do(_ context.Context, g Table, actor string) (Outcome, error) {
	st, err := seatNamed(g, a.Who)
	if err != nil {
		return Outcome{}, err
	}
	if row := g.Row(); row.Status != store.StatusActive {
		return Outcome{}, refuse(templates.Say.GameNotActive(row.ID, string(row.Status)))
	}
	// The player's language, as his mail would read it.
	c, err := parser.ReadMove(a.Command, g.Grammar(st.Seat))
	if err != nil {
		return Outcome{}, refuse(err.Error())
	}
	events, err := g.Apply(st.Seat, c)
	if err != nil {
		return Outcome{}, refuse(err.Error())
	}
	// Only the player learns which move was made for him: it may place a
	// hidden card.
	told := []engine.Event{{To: st.Seat, Kind: EventKind, Text: templates.Say.AdminMovedForYou(c.Text), Say: phrase(templates.Phrases.AdminMovedForYou(c.Text))}}
	if err := g.Record(st.Seat, c.Text, store.SourceAdmin(actor), append(told, events...)); err != nil {
		return Outcome{}, err
	}
	return Outcome{Announce: templates.Say.MadeMoveFor(st.Name), Say: phrase(templates.Phrases.MadeMoveFor(st.Name)), Moved: true}, nil
}

// UndoAct takes back a player's last command, by the engine's rule
// (engine.Log.Last) and without the players' vote.
type UndoAct struct {
	Who string // the player's name or address
}

// Word is Undo.
func (UndoAct) Word() Word { return Undo }

// Detail is the player, as the admin named him.
func (a UndoAct) Detail() string { return a.Who }

// Do takes the command back; the table reads the undo's own event, and
// the admin's act is in the audit.
func (a UndoAct) Do(_ context.Context, g Table, actor string) (Outcome, error) {
	st, err := seatNamed(g, a.Who)
	if err != nil {
		return Outcome{}, err
	}
	if row := g.Row(); row.Status != store.StatusActive {
		return Outcome{}, refuse(templates.Say.GameNotActive(row.ID, string(row.Status)))
	}
	err = g.TakeBack(st.Seat, actor)
	var ue *engine.UndoError
	if errors.As(err, &ue) {
		return Outcome{}, refuse(templates.Say.CannotTakeBackLastCommand(st.Name, ue.Reason))
	}
	if err != nil {
		return Outcome{}, err
	}
	return Outcome{Moved: true}, nil
}

// ReplaceAct gives a seat to a new address with a new token; the old
// address can no longer play it.
type ReplaceAct struct {
	Who     string // the player's name or address
	Address string // the new player's address
}

// Word is Replace.
func (ReplaceAct) Word() Word { return Replace }

// Detail is "bob -> rob@example.org", the address as the admin wrote it.
func (a ReplaceAct) Detail() string { return a.Who + " -> " + a.Address }

// Do hands the seat over, in the store and in the loaded seats.
func (a ReplaceAct) Do(ctx context.Context, g Table, _ string) (Outcome, error) {
	st, err := seatNamed(g, a.Who)
	if err != nil {
		return Outcome{}, err
	}
	address := store.NormalizeAddress(a.Address)
	if !strings.Contains(address, "@") {
		return Outcome{}, refuse(templates.Say.NotMailAddress(address))
	}
	if intake.IsBotAddress(address) {
		return Outcome{}, refuse(templates.Say.CannotSeatBotAddress(address))
	}
	id := g.Row().ID
	if err := g.Store().ReplaceSeatAddress(ctx, id, st.Seat, address, store.NewToken()); err != nil {
		if errors.Is(err, store.ErrDuplicate) {
			return Outcome{}, refuse(templates.Say.AlreadyPlaysGame(address, id))
		}
		return Outcome{}, err
	}
	if err := handOver(ctx, g.Store(), id, st, address); err != nil {
		return Outcome{}, err
	}
	bank := st.Bank
	if g.Row().Bank.On() {
		// A new player starts with the game's whole clock, as everyone
		// did: what the old one left of it is not his doing.
		bank = g.Row().Bank.Start
		if err := g.Store().SetSeatBank(ctx, id, st.Seat, bank); err != nil {
			return Outcome{}, err
		}
	}
	seats := g.Seats()
	for i := range seats {
		if seats[i].Seat == st.Seat {
			seats[i].Address = address
			seats[i].State = store.SeatJoined
			seats[i].Bot = ""
			seats[i].Bank = bank
		}
	}
	if g.Row().Bank.On() && !st.Deadline.IsZero() {
		// His decision under way runs on his clock, from now.
		if err := g.FreshDeadline(st.Seat); err != nil {
			return Outcome{}, err
		}
	}
	if st.Bot != "" {
		return Outcome{Announce: templates.Say.BotSeatNowPlayedByPerson(st.Name), Say: phrase(templates.Phrases.BotSeatNowPlayedByPerson(st.Name))}, nil
	}
	return Outcome{Announce: templates.Say.SeatMovedToNewAddress(st.Name), Say: phrase(templates.Phrases.SeatMovedToNewAddress(st.Name))}, nil
}

// handOver makes the seat st, now at address, a new player's.
func handOver(ctx context.Context, s Store, gameID int64, st store.Seat, address string) error {
	// The old player's web link showed the seat's hand: it goes with
	// him, and the new player's mails link a new one.
	if err := s.DropLink(ctx, gameID, st.Seat); err != nil {
		return err
	}
	if _, err := s.UpsertPlayer(ctx, address, ""); err != nil {
		return err
	}
	// The new player has seen nothing: his first mail tells him all he
	// may see.
	if err := s.SetSeatLastMailedEvent(ctx, gameID, st.Seat, 0); err != nil {
		return err
	}
	if err := s.SetSeatJoined(ctx, gameID, st.Seat); err != nil {
		return err
	}
	if st.Bot != "" {
		// A person takes the bot's seat: from now on the seat waits
		// for his mail like any other.
		if err := s.SetSeatBot(ctx, gameID, st.Seat, ""); err != nil {
			return err
		}
	}
	return nil
}

// StatusAct pauses, resumes or aborts a game: To is Pause, Resume or
// Abort.
type StatusAct struct {
	To     Word
	Reason string // why, for the players; may be empty
}

// Word is To.
func (a StatusAct) Word() Word { return a.To }

// Detail is the reason.
func (a StatusAct) Detail() string { return a.Reason }

// statusOf is the status each of StatusAct's words leaves a game in.
var statusOf = map[Word]store.Status{Pause: store.StatusPaused, Resume: store.StatusActive, Abort: store.StatusAborted}

// Do changes the status, if the game's allows it, and its deadlines.
func (a StatusAct) Do(ctx context.Context, g Table, _ string) (Outcome, error) {
	want := statusOf[a.To]
	if want == "" {
		return Outcome{}, refuse(templates.Say.NotPauseResumeOrAbort(string(a.To)))
	}
	row := g.Row()
	from := row.Status
	ok := (a.To == Pause && from == store.StatusActive) ||
		(a.To == Resume && from == store.StatusPaused) ||
		(a.To == Abort && (from == store.StatusActive || from == store.StatusPaused || from == store.StatusInviting))
	if !ok {
		return Outcome{}, refuse(templates.Say.StatusChangeRefused(string(a.To), row.ID, string(from)))
	}
	if err := g.Store().SetGameStatus(ctx, row.ID, want); err != nil {
		return Outcome{}, err
	}
	row.Status = want
	words := map[Word]string{Pause: templates.Say.PausedGame(), Resume: templates.Say.ResumedGame(), Abort: templates.Say.AbortedGame()}[a.To]
	say := phrase(map[Word]engine.Phrase{Pause: templates.Phrases.PausedGame(), Resume: templates.Phrases.ResumedGame(), Abort: templates.Phrases.AbortedGame()}[a.To])
	if a.Reason != "" {
		// English only: WithReason cuts the sentence's full stop, which
		// a phrase cannot.
		words, say = templates.Say.WithReason(words, a.Reason), nil
	}
	switch a.To {
	case Resume:
		// Time stood still while paused: everyone waited on gets a
		// fresh deadline.
		if err := freshDeadlines(g); err != nil {
			return Outcome{}, err
		}
	case Abort:
		for _, st := range g.Seats() {
			if err := g.Store().ClearDeadline(ctx, row.ID, st.Seat); err != nil {
				return Outcome{}, err
			}
		}
	}
	return Outcome{Announce: words, Say: say}, nil
}

// UnrateAct takes a game out of the ratings and computes its kind's
// ratings again from the kind's other games, in the order they were
// rated: as if the game had never been rated.
type UnrateAct struct{}

// Word is Unrate.
func (UnrateAct) Word() Word { return Unrate }

// Detail is empty: unrate has no arguments.
func (UnrateAct) Detail() string { return "" }

// Do unrates the game, if it was rated.
func (UnrateAct) Do(_ context.Context, g Table, _ string) (Outcome, error) {
	err := g.Unrate()
	if errors.Is(err, store.ErrNotFound) {
		return Outcome{}, refuse(templates.Say.GameNotRated(g.Row().ID))
	}
	if err != nil {
		return Outcome{}, err
	}
	return Outcome{Announce: templates.Say.UnratedGame(), Say: phrase(templates.Phrases.UnratedGame())}, nil
}

// phrase is p, for an Outcome's or an event's Say.
func phrase(p engine.Phrase) *engine.Phrase { return &p }
