package loaded

import (
	"slices"
	"testing"
	"time"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// fakeGame is a game that waits on the seats it is told, with the
// result it is told: what a standing reads of the engine.
type fakeGame struct {
	engine.Game
	waiting []int
	result  engine.Result
}

func (g fakeGame) Waiting() []int        { return g.waiting }
func (g fakeGame) Result() engine.Result { return g.result }
func (g fakeGame) Options(seat int) []engine.Option {
	if slices.Contains(g.waiting, seat) {
		return []engine.Option{{Spec: "pass", Text: "pass"}}
	}
	return nil
}

func seatsOf(names ...string) []store.Seat {
	seats := make([]store.Seat, len(names))
	for i, n := range names {
		seats[i] = store.Seat{Seat: i, Name: n, State: store.SeatJoined}
	}
	return seats
}

// TestStandingMail: a game mail names whom the game waits on (those not
// joined while it invites, the rules' after), since when as this turn
// decided it, who is on autopilot, and the result once it is over.
func TestStandingMail(t *testing.T) {
	t.Parallel()
	since := time.Date(2026, 3, 1, 18, 0, 0, 0, time.UTC)
	inviting := seatsOf("alice", "bob", "carol")
	inviting[2].State = store.SeatInvited
	playing := seatsOf("alice", "bob", "carol")
	playing[1].Autopilot = true
	playing[2].Autopilot, playing[2].State = true, store.SeatResigned
	now := seatsOf("alice", "bob", "carol")
	now[1].WaitingSince = since
	for _, tc := range []struct {
		name          string
		status        store.Status
		seats         []store.Seat
		game          fakeGame
		waiting       []string
		since         map[string]time.Time
		autopilot     []string
		finished      bool
		winners       []string
		scoreOfCarol  int
		autopilotBy   string
		wantAutopilot string
	}{
		{name: "inviting", status: store.StatusInviting, seats: inviting, game: fakeGame{waiting: []int{0}},
			waiting: []string{"carol"}},
		{name: "playing", status: store.StatusActive, seats: playing, game: fakeGame{waiting: []int{1}},
			waiting: []string{"bob"}, since: map[string]time.Time{"bob": since}, autopilot: []string{"bob"}, wantAutopilot: "by the bot"},
		{name: "over", status: store.StatusFinished, seats: playing,
			game:  fakeGame{result: engine.Result{Finished: true, Scores: []int{3, 1, 7}, Winners: []int{2}}},
			since: map[string]time.Time{}, finished: true, winners: []string{"carol"}, scoreOfCarol: 7},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var m templates.GameMail
			StandingOf(store.Game{Status: tc.status}, tc.seats, tc.game).Mail(&m, now, "by the bot")
			if !slices.Equal(m.Waiting, tc.waiting) {
				t.Errorf("waiting %v, want %v", m.Waiting, tc.waiting)
			}
			if len(m.WaitingSince) != len(tc.since) || !m.WaitingSince["bob"].Equal(tc.since["bob"]) {
				t.Errorf("waiting since %v, want %v", m.WaitingSince, tc.since)
			}
			if !slices.Equal(m.Autopilot, tc.autopilot) || m.AutopilotBy != tc.wantAutopilot {
				t.Errorf("autopilot %v (%q), want %v (%q)", m.Autopilot, m.AutopilotBy, tc.autopilot, tc.wantAutopilot)
			}
			if m.Finished != tc.finished || !slices.Equal(m.Winners, tc.winners) {
				t.Errorf("finished %v, winners %v; want %v, %v", m.Finished, m.Winners, tc.finished, tc.winners)
			}
			if tc.finished && (len(m.Scores) != 3 || m.Scores[2] != templates.Score{Name: "carol", Score: tc.scoreOfCarol}) {
				t.Errorf("scores %v", m.Scores)
			}
		})
	}
}

// TestStandingPage: a page names whom the game waits on only while it is
// played or paused, and never the autopilot, which its seat's mails
// tell.
func TestStandingPage(t *testing.T) {
	t.Parallel()
	seats := seatsOf("alice", "bob")
	seats[1].Autopilot, seats[0].State = true, store.SeatInvited
	for status, want := range map[store.Status][]string{
		store.StatusInviting: nil,
		store.StatusActive:   {"bob"},
		store.StatusPaused:   {"bob"},
		store.StatusAborted:  nil,
	} {
		var m templates.GameMail
		StandingOf(store.Game{Status: status}, seats, fakeGame{waiting: []int{1}}).Page(&m)
		if !slices.Equal(m.Waiting, want) || m.Autopilot != nil {
			t.Errorf("%s: waiting %v, autopilot %v; want %v and none", status, m.Waiting, m.Autopilot, want)
		}
	}
}

// TestStandingDigest: a digest line says whether the game waits on the
// reader, names only the others it waits on, offers his options only in
// a game being played, and names the winners of a game the rules ended.
func TestStandingDigest(t *testing.T) {
	t.Parallel()
	seats := seatsOf("alice", "bob", "carol")
	deadline := time.Date(2026, 3, 2, 18, 0, 0, 0, time.UTC)
	alice := seats[0]
	alice.Deadline = deadline
	game := fakeGame{waiting: []int{0, 2}}

	var item templates.DigestGame
	StandingOf(store.Game{Status: store.StatusActive}, seats, game).Digest(&item, alice, templates.DigestRunning)
	if !item.YourTurn || !slices.Equal(item.Waiting, []string{"carol"}) || len(item.Options) != 1 || !item.Deadline.Equal(deadline) {
		t.Errorf("running: %+v", item)
	}
	item = templates.DigestGame{}
	StandingOf(store.Game{Status: store.StatusPaused}, seats, game).Digest(&item, alice, templates.DigestPaused)
	if !item.YourTurn || item.Options != nil || !item.Deadline.IsZero() {
		t.Errorf("paused: %+v", item)
	}
	resigned := alice
	resigned.State = store.SeatResigned
	item = templates.DigestGame{}
	StandingOf(store.Game{Status: store.StatusActive}, seats, game).Digest(&item, resigned, templates.DigestRunning)
	if item.YourTurn || item.Options != nil {
		t.Errorf("resigned: %+v", item)
	}
	over := fakeGame{result: engine.Result{Finished: true, Scores: []int{1, 2, 3}, Winners: []int{1}}}
	for state, want := range map[templates.DigestState][]string{templates.DigestOver: {"bob"}, templates.DigestAborted: nil} {
		item = templates.DigestGame{}
		StandingOf(store.Game{Status: store.StatusFinished}, seats, over).Digest(&item, alice, state)
		if !slices.Equal(item.Winners, want) || item.YourTurn || item.Waiting != nil {
			t.Errorf("%s: %+v", state, item)
		}
	}
}
