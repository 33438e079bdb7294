package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestCreateGameAndGame(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	var id int64
	mustTx(t, s, func(tx *Tx) error {
		var err error
		id, err = tx.CreateGame(ctx, NewGame{Kind: "felix", Setup: []byte(`{"seed":1}`), Options: []byte(`{"deadline":"72h"}`),
			Creator: "Ann@Example.org", CreatedAt: t0.Add(500 * time.Millisecond)})
		return err
	})
	g, err := s.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	want := Game{ID: id, Kind: "felix", Setup: []byte(`{"seed":1}`), Options: []byte(`{"deadline":"72h"}`),
		Creator: "ann@example.org", Status: StatusInviting, CreatedAt: t0}
	if !gamesEqual(g, want) {
		t.Errorf("Game = %+v, want %+v", g, want)
	}
	// The creator became a player.
	if _, err := s.Player(ctx, "ann@example.org"); err != nil {
		t.Errorf("creator is not a player: %v", err)
	}
	if _, err := s.Game(ctx, id+1); !errors.Is(err, ErrNotFound) {
		t.Errorf("Game of an unknown id = %v, want ErrNotFound", err)
	}

	for _, bad := range []NewGame{
		{Setup: []byte("{}"), Creator: "ann@example.org"},
		{Kind: "felix", Creator: "ann@example.org"},
		{Kind: "felix", Setup: []byte("{}")},
	} {
		if err := s.Tx(ctx, func(tx *Tx) error { _, err := tx.CreateGame(ctx, bad); return err }); err == nil {
			t.Errorf("CreateGame(%+v) succeeded", bad)
		}
	}
}

func gamesEqual(a, b Game) bool {
	return a.ID == b.ID && a.Kind == b.Kind && bytes.Equal(a.Setup, b.Setup) && bytes.Equal(a.Options, b.Options) &&
		a.Creator == b.Creator && a.Status == b.Status && bytes.Equal(a.Snapshot, b.Snapshot) &&
		a.SnapshotSeq == b.SnapshotSeq && a.LastSeq == b.LastSeq && a.CreatedAt.Equal(b.CreatedAt)
}

func TestGamesOf(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	g1 := newGame(t, s, "ann@example.org", "bob@example.org")
	g2 := newGame(t, s, "bob@example.org", "cat@example.org")
	g3 := newGame(t, s, "cat@example.org", "ann@example.org", "dan@example.org")
	for _, tt := range []struct {
		addr string
		want []int64
	}{
		{"ANN@example.org", []int64{g1, g3}},
		{"bob@example.org", []int64{g1, g2}},
		{"dan@example.org", []int64{g3}},
		{"eve@example.org", nil},
	} {
		gs, err := s.GamesOf(ctx, tt.addr)
		if err != nil {
			t.Fatal(err)
		}
		var ids []int64
		for _, g := range gs {
			ids = append(ids, g.ID)
		}
		if !equalInts(ids, tt.want) {
			t.Errorf("GamesOf(%s) = %v, want %v", tt.addr, ids, tt.want)
		}
	}
}

// GamesAfter pages through the games in number order.
func TestGamesAfter(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	var all []int64
	for range 5 {
		all = append(all, newGame(t, s, "ann@example.org", "bob@example.org"))
	}
	var got []int64
	after := int64(0)
	for pages := 0; ; pages++ {
		gs, err := s.GamesAfter(ctx, after, 2)
		if err != nil {
			t.Fatal(err)
		}
		if len(gs) > 2 || pages > 3 {
			t.Fatalf("page %d after %d: %d games", pages, after, len(gs))
		}
		if len(gs) == 0 {
			break
		}
		for _, g := range gs {
			got = append(got, g.ID)
		}
		after = gs[len(gs)-1].ID
	}
	if !equalInts(got, all) {
		t.Errorf("pages gave %v, want %v", got, all)
	}
}

func equalInts[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestSetGameStatus(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	id := newGame(t, s, "ann@example.org", "bob@example.org")
	for _, tt := range []struct {
		id      int64
		status  Status
		wantErr error
		want    Status
	}{
		{id, StatusActive, nil, StatusActive},
		{id, StatusPaused, nil, StatusPaused},
		{id, "sleeping", errAny, StatusPaused},
		{id + 1, StatusActive, ErrNotFound, StatusPaused},
		{id, StatusActive, nil, StatusActive},
		{id, StatusFinished, nil, StatusFinished},
		{id, StatusAborted, nil, StatusAborted},
		{id, StatusDeclined, nil, StatusDeclined},
		{id, StatusInviting, nil, StatusInviting},
	} {
		err := s.Tx(ctx, func(tx *Tx) error { return tx.SetGameStatus(ctx, tt.id, tt.status) })
		checkErr(t, err, tt.wantErr)
		if g, err := s.Game(ctx, id); err != nil || g.Status != tt.want {
			t.Errorf("after SetGameStatus(%d, %s): status %s, %v; want %s", tt.id, tt.status, g.Status, err, tt.want)
		}
	}
}

// TestSaveSnapshot, in a transaction that reads the game first and
// keeps it, where the check is made from the kept row and the write
// needs no answer, and in one that does not.
func TestSaveSnapshot(t *testing.T) {
	t.Parallel()
	for _, kept := range []bool{false, true} {
		t.Run(fmt.Sprintf("kept=%v", kept), func(t *testing.T) { saveSnapshot(t, kept) })
	}
}

func saveSnapshot(t *testing.T, kept bool) {
	ctx := context.Background()
	s, _ := newStore(t)
	id := newGame(t, s, "ann@example.org", "bob@example.org")
	for i := range 3 {
		mustTx(t, s, func(tx *Tx) error {
			_, err := tx.AppendMove(ctx, id, Move{Seat: i % 2, Command: "pass", Source: SourceMail, At: t0})
			return err
		})
	}
	for _, tt := range []struct {
		id      int64
		seq     int64
		state   string
		wantErr error
		wantSeq int64
	}{
		{id, 0, `{"s":0}`, nil, 0},
		{id, 2, `{"s":2}`, nil, 2},
		{id, 4, `{"s":4}`, errAny, 2}, // beyond the log
		{id, -1, `{}`, errAny, 2},
		{id + 1, 0, `{}`, ErrNotFound, 2},
		{id, 3, `{"s":3}`, nil, 3},
	} {
		err := s.Tx(ctx, func(tx *Tx) error {
			if kept {
				if _, err := tx.Game(ctx, tt.id); err != nil && !errors.Is(err, ErrNotFound) {
					return err
				}
			}
			return tx.SaveSnapshot(ctx, tt.id, tt.seq, []byte(tt.state))
		})
		checkErr(t, err, tt.wantErr)
		g, err := s.Game(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if g.SnapshotSeq != tt.wantSeq || g.LastSeq != 3 || !strings.Contains(string(g.Snapshot), `"s":`) {
			t.Errorf("after SaveSnapshot(%d, %d): snapshot %s at %d, last %d; want seq %d, last 3",
				tt.id, tt.seq, g.Snapshot, g.SnapshotSeq, g.LastSeq, tt.wantSeq)
		}
	}
}

func TestSeats(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	id := newGame(t, s, "ann@example.org")
	tokB, tokC := NewToken(), NewToken()
	for _, tt := range []struct {
		name    string
		game    int64
		seat    int
		addr    string
		token   string
		wantErr error
	}{
		{"second seat", id, 1, "Bob@Example.org", strings.ToUpper(tokB), nil},
		{"third seat", id, 2, "cat@example.org", tokC, nil},
		{"seat number taken", id, 2, "dan@example.org", NewToken(), ErrDuplicate},
		{"token taken", id, 3, "dan@example.org", tokB, ErrDuplicate},
		{"address seated", id, 3, "bob@example.org", NewToken(), ErrDuplicate},
		{"no game", id + 1, 0, "dan@example.org", NewToken(), errAny},
		{"empty token", id, 3, "dan@example.org", "", errAny},
		{"negative seat", id, -1, "dan@example.org", NewToken(), errAny},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := s.Tx(ctx, func(tx *Tx) error { return tx.AddSeat(ctx, tt.game, tt.seat, tt.addr, "x", tt.token) })
			checkErr(t, err, tt.wantErr)
		})
	}

	seats, err := s.Seats(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	var addrs []string
	for i, st := range seats {
		if st.Seat != i || st.State != SeatInvited || st.GameID != id || !st.Deadline.IsZero() {
			t.Errorf("seat %d = %+v", i, st)
		}
		addrs = append(addrs, st.Address)
	}
	if want := []string{"ann@example.org", "bob@example.org", "cat@example.org"}; !equalInts(addrs, want) {
		t.Errorf("seat addresses = %v, want %v", addrs, want)
	}

	// Tokens are stored lower-case and found in any case.
	st, err := s.SeatByToken(ctx, strings.ToUpper(tokB))
	if err != nil || st.Seat != 1 || st.Token != tokB {
		t.Errorf("SeatByToken = %+v, %v; want seat 1 with token %s", st, err, tokB)
	}
	if _, err := s.SeatByToken(ctx, "nosuchtoken"); !errors.Is(err, ErrNotFound) {
		t.Errorf("SeatByToken of an unknown token = %v, want ErrNotFound", err)
	} else if strings.Contains(err.Error(), "nosuchtoken") {
		t.Errorf("the error %q shows the secret token", err)
	}
	if _, err := s.Seat(ctx, id, 7); !errors.Is(err, ErrNotFound) {
		t.Errorf("Seat of an unknown seat = %v, want ErrNotFound", err)
	}

	mustTx(t, s, func(tx *Tx) error {
		if err := tx.SetSeatJoined(ctx, id, 1); err != nil {
			return err
		}
		if err := tx.SetSeatResigned(ctx, id, 0); err != nil {
			return err
		}
		return tx.SetSeatDeclined(ctx, id, 2)
	})
	for seat, want := range map[int]SeatState{0: SeatResigned, 1: SeatJoined, 2: SeatDeclined} {
		if st, err := s.Seat(ctx, id, seat); err != nil || st.State != want {
			t.Errorf("seat %d: state %s, %v; want %s", seat, st.State, err, want)
		}
	}
	if err := s.Tx(ctx, func(tx *Tx) error { return tx.SetSeatJoined(ctx, id, 9) }); !errors.Is(err, ErrNotFound) {
		t.Errorf("SetSeatJoined of an unknown seat = %v, want ErrNotFound", err)
	}
}

func TestThreadAndMailedEvent(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	id := newGame(t, s, "ann@example.org", "bob@example.org")
	for _, tt := range []struct {
		messageID, wantRoot, wantLast string
	}{
		{"<1@pbem>", "<1@pbem>", "<1@pbem>"},
		{"<2@pbem>", "<1@pbem>", "<2@pbem>"},
		{"<3@pbem>", "<1@pbem>", "<3@pbem>"},
	} {
		mustTx(t, s, func(tx *Tx) error { return tx.SetSeatMessageID(ctx, id, 1, tt.messageID) })
		st, err := s.Seat(ctx, id, 1)
		if err != nil || st.ThreadRoot != tt.wantRoot || st.LastMessageID != tt.wantLast {
			t.Errorf("after %s: root %q, last %q, %v; want %q, %q", tt.messageID, st.ThreadRoot, st.LastMessageID, err, tt.wantRoot, tt.wantLast)
		}
	}
	if st, _ := s.Seat(ctx, id, 0); st.ThreadRoot != "" || st.LastMessageID != "" {
		t.Errorf("seat 0's thread changed: %+v", st)
	}
	if err := s.Tx(ctx, func(tx *Tx) error { return tx.SetSeatMessageID(ctx, id, 1, "") }); err == nil {
		t.Error("SetSeatMessageID with an empty id succeeded")
	}
	if err := s.Tx(ctx, func(tx *Tx) error { return tx.SetSeatMessageID(ctx, id, 5, "<x@y>") }); !errors.Is(err, ErrNotFound) {
		t.Errorf("SetSeatMessageID of an unknown seat = %v, want ErrNotFound", err)
	}

	mustTx(t, s, func(tx *Tx) error { return tx.SetSeatLastMailedEvent(ctx, id, 1, 42) })
	if st, _ := s.Seat(ctx, id, 1); st.LastMailedEvent != 42 {
		t.Errorf("LastMailedEvent = %d, want 42", st.LastMailedEvent)
	}
}

func TestReplaceSeatAddress(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	id := newGame(t, s, "ann@example.org", "bob@example.org")
	old, err := s.Seat(ctx, id, 1)
	if err != nil {
		t.Fatal(err)
	}
	mustTx(t, s, func(tx *Tx) error { return tx.SetSeatMessageID(ctx, id, 1, "<1@pbem>") })

	newTok := NewToken()
	mustTx(t, s, func(tx *Tx) error { return tx.ReplaceSeatAddress(ctx, id, 1, "Zed@Example.org", newTok) })
	st, err := s.Seat(ctx, id, 1)
	if err != nil {
		t.Fatal(err)
	}
	if st.Address != "zed@example.org" || st.Token != newTok || st.ThreadRoot != "" || st.LastMessageID != "" || st.Name != old.Name {
		t.Errorf("after replace: %+v", st)
	}
	if _, err := s.SeatByToken(ctx, old.Token); !errors.Is(err, ErrNotFound) {
		t.Errorf("the old token still finds a seat: %v", err)
	}
	if _, err := s.Player(ctx, "zed@example.org"); err != nil {
		t.Errorf("the new address is not a player: %v", err)
	}
	if gs, _ := s.GamesOf(ctx, "bob@example.org"); len(gs) != 0 {
		t.Errorf("bob still has games: %v", gs)
	}

	for _, tt := range []struct {
		name    string
		seat    int
		addr    string
		wantErr error
	}{
		{"address already seated", 1, "ann@example.org", ErrDuplicate},
		{"unknown seat", 4, "eve@example.org", ErrNotFound},
		{"empty address", 1, " ", errAny},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := s.Tx(ctx, func(tx *Tx) error { return tx.ReplaceSeatAddress(ctx, id, tt.seat, tt.addr, NewToken()) })
			checkErr(t, err, tt.wantErr)
		})
	}
}

func TestDeadlines(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	active := newGame(t, s, "ann@example.org", "bob@example.org")
	paused := newGame(t, s, "cat@example.org", "dan@example.org")
	mustTx(t, s, func(tx *Tx) error {
		for _, err := range []error{
			tx.SetGameStatus(ctx, active, StatusActive),
			tx.SetGameStatus(ctx, paused, StatusPaused),
			tx.SetDeadline(ctx, active, 0, t0.Add(2*time.Hour)),
			tx.SetDeadline(ctx, active, 1, t0.Add(time.Hour)),
			tx.SetDeadline(ctx, paused, 0, t0),
		} {
			if err != nil {
				return err
			}
		}
		return nil
	})
	if st, _ := s.Seat(ctx, active, 1); !st.Deadline.Equal(t0.Add(time.Hour)) || st.Deadline.Location() != time.UTC {
		t.Errorf("Deadline = %v, want %v in UTC", st.Deadline, t0.Add(time.Hour))
	}
	for _, tt := range []struct {
		now  time.Time
		want []Deadline
	}{
		{t0, nil},
		{t0.Add(time.Hour - time.Second), nil},
		{t0.Add(time.Hour), []Deadline{{active, 1, t0.Add(time.Hour)}}},
		{t0.Add(3 * time.Hour), []Deadline{{active, 1, t0.Add(time.Hour)}, {active, 0, t0.Add(2 * time.Hour)}}},
	} {
		got, err := s.DueDeadlines(ctx, tt.now)
		if err != nil {
			t.Fatal(err)
		}
		if !deadlinesEqual(got, tt.want) {
			t.Errorf("DueDeadlines(%v) = %v, want %v", tt.now, got, tt.want)
		}
	}

	mustTx(t, s, func(tx *Tx) error {
		if err := tx.ClearDeadline(ctx, active, 1); err != nil {
			return err
		}
		return tx.SetGameStatus(ctx, paused, StatusActive)
	})
	got, err := s.DueDeadlines(ctx, t0.Add(3*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if want := []Deadline{{paused, 0, t0}, {active, 0, t0.Add(2 * time.Hour)}}; !deadlinesEqual(got, want) {
		t.Errorf("after clear and resume: DueDeadlines = %v, want %v", got, want)
	}
	if err := s.Tx(ctx, func(tx *Tx) error { return tx.SetDeadline(ctx, active, 0, time.Time{}) }); err == nil {
		t.Error("SetDeadline with a zero time succeeded")
	}
	if err := s.Tx(ctx, func(tx *Tx) error { return tx.ClearDeadline(ctx, active, 8) }); !errors.Is(err, ErrNotFound) {
		t.Errorf("ClearDeadline of an unknown seat = %v, want ErrNotFound", err)
	}
}

func deadlinesEqual(a, b []Deadline) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].GameID != b[i].GameID || a[i].Seat != b[i].Seat || !a[i].At.Equal(b[i].At) {
			return false
		}
	}
	return true
}

// TestThreadSubject: a game's subject is stored at creation or on first
// use, and never changes after.
func TestThreadSubject(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	var id int64
	mustTx(t, s, func(tx *Tx) error {
		var err error
		id, err = tx.CreateGame(ctx, NewGame{Kind: "felix", Setup: []byte(`{}`), Creator: "ann@example.org", CreatedAt: t0, ThreadSubject: "Felix #1 with ann, bob"})
		return err
	})
	if g, err := s.Game(ctx, id); err != nil || g.ThreadSubject != "Felix #1 with ann, bob" {
		t.Fatalf("created with subject %q, %v", g.ThreadSubject, err)
	}
	mustTx(t, s, func(tx *Tx) error {
		got, err := tx.SetThreadSubject(ctx, id, "Felix #1 with ann, robert")
		if err == nil && got != "Felix #1 with ann, bob" {
			t.Errorf("SetThreadSubject changed a set subject: %q", got)
		}
		return err
	})
	old := newGame(t, s, "ann@example.org", "bob@example.org") // as before migration 6: no subject
	if g, _ := s.Game(ctx, old); g.ThreadSubject != "" {
		t.Fatalf("a game created without a subject has %q", g.ThreadSubject)
	}
	mustTx(t, s, func(tx *Tx) error {
		got, err := tx.SetThreadSubject(ctx, old, "Felix #2 with pa, pb")
		if err == nil && got != "Felix #2 with pa, pb" {
			t.Errorf("first SetThreadSubject: %q", got)
		}
		return err
	})
	if g, _ := s.Game(ctx, old); g.ThreadSubject != "Felix #2 with pa, pb" {
		t.Fatalf("stored subject %q", g.ThreadSubject)
	}
	if err := s.Tx(ctx, func(tx *Tx) error { _, err := tx.SetThreadSubject(ctx, old, ""); return err }); err == nil {
		t.Error("an empty subject was accepted")
	}
	if err := s.Tx(ctx, func(tx *Tx) error { _, err := tx.SetThreadSubject(ctx, 99, "x"); return err }); !errors.Is(err, ErrNotFound) {
		t.Errorf("SetThreadSubject of an unknown game = %v, want ErrNotFound", err)
	}
}

func TestSetSeatBot(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	id := newGame(t, s, "ann@example.org", "bob@example.org")
	for _, tt := range []struct {
		level   string
		wantErr error
		want    string
	}{
		{"strong", nil, "strong"},
		{"genius", errAny, "strong"}, // the schema allows only the bot's levels
		{"", nil, ""},
		{"easy", nil, "easy"},
	} {
		err := s.Tx(ctx, func(tx *Tx) error { return tx.SetSeatBot(ctx, id, 1, tt.level) })
		checkErr(t, err, tt.wantErr)
		if st, err := s.Seat(ctx, id, 1); err != nil || st.Bot != tt.want {
			t.Errorf("after SetSeatBot(%q): bot %q, %v; want %q", tt.level, st.Bot, err, tt.want)
		}
	}
	if st, err := s.Seat(ctx, id, 0); err != nil || st.Bot != "" {
		t.Errorf("the other seat: bot %q, %v", st.Bot, err)
	}
}

// TestSeatNotify: a seat follows its player's notify setting ("") until
// the game is given one of its own, which reads back as set and can be
// changed again.
func TestSeatNotify(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	var id int64
	mustTx(t, s, func(tx *Tx) error {
		var err error
		if id, err = tx.CreateGame(ctx, NewGame{Kind: "felix", Setup: []byte(`{}`), Creator: "ann@example.org", CreatedAt: t0}); err != nil {
			return err
		}
		return tx.AddSeat(ctx, id, 0, "ann@example.org", "ann", "tok0")
	})
	for _, n := range []Notify{"", NotifyOff, NotifyNormal} {
		if n != "" {
			mustTx(t, s, func(tx *Tx) error { return tx.SetSeatNotify(ctx, id, 0, n) })
		}
		st, err := s.Seat(ctx, id, 0)
		if err != nil || st.Notify != n {
			t.Errorf("seat notify %q (%v), want %q", st.Notify, err, n)
		}
	}
}

// TestAddSeatConflictKeepsTheTransaction: a seat number, token or address
// taken is ErrDuplicate, and the transaction goes on without a savepoint
// (on PostgreSQL a unique violation would abort it): the seats added
// after it, and before, commit. A seat's insert is one round trip.
func TestAddSeatConflictKeepsTheTransaction(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	id := newGame(t, s, "ann@example.org")
	tok := NewToken()
	var trips int64
	mustTx(t, s, func(tx *Tx) error {
		if err := tx.AddSeat(ctx, id, 1, "bob@example.org", "bob", tok); err != nil {
			return err
		}
		start := s.Counts().RoundTrips
		for _, dup := range []struct {
			seat        int
			addr, token string
		}{{1, "cat@example.org", NewToken()}, {2, "cat@example.org", tok}, {2, "Bob@Example.org", NewToken()}} {
			if err := tx.AddSeat(ctx, id, dup.seat, dup.addr, "x", dup.token); !errors.Is(err, ErrDuplicate) {
				t.Errorf("seat %d at %s: %v, want ErrDuplicate", dup.seat, dup.addr, err)
			}
		}
		trips = s.Counts().RoundTrips - start
		return tx.AddSeat(ctx, id, 2, "cat@example.org", "cat", NewToken())
	})
	if s.Engine() == PostgreSQL && trips != 3 {
		t.Errorf("three seats' inserts took %d round trips, want 3", trips)
	}
	seats, err := s.Seats(ctx, id)
	if err != nil || len(seats) != 3 || seats[1].Address != "bob@example.org" || seats[2].Address != "cat@example.org" {
		t.Errorf("committed seats %+v (%v)", seats, err)
	}
}
