package loaded

import (
	"time"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// Standing is where a game stands, as its game mails, its digest lines
// and its pages show it: whom it waits on, whose seats pbem plays, and
// how it ended. It is public: every seat is told the same. It is built
// in one place (StandingOf); Mail, Page and Digest put it into what each
// of them renders.
type Standing struct {
	status store.Status
	seats  []store.Seat
	state  engine.Game
	// Waiting are the seats the game waits on: while it invites, those
	// that have not joined; after, those its rules wait on.
	Waiting []int
	// Autopilot are the seats pbem plays until their players send a
	// command: on autopilot, not resigned, in a game not finished.
	Autopilot []int
	// Result is the game's result so far; final when Result.Finished.
	Result engine.Result
}

// Standing is where the loaded game stands now.
func (g *Game) Standing() Standing { return StandingOf(g.Row, g.Seats, g.State) }

// StandingOf is where game row, with its seats, stands when its engine
// state is state (the game now, or at a point of its history).
func StandingOf(row store.Game, seats []store.Seat, state engine.Game) Standing {
	s := Standing{status: row.Status, seats: seats, state: state, Result: state.Result()}
	if row.Status == store.StatusInviting {
		for _, st := range seats {
			if st.State != store.SeatJoined {
				s.Waiting = append(s.Waiting, st.Seat)
			}
		}
	} else {
		s.Waiting = state.Waiting()
	}
	for _, st := range seats {
		if st.Autopilot && st.State != store.SeatResigned && row.Status != store.StatusFinished {
			s.Autopilot = append(s.Autopilot, st.Seat)
		}
	}
	return s
}

// name is seat's name in the game.
func (s Standing) name(seat int) string { return s.seats[seat].Name }

// Mail puts the standing into a game mail: whom the game waits on, and
// since when (now are the seats as this transaction decided them, whose
// WaitingSince the loaded seats may not have yet); who is on autopilot,
// played as autopilotBy says ("pbem's bot plays for them"); and the
// result once the game is over.
func (s Standing) Mail(m *templates.GameMail, now []store.Seat, autopilotBy string) {
	if s.status == store.StatusAborted {
		// Ended by the host: it waits on nobody, and nobody plays on.
		m.Aborted = true
		s.result(m)
		return
	}
	if s.status != store.StatusInviting {
		m.WaitingSince = map[string]time.Time{}
	}
	for _, seat := range s.Waiting {
		name := s.name(seat)
		m.Waiting = append(m.Waiting, name)
		if s.status == store.StatusInviting {
			continue
		}
		for _, o := range now {
			if o.Seat == seat {
				m.WaitingSince[name] = o.WaitingSince
			}
		}
	}
	for _, seat := range s.Autopilot {
		m.Autopilot = append(m.Autopilot, s.name(seat))
	}
	if len(m.Autopilot) > 0 {
		m.AutopilotBy = autopilotBy
	}
	s.result(m)
}

// Page puts the standing into the game mail a page shows at its last
// point: whom the game waits on while it is played or paused, and the
// result once it is over. A page says nothing of an invitation's
// answers nor of the autopilot: its seat's mails tell those.
func (s Standing) Page(m *templates.GameMail) {
	m.Aborted = s.status == store.StatusAborted
	if s.status == store.StatusActive || s.status == store.StatusPaused {
		for _, seat := range s.Waiting {
			m.Waiting = append(m.Waiting, s.name(seat))
		}
	}
	s.result(m)
}

// result puts the final scores and the winners into m once the game is
// over.
func (s Standing) result(m *templates.GameMail) {
	if !s.Result.Finished {
		return
	}
	m.Finished = true
	for i, sc := range s.Result.Scores {
		m.Scores = append(m.Scores, templates.Score{Name: s.name(i), Score: sc})
	}
	for _, seat := range s.Result.Winners {
		m.Winners = append(m.Winners, s.name(seat))
	}
}

// Digest puts the standing into st's line of a digest, the game being
// in state: for a game over, who won; else whether it waits on the
// reader, whom else it waits on, and, when it waits on him in a game
// being played, what he can do and by when.
func (s Standing) Digest(item *templates.DigestGame, st store.Seat, state templates.DigestState) {
	if state == templates.DigestOver || state == templates.DigestAborted {
		if s.Result.Finished && state == templates.DigestOver {
			for _, seat := range s.Result.Winners {
				item.Winners = append(item.Winners, s.name(seat))
			}
		}
		return
	}
	for _, seat := range s.Waiting {
		if seat == st.Seat {
			item.YourTurn = st.State != store.SeatResigned
			continue
		}
		item.Waiting = append(item.Waiting, s.name(seat))
	}
	if item.YourTurn && state == templates.DigestRunning {
		item.Options = s.state.Options(st.Seat)
		item.Deadline = st.Deadline
	}
}
