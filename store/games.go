package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Status is where a game is in its life.
type Status string

const (
	StatusInviting Status = "inviting" // waiting for invitees to join
	StatusActive   Status = "active"   // being played
	StatusPaused   Status = "paused"   // stopped by an admin; deadlines do not fall due
	StatusFinished Status = "finished" // over by the rules
	StatusAborted  Status = "aborted"  // ended by an admin
	StatusDeclined Status = "declined" // an invitee declined, so it never started
)

func (s Status) valid() bool {
	switch s {
	case StatusInviting, StatusActive, StatusPaused, StatusFinished, StatusAborted, StatusDeclined:
		return true
	}
	return false
}

// NewGame is what CreateGame needs.
type NewGame struct {
	Kind    string // the game's name, e.g. "felix"
	Setup   []byte // the explicit set-up, JSON
	Options []byte // service options such as deadlines, JSON; may be nil
	// TurnTime is the game's time for each decision; zero leaves it to
	// the service's turn time (a game made before it was stored).
	TurnTime time.Duration
	// WeekendsOff stops the game's clocks on Saturday and Sunday, each
	// player's in his own zone (`new ... weekends off`).
	WeekendsOff bool
	// Bank is the game's time bank; its zero value is none (the classic
	// TurnTime per decision).
	Bank      Bank
	Creator   string // address of the player who asked for the game
	CreatedAt time.Time
	// ThreadSubject is the Subject of every mail of the game to its
	// players, fixed at creation (see SetThreadSubject).
	ThreadSubject string
}

// Game is a stored game.
type Game struct {
	ID      int64
	Kind    string
	Setup   []byte
	Options []byte
	// TurnTime is the game's time for each decision, fixed when it was
	// made; zero for a game made before it was stored.
	TurnTime time.Duration
	// WeekendsOff is set for a game whose clocks stop on Saturday and
	// Sunday (NewGame.WeekendsOff).
	WeekendsOff bool
	// Bank is the game's time bank (NewGame.Bank); zero for none.
	Bank        Bank
	Creator     string
	Status      Status
	Snapshot    []byte // the saved state; nil until the first SaveSnapshot
	SnapshotSeq int64  // the last move the snapshot includes
	LastSeq     int64  // the last move of the log; 0 before the first
	CreatedAt   time.Time
	// Aside says why the game was set aside, when it no longer loads or
	// cannot be advanced; empty for a healthy game. AsideAt is when.
	Aside   string
	AsideAt time.Time
	// ThreadSubject is the Subject of every mail of the game to its
	// players; empty for a game created before it was stored, until
	// SetThreadSubject.
	ThreadSubject string
	// UndoOpen says whether a proposal to undo moves was open when the
	// row was read (PendingUndo returns it). Read with the row, it
	// spares a command's transaction the statement that would look for
	// a proposal, which nearly every move did only to find none (issue
	// 40).
	UndoOpen bool
}

// Bank is a game's time bank (`new ... clock 2d+12h max 5d`): each
// player's bank at the start, what each of his moves adds to it, and the
// most it holds (zero: no cap). A zero Start is no bank.
type Bank struct {
	Start, Increment, Max time.Duration
}

// On reports whether the game has a time bank.
func (b Bank) On() bool { return b.Start > 0 }

// CreateGame adds a game with status inviting and returns its id. The
// creator becomes a player if new; seats are added with AddSeat.
func (tx *Tx) CreateGame(ctx context.Context, g NewGame) (int64, error) {
	if err := tx.writesShared(); err != nil {
		return 0, err
	}
	creator := NormalizeAddress(g.Creator)
	if g.Kind == "" || creator == "" || g.Setup == nil {
		return 0, fmt.Errorf("store: create game: kind, set-up and creator are required")
	}
	if err := tx.ensurePlayer(ctx, creator); err != nil {
		return 0, fmt.Errorf("store: create game: %w", err)
	}
	var id int64
	err := tx.q.QueryRowContext(ctx, `
		INSERT INTO games (kind, setup, options, creator, created_at, thread_subject, turn_time, weekends_off,
			bank_start, bank_increment, bank_max)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
		g.Kind, g.Setup, g.Options, creator, unix(g.CreatedAt), g.ThreadSubject, nullSeconds(g.TurnTime), g.WeekendsOff,
		seconds(g.Bank.Start), seconds(g.Bank.Increment), seconds(g.Bank.Max),
	).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("store: create game: %w", wrap(err))
	}
	return id, nil
}

const gameColumns = `id, kind, setup, options, creator, status, snapshot, snapshot_seq,
	(SELECT coalesce(max(seq), 0) FROM moves WHERE moves.game_id = games.id), created_at,
	broken, broken_at, thread_subject, turn_time, weekends_off, bank_start, bank_increment, bank_max,
	EXISTS (SELECT 1 FROM undos WHERE undos.game_id = games.id)`

func scanGame(sc interface{ Scan(...any) error }) (Game, error) {
	var g Game
	var created int64
	var brokenAt, turnTime sql.NullInt64
	var start, inc, most int64
	err := sc.Scan(&g.ID, &g.Kind, &g.Setup, &g.Options, &g.Creator, &g.Status,
		&g.Snapshot, &g.SnapshotSeq, &g.LastSeq, &created, &g.Aside, &brokenAt, &g.ThreadSubject, &turnTime, &g.WeekendsOff,
		&start, &inc, &most, &g.UndoOpen)
	g.TurnTime = time.Duration(turnTime.Int64) * time.Second
	g.Bank = Bank{Start: time.Duration(start) * time.Second, Increment: time.Duration(inc) * time.Second, Max: time.Duration(most) * time.Second}
	g.CreatedAt = fromUnix(created)
	g.AsideAt = fromNullUnix(brokenAt)
	return g, err
}

// Game returns the game with the id.
func (r reader) Game(ctx context.Context, id int64) (Game, error) {
	g, err := scanGame(r.q.QueryRowContext(ctx, gameSQL, id))
	if err != nil {
		return Game{}, fmt.Errorf("store: game %d: %w", id, wrap(err))
	}
	return g, nil
}

// GamesOf returns the games in which the address holds a seat, whatever
// their status or the seat's, oldest first.
func (r reader) GamesOf(ctx context.Context, address string) ([]Game, error) {
	address = NormalizeAddress(address)
	gs, err := r.games(ctx, `WHERE id IN (SELECT game_id FROM seats WHERE address = ?) ORDER BY id`, address)
	if err != nil {
		return nil, fmt.Errorf("store: games of %s: %w", address, err)
	}
	return gs, nil
}

// AllGames returns every game, oldest first: the admin's list.
func (r reader) AllGames(ctx context.Context) ([]Game, error) {
	gs, err := r.games(ctx, "ORDER BY id")
	if err != nil {
		return nil, fmt.Errorf("store: all games: %w", err)
	}
	return gs, nil
}

// GamesAfter returns at most limit games whose numbers follow after,
// oldest first: a page of the admin's list. The next page starts after
// the last game of this one. Unlike AllGames it reads only the page, by
// the games' key, however many games there are.
func (r reader) GamesAfter(ctx context.Context, after int64, limit int) ([]Game, error) {
	gs, err := r.games(ctx, "WHERE id > ? ORDER BY id LIMIT ?", after, limit)
	if err != nil {
		return nil, fmt.Errorf("store: games after %d: %w", after, err)
	}
	return gs, nil
}

// games returns the games that the rest of the query after FROM games
// (WHERE, ORDER BY, LIMIT) selects.
func (r reader) games(ctx context.Context, rest string, args ...any) ([]Game, error) {
	rows, err := r.q.QueryContext(ctx, `SELECT `+gameColumns+` FROM games `+rest, args...)
	return collect(rows, err, scanGame)
}

// SetGameStatus sets the game's status. Which changes make sense is the
// caller's business; the store only checks that the status is one of the
// known ones.
func (tx *Tx) SetGameStatus(ctx context.Context, id int64, s Status) error {
	if err := tx.writesGame(id); err != nil {
		return err
	}
	if !s.valid() {
		return fmt.Errorf("store: set status of game %d: invalid status %q", id, s)
	}
	delete(tx.memo.notOver, id)
	if err := tx.execOne(ctx, `UPDATE games SET status = ? WHERE id = ?`, string(s), id); err != nil {
		return fmt.Errorf("store: set status of game %d: %w", id, err)
	}
	if s.over() {
		// For retention, which forgets the mail of games that are over
		// (migration 00013).
		if _, err := tx.exec(ctx, `INSERT INTO ended_games (game_id) VALUES (?) ON CONFLICT DO NOTHING`, id); err != nil {
			return fmt.Errorf("store: set status of game %d: %w", id, err)
		}
	}
	return nil
}

// over reports whether a game in this status is over: no game leaves
// these.
func (s Status) over() bool {
	return s == StatusFinished || s == StatusAborted || s == StatusDeclined
}

// SetGameAside sets a game aside as broken, saying why (in words that
// name no hidden card: the reason is shown to admins and logged). It
// reports whether the game was healthy before, so that its players are
// told only once.
func (tx *Tx) SetGameAside(ctx context.Context, id int64, reason string, at time.Time) (wasHealthy bool, err error) {
	if err := tx.writesGame(id); err != nil {
		return false, err
	}
	if reason == "" {
		return false, fmt.Errorf("store: set game %d broken: a reason is required", id)
	}
	res, err := tx.exec(ctx, `UPDATE games SET broken = ?, broken_at = ? WHERE id = ? AND broken = ''`, reason, unix(at), id)
	if err != nil {
		return false, fmt.Errorf("store: set game %d broken: %w", id, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("store: set game %d broken: %w", id, err)
	}
	if n == 0 {
		if _, err := tx.Game(ctx, id); err != nil {
			return false, fmt.Errorf("store: set game %d broken: %w", id, err)
		}
	}
	return n == 1, nil
}

// ClearGameAside takes a game back from the broken ones, after a repair.
func (tx *Tx) ClearGameAside(ctx context.Context, id int64) error {
	if err := tx.writesGame(id); err != nil {
		return err
	}
	if err := tx.execOne(ctx, `UPDATE games SET broken = '', broken_at = NULL WHERE id = ?`, id); err != nil {
		return fmt.Errorf("store: clear game %d broken: %w", id, err)
	}
	return nil
}

// SetGameSetup replaces a game's explicit set-up: a player's rename is
// the one change it may see (internal/daemon/names.go), and the caller rebuilds
// the snapshot in the same transaction.
func (tx *Tx) SetGameSetup(ctx context.Context, id int64, setup []byte) error {
	if err := tx.writesGame(id); err != nil {
		return err
	}
	if setup == nil {
		return fmt.Errorf("store: set set-up of game %d: empty", id)
	}
	if err := tx.execOne(ctx, `UPDATE games SET setup = ? WHERE id = ?`, setup, id); err != nil {
		return fmt.Errorf("store: set set-up of game %d: %w", id, err)
	}
	return nil
}

// SetThreadSubject stores the subject of a game's mails, unless it has
// one: a game's subject never changes once set, so that its mails stay
// one thread in clients that group by subject. It returns the subject the
// game has now, which is subject or the one stored before.
func (tx *Tx) SetThreadSubject(ctx context.Context, id int64, subject string) (string, error) {
	if err := tx.writesGame(id); err != nil {
		return "", err
	}
	if subject == "" {
		return "", fmt.Errorf("store: set thread subject of game %d: empty", id)
	}
	if _, err := tx.exec(ctx, `UPDATE games SET thread_subject = ? WHERE id = ? AND thread_subject = ''`, subject, id); err != nil {
		return "", fmt.Errorf("store: set thread subject of game %d: %w", id, err)
	}
	var got string
	if err := tx.q.QueryRowContext(ctx, `SELECT thread_subject FROM games WHERE id = ?`, id).Scan(&got); err != nil {
		return "", fmt.Errorf("store: set thread subject of game %d: %w", id, wrap(err))
	}
	return got, nil
}

// SaveSnapshot saves the game's state as it is after move seq (0: before
// the first move). seq may not be beyond the last move of the log. On
// PostgreSQL the write may wait for the transaction's next statement
// (Tx.later): the caller must not change state after.
func (tx *Tx) SaveSnapshot(ctx context.Context, id, seq int64, state []byte) error {
	if err := tx.writesGame(id); err != nil {
		return err
	}
	if seq < 0 || state == nil {
		return fmt.Errorf("store: save snapshot of game %d: invalid seq %d or empty state", id, seq)
	}
	set := func(g *Game) { g.Snapshot, g.SnapshotSeq = bytes.Clone(state), seq }
	if kept, ok := tx.memo.games[id]; ok && seq <= kept.LastSeq {
		// The kept row is the game's, which exists and has its seq-th
		// move: the check is made, and the write needs no answer
		// (Tx.later). On PostgreSQL it goes with the next statement,
		// where it was a round trip of every move.
		err := tx.keepingGame(id, set, func() error {
			return tx.later(ctx, "save a snapshot", `UPDATE games SET snapshot = ?, snapshot_seq = ? WHERE id = ?`, state, seq, id)
		})
		if err != nil {
			return fmt.Errorf("store: save snapshot of game %d: %w", id, err)
		}
		return nil
	}
	// One statement checks and writes (issue 40); only when it writes
	// nothing does a second say why.
	err := tx.keepingGame(id, set, func() error {
		return tx.execOne(ctx, `UPDATE games SET snapshot = ?, snapshot_seq = ? WHERE id = ?
		AND ? <= (SELECT coalesce(max(seq), 0) FROM moves WHERE game_id = ?)`, state, seq, id, seq, id)
	})
	if !errors.Is(err, ErrNotFound) {
		if err != nil {
			return fmt.Errorf("store: save snapshot of game %d: %w", id, err)
		}
		return nil
	}
	var last int64
	if err := tx.q.QueryRowContext(ctx,
		`SELECT coalesce(max(seq), 0) FROM moves WHERE game_id = ?`, id).Scan(&last); err != nil {
		return fmt.Errorf("store: save snapshot of game %d: %w", id, wrap(err))
	}
	if seq > last {
		return fmt.Errorf("store: save snapshot of game %d: seq %d is beyond the last move %d", id, seq, last)
	}
	return fmt.Errorf("store: save snapshot of game %d: %w", id, ErrNotFound)
}

// SeatState is where an invitee is.
type SeatState string

const (
	SeatInvited  SeatState = "invited"
	SeatJoined   SeatState = "joined"
	SeatDeclined SeatState = "declined"
	// SeatResigned: the player left a running game; the service makes the
	// default move for the seat whenever the game waits on it.
	SeatResigned SeatState = "resigned"
)

// Seat is one player's place in one game.
type Seat struct {
	GameID  int64
	Seat    int    // from 0, in the game's seat order
	Address string // who plays it now
	Name    string // the player's name in the game, as in the set-up
	Token   string // secret; identifies the seat in reply addresses
	State   SeatState
	// Deadline is when the seat's pending decision falls due; zero when
	// the game waits for nothing from the seat.
	Deadline time.Time
	// ThreadRoot and LastMessageID are the Message-IDs of the first and
	// the latest mail sent to the seat about the game, for In-Reply-To
	// and References. Empty before the first mail.
	ThreadRoot    string
	LastMessageID string
	// LastMailedEvent is the id of the last event mailed to the seat.
	LastMailedEvent int64
	// Decision counts the decisions the seat has been asked for; it grows
	// each time the game starts waiting on the seat afresh (NewDecision).
	// A mail remembers it, so that a reply to an old mail is recognised.
	Decision int64
	// Missed counts the deadlines the seat missed in a row: a default
	// move made because the deadline passed adds one, a move of the
	// player's own sets it back to 0.
	Missed int
	// Autopilot says that pbem plays the seat with the default moves, at
	// once, because its player missed too many deadlines in a row; his
	// next command takes the seat back. A resigned seat is never on
	// autopilot: resigning is for good.
	Autopilot bool
	// WaitingSince is when the pending decision began (NewDecision); zero
	// when there is none, or for one begun before it was stored.
	WaitingSince time.Time
	// RemindAt is when the next reminder step falls due, and RemindLead
	// how long before the deadline that step is; RemindAt is zero when no
	// step is left.
	RemindAt   time.Time
	RemindLead time.Duration
	// Bot is the level of pbem's bot that plays the seat ("easy",
	// "normal", "strong"), or "" for a person's seat. A bot seat moves
	// when the game waits on it, in the same transaction, and is never
	// mailed.
	Bot string
	// Notify is the game's own notify setting for the seat, which wins
	// over the player's (Player.Notify) for this game; "" follows his.
	// `notify SETTING here` and a one-click unsubscribe set it.
	Notify Notify
	// Bank is the seat's time bank in a game with one (Game.Bank): what
	// it held when the pending decision began, or, when the game waits
	// for nothing from the seat, what it holds. While a decision runs,
	// the deadline is when the bank runs out.
	Bank time.Duration
}

// AddSeat adds a seat with state invited. The address becomes a player if
// new. A token or address already used in the game yields ErrDuplicate, as
// does a token used in any game.
func (tx *Tx) AddSeat(ctx context.Context, gameID int64, seat int, address, name, token string) error {
	if err := tx.writesGame(gameID); err != nil {
		return err
	}
	address = NormalizeAddress(address)
	token = strings.ToLower(token)
	if address == "" || token == "" || seat < 0 {
		return fmt.Errorf("store: add seat %d to game %d: address, token and a seat number are required", seat, gameID)
	}
	if err := tx.ensurePlayer(ctx, address); err != nil {
		return fmt.Errorf("store: add seat %d to game %d: %w", seat, gameID, err)
	}
	// A seat's bank starts at the game's (zero in a game without one).
	// A seat number, token or address taken is a conflict the insert
	// skips, and counts: on PostgreSQL a unique violation would abort
	// the transaction, and the insert ran in a savepoint of its own,
	// three round trips where this is one (issue 40).
	res, err := tx.exec(ctx, `INSERT INTO seats (game_id, seat, address, name, token, bank)
		VALUES (?, ?, ?, ?, ?, (SELECT bank_start FROM games WHERE id = ?)) ON CONFLICT DO NOTHING`,
		gameID, seat, address, name, token, gameID)
	if err != nil {
		return fmt.Errorf("store: add seat %d to game %d: %w", seat, gameID, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("store: add seat %d to game %d: %w", seat, gameID, wrap(err))
	} else if n == 0 {
		return fmt.Errorf("store: add seat %d to game %d: %w", seat, gameID, ErrDuplicate)
	}
	return nil
}

const seatColumns = `game_id, seat, address, name, token, state, deadline,
	thread_root, last_message_id, last_mailed_event, decision,
	waiting_since, remind_at, remind_lead, missed, autopilot, bot, notify, bank`

func scanSeat(sc interface{ Scan(...any) error }) (Seat, error) {
	var s Seat
	var deadline, since, remindAt sql.NullInt64
	var lead, bank int64
	err := sc.Scan(&s.GameID, &s.Seat, &s.Address, &s.Name, &s.Token, &s.State, &deadline,
		&s.ThreadRoot, &s.LastMessageID, &s.LastMailedEvent, &s.Decision,
		&since, &remindAt, &lead, &s.Missed, &s.Autopilot, &s.Bot, &s.Notify, &bank)
	s.Bank = time.Duration(bank) * time.Second
	s.Deadline = fromNullUnix(deadline)
	s.WaitingSince = fromNullUnix(since)
	s.RemindAt = fromNullUnix(remindAt)
	s.RemindLead = time.Duration(lead) * time.Second
	return s, err
}

// Seat returns one seat of a game.
func (r reader) Seat(ctx context.Context, gameID int64, seat int) (Seat, error) {
	s, err := scanSeat(r.q.QueryRowContext(ctx,
		`SELECT `+seatColumns+` FROM seats WHERE game_id = ? AND seat = ?`, gameID, seat))
	if err != nil {
		return Seat{}, fmt.Errorf("store: seat %d of game %d: %w", seat, gameID, wrap(err))
	}
	return s, nil
}

// SeatByToken returns the seat with the token. Tokens are compared as
// stored, lower-case; the caller may pass them in any case.
func (r reader) SeatByToken(ctx context.Context, token string) (Seat, error) {
	s, err := scanSeat(r.q.QueryRowContext(ctx,
		`SELECT `+seatColumns+` FROM seats WHERE token = ?`, strings.ToLower(token)))
	if err != nil {
		// The token is a secret: keep it out of error messages and logs.
		return Seat{}, fmt.Errorf("store: seat by token: %w", wrap(err))
	}
	return s, nil
}

// Seats returns the seats of a game in seat order.
func (r reader) Seats(ctx context.Context, gameID int64) ([]Seat, error) {
	ss, err := r.scanSeats(ctx, seatsSQL, gameID)
	if err != nil {
		return nil, fmt.Errorf("store: seats of game %d: %w", gameID, err)
	}
	return ss, nil
}

// seatsByToken returns the seats of the game of the seat whose token is
// lower (lower case), in seat order, as Seats does: none when no seat
// has the token.
func (r reader) seatsByToken(ctx context.Context, lower string) ([]Seat, error) {
	ss, err := r.scanSeats(ctx, `SELECT `+seatColumns+` FROM seats
		WHERE game_id = (SELECT game_id FROM seats WHERE token = ?) ORDER BY seat`, lower)
	if err != nil {
		// The token is a secret: keep it out of error messages and logs.
		return nil, fmt.Errorf("store: seats by token: %w", err)
	}
	return ss, nil
}

// scanSeats runs query, which selects seatColumns, and scans its rows.
func (r reader) scanSeats(ctx context.Context, query string, args ...any) ([]Seat, error) {
	rows, err := r.q.QueryContext(ctx, query, args...)
	return collect(rows, err, scanSeat)
}

// SetSeatJoined records that the seat's player joined.
func (tx *Tx) SetSeatJoined(ctx context.Context, gameID int64, seat int) error {
	if err := tx.writesGame(gameID); err != nil {
		return err
	}
	return tx.setSeat(ctx, gameID, seat, "state", string(SeatJoined), func(s *Seat) { s.State = SeatJoined })
}

// SetSeatDeclined records that the seat's player declined.
func (tx *Tx) SetSeatDeclined(ctx context.Context, gameID int64, seat int) error {
	if err := tx.writesGame(gameID); err != nil {
		return err
	}
	return tx.setSeat(ctx, gameID, seat, "state", string(SeatDeclined), func(s *Seat) { s.State = SeatDeclined })
}

// SetSeatResigned records that the seat's player left the game.
func (tx *Tx) SetSeatResigned(ctx context.Context, gameID int64, seat int) error {
	if err := tx.writesGame(gameID); err != nil {
		return err
	}
	return tx.setSeat(ctx, gameID, seat, "state", string(SeatResigned), func(s *Seat) { s.State = SeatResigned })
}

// SetSeatMissed records how many deadlines the seat missed in a row.
func (tx *Tx) SetSeatMissed(ctx context.Context, gameID int64, seat, missed int) error {
	if err := tx.writesGame(gameID); err != nil {
		return err
	}
	if missed < 0 {
		return fmt.Errorf("store: set missed of seat %d of game %d: %d is negative", seat, gameID, missed)
	}
	return tx.setSeat(ctx, gameID, seat, "missed", missed, func(s *Seat) { s.Missed = missed })
}

// SetSeatBank sets the seat's time bank (Seat.Bank), to the second.
func (tx *Tx) SetSeatBank(ctx context.Context, gameID int64, seat int, bank time.Duration) error {
	if err := tx.writesGame(gameID); err != nil {
		return err
	}
	if bank < 0 {
		return fmt.Errorf("store: set bank of seat %d of game %d: %v is negative", seat, gameID, bank)
	}
	return tx.setSeat(ctx, gameID, seat, "bank", seconds(bank), func(s *Seat) { s.Bank = bank.Truncate(time.Second) })
}

// SetSeatBot makes the seat a bot seat played at level (one of the
// levels the migration allows), or a person's seat with "".
func (tx *Tx) SetSeatBot(ctx context.Context, gameID int64, seat int, level string) error {
	if err := tx.writesGame(gameID); err != nil {
		return err
	}
	return tx.setSeat(ctx, gameID, seat, "bot", level, func(s *Seat) { s.Bot = level })
}

// SetSeatAutopilot puts the seat on autopilot (on) or takes it off.
func (tx *Tx) SetSeatAutopilot(ctx context.Context, gameID int64, seat int, on bool) error {
	if err := tx.writesGame(gameID); err != nil {
		return err
	}
	return tx.setSeat(ctx, gameID, seat, "autopilot", on, func(s *Seat) { s.Autopilot = on })
}

// SetSeatNotify sets the game's own notify setting for the seat ("" to
// follow the player's).
func (tx *Tx) SetSeatNotify(ctx context.Context, gameID int64, seat int, n Notify) error {
	if err := tx.writesGame(gameID); err != nil {
		return err
	}
	return tx.setSeat(ctx, gameID, seat, "notify", string(n), func(s *Seat) { s.Notify = n })
}

// SetDeadline sets when the seat's pending decision falls due. The
// reminder steps of the old deadline are dropped: SetReminder sets the
// new one's.
func (tx *Tx) SetDeadline(ctx context.Context, gameID int64, seat int, t time.Time) error {
	if err := tx.writesGame(gameID); err != nil {
		return err
	}
	if t.IsZero() {
		return fmt.Errorf("store: set deadline of seat %d of game %d: zero time", seat, gameID)
	}
	err := tx.keepingSeat(ctx, gameID, seat, func(s *Seat) {
		s.Deadline, s.RemindAt, s.RemindLead = fromUnix(unix(t)), time.Time{}, 0
	}, `UPDATE seats SET deadline = ?, remind_at = NULL, remind_lead = 0 WHERE game_id = ? AND seat = ?`,
		unix(t), gameID, seat)
	if err != nil {
		return fmt.Errorf("store: set deadline of seat %d of game %d: %w", seat, gameID, err)
	}
	return nil
}

// NewDecision starts a new decision for the seat: the game waits on it
// afresh from since on, until deadline. Its reminder steps are set with
// SetReminder.
func (tx *Tx) NewDecision(ctx context.Context, gameID int64, seat int, since, deadline time.Time) error {
	if err := tx.writesGame(gameID); err != nil {
		return err
	}
	return tx.NewDecisionReminded(ctx, gameID, seat, since, deadline, time.Time{}, 0)
}

// NewDecisionReminded is NewDecision and SetReminder(remindAt, lead) in
// one statement: every command that makes the game wait on a seat starts
// its decision with its first reminder step (issue 40).
func (tx *Tx) NewDecisionReminded(ctx context.Context, gameID int64, seat int, since, deadline, remindAt time.Time, lead time.Duration) error {
	if err := tx.writesGame(gameID); err != nil {
		return err
	}
	if deadline.IsZero() || since.IsZero() {
		return fmt.Errorf("store: new decision of seat %d of game %d: zero deadline or start", seat, gameID)
	}
	step := newReminderStep(remindAt, lead)
	err := tx.keepingSeat(ctx, gameID, seat, func(s *Seat) {
		s.Deadline, s.WaitingSince = fromUnix(unix(deadline)), fromUnix(unix(since))
		step.keep(s)
		s.Decision++
	}, `UPDATE seats SET deadline = ?, waiting_since = ?, remind_at = ?, remind_lead = ?,
			decision = decision + 1 WHERE game_id = ? AND seat = ?`,
		unix(deadline), unix(since), step.at, step.leadSeconds, gameID, seat)
	if err != nil {
		return fmt.Errorf("store: new decision of seat %d of game %d: %w", seat, gameID, err)
	}
	return nil
}

// SetSeatName renames the seat's player within the game.
func (tx *Tx) SetSeatName(ctx context.Context, gameID int64, seat int, name string) error {
	if err := tx.writesGame(gameID); err != nil {
		return err
	}
	if name == "" {
		return fmt.Errorf("store: rename seat %d of game %d: empty name", seat, gameID)
	}
	return tx.setSeat(ctx, gameID, seat, "name", name, func(s *Seat) { s.Name = name })
}

// ClearDeadline removes the seat's deadline, and with it the decision's
// start and reminder steps: the game waits for nothing from the seat.
func (tx *Tx) ClearDeadline(ctx context.Context, gameID int64, seat int) error {
	if err := tx.writesGame(gameID); err != nil {
		return err
	}
	err := tx.keepingSeat(ctx, gameID, seat, func(s *Seat) {
		s.Deadline, s.WaitingSince, s.RemindAt, s.RemindLead = time.Time{}, time.Time{}, time.Time{}, 0
	}, `UPDATE seats SET deadline = NULL, waiting_since = NULL, remind_at = NULL, remind_lead = 0
			WHERE game_id = ? AND seat = ?`, gameID, seat)
	if err != nil {
		return fmt.Errorf("store: clear deadline of seat %d of game %d: %w", seat, gameID, err)
	}
	return nil
}

// SetReminder sets when the seat's next reminder step falls due (at) and
// how long before the deadline that step is (lead); a zero at leaves no
// step.
func (tx *Tx) SetReminder(ctx context.Context, gameID int64, seat int, at time.Time, lead time.Duration) error {
	if err := tx.writesGame(gameID); err != nil {
		return err
	}
	step := newReminderStep(at, lead)
	err := tx.keepingSeat(ctx, gameID, seat, step.keep, `UPDATE seats SET remind_at = ?, remind_lead = ? WHERE game_id = ? AND seat = ?`,
		step.at, step.leadSeconds, gameID, seat)
	if err != nil {
		return fmt.Errorf("store: set reminder of seat %d of game %d: %w", seat, gameID, err)
	}
	return nil
}

// reminderStep is a reminder step as seats stores it: at is remind_at
// (NULL for no step) and leadSeconds remind_lead; keep sets a kept Seat
// to what a read of the row would then give.
type reminderStep struct {
	at          any
	leadSeconds int64
}

// newReminderStep is the step due at at, lead before the deadline; a zero
// at is no step, whatever lead.
func newReminderStep(at time.Time, lead time.Duration) reminderStep {
	if at.IsZero() {
		return reminderStep{}
	}
	return reminderStep{at: unix(at), leadSeconds: int64(lead / time.Second)}
}

func (r reminderStep) keep(s *Seat) {
	s.RemindAt, s.RemindLead = time.Time{}, time.Duration(r.leadSeconds)*time.Second
	if at, ok := r.at.(int64); ok {
		s.RemindAt = fromUnix(at)
	}
}

// SetSeatLastMailedEvent records the id of the last event mailed to the
// seat.
func (tx *Tx) SetSeatLastMailedEvent(ctx context.Context, gameID int64, seat int, eventID int64) error {
	if err := tx.writesGame(gameID); err != nil {
		return err
	}
	// Every seat's mail sets it, and the next reads the seats again:
	// the transaction keeps its seats, with this one column changed (as
	// the other writes of a command's decisions, deadlines and threads
	// do).
	err := tx.keepingSeat(ctx, gameID, seat, func(s *Seat) { s.LastMailedEvent = eventID },
		`UPDATE seats SET last_mailed_event = ? WHERE game_id = ? AND seat = ?`, eventID, gameID, seat)
	if err != nil {
		return fmt.Errorf("store: set last_mailed_event of seat %d of game %d: %w", seat, gameID, err)
	}
	return nil
}

// setSeat sets one column; column is one of the constants above, never
// input.
func (tx *Tx) setSeat(ctx context.Context, gameID int64, seat int, column string, value any, set func(*Seat)) error {
	// A seat the transaction read is there, and the write needs no
	// answer: on PostgreSQL it travels with the next statement, where
	// waiting for its count of rows was a round trip, and the memo keeps
	// the row as written, where it forgot the game's seats and the
	// writes of the seat that follow (its last event, its thread, on a
	// join that starts the game) each waited for their count too (issue
	// 40). Only this column changes, so the query itself waits, not the
	// row written whole.
	query := `UPDATE seats SET ` + column + ` = ? WHERE game_id = ? AND seat = ?`
	err := tx.keepingSeatBy(ctx, gameID, seat, set, func(Seat) error {
		return tx.later(ctx, "set "+column+" of a seat", query, value, gameID, seat)
	}, query, value, gameID, seat)
	if err != nil {
		return fmt.Errorf("store: set %s of seat %d of game %d: %w", column, seat, gameID, err)
	}
	return nil
}

// SetSeatMessageID records messageID as the latest mail sent to the seat
// about the game; the first one recorded becomes the root of the thread.
func (tx *Tx) SetSeatMessageID(ctx context.Context, gameID int64, seat int, messageID string) error {
	if err := tx.writesGame(gameID); err != nil {
		return err
	}
	if messageID == "" {
		return fmt.Errorf("store: set message id of seat %d of game %d: empty id", seat, gameID)
	}
	err := tx.keepingSeat(ctx, gameID, seat, func(s *Seat) {
		s.LastMessageID = messageID
		if s.ThreadRoot == "" {
			s.ThreadRoot = messageID
		}
	}, `UPDATE seats
			SET last_message_id = ?1,
			    thread_root = CASE WHEN thread_root = '' THEN ?1 ELSE thread_root END
			WHERE game_id = ?2 AND seat = ?3`, messageID, gameID, seat)
	if err != nil {
		return fmt.Errorf("store: set message id of seat %d of game %d: %w", seat, gameID, err)
	}
	return nil
}

// ReplaceSeatAddress gives the seat to a new address with a new token, so
// that the previous holder's token no longer works. The new holder has seen
// none of the mails, so the thread starts afresh. The address becomes a
// player if new; an address already seated in the game yields ErrDuplicate.
func (tx *Tx) ReplaceSeatAddress(ctx context.Context, gameID int64, seat int, address, token string) error {
	if err := tx.writesGame(gameID); err != nil {
		return err
	}
	address = NormalizeAddress(address)
	token = strings.ToLower(token)
	if address == "" || token == "" {
		return fmt.Errorf("store: replace address of seat %d of game %d: address and token are required", seat, gameID)
	}
	if err := tx.ensurePlayer(ctx, address); err != nil {
		return fmt.Errorf("store: replace address of seat %d of game %d: %w", seat, gameID, err)
	}
	err := tx.mayDuplicate(ctx, func() error {
		return tx.execOne(ctx, `UPDATE seats
			SET address = ?, token = ?, thread_root = '', last_message_id = ''
			WHERE game_id = ? AND seat = ?`, address, token, gameID, seat)
	})
	if err != nil {
		return fmt.Errorf("store: replace address of seat %d of game %d: %w", seat, gameID, err)
	}
	return nil
}

// Deadline is a seat's deadline that has fallen due.
type Deadline struct {
	GameID int64
	Seat   int
	At     time.Time
}

// dueDeadlinesQuery finds the passed deadlines of active, healthy games,
// earliest first. The sweep runs it every minute: it reads the partial
// index seats_deadline from its start up to now, so only the due seats are
// touched however many games wait on a deadline (sweepplan_test.go).
const dueDeadlinesQuery = `
	SELECT s.game_id, s.seat, s.deadline FROM seats s JOIN games g ON g.id = s.game_id
	WHERE s.deadline IS NOT NULL AND s.deadline <= ? AND g.status = 'active' AND g.broken = ''
	ORDER BY s.deadline, s.game_id, s.seat`

// DueDeadlines returns the deadlines at or before now of active games,
// earliest first. Deadlines of paused or broken games stay stored but do
// not fall due until the game is active and healthy again.
func (r reader) DueDeadlines(ctx context.Context, now time.Time) ([]Deadline, error) {
	rows, err := r.q.QueryContext(ctx, dueDeadlinesQuery, unix(now))
	if err != nil {
		return nil, fmt.Errorf("store: due deadlines: %w", wrap(err))
	}
	defer rows.Close()
	var ds []Deadline
	for rows.Next() {
		var d Deadline
		var at int64
		if err := rows.Scan(&d.GameID, &d.Seat, &at); err != nil {
			return nil, fmt.Errorf("store: due deadlines: %w", err)
		}
		d.At = fromUnix(at)
		ds = append(ds, d)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: due deadlines: %w", err)
	}
	return ds, nil
}

// Reminder is a seat's reminder step that has fallen due.
type Reminder struct {
	GameID   int64
	Seat     int
	Deadline time.Time     // the deadline the step reminds of
	At       time.Time     // when the step fell due
	Lead     time.Duration // how long before the deadline the step is
}

// dueRemindersQuery finds the due reminder steps of active, healthy
// games, earliest first, through the partial index seats_remind_at.
const dueRemindersQuery = `
	SELECT s.game_id, s.seat, s.deadline, s.remind_at, s.remind_lead FROM seats s JOIN games g ON g.id = s.game_id
	WHERE s.remind_at IS NOT NULL AND s.remind_at <= ? AND s.deadline IS NOT NULL
	  AND g.status = 'active' AND g.broken = ''
	ORDER BY s.remind_at, s.game_id, s.seat`

// DueReminders returns the reminder steps at or before now of active,
// healthy games, earliest first. It reads the remind_at index, so only the
// seats whose step is due are touched.
func (r reader) DueReminders(ctx context.Context, now time.Time) ([]Reminder, error) {
	rows, err := r.q.QueryContext(ctx, dueRemindersQuery, unix(now))
	if err != nil {
		return nil, fmt.Errorf("store: due reminders: %w", wrap(err))
	}
	defer rows.Close()
	var rs []Reminder
	for rows.Next() {
		var d Reminder
		var deadline, at, lead int64
		if err := rows.Scan(&d.GameID, &d.Seat, &deadline, &at, &lead); err != nil {
			return nil, fmt.Errorf("store: due reminders: %w", err)
		}
		d.Deadline, d.At, d.Lead = fromUnix(deadline), fromUnix(at), time.Duration(lead)*time.Second
		rs = append(rs, d)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: due reminders: %w", err)
	}
	return rs, nil
}
