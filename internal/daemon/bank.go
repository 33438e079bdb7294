package daemon

import (
	"time"

	"github.com/pbem/pbem/internal/loaded"
	"github.com/pbem/pbem/internal/timebank"
	"github.com/pbem/pbem/parser"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// A game with a time bank (issue 38, `new ... clock 2d+12h max 5d`;
// docs/commands.md, "clock"). Each seat's bank is stored as it was when
// its pending decision began (store.Seat.Bank), and that decision's
// deadline is when the bank runs out on the player's clock
// (deadlineFrom: his quiet hours and the game's days off do not count;
// a vacation starts it at his return). So whatever moves a deadline
// moves the bank with it: an admin's extend adds to it, a vacation
// stops it. When the decision ends, endDecision stores what is left
// (timebank.Left): plus the increment after a move of his, none when
// pbem moved for him at the deadline, which also puts the seat on
// autopilot (countMissed); he gets timebank.Restart when he takes it
// back (takeBack). An undo gives the seat back the clock it had when it
// made the move taken back (restoreClock).

// decisionSpan is the length of the seat's pending decision, which the
// reminder steps divide: the game's time per decision, or in a game
// with a bank, the bank the decision began with.
func (w *work) decisionSpan(g store.Game, st store.Seat) time.Duration {
	if g.Bank.On() {
		return st.Bank
	}
	return w.turnTime(g)
}

// seatLeft is what the seat's bank holds now.
func (w *work) seatLeft(g store.Game, st store.Seat) (time.Duration, error) {
	return timebank.SeatLeft(w.ctx, w.tx, g, st, w.now())
}

// endDecision settles the seat's bank when its pending decision ends, in
// a game with a bank: cur is the seat as stored, with its deadline.
// After a move for the seat (its first in this transaction ended the
// decision), the bank is what was left plus the increment, and that move
// records what was left (store.Move.ClockLeft, which the export shows);
// after pbem's move at the deadline it is empty; when the decision ends
// for another reason (an undo, the game's end), it keeps what was left.
func (w *work) endDecision(lg *loaded.Game, cur store.Seat) (store.Seat, error) {
	if !lg.Row.Bank.On() || cur.Deadline.IsZero() || cur.Bot != "" || cur.State == store.SeatResigned ||
		(cur.Autopilot && cur.Bank == 0) {
		// No bank runs here: pbem plays the seat (a bot's, a resigned
		// one, one whose bank ran out before this decision).
		return cur, nil
	}
	left, err := w.seatLeft(lg.Row, cur)
	if err != nil {
		return cur, err
	}
	bank := left
	if seq, moved := lg.FirstMove[cur.Seat]; moved {
		if _, err := w.tx.SetMoveClock(w.ctx, lg.Row.ID, seq, left); err != nil {
			return cur, err
		}
		bank = timebank.After(lg.Row.Bank, left)
	}
	if err := w.tx.SetSeatBank(w.ctx, lg.Row.ID, cur.Seat, bank); err != nil {
		return cur, err
	}
	cur.Bank = bank
	lg.Seats[cur.Seat].Bank = bank
	return cur, nil
}

// restartClock gives a seat whose bank ran out, and whose player takes
// it back, timebank.Restart, and a decision under way a deadline on it:
// the lines to tell him, none in a game without a bank.
func (w *work) restartClock(lg *loaded.Game, seat *store.Seat) ([]string, error) {
	if !lg.Row.Bank.On() {
		return nil, nil
	}
	bank := timebank.Restart(lg.Row.Bank)
	if err := w.tx.SetSeatBank(w.ctx, lg.Row.ID, seat.Seat, bank); err != nil {
		return nil, err
	}
	seat.Bank, lg.Seats[seat.Seat].Bank = bank, bank
	if !seat.Deadline.IsZero() {
		if err := w.freshDeadline(lg.Row, seat.Seat); err != nil {
			return nil, err
		}
		fresh, err := w.tx.Seat(w.ctx, lg.Row.ID, seat.Seat)
		if err != nil {
			return nil, err
		}
		seat.Deadline, lg.Seats[seat.Seat].Deadline = fresh.Deadline, fresh.Deadline
	}
	return []string{w.words.ClockRestarts(w.words.ClockDuration(bank))}, nil
}

// restoreClock gives the seat, whose move m an undo takes back, the
// clock it had when it made that move, in a game with a bank, and ends
// its pending decision so that moveDeadlines starts a new one on that
// bank, not settle the old one. It returns the line to tell him, "" when
// the move recorded no clock.
func (w *work) restoreClock(lg *loaded.Game, seat int, m store.Move) (string, error) {
	if !lg.Row.Bank.On() || !m.HasClock {
		return "", nil
	}
	if err := w.tx.SetSeatBank(w.ctx, lg.Row.ID, seat, m.ClockLeft); err != nil {
		return "", err
	}
	if err := w.tx.ClearDeadline(w.ctx, lg.Row.ID, seat); err != nil {
		return "", err
	}
	lg.Seats[seat].Bank, lg.Seats[seat].Deadline = m.ClockLeft, time.Time{}
	return w.words.ClockGivenBack(w.words.ClockDuration(m.ClockLeft)), nil
}

// timeSentence is what the first mails of a game say of its time: per
// decision, or its clock.
func (w *work) timeSentence(g store.Game, say templates.Words) string {
	return gameTimeSentence(w.turnTime(g), g.Bank, g.WeekendsOff, w.standIn().in(say))
}

// gameTimeSentence is timeSentence for a game's terms: turn for each
// decision, or the time bank b when it has one.
func gameTimeSentence(turn time.Duration, b store.Bank, weekendsOff bool, in standIn) string {
	if !b.On() {
		return turnTimeSentence(turn, weekendsOff, in)
	}
	var inc, most string
	if b.Increment > 0 {
		inc = in.say.ClockDuration(b.Increment)
	}
	if b.Max > 0 {
		most = in.say.ClockDuration(b.Max)
	}
	return in.say.ClockPerGame(in.say.ClockDuration(b.Start), inc, most, weekendsOff, in.playsForYou())
}

// clockOf is the `clock` of a `new` that makes a game with the bank b:
// a rematch keeps its game's clock.
func clockOf(b store.Bank) parser.Clock {
	return parser.Clock{Start: b.Start, Increment: b.Increment, Max: b.Max}
}

// runningBank is a bank that runs for a player now: what it held before
// something changed his clock.
type runningBank struct {
	game store.Game
	seat int
	left time.Duration
}

// keepBanks runs change, which changes the clock of the player at
// address (his quiet hours, his zone, a vacation), and then gives each
// of his banks that was running the deadline of what it held before,
// on his clock as it now is: such a change moves where his time counts,
// never how much of it he has. Deadlines of games without a bank are
// change's to move.
func (w *work) keepBanks(address string, change func() error) error {
	running, err := w.runningBanks(address)
	if err != nil {
		return err
	}
	if err := change(); err != nil {
		return err
	}
	from, err := w.turnStart(address)
	if err != nil {
		return err
	}
	from = from.Truncate(time.Second)
	for _, b := range running {
		st, err := w.tx.Seat(w.ctx, b.game.ID, b.seat)
		if err != nil {
			return err
		}
		clock, err := w.seatClock(b.game, st)
		if err != nil {
			return err
		}
		deadline := openSecond(clock, clock.BankEnd(from, b.left))
		if err := w.tx.SetDeadline(w.ctx, b.game.ID, b.seat, deadline); err != nil {
			return err
		}
		if err := w.nextReminder(b.game.ID, b.seat, clock, deadline, st.Bank, w.now()); err != nil {
			return err
		}
	}
	return nil
}

// runningBanks are the banks running for the player at address: his
// seats with a pending decision in active games with a bank.
func (w *work) runningBanks(address string) ([]runningBank, error) {
	games, err := w.tx.GamesOf(w.ctx, address)
	if err != nil {
		return nil, err
	}
	var out []runningBank
	for _, g := range games {
		if g.Status != store.StatusActive || !g.Bank.On() {
			continue
		}
		seats, err := w.tx.Seats(w.ctx, g.ID)
		if err != nil {
			return nil, err
		}
		for _, st := range seats {
			if st.Address != address || st.Deadline.IsZero() || st.Autopilot || st.Bot != "" || st.State == store.SeatResigned {
				continue
			}
			left, err := w.seatLeft(g, st)
			if err != nil {
				return nil, err
			}
			out = append(out, runningBank{game: g, seat: st.Seat, left: left})
		}
	}
	return out, nil
}
