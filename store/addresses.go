package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// A player is his address, so a player who changes address must take
// every row keyed by it along (issue 37, part 3): MoveAddress. He may
// also add a second address that counts as him for reading (AddAlias).
// Both are asked for first and confirmed from the new address: the
// address_changes table holds what was asked.

// ErrAddressInUse is returned by MoveAddress and AddAlias when the new
// address is a player of its own: merging two players is not offered.
var ErrAddressInUse = errors.New("store: the address has games or ratings of its own")

// AddressChange is a change of address a player asked for and has not
// confirmed yet.
type AddressChange struct {
	Token      string // the secret of the confirmation's reply address and link
	Address    string // the player's address, normalised
	NewAddress string // the address asked for, normalised
	// Add is set for an address added to the player's (address add),
	// clear for one that replaces it (address NEW).
	Add     bool
	AskedAt time.Time
}

// kind is the change's address_changes.kind.
func (c AddressChange) kind() string {
	if c.Add {
		return "add"
	}
	return "move"
}

// AskAddressChange records a change to confirm. An earlier change the
// same player asked for to the same address is forgotten: only the
// newest confirmation mail works.
func (tx *Tx) AskAddressChange(ctx context.Context, c AddressChange) error {
	if err := tx.writesShared(); err != nil {
		return err
	}
	c.Address, c.NewAddress = NormalizeAddress(c.Address), NormalizeAddress(c.NewAddress)
	if _, err := tx.exec(ctx, `DELETE FROM address_changes WHERE address = ? AND new_address = ?`,
		c.Address, c.NewAddress); err != nil {
		return fmt.Errorf("store: forget address changes of %s: %w", c.Address, err)
	}
	if _, err := tx.exec(ctx, `INSERT INTO address_changes (token, address, new_address, kind, asked_at) VALUES (?, ?, ?, ?, ?)`,
		c.Token, c.Address, c.NewAddress, c.kind(), unix(c.AskedAt)); err != nil {
		return fmt.Errorf("store: ask address change of %s: %w", c.Address, err)
	}
	return nil
}

// AddressChangeByToken returns the change the token confirms, or
// ErrNotFound.
func (r reader) AddressChangeByToken(ctx context.Context, token string) (AddressChange, error) {
	c := AddressChange{Token: NormalizeAddress(token)}
	var kind string
	var at int64
	err := r.q.QueryRowContext(ctx, `SELECT address, new_address, kind, asked_at FROM address_changes WHERE token = ?`,
		c.Token).Scan(&c.Address, &c.NewAddress, &kind, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return AddressChange{}, ErrNotFound
	}
	if err != nil {
		return AddressChange{}, fmt.Errorf("store: address change: %w", wrap(err))
	}
	c.Add, c.AskedAt = kind == "add", fromUnix(at)
	return c, nil
}

// DropAddressChange forgets a change: it was done, or can no longer be.
func (tx *Tx) DropAddressChange(ctx context.Context, token string) error {
	if err := tx.writesShared(); err != nil {
		return err
	}
	if _, err := tx.exec(ctx, `DELETE FROM address_changes WHERE token = ?`, NormalizeAddress(token)); err != nil {
		return fmt.Errorf("store: drop address change: %w", err)
	}
	return nil
}

// AddressInUse reports whether address is a player of its own: it has a
// seat, created a game, or has a rated game or a rating under mailbox
// (the mailbox it reaches). Such an address cannot become another
// player's.
func (r reader) AddressInUse(ctx context.Context, address, mailbox string) (bool, error) {
	address, mailbox = NormalizeAddress(address), NormalizeAddress(mailbox)
	var n int
	err := r.q.QueryRowContext(ctx, `
		SELECT (SELECT count(*) FROM seats WHERE address = ?)
		     + (SELECT count(*) FROM games WHERE creator = ?)
		     + (SELECT count(*) FROM rated_seats WHERE address = ? OR mailbox = ?)
		     + (SELECT count(*) FROM ratings WHERE mailbox = ?)`,
		address, address, address, mailbox, mailbox).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("store: is %s in use: %w", address, wrap(err))
	}
	return n > 0, nil
}

// AddressMove is a player's move from one address to another, with the
// mailboxes each reaches (internal/mailbox's Key, which the daemon
// computes): the rows of his mailbox (budget, ratings, invitation
// status) move with him when the mailbox changes.
type AddressMove struct {
	Old, New               string
	OldMailbox, NewMailbox string
}

// playerColumns are the columns of players other than address, which
// MoveAddress copies to the new address's row. TestAddressColumns fails
// when players gains one this list lacks.
var playerColumns = []string{
	"name", "time_zone", "notify", "mail_notify", "confirm", "digest_hour", "digest_due", "away_until",
	"quiet_start", "quiet_end", "zone_guess", "zone_asked", "language",
}

// movedByAddress are the columns holding a player's address that
// MoveAddress rewrites (players.address is copied, not rewritten: other
// rows reference it). TestAddressColumns compares them, and
// movedByMailbox and keptAddressColumns, with the schema.
var movedByAddress = []string{
	"games.creator", "seats.address", "vacations.address", "rated_seats.address",
	"address_aliases.address", "calendar_feeds.address",
}

// movedByMailbox are the columns holding a player's mailbox key that
// MoveAddress rewrites when his mailbox changes. mailboxes.mailbox is
// merged (moveMailboxRow).
var movedByMailbox = []string{
	"budget.address", "refusals.address", "rated_seats.mailbox", "ratings.mailbox",
	"address_aliases.mailbox",
}

// keptAddressColumns hold an address and are not moved, with why: they
// record what happened, under the address it happened to.
var keptAddressColumns = map[string]string{
	"inbound.from_addr":             "the log of mail read: who sent it, as it came",
	"inbound.sent_as":               "the key that recognises a mail read before",
	"outbox.rcpt":                   "a mail written to an address goes to it: its headers name it",
	"audit.actor":                   "the log of what was done, by whom at the time",
	"address_changes.address":       "dropped for both addresses by MoveAddress",
	"address_changes.new_address":   "dropped for both addresses by MoveAddress",
	"address_aliases.alias":         "another address of the player: the alias itself, dropped if it is the new one",
	"address_aliases.alias_mailbox": "the alias's own mailbox",
	"mailboxes.mailbox":             "merged by moveMailboxRow",
	"players.address":               "copied to a new row by MoveAddress",
	"leases.holder":                 "a daemon's name, not a player's",
	"bounce_days.address":           "the old address's own bounces: the new one has just answered, so it works",
	"unreachable.address":           "the old address's own mark: the new one has just answered, so it works",
	"imap_cursor.mailbox":           "an IMAP folder, not a player's",
	"inbound.mailbox":               "an IMAP folder, not a player's",
}

// MoveAddress moves every row keyed by m.Old to m.New in the
// transaction: the player's settings, seats in every game, vacations,
// refusals, rated games, ratings, budgets, invitation status, added
// addresses and calendar feed (its token keeps working). The new address must not be a player of its own
// (ErrAddressInUse); a row pbem made for it when its mail was read (its
// settings, a vacation it asked for with no game) gives way to the old
// address's. Changes asked for by either address are forgotten.
func (tx *Tx) MoveAddress(ctx context.Context, m AddressMove) error {
	if err := tx.writesShared(); err != nil {
		return err
	}
	m.Old, m.New = NormalizeAddress(m.Old), NormalizeAddress(m.New)
	m.OldMailbox, m.NewMailbox = NormalizeAddress(m.OldMailbox), NormalizeAddress(m.NewMailbox)
	if m.Old == m.New || m.New == "" {
		return fmt.Errorf("store: move %s to %q: not a new address", m.Old, m.New)
	}
	sameMailbox := m.OldMailbox == m.NewMailbox
	inUse, err := tx.AddressInUse(ctx, m.New, m.NewMailbox)
	if err != nil {
		return err
	}
	if inUse && !sameMailbox {
		return fmt.Errorf("store: move %s to %s: %w", m.Old, m.New, ErrAddressInUse)
	}
	if inUse {
		// The mailbox is shared: only the address's own rows count.
		if n, err := tx.addressRows(ctx, m.New); err != nil || n > 0 {
			return errors.Join(err, fmt.Errorf("store: move %s to %s: %w", m.Old, m.New, ErrAddressInUse))
		}
	}
	if err := tx.execAll(ctx, "clear "+m.New,
		stmtArgs{`DELETE FROM vacations WHERE address = ?`, []any{m.New}},
		stmtArgs{`DELETE FROM address_aliases WHERE address = ? OR alias = ?`, []any{m.New, m.New}},
		stmtArgs{`DELETE FROM address_changes WHERE address IN (?, ?)`, []any{m.Old, m.New}},
		stmtArgs{`DELETE FROM calendar_feeds WHERE address = ?`, []any{m.New}},
		stmtArgs{`DELETE FROM players WHERE address = ?`, []any{m.New}},
	); err != nil {
		return err
	}
	if err := tx.copyPlayer(ctx, m.Old, m.New); err != nil {
		return err
	}
	for _, col := range movedByAddress {
		if err := tx.rewrite(ctx, col, m.Old, m.New); err != nil {
			return err
		}
	}
	if !sameMailbox {
		if err := tx.moveMailbox(ctx, m.OldMailbox, m.NewMailbox); err != nil {
			return err
		}
	}
	if err := tx.execOne(ctx, `DELETE FROM players WHERE address = ?`, m.Old); err != nil {
		return fmt.Errorf("store: move %s: drop the old row: %w", m.Old, err)
	}
	return nil
}

// addressRows counts the rows of the address itself (not its mailbox's)
// that make it a player.
func (r reader) addressRows(ctx context.Context, address string) (int, error) {
	var n int
	err := r.q.QueryRowContext(ctx, `
		SELECT (SELECT count(*) FROM seats WHERE address = ?)
		     + (SELECT count(*) FROM games WHERE creator = ?)
		     + (SELECT count(*) FROM rated_seats WHERE address = ?)`,
		address, address, address).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("store: rows of %s: %w", address, wrap(err))
	}
	return n, nil
}

// execAll runs statements, each with its arguments, in order.
func (tx *Tx) execAll(ctx context.Context, what string, stmts ...stmtArgs) error {
	for _, st := range stmts {
		if _, err := tx.exec(ctx, st.q, st.args...); err != nil {
			return fmt.Errorf("store: %s: %w", what, err)
		}
	}
	return nil
}

// stmtArgs is a statement and its arguments.
type stmtArgs struct {
	q    string
	args []any
}

// copyPlayer writes the players row of old again under the address to,
// which other rows may then reference.
func (tx *Tx) copyPlayer(ctx context.Context, from, to string) error {
	cols := ""
	for i, c := range playerColumns {
		if i > 0 {
			cols += ", "
		}
		cols += c
	}
	q := `INSERT INTO players (address, ` + cols + `) SELECT ?, ` + cols + ` FROM players WHERE address = ?`
	if err := tx.execOne(ctx, q, to, from); err != nil {
		return fmt.Errorf("store: move %s to %s: copy the player: %w", from, to, err)
	}
	return nil
}

// rewrite sets column col ("table.column") to to where it holds from.
func (tx *Tx) rewrite(ctx context.Context, col, from, to string) error {
	table, column := splitColumn(col)
	q := `UPDATE ` + table + ` SET ` + column + ` = ? WHERE ` + column + ` = ?`
	if _, err := tx.exec(ctx, q, to, from); err != nil {
		return fmt.Errorf("store: move %s to %s in %s: %w", from, to, col, err)
	}
	return nil
}

// splitColumn splits "table.column".
func splitColumn(col string) (table, column string) {
	for i := range len(col) {
		if col[i] == '.' {
			return col[:i], col[i+1:]
		}
	}
	return col, ""
}

// moveMailbox moves the rows of a mailbox to another: its budgets, rated
// games and ratings (the new mailbox has none: AddressInUse), the
// mailbox its added addresses count against, and its invitation status.
func (tx *Tx) moveMailbox(ctx context.Context, from, to string) error {
	for _, col := range movedByMailbox {
		if err := tx.rewrite(ctx, col, from, to); err != nil {
			return err
		}
	}
	return tx.moveMailboxRow(ctx, from, to)
}

// moveMailboxRow moves the mailboxes row of from to to. The new
// mailbox's own row (pbem read its confirmation, so it may be answered;
// it may have said never) gives way: the player asked for his mail to go
// there, and his answered state and choice of invitations go with him.
func (tx *Tx) moveMailboxRow(ctx context.Context, from, to string) error {
	return tx.execAll(ctx, "move mailbox "+from,
		stmtArgs{`DELETE FROM mailboxes WHERE mailbox = ? AND EXISTS (SELECT 1 FROM mailboxes WHERE mailbox = ?)`, []any{to, from}},
		stmtArgs{`UPDATE mailboxes SET mailbox = ? WHERE mailbox = ?`, []any{to, from}},
	)
}

// Alias is an address added to a player's: mail from Alias is read as
// from Address, and AliasMailbox spends Mailbox's budget.
type Alias struct {
	Alias, Address        string
	AliasMailbox, Mailbox string
}

// AddAlias adds an address to a player's. The alias must not be a player
// of its own (ErrAddressInUse).
func (tx *Tx) AddAlias(ctx context.Context, a Alias) error {
	if err := tx.writesShared(); err != nil {
		return err
	}
	a.Alias, a.Address = NormalizeAddress(a.Alias), NormalizeAddress(a.Address)
	a.AliasMailbox, a.Mailbox = NormalizeAddress(a.AliasMailbox), NormalizeAddress(a.Mailbox)
	if a.Alias == a.Address {
		return fmt.Errorf("store: add %s to itself", a.Alias)
	}
	n, err := tx.addressRows(ctx, a.Alias)
	if err != nil {
		return err
	}
	if n > 0 {
		return fmt.Errorf("store: add %s to %s: %w", a.Alias, a.Address, ErrAddressInUse)
	}
	if _, err := tx.exec(ctx, `
		INSERT INTO address_aliases (alias, address, alias_mailbox, mailbox) VALUES (?, ?, ?, ?)
		ON CONFLICT (alias) DO UPDATE SET address = excluded.address,
			alias_mailbox = excluded.alias_mailbox, mailbox = excluded.mailbox`,
		a.Alias, a.Address, a.AliasMailbox, a.Mailbox); err != nil {
		return fmt.Errorf("store: add %s to %s: %w", a.Alias, a.Address, err)
	}
	return tx.execAll(ctx, "forget changes of "+a.Alias,
		stmtArgs{`DELETE FROM address_changes WHERE address = ? AND new_address = ?`, []any{a.Address, a.Alias}})
}

// PlayerOf returns the player address is read as: the player it was
// added to (AddAlias), or itself.
func (r reader) PlayerOf(ctx context.Context, address string) (string, error) {
	address = NormalizeAddress(address)
	var player string
	err := r.q.QueryRowContext(ctx, `SELECT address FROM address_aliases WHERE alias = ?`, address).Scan(&player)
	if errors.Is(err, sql.ErrNoRows) {
		return address, nil
	}
	if err != nil {
		return "", fmt.Errorf("store: player of %s: %w", address, wrap(err))
	}
	return player, nil
}

// Aliases lists the addresses added to a player's.
func (r reader) Aliases(ctx context.Context, address string) ([]string, error) {
	rows, err := r.q.QueryContext(ctx, `SELECT alias FROM address_aliases WHERE address = ? ORDER BY alias`,
		NormalizeAddress(address))
	if err != nil {
		return nil, fmt.Errorf("store: aliases of %s: %w", address, wrap(err))
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var a string
		if err := rows.Scan(&a); err != nil {
			return nil, fmt.Errorf("store: aliases of %s: %w", address, wrap(err))
		}
		out = append(out, a)
	}
	return out, wrap(rows.Err())
}

// budgetKeySQL reads the player's mailbox that the mailbox of an added
// address counts for (budgetKey); no row for any other. InviteStatus
// runs it as a subquery.
const budgetKeySQL = `SELECT mailbox FROM address_aliases WHERE alias_mailbox = ? ORDER BY alias LIMIT 1`

// budgetKey is the key a budget, an invitation status and the loop
// breaker count by for key: the player's mailbox when key is the
// mailbox of an address added to his (one person, one budget), else key
// itself.
func (r reader) budgetKey(ctx context.Context, key string) (string, error) {
	var mailbox string
	err := r.q.QueryRowContext(ctx, budgetKeySQL, key).Scan(&mailbox)
	if errors.Is(err, sql.ErrNoRows) {
		return key, nil
	}
	if err != nil {
		return "", fmt.Errorf("store: budget key of %s: %w", key, wrap(err))
	}
	return mailbox, nil
}
