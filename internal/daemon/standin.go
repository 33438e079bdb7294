package daemon

import (
	"errors"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/bot"
	"github.com/pbem/pbem/internal/loaded"
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
type standIn struct {
	bot bool
	say templates.Words // the words it is told in: English unless in says otherwise
}

func (s *Service) standIn() standIn {
	return standIn{bot: s.cfg.DefaultPlayer == DefaultPlayerBot}
}

// in is the stand-in told in the words say: a reader's language.
func (p standIn) in(say templates.Words) standIn {
	p.say = say
	return p
}

// movedFor: "pbem's bot played for carol".
func (p standIn) movedFor(name string) string {
	if p.bot {
		return p.say.BotPlayedFor(name)
	}
	return p.say.DefaultMoveMadeFor(name)
}

// movedForYou: "pbem's bot played for you".
func (p standIn) movedForYou() string {
	if p.bot {
		return p.say.BotPlayedForYou()
	}
	return p.say.DefaultMoveMadeForYou()
}

// playsFor: "pbem's bot plays for carol".
func (p standIn) playsFor(name string) string {
	if p.bot {
		return p.say.BotPlaysFor(name)
	}
	return p.say.DefaultMovesPlayFor(name)
}

// playsForYou: "pbem's bot plays for you".
func (p standIn) playsForYou() string {
	if p.bot {
		return p.say.BotPlaysForYou()
	}
	return p.say.DefaultMovesPlayForYou()
}

// playsForThem is what every game mail says of the seats on autopilot:
// "pbem's bot plays for them".
func (p standIn) playsForThem() string {
	if p.bot {
		return p.say.BotPlaysForThem()
	}
	return p.say.DefaultMovesPlayForThem()
}

// playsTheSeat is what admins are told: "pbem's bot plays the seat".
func (p standIn) playsTheSeat() string {
	if p.bot {
		return p.say.BotPlaysTheSeat()
	}
	return p.say.DefaultMovesPlayTheSeat()
}

// movesForYou is what happens when a deadline passes: "pbem's bot moves
// for you".
func (p standIn) movesForYou() string {
	if p.bot {
		return p.say.BotMovesForYou()
	}
	return p.say.PbemMakesDefaultMoveForYou()
}

// standInMove is the move pbem makes for seat, whose player does not
// make it: the stand-in bot's, or the game's fixed default. ok is false
// when the game has no move for the seat.
func (w *work) standInMove(lg *loaded.Game, seat int) (engine.Command, bool, error) {
	if w.standIn().bot {
		return w.botMove(lg, seat, standInLevel)
	}
	cmd, ok := lg.State.Default(seat)
	return cmd, ok, nil
}

// botMove is the move of the bot at level for seat. A game the bot cannot
// play, or a seat the bot finds nothing for, gets the fixed default: the
// bot's fallback, as for a budget of zero.
func (w *work) botMove(lg *loaded.Game, seat int, level bot.Level) (engine.Command, bool, error) {
	log, ply, seed, err := lg.EngineLog(w.ctx, w.tx)
	if err != nil {
		return engine.Command{}, false, err
	}
	cmd, err := bot.Move(lg.State, seat, log, level, bot.SeedAt(seed, ply))
	switch {
	case err == nil:
		return cmd, true, nil
	case errors.Is(err, bot.ErrNotSupported):
		cmd, ok := lg.State.Default(seat)
		return cmd, ok, nil
	default:
		// Never the bot's reason: it may describe the seat's cards.
		return engine.Command{}, false, loaded.CannotGoOn(lg.Row.ID, err, "%s", templates.Say.BotFoundNoMove(seat))
	}
}

// recordMachine records a move pbem made for seat, with the engine's events
// and the service's notes, and keeps the game's engine log current (loaded.Game.RecordMachine).
func (w *work) recordMachine(lg *loaded.Game, seat int, cmd engine.Command, notes, events []engine.Event) error {
	if err := lg.RecordMachine(w.ctx, w.tx, seat, cmd, notes, events, w.now()); err != nil {
		return err
	}
	// A move the table saw ends an undo still being answered, as record
	// says.
	return w.overtakeUndo(lg, seat, append(notes, events...))
}

// The stand-in's words as phrases (templates.Phrases), for the events
// each reader reads in his language: movedForP is movedFor's, and so on.

func (p standIn) movedForP(name string) engine.Phrase {
	if p.bot {
		return templates.Phrases.BotPlayedFor(name)
	}
	return templates.Phrases.DefaultMoveMadeFor(name)
}

func (p standIn) movedForYouP() engine.Phrase {
	if p.bot {
		return templates.Phrases.BotPlayedForYou()
	}
	return templates.Phrases.DefaultMoveMadeForYou()
}

func (p standIn) playsForP(name string) engine.Phrase {
	if p.bot {
		return templates.Phrases.BotPlaysFor(name)
	}
	return templates.Phrases.DefaultMovesPlayFor(name)
}

func (p standIn) playsForYouP() engine.Phrase {
	if p.bot {
		return templates.Phrases.BotPlaysForYou()
	}
	return templates.Phrases.DefaultMovesPlayForYou()
}
