package daemon

import (
	"encoding/json"
	"errors"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/bot"
	"github.com/pbem/pbem/engine/transcript"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// Moves nobody sends (issue 16). pbem moves for a seat in two cases:
//
//   - a bot seat (store.Seat.Bot), asked for at `new ... and 1 bot`: the
//     bot at the seat's level moves whenever the game waits on it, in the
//     transaction that made the game wait (settle's autoplay);
//   - a player who does not move: his deadline passed, his seat is on
//     autopilot, or he resigned. Who moves for him is the stand-in that
//     service.default_player chooses: pbem's bot at level normal, or the
//     game's fixed default move (Game.Default).
//
// Either way the bot sees only what the seat may see (engine.KnowledgeOf
// takes the seat's view and the log entries visible to it), and its seed
// is bot.SeedAt(the stored set-up's seed, the number of commands before
// the move), so that a transcript's bot lines can be checked by computing
// them again (transcript.CheckBots). The stored set-up is explicit (the
// deal written out), so its seed is 0 and so is the export's: games
// differ through the bot's stream, which hashes what the seat has seen.

// standInLevel is the level the stand-in bot plays at: strong enough to
// play a vanished player's seat sensibly, and a few milliseconds a move.
const standInLevel = bot.Normal

// standIn is who moves for a player who does not: it says so in the
// words the table is told.
type standIn struct{ bot bool }

func (s *Service) standIn() standIn {
	return standIn{bot: s.cfg.DefaultPlayer == DefaultPlayerBot}
}

// movedFor: "pbem's bot played for carol".
func (p standIn) movedFor(name string) string {
	if p.bot {
		return templates.Say.PbemBotPlayed(name)
	}
	return templates.Say.PbemMadeDefaultMove(name)
}

// movedForYou: "pbem's bot played for you".
func (p standIn) movedForYou() string {
	if p.bot {
		return templates.Say.PbemBotPlayedYou()
	}
	return templates.Say.PbemMadeDefaultMoveYou()
}

// playsFor: "pbem's bot plays for carol".
func (p standIn) playsFor(name string) string {
	if p.bot {
		return templates.Say.PbemBotPlays(name)
	}
	return templates.Say.PbemPlaysSeatWith(name)
}

// playsForYou: "pbem's bot plays for you".
func (p standIn) playsForYou() string {
	if p.bot {
		return templates.Say.PbemBotPlaysYou()
	}
	return templates.Say.PbemPlaysSeatWithDefault()
}

// playsForThem is what every game mail says of the seats on autopilot:
// "pbem's bot plays for them".
func (p standIn) playsForThem() string {
	if p.bot {
		return templates.Say.PbemBotPlaysThem()
	}
	return templates.Say.PbemMakesDefaultMoves()
}

// playsTheSeat is what admins are told: "pbem's bot plays the seat".
func (p standIn) playsTheSeat() string {
	if p.bot {
		return templates.Say.PbemBotPlaysSeat()
	}
	return templates.Say.PbemPlaysSeatWithDefaultMoves()
}

// movesForYou is what happens when a deadline passes: "pbem's bot moves
// for you".
func (p standIn) movesForYou() string {
	if p.bot {
		return templates.Say.PbemBotMovesYou()
	}
	return templates.Say.PbemMakesDefaultMove()
}

// standInMove is the move pbem makes for seat, whose player does not
// make it: the stand-in bot's, or the game's fixed default. ok is false
// when the game has no move for the seat.
func (w *work) standInMove(tb *table, seat int) (engine.Command, bool, error) {
	if w.standIn().bot {
		return w.botMove(tb, seat, standInLevel)
	}
	cmd, ok := tb.game.Default(seat)
	return cmd, ok, nil
}

// botMove is the move of the bot at level for seat. A game the bot cannot
// play, or a seat the bot finds nothing for, gets the fixed default: the
// bot's fallback, as for a budget of zero.
func (w *work) botMove(tb *table, seat int, level bot.Level) (engine.Command, bool, error) {
	log, ply, err := w.engineLog(tb)
	if err != nil {
		return engine.Command{}, false, err
	}
	cmd, err := bot.Move(tb.game, seat, log, level, bot.SeedAt(tb.logSeed, ply))
	switch {
	case err == nil:
		return cmd, true, nil
	case errors.Is(err, bot.ErrNotSupported):
		cmd, ok := tb.game.Default(seat)
		return cmd, ok, nil
	default:
		// Never the bot's reason: it may describe the seat's cards.
		return engine.Command{}, false, brokenGame(tb.row.ID, err, "%s", templates.Say.PbemBotFoundNo(seat))
	}
}

// engineLog is the game's log as the engine wrote it: the opening and
// every command's events, an undo as one public line, and nothing of the
// service's (talk, notices), exactly as transcript.Replay makes it from
// the game's export. ply is the number of commands it covers; the
// set-up's seed is kept as tb.logSeed. The bot
// reads this and not the stored events, so that its moves can be
// computed again from a transcript. It is kept on the table while only
// bot moves follow (recordMachine), so a run of bot moves replays once.
func (w *work) engineLog(tb *table) ([]engine.Event, int, error) {
	if tb.log != nil && tb.logSeq == tb.row.LastSeq {
		return tb.log, tb.logPly, nil
	}
	var setup engine.Setup
	if err := json.Unmarshal(tb.row.Setup, &setup); err != nil {
		return nil, 0, brokenGame(tb.row.ID, err, "%s", templates.Say.SetUpDoesNot())
	}
	moves, err := w.tx.Moves(w.ctx, tb.row.ID, 0)
	if err != nil {
		return nil, 0, err
	}
	tr := transcript.Transcript{Rules: tb.rules, Setup: setup, Seeded: true}
	for _, m := range moves {
		if m.Seat < 0 || m.Seat >= len(setup.Players) {
			return nil, 0, brokenGame(tb.row.ID, nil, "%s", templates.Say.MoveNamesNoSeat(m.Seq))
		}
		tr.Moves = append(tr.Moves, transcript.Move{Player: setup.Players[m.Seat], Command: m.Command})
	}
	_, log, err := tr.Replay()
	if err != nil {
		// The error may quote a command: it stays out of the reason.
		return nil, 0, brokenGame(tb.row.ID, nil, "%s", templates.Say.MoveLogDoesNotReplay())
	}
	tb.log, tb.logSeq, tb.logPly, tb.logSeed = log, tb.row.LastSeq, len(moves), setup.Seed
	return log, len(moves), nil
}

// recordMachine records a move pbem made for seat, with the engine's events
// and the service's notes, and keeps the table's engine log current.
func (w *work) recordMachine(tb *table, seat int, cmd engine.Command, notes, events []engine.Event) error {
	fresh := tb.log != nil && tb.logSeq == tb.row.LastSeq
	if err := w.record(tb, seat, cmd.Text, store.SourceDeadline, append(notes, events...)); err != nil {
		return err
	}
	if fresh {
		tb.log = append(tb.log, events...)
		tb.logSeq = tb.row.LastSeq
		tb.logPly++
	}
	return nil
}
