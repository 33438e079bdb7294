package loaded

import (
	"bytes"
	"sync"

	"github.com/pbem/pbem/engine"
)

// States keeps, for each game loaded or saved lately, its last snapshot
// and the engine state that snapshot restores, so that the next
// transaction to load the game from the same snapshot takes a copy of
// that state (engine.Game.Clone) rather than decoding the snapshot again
// (issue 40: Rules.Unmarshal, JSON, was about 17 µs a load against 0.2 µs
// for a Clone, and a command loads its game). Its daemon makes one; a
// nil *States keeps nothing and decodes every time.
//
// A state is kept by its game's id and found only by the very bytes of
// the snapshot it came from (and the game's kind): a snapshot restores
// to one state whatever wrote it, so what States gives for a row is
// what decoding that row gives, whether the transaction that saved it
// committed or not, and whatever another node wrote meanwhile. Kept
// states are never handed out, only their clones: a game's transaction
// changes its own copy.
type States struct {
	mu   sync.Mutex
	kept map[int64]keptState
}

// keptState is a game's last snapshot, its kind, and the state it
// restores.
type keptState struct {
	kind  string
	raw   []byte
	state engine.Game
}

// maxStates bounds what States keeps: when full it starts again. A game
// being played is soon kept again; a sweep over many idle games does not
// keep them all.
const maxStates = 1024

// NewStates makes an empty States.
func NewStates() *States { return &States{} }

// decode is the state snapshot raw of game id restores: a clone of the
// kept one when raw is the kept snapshot, else rules.Unmarshal's, which
// is then kept.
func (s *States) decode(rules engine.Rules, id int64, raw []byte) (engine.Game, error) {
	if s == nil {
		return rules.Unmarshal(raw)
	}
	kind := rules.Name()
	s.mu.Lock()
	k, ok := s.kept[id]
	s.mu.Unlock()
	if ok && k.kind == kind && bytes.Equal(k.raw, raw) {
		return k.state.Clone(), nil
	}
	state, err := rules.Unmarshal(raw)
	if err != nil {
		return nil, err
	}
	s.keep(kind, id, raw, state)
	return state, nil
}

// keep keeps state as what snapshot raw of game id restores: raw is
// state's own MarshalJSON, or decoded to it. It keeps copies of both.
func (s *States) keep(kind string, id int64, raw []byte, state engine.Game) {
	if s == nil {
		return
	}
	k := keptState{kind: kind, raw: bytes.Clone(raw), state: state.Clone()}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.kept == nil || len(s.kept) >= maxStates {
		s.kept = make(map[int64]keptState, 64)
	}
	s.kept[id] = k
}
