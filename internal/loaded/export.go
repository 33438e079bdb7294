package loaded

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/bot"
	"github.com/pbem/pbem/engine/transcript"
	"github.com/pbem/pbem/internal/timebank"
	"github.com/pbem/pbem/parser"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// Export writes a stored game as a transcript: its explicit set-up and
// every command in the order the service accepted it, undo lines
// included, each with a comment that names the command it took back.
// `pbem replay` on it rebuilds the game. games finds the game's rules
// for the comments; without them the log is written bare.
func Export(ctx context.Context, st Reader, games Games, gameID int64, w io.Writer) error {
	g, err := st.Game(ctx, gameID)
	if err != nil {
		return err
	}
	var setup engine.Setup
	if err := json.Unmarshal(g.Setup, &setup); err != nil {
		return fmt.Errorf("export game %d: set-up: %w", gameID, err)
	}
	moves, err := st.Moves(ctx, gameID, 0)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "# pbem game #%d (%s), exported by pbem\n", g.ID, g.Status)
	if g.TurnTime > 0 {
		// The time for each decision is the service's, not the engine's:
		// a comment records it, and a replay, which knows no time, skips
		// it (docs/transcripts.md).
		fmt.Fprintf(w, "# time for each decision: %s (pbem's deadline, not part of the set-up)\n", parser.DeadlineText(g.TurnTime))
	}
	if g.Bank.On() {
		// The banks are the service's too: the header names the clock,
		// and each move that ended a decision says what was left on
		// its player's clock and what the move made of it, as his
		// mails showed it.
		fmt.Fprintf(w, "# clock: %s (each player's time bank, pbem's, not part of the set-up)\n",
			parser.ClockText(parser.Clock{Start: g.Bank.Start, Increment: g.Bank.Increment, Max: g.Bank.Max}))
	}
	// The log is replayed as it is written, so that each undo line can
	// say which command it took back: the export is the admin's record.
	rules, ok := games(g.Kind)
	var l *engine.Log
	if ok {
		l, _, _ = engine.NewLog(rules, setup)
	}
	var tm []transcript.Move
	for _, m := range moves {
		if m.Seat < 0 || m.Seat >= len(setup.Players) {
			return fmt.Errorf("export game %d: move %d by unknown seat %d", gameID, m.Seq, m.Seat)
		}
		line := transcript.Move{Player: setup.Players[m.Seat], Command: m.Command}
		if l != nil {
			if m.Command == engine.UndoCommand {
				if step, err := l.Undo(m.Seat); err == nil {
					line.Note = fmt.Sprintf("takes back move %d: %s", moves[step.Line].Seq, step.Command.Text)
				}
			} else if cmd, forced := engine.ForcedCommand(l.Game(), m.Seat); forced && cmd == m.Command && m.Source == store.SourceDeadline {
				// pbem made it at once (settle's autoplay): the seat's
				// line, which a replay checks like any other.
				line.Note = "made by pbem: the only move the rules left"
				if _, err := l.Do(m.Seat, m.Command); err != nil {
					l = nil
				}
			} else if _, err := l.Do(m.Seat, m.Command); err != nil {
				l = nil // a log that does not replay is exported as it is
			}
		}
		if m.HasClock && g.Bank.On() {
			line.Note = joinNotes(line.Note, clockNote(g.Bank, m.ClockLeft))
		}
		tm = append(tm, line)
	}
	seats, err := st.Seats(ctx, gameID)
	if err != nil {
		return err
	}
	var bots map[int]bot.Level
	for _, seat := range seats {
		if seat.Bot != "" {
			if bots == nil {
				bots = map[int]bot.Level{}
			}
			bots[seat.Seat] = bot.Level(seat.Bot)
		}
	}
	return transcript.Write(w, g.Kind, setup, bots, tm)
}

// clockNote is what a move that ended a decision did to its player's
// time bank, in the words and figures of his mails
// (templates.Words.ClockDuration).
func clockNote(b store.Bank, left time.Duration) string {
	if left <= 0 {
		return "clock ran out"
	}
	return fmt.Sprintf("clock: %s left, %s after the move",
		templates.Say.ClockDuration(left), templates.Say.ClockDuration(timebank.After(b, left)))
}

// joinNotes joins two notes of one line.
func joinNotes(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}
