package loaded

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/transcript"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// Replay rebuilds the game from its set-up and its whole move log, undo
// lines included, so that a command can be taken back. The moves are
// returned too: step.Line of the log is an index into them.
func (g *Game) Replay(ctx context.Context, tx Reader) (*engine.Log, []store.Move, error) {
	var setup engine.Setup
	if err := json.Unmarshal(g.Row.Setup, &setup); err != nil {
		return nil, nil, CannotGoOn(g.Row.ID, err, "%s", templates.Say.SetUpDoesNotRead())
	}
	moves, err := tx.Moves(ctx, g.Row.ID, 0)
	if err != nil {
		return nil, nil, err
	}
	l, err := ReplayMoves(g.Rules, setup, moves)
	if err != nil {
		return nil, nil, CannotGoOn(g.Row.ID, err, "%s", templates.Say.MoveLogDoesNotReplay())
	}
	return l, moves, nil
}

// ReplayMoves applies a stored move log to a set-up. The error names the
// move that failed, never its command: it may name a hidden card.
func ReplayMoves(rules engine.Rules, setup engine.Setup, moves []store.Move) (*engine.Log, error) {
	l, _, err := engine.NewLog(rules, setup)
	if err != nil {
		return nil, err
	}
	for _, m := range moves {
		if _, err := l.Do(m.Seat, m.Command); err != nil {
			return nil, fmt.Errorf("move %d (seat %d) is refused", m.Seq, m.Seat)
		}
	}
	return l, nil
}

// EngineLog is the game's log as the engine wrote it: the opening and
// every command's events, an undo as one public line, and nothing of the
// service's (talk, notices), exactly as transcript.Replay makes it from
// the game's export. ply is the number of commands it covers, and seed
// the stored set-up's seed, which the bots' seeds come from. The bot
// reads this and not the stored events, so that its moves can be
// computed again from a transcript. It is kept on the game while only
// machine moves follow (RecordMachine), so a run of bot moves replays
// once.
func (g *Game) EngineLog(ctx context.Context, tx Reader) (log []engine.Event, ply int, seed uint64, err error) {
	if g.log != nil && g.logSeq == g.Row.LastSeq {
		return g.log, g.logPly, g.logSeed, nil
	}
	var setup engine.Setup
	if err := json.Unmarshal(g.Row.Setup, &setup); err != nil {
		return nil, 0, 0, CannotGoOn(g.Row.ID, err, "%s", templates.Say.SetUpDoesNotRead())
	}
	moves, err := tx.Moves(ctx, g.Row.ID, 0)
	if err != nil {
		return nil, 0, 0, err
	}
	tr := transcript.Transcript{Rules: g.Rules, Setup: setup, Seeded: true}
	for _, m := range moves {
		if m.Seat < 0 || m.Seat >= len(setup.Players) {
			return nil, 0, 0, CannotGoOn(g.Row.ID, nil, "%s", templates.Say.MoveNamesNoSeat(m.Seq))
		}
		tr.Moves = append(tr.Moves, transcript.Move{Player: setup.Players[m.Seat], Command: m.Command})
	}
	_, log, err = tr.Replay()
	if err != nil {
		// The error may quote a command: it stays out of the reason.
		return nil, 0, 0, CannotGoOn(g.Row.ID, nil, "%s", templates.Say.MoveLogDoesNotReplay())
	}
	g.log, g.logSeq, g.logPly, g.logSeed = log, g.Row.LastSeq, len(moves), setup.Seed
	return log, len(moves), setup.Seed, nil
}

// Record appends one applied move and its events to the game's log: by
// seat, as command, from source (store.SourceMail…), at the time at.
func (g *Game) Record(ctx context.Context, tx *store.Tx, seat int, command, source string, events []engine.Event, at time.Time) error {
	seq, err := tx.AppendMove(ctx, g.Row.ID, store.Move{Seat: seat, Command: command, Source: source, InboundID: g.Inbound, At: at})
	if err != nil {
		return err
	}
	g.Row.LastSeq = seq
	g.Acted[seat] = true
	if _, ok := g.FirstMove[seat]; !ok {
		g.FirstMove[seat] = seq
	}
	err = tx.AppendEvents(ctx, g.Row.ID, seq, storeEvents(events))
	return err
}

// RecordMachine records a move pbem made for seat, with the engine's
// events and the service's notes, and keeps the game's engine log
// current.
func (g *Game) RecordMachine(ctx context.Context, tx *store.Tx, seat int, cmd engine.Command, notes, events []engine.Event, at time.Time) error {
	fresh := g.log != nil && g.logSeq == g.Row.LastSeq
	if err := g.Record(ctx, tx, seat, cmd.Text, store.SourceDeadline, append(notes, events...), at); err != nil {
		return err
	}
	if fresh {
		g.log = append(g.log, events...)
		g.logSeq = g.Row.LastSeq
		g.logPly++
	}
	return nil
}

// SaveSnapshot saves the game's engine state as of its last move, from
// which Load rebuilds it without replaying the log.
func (g *Game) SaveSnapshot(ctx context.Context, tx *store.Tx) error {
	raw, err := saveSnapshot(ctx, tx, g.Row.ID, g.Row.LastSeq, g.State)
	if err == nil {
		g.states.keep(g.Rules.Name(), g.Row.ID, raw, g.State)
	}
	return err
}

// SaveSnapshot saves state as game id's state after the move seq: a game
// just made (seq 0), or one rebuilt in another transaction's words (a
// rename).
func SaveSnapshot(ctx context.Context, tx *store.Tx, id, seq int64, state engine.Game) error {
	_, err := saveSnapshot(ctx, tx, id, seq, state)
	return err
}

// saveSnapshot is SaveSnapshot, which also returns the snapshot saved.
func saveSnapshot(ctx context.Context, tx *store.Tx, id, seq int64, state engine.Game) ([]byte, error) {
	raw, err := state.MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("loaded: game %d: save its state: %w", id, err)
	}
	return raw, tx.SaveSnapshot(ctx, id, seq, raw)
}

// storeEvents are engine events as the store keeps them.
func storeEvents(evs []engine.Event) []store.Event { return StoreEvents(evs) }

// StoreEvents are engine events as the store keeps them: each phrase
// (engine.Event.Say) as its JSON, "" for none.
func StoreEvents(evs []engine.Event) []store.Event {
	out := make([]store.Event, len(evs))
	for i, e := range evs {
		out[i] = store.Event{To: e.To, Kind: e.Kind, Text: e.Text}
		if e.Say != nil {
			// A phrase is strings, numbers and phrases: it always
			// marshals.
			b, _ := json.Marshal(e.Say)
			out[i].Say = string(b)
		}
	}
	return out
}

// EngineEvent is a stored event as the engine and the templates read it:
// its phrase read back from its JSON. A phrase that does not read (none
// is written so) is left out, and the event reads as its Text.
func EngineEvent(e store.Event) engine.Event {
	return (*Phrases)(nil).Event(e)
}

// Phrases keeps the phrases of stored events as read from their JSON,
// by that JSON, so that an event told again in a later command's mail
// is not read again (issue 40: a seat's mail tells every event since
// its last one, and reading their phrases was 4 % of a command's work
// in the turn loop). A phrase is a function of its JSON alone, so one
// kept is what reading it gives. Readers share the phrases given out,
// as a command's mails already share its events' (daemon's eventLog):
// nothing changes a phrase once made; addressing one to its reader
// (engine's Address) makes a new one. Its daemon makes one; a nil
// *Phrases keeps nothing.
type Phrases struct {
	mu   sync.Mutex
	kept map[string]*engine.Phrase
}

// maxPhrases bounds what Phrases keeps: when full it starts again.
const maxPhrases = 4096

// NewPhrases makes an empty Phrases.
func NewPhrases() *Phrases { return &Phrases{} }

// Event is EngineEvent, with the event's phrase from p when p holds it.
func (p *Phrases) Event(e store.Event) engine.Event {
	ev := engine.Event{To: e.To, Kind: e.Kind, Text: e.Text}
	if e.Say != "" {
		ev.Say = p.read(e.Say)
	}
	return ev
}

// read is the phrase whose JSON is say, nil when it does not read.
func (p *Phrases) read(say string) *engine.Phrase {
	if p != nil {
		p.mu.Lock()
		kept, ok := p.kept[say]
		p.mu.Unlock()
		if ok {
			return kept
		}
	}
	var ph engine.Phrase
	if err := json.Unmarshal([]byte(say), &ph); err != nil {
		return nil
	}
	if p != nil {
		p.mu.Lock()
		if p.kept == nil || len(p.kept) >= maxPhrases {
			p.kept = make(map[string]*engine.Phrase, 256)
		}
		p.kept[say] = &ph
		p.mu.Unlock()
	}
	return &ph
}
