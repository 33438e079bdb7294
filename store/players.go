package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Notify says which mails a player wants.
type Notify string

const (
	// NotifyNormal is the default: a mail when the player must decide
	// (once per decision), when a round or session result changes what
	// he knows, when the game starts and ends, and answers to his own
	// mail.
	NotifyNormal Notify = "normal"
	NotifyAll    Notify = "all"    // a mail whenever something he may see happens
	NotifyTurns  Notify = "turns"  // once per decision, the start and the end
	NotifyDigest Notify = "digest" // at most one mail a day, at DigestHour, and a deadline's last reminder
	NotifyOff    Notify = "off"    // nothing but replies to the player's own mail, and the end
)

// Notifies lists the notify settings, in the order help shows them.
func Notifies() []Notify {
	return []Notify{NotifyNormal, NotifyAll, NotifyTurns, NotifyDigest, NotifyOff}
}

func (n Notify) valid() bool {
	for _, v := range Notifies() {
		if n == v {
			return true
		}
	}
	return false
}

// DefaultDigestHour is the hour a digest goes out until the player
// chooses one: early morning, so that the day's decisions are in front of
// him when he starts it.
const DefaultDigestHour = 8

// Player is a person known by mail address.
type Player struct {
	Address  string // normalised
	Name     string // display name; may be empty
	TimeZone string // IANA name, "UTC" by default
	Notify   Notify
	// Confirm says whether a mail whose commands were applied is
	// answered when the answer would say nothing else (confirm on).
	// DefaultConfirm is what a new player starts with.
	Confirm bool
	// DigestHour is the hour of the day (0-23, in TimeZone) of his digest.
	DigestHour int
	// DigestDue is when his next digest is due; zero unless Notify is
	// NotifyDigest.
	DigestDue time.Time
	// QuietStart and QuietEnd are his quiet hours, whole hours of the
	// day in TimeZone: from QuietStart to QuietEnd, wrapping midnight
	// when QuietEnd is not after QuietStart; equal, they are off.
	// DefaultQuietStart and DefaultQuietEnd until he changes them.
	QuietStart, QuietEnd int
	// ZoneGuess is the time zone his mail's Date offset suggests, for
	// a player whose zone is UTC; "" when none. ZoneAsked is set once
	// his first game mail asked him to set his zone.
	ZoneGuess string
	ZoneAsked bool
	// Language is the language pbem writes to him in, a BCP 47 tag
	// ("en", "de"); "" until his first mail (SetPlayerLanguage).
	Language string
	// AwayUntil is when his vacation ends: zero, or a time past, when
	// he is not away (StartVacation).
	AwayUntil time.Time
}

// A player's quiet hours until he changes them: the night, 22:00-08:00.
const (
	DefaultQuietStart = 22
	DefaultQuietEnd   = 8
)

// DefaultConfirm is the confirm setting of a player pbem has just met:
// off, so that a whole game costs at most 1.5 mails per decision (issue
// 25): the move's effect is in his next game mail, and a mail pbem cannot
// apply is always answered. The column's SQL default is still 1 (SQLite
// cannot change it without copying the table), so every INSERT names it;
// players met before keep the setting they had.
const DefaultConfirm = false

// NormalizeAddress returns the form of a mail address that the store keys
// on: trimmed and lower-case. Strictly the local part is case-sensitive,
// but no mail system in use treats it so, and players do not type it
// consistently.
func NormalizeAddress(addr string) string {
	return strings.ToLower(strings.TrimSpace(addr))
}

// UpsertPlayer adds the player if the address is new and returns the
// player. For a known address, name replaces the stored name only when the
// stored one is empty, so a name set with SetPlayerName is not overwritten
// by whatever a mail client puts in From.
func (tx *Tx) UpsertPlayer(ctx context.Context, address, name string) (Player, error) {
	address = NormalizeAddress(address)
	if address == "" {
		return Player{}, fmt.Errorf("store: upsert player: empty address")
	}
	// A player pbem knows, whose name stays, is one read (issue 40:
	// nearly every mail is from one).
	switch p, err := tx.Player(ctx, address); {
	case err == nil && (p.Name != "" || strings.TrimSpace(name) == ""):
		return p, nil
	case err != nil && !errors.Is(err, ErrNotFound):
		return Player{}, fmt.Errorf("store: upsert player %s: %w", address, err)
	}
	_, err := tx.exec(ctx, `
		INSERT INTO players (address, name, confirm) VALUES (?, ?, ?)
		ON CONFLICT (address) DO UPDATE SET name = excluded.name WHERE players.name = ''`,
		address, strings.TrimSpace(name), DefaultConfirm)
	if err != nil {
		return Player{}, fmt.Errorf("store: upsert player %s: %w", address, err)
	}
	return tx.Player(ctx, address)
}

// ensurePlayer adds a player with no name unless the address is known.
func (tx *Tx) ensurePlayer(ctx context.Context, address string) error {
	// Nothing waits for its answer (Tx.later): on PostgreSQL it goes
	// with the statement that needs the row, a seat's or a game's.
	return tx.later(ctx, "ensure player "+address, `INSERT INTO players (address, confirm) VALUES (?, ?) ON CONFLICT DO NOTHING`, address, DefaultConfirm)
}

// Player returns the player with the address.
func (r reader) Player(ctx context.Context, address string) (Player, error) {
	address = NormalizeAddress(address)
	p, err := scanPlayer(r.q.QueryRowContext(ctx, selectPlayers+` WHERE address = ?`, address))
	if err != nil {
		return Player{}, fmt.Errorf("store: player %s: %w", address, wrap(err))
	}
	return p, nil
}

// SeatedPlayers returns the players of the game's seats, by address, in
// one statement: what the daemon reads of each seat's player when it
// mails the table (issue 40). A bot's seat has a player row too, at its
// address in bot.pbem.invalid (migration 00014).
func (r reader) SeatedPlayers(ctx context.Context, gameID int64) (map[string]Player, error) {
	rows, err := r.q.QueryContext(ctx, seatedPlayersSQL, gameID)
	list, err := collect(rows, err, scanPlayer)
	if err != nil {
		return nil, fmt.Errorf("store: players of game %d: %w", gameID, wrap(err))
	}
	ps := make(map[string]Player, len(list))
	for _, p := range list {
		ps[p.Address] = p
	}
	return ps, nil
}

// selectPlayers reads the columns scanPlayer scans. players.notify is
// the column before migration 00007; mail_notify replaced it.
const selectPlayers = `SELECT ` + scannedPlayerColumns + ` FROM players`

// scannedPlayerColumns are the columns scanPlayer scans, in its order.
const scannedPlayerColumns = `address, name, time_zone, mail_notify, confirm, digest_hour, digest_due, quiet_start, quiet_end, zone_guess, zone_asked, language, away_until`

func scanPlayer(sc interface{ Scan(...any) error }) (Player, error) {
	var p Player
	var due, away sql.NullInt64
	if err := sc.Scan(&p.Address, &p.Name, &p.TimeZone, &p.Notify, &p.Confirm, &p.DigestHour, &due, &p.QuietStart, &p.QuietEnd, &p.ZoneGuess, &p.ZoneAsked, &p.Language, &away); err != nil {
		return Player{}, err
	}
	p.AwayUntil = fromNullUnix(away)
	if due.Valid {
		p.DigestDue = time.Unix(due.Int64, 0)
	}
	return p, nil
}

// SetPlayerName sets the player's display name.
func (tx *Tx) SetPlayerName(ctx context.Context, address, name string) error {
	if err := tx.writesShared(); err != nil {
		return err
	}
	return tx.setPlayer(ctx, address, "name", strings.TrimSpace(name))
}

// SetPlayerTimeZone sets the player's time zone. The caller checks that tz
// is a valid IANA name; the store keeps it as text.
func (tx *Tx) SetPlayerTimeZone(ctx context.Context, address, tz string) error {
	if err := tx.writesShared(); err != nil {
		return err
	}
	if tz == "" {
		return fmt.Errorf("store: set time zone of %s: empty time zone", NormalizeAddress(address))
	}
	return tx.setPlayer(ctx, address, "time_zone", tz)
}

// SetPlayerNotify sets which mails the player wants.
func (tx *Tx) SetPlayerNotify(ctx context.Context, address string, n Notify) error {
	if err := tx.writesShared(); err != nil {
		return err
	}
	if !n.valid() {
		return fmt.Errorf("store: set notify of %s: invalid value %q", NormalizeAddress(address), n)
	}
	if err := tx.setPlayer(ctx, address, "mail_notify", string(n)); err != nil {
		return err
	}
	if n != NotifyDigest {
		return tx.setPlayer(ctx, address, "digest_due", nil)
	}
	return nil
}

// SetPlayerConfirm sets whether applied commands are confirmed.
func (tx *Tx) SetPlayerConfirm(ctx context.Context, address string, confirm bool) error {
	if err := tx.writesShared(); err != nil {
		return err
	}
	return tx.setPlayer(ctx, address, "confirm", confirm)
}

// SetPlayerLanguage sets the language pbem writes to the player in: a
// BCP 47 tag of two to eight lower-case letters ("de"), which the caller
// chose from the languages pbem has.
func (tx *Tx) SetPlayerLanguage(ctx context.Context, address, lang string) error {
	if err := tx.writesShared(); err != nil {
		return err
	}
	if len(lang) < 2 || len(lang) > 8 || strings.Trim(lang, "abcdefghijklmnopqrstuvwxyz") != "" {
		return fmt.Errorf("store: set language of %s: %q is not a language tag", NormalizeAddress(address), lang)
	}
	return tx.setPlayer(ctx, address, "language", lang)
}

// SetPlayerDigest sets the hour of the player's digest and when the next
// one is due.
func (tx *Tx) SetPlayerDigest(ctx context.Context, address string, hour int, due time.Time) error {
	if err := tx.writesShared(); err != nil {
		return err
	}
	if hour < 0 || hour > 23 {
		return fmt.Errorf("store: set digest hour of %s: %d is not an hour of the day", NormalizeAddress(address), hour)
	}
	if err := tx.setPlayer(ctx, address, "digest_hour", hour); err != nil {
		return err
	}
	return tx.setPlayer(ctx, address, "digest_due", due.Unix())
}

// SetPlayerQuiet sets the player's quiet hours, from start to end (whole
// hours of the day in his zone); start == end turns them off.
func (tx *Tx) SetPlayerQuiet(ctx context.Context, address string, start, end int) error {
	if err := tx.writesShared(); err != nil {
		return err
	}
	if start < 0 || start > 23 || end < 0 || end > 23 {
		return fmt.Errorf("store: set quiet hours of %s: %d-%d are not hours of the day", NormalizeAddress(address), start, end)
	}
	if err := tx.setPlayer(ctx, address, "quiet_start", start); err != nil {
		return err
	}
	return tx.setPlayer(ctx, address, "quiet_end", end)
}

// SetPlayerZoneGuess records the time zone the player's mail suggests.
func (tx *Tx) SetPlayerZoneGuess(ctx context.Context, address, zone string) error {
	if err := tx.writesShared(); err != nil {
		return err
	}
	return tx.setPlayer(ctx, address, "zone_guess", zone)
}

// SetPlayerZoneAsked records that the player was asked for his zone.
func (tx *Tx) SetPlayerZoneAsked(ctx context.Context, address string) error {
	if err := tx.writesShared(); err != nil {
		return err
	}
	return tx.setPlayer(ctx, address, "zone_asked", true)
}

// setPlayer sets one column; column is one of the constants above, never
// input.
//
// When the transaction keeps the player (Tx.Player), his row exists: a
// statement that might have deleted it would have made the transaction
// forget its players (txMemo.before), and these writes are shared
// (writesShared), so no other transaction runs beside this one. The
// UPDATE then needs no answer and goes with the next statement
// (laterWriting), and the transaction keeps the player as it leaves
// him, rather than reading him again: a game's start asked each of its
// players for his zone and read him back, two round trips a player on
// PostgreSQL (issue 40). Otherwise it runs at once, and must change
// exactly one row (execOne).
func (tx *Tx) setPlayer(ctx context.Context, address, column string, value any) error {
	address = NormalizeAddress(address)
	query := `UPDATE players SET ` + column + ` = ? WHERE address = ?`
	kept, ok := tx.memo.players[address]
	if !ok || !setPlayerColumn(&kept, column, value) {
		if err := tx.execOne(ctx, query, value, address); err != nil {
			return fmt.Errorf("store: set %s of player %s: %w", column, address, err)
		}
		return nil
	}
	players := tx.memo.players
	if err := tx.laterWriting(ctx, "set "+column+" of player "+address, query, []string{"players"}, value, address); err != nil {
		return err
	}
	// The statement forgot the players kept; it changes this one's
	// column alone, as kept now has it.
	players[address] = kept
	tx.memo.players = players
	return nil
}

// setPlayerColumn sets in p the column setPlayer writes value into, as
// scanPlayer would read it back (TestPlayerKeptAsWritten); false for a
// column or value it does not know, whose write the transaction then
// runs at once, forgetting its players.
func setPlayerColumn(p *Player, column string, value any) bool {
	switch column {
	case "name":
		return setTo(&p.Name, value)
	case "time_zone":
		return setTo(&p.TimeZone, value)
	case "mail_notify":
		v, ok := value.(string)
		p.Notify = Notify(v)
		return ok
	case "confirm":
		return setTo(&p.Confirm, value)
	case "language":
		return setTo(&p.Language, value)
	case "digest_hour":
		return setTo(&p.DigestHour, value)
	case "quiet_start":
		return setTo(&p.QuietStart, value)
	case "quiet_end":
		return setTo(&p.QuietEnd, value)
	case "zone_guess":
		return setTo(&p.ZoneGuess, value)
	case "zone_asked":
		return setTo(&p.ZoneAsked, value)
	case "digest_due", "away_until":
		sec, ok := value.(int64)
		if !ok && value != nil {
			return false
		}
		if column == "away_until" {
			p.AwayUntil = fromNullUnix(sql.NullInt64{Int64: sec, Valid: ok})
			return true
		}
		p.DigestDue = time.Time{}
		if ok {
			p.DigestDue = time.Unix(sec, 0) // as scanPlayer reads it
		}
		return true
	}
	return false
}

// setTo sets *field to value if value is of its type.
func setTo[T any](field *T, value any) bool {
	v, ok := value.(T)
	if ok {
		*field = v
	}
	return ok
}

// DueDigest is a player whose digest has fallen due.
type DueDigest struct {
	Address string
	Due     time.Time // when it fell due: what identifies that day's digest
}

// dueDigestsQuery finds the players whose digest is due, earliest first.
// It walks the partial index players_digest_due (digest_due is set only
// while notify is digest), so that the sweep, which runs every minute,
// reads only the few rows due and never the whole table.
const dueDigestsQuery = `SELECT address, digest_due FROM players
	WHERE digest_due IS NOT NULL AND digest_due <= ? ORDER BY digest_due`

// DueDigests returns the players whose digest is due at now, earliest
// first.
func (r reader) DueDigests(ctx context.Context, now time.Time) ([]DueDigest, error) {
	rows, err := r.q.QueryContext(ctx, dueDigestsQuery, unix(now))
	if err != nil {
		return nil, fmt.Errorf("store: due digests: %w", wrap(err))
	}
	defer rows.Close()
	var ds []DueDigest
	for rows.Next() {
		var d DueDigest
		var due int64
		if err := rows.Scan(&d.Address, &due); err != nil {
			return nil, fmt.Errorf("store: due digests: %w", err)
		}
		d.Due = fromUnix(due)
		ds = append(ds, d)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: due digests: %w", err)
	}
	return ds, nil
}
