package daemon

import (
	"slices"
	"strings"
	"testing"

	"github.com/pbem/pbem/parser"
	"github.com/pbem/pbem/store"
)

// decideStep, without the store: what each command of a seat's mail does
// given the table as the commands before it left it.
func TestDecideStep(t *testing.T) {
	t.Parallel()
	active := seatSnapshot{status: store.StatusActive, seat: store.SeatJoined}
	move := parser.Command{Kind: parser.KindMove, Name: "bid"}
	cmd := func(k parser.Kind) parser.Command { return parser.Command{Lobby: true, Kind: k, Name: k.String()} }
	tests := []struct {
		name string
		c    parser.Command
		snap seatSnapshot
		want seatStep
	}{
		{"a move at an active table", move, active, seatStep{act: actMove}},
		{"a move of a resigned seat", move, seatSnapshot{status: store.StatusActive, seat: store.SeatResigned}, seatStep{actRefuseMoves, refusedResigned}},
		{"a move before the start", move, seatSnapshot{status: store.StatusInviting, seat: store.SeatJoined}, seatStep{actRefuseMoves, refusedNotStarted}},
		{"a move in a paused game", move, seatSnapshot{status: store.StatusPaused, seat: store.SeatJoined}, seatStep{actRefuseMoves, refusedNotActive}},
		{"a move in a finished game", move, seatSnapshot{status: store.StatusFinished, seat: store.SeatJoined}, seatStep{actRefuseMoves, refusedNotActive}},
		{"a stale move", move, seatSnapshot{status: store.StatusActive, seat: store.SeatJoined, stale: true}, seatStep{actRefuseMoves, refusedStale}},
		{"resigned before stale", move, seatSnapshot{status: store.StatusActive, seat: store.SeatResigned, stale: true}, seatStep{actRefuseMoves, refusedResigned}},
		{"a stale mail's lobby command is done", cmd(parser.KindStatus), seatSnapshot{status: store.StatusActive, seat: store.SeatJoined, stale: true}, seatStep{act: actAnswer}},
		{"undo", cmd(parser.KindUndo), active, seatStep{act: actUndo}},
		{"agree", cmd(parser.KindAgree), active, seatStep{act: actAnswerUndo}},
		{"refuse", cmd(parser.KindRefuse), active, seatStep{act: actAnswerUndo}},
		{"say", cmd(parser.KindSay), active, seatStep{act: actTalk}},
		{"poke", cmd(parser.KindPoke), active, seatStep{act: actTalk}},
		{"notify", cmd(parser.KindNotify), active, seatStep{act: actSetting}},
		{"back", cmd(parser.KindBack), active, seatStep{act: actBack}},
		{"name", cmd(parser.KindName), active, seatStep{act: actBounded}},
		{"vacation", cmd(parser.KindVacation), active, seatStep{act: actBounded}},
		{"join", cmd(parser.KindJoin), seatSnapshot{status: store.StatusInviting, seat: store.SeatInvited}, seatStep{act: actAnswer}},
		{"rematch before the end", cmd(parser.KindRematch), active, seatStep{act: actAnswer}},
		{"rematch after the end", cmd(parser.KindRematch), seatSnapshot{status: store.StatusFinished, seat: store.SeatJoined}, seatStep{act: actBoundedAnswer}},
		{"new in a game's thread", cmd(parser.KindNew), active, seatStep{act: actInvalid}},
	}
	for _, tt := range tests {
		if got := decideStep(tt.c, tt.snap); got != tt.want {
			t.Errorf("%s: %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

// Every lobby command in a game's thread is either in seatActs or
// refused there, and every actAnswer has its answer.
func TestSeatActsComplete(t *testing.T) {
	t.Parallel()
	for _, lc := range parser.LobbyCommands() {
		act, ok := seatActs[lc.Kind]
		if !ok && lc.Kind != parser.KindNew {
			t.Errorf("%s is not done in a game's thread", lc.Name)
		}
		if act == actAnswer && seatAnswers[lc.Kind] == nil {
			t.Errorf("%s has no answer", lc.Name)
		}
	}
	for k := range seatAnswers {
		if seatActs[k] != actAnswer {
			t.Errorf("%s has an answer but is not actAnswer", k)
		}
	}
	for k := range lobbyActs {
		if k == parser.KindMove {
			t.Errorf("lobbyActs dispatches a move")
		}
	}
}

// decideFinish, without the store: how a seat's mail ends once its
// commands ran.
func TestDecideFinish(t *testing.T) {
	t.Parallel()
	applied := []string{"Applied: bid 4."}
	tests := []struct {
		name string
		run  seatRun
		want seatFinish
	}{
		{"nothing read, answered by the problem notice", seatRun{replied: true}, finishNone},
		{"nothing at all", seatRun{}, finishStatus},
		{"a move applied, nothing more to say", seatRun{intro: applied, applied: 1, moved: true}, finishSettleConfirm},
		{"a move applied and a line more", seatRun{intro: append(applied, "pbem stopped reading there."), applied: 1, moved: true}, finishSettle},
		{"taken off autopilot, no move", seatRun{intro: []string{"Welcome back."}, tookBack: true}, finishSettle},
		{"an undo applied", seatRun{intro: []string{"Taken back: bid 4."}, announced: true}, finishSettle},
		{"a say that only confirms", seatRun{intro: []string{"Said to the table."}, applied: 1, talked: true}, finishTalkConfirm},
		{"a say and a setting", seatRun{intro: []string{"Said to the table.", "Your deadlines are now shown in UTC."}, applied: 1, talked: true}, finishStatus},
		{"a say beside help", seatRun{intro: []string{"Said to the table."}, applied: 1, talked: true, replied: true}, finishStatus},
		{"an undo asked", seatRun{intro: []string{"You asked bob."}, talked: true}, finishStatus},
		{"a setting", seatRun{intro: []string{"From now on..."}}, finishStatus},
		{"help alone", seatRun{replied: true}, finishNone},
		{"help and a setting", seatRun{intro: []string{"From now on..."}, replied: true}, finishStatus},
	}
	for _, tt := range tests {
		if got := decideFinish(tt.run); got != tt.want {
			t.Errorf("%s: %d, want %d", tt.name, got, tt.want)
		}
	}
}

// The last player to join may move in the same mail: each player gets
// one start mail, and the move's settle sends turn mails. (table.starting
// used to outlive the start, so the move's settle sent everyone a second
// mail headed "new game", and the mover a confirmation that confirm off,
// the default, drops.)
func TestJoinAndMoveOneStartMail(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test"}
	w.send(players[0], "pbem@example.test", "new felix with "+strings.Join(players[1:], " "))
	reply := map[string]string{players[0]: w.last(players[0]).ReplyTo}
	for _, p := range players[1:] {
		reply[p] = w.last(p).ReplyTo
	}
	w.send(players[1], reply[players[1]], "join")
	id := w.gameOf(reply[players[0]])
	var move string
	for _, o := range w.loaded(id).State.Options(2) {
		if len(o.Commands) > 0 {
			move = o.Commands[0]
			break
		}
	}
	if move == "" {
		t.Fatalf("the game does not wait on carol at its start")
	}
	before := map[string]int{}
	for _, p := range players {
		before[p] = len(w.inbox[p])
	}
	w.send(players[2], reply[players[2]], "join\n"+move)
	for _, p := range players {
		starts := 0
		for _, m := range w.inbox[p][before[p]:] {
			if strings.Contains(m.Headline, "new game") {
				starts++
			}
		}
		if starts != 1 {
			t.Errorf("%s got %d start mails, want 1", p, starts)
		}
	}
	if got := w.loaded(id).State.Waiting(); slices.Contains(got, 2) {
		t.Errorf("carol's move was not applied: the game waits on %v", got)
	}
}
