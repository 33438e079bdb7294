package store

import (
	"context"
	"errors"
	"regexp"
	"slices"
	"sort"
	"testing"
	"time"
)

// addressLike matches the names of columns that may hold an address or
// a mailbox's key.
var addressLike = regexp.MustCompile(`addr|address|mailbox|rcpt|creator|actor|holder|alias|email|sender|recipient|sent_as|player`)

// schemaColumns lists "table.column" for every column of the schema,
// read from the database (on the engine the tests run on).
func schemaColumns(t *testing.T, s *Store) []string {
	t.Helper()
	q := `SELECT m.name || '.' || p.name FROM sqlite_master m, pragma_table_info(m.name) p
		WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND m.name NOT LIKE 'goose_%'`
	if s.Engine() == PostgreSQL {
		q = `SELECT table_name || '.' || column_name FROM information_schema.columns
			WHERE table_schema = current_schema() AND table_name NOT LIKE 'goose_%'`
	}
	var cols []string
	mustTx(t, s, func(tx *Tx) error {
		rows, err := tx.q.QueryContext(context.Background(), q)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var c string
			if err := rows.Scan(&c); err != nil {
				return err
			}
			cols = append(cols, c)
		}
		return rows.Err()
	})
	sort.Strings(cols)
	return cols
}

// TestAddressColumns fails when the schema gains a column that may hold
// a player's address or mailbox and MoveAddress neither moves it nor
// says why it stays (keptAddressColumns), or a players column that
// MoveAddress does not copy.
func TestAddressColumns(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t)
	cols := schemaColumns(t, s)
	if len(cols) < 20 {
		t.Fatalf("read %d columns from the schema: %v", len(cols), cols)
	}
	known := map[string]bool{}
	for _, c := range slices.Concat(movedByAddress, movedByMailbox) {
		known[c] = true
	}
	for c := range keptAddressColumns {
		known[c] = true
	}
	for _, c := range cols {
		_, column := splitColumn(c)
		if addressLike.MatchString(column) && !known[c] {
			t.Errorf("column %s may hold an address: MoveAddress must move it (movedByAddress, movedByMailbox) or say why not (keptAddressColumns)", c)
		}
	}
	for c := range known {
		if !slices.Contains(cols, c) {
			t.Errorf("%s is listed by store/addresses.go but is no column of the schema", c)
		}
	}
	var players []string
	for _, c := range cols {
		if table, column := splitColumn(c); table == "players" && column != "address" {
			players = append(players, column)
		}
	}
	for _, c := range players {
		if !slices.Contains(playerColumns, c) && c != "no_invitations" {
			t.Errorf("players.%s is not copied by MoveAddress (playerColumns)", c)
		}
	}
}

// moveFixture is a player at old@x.test with two running games, a
// finished rated game, a vacation, settings, budgets and an invitation
// status; bob plays with him.
type moveFixture struct {
	running  [2]int64
	finished int64
}

const (
	oldAddr = "old+pbem@x.test"
	oldBox  = "old@x.test"
	newAddr = "new@y.test"
	newBox  = "new@y.test"
)

func setUpMove(t *testing.T, s *Store) moveFixture {
	t.Helper()
	ctx := context.Background()
	var f moveFixture
	f.running[0] = newGame(t, s, oldAddr, "bob@x.test")
	f.running[1] = newGame(t, s, "bob@x.test", oldAddr)
	f.finished = newGame(t, s, oldAddr, "bob@x.test")
	mustTx(t, s, func(tx *Tx) error {
		for _, id := range f.running {
			if err := tx.SetGameStatus(ctx, id, StatusActive); err != nil {
				return err
			}
		}
		if err := tx.SetGameStatus(ctx, f.finished, StatusFinished); err != nil {
			return err
		}
		if err := tx.RateGame(ctx, RatedGame{GameID: f.finished, Kind: "felix", At: t0, Seats: []RatedSeat{
			{Address: oldAddr, Mailbox: oldBox, Name: "Old", Rank: 1},
			{Address: "bob@x.test", Mailbox: "bob@x.test", Name: "Bob", Rank: 2},
		}}, []PlayerRating{
			{Kind: "felix", Mailbox: oldBox, Mu: 28, Sigma: 7, Games: 1},
			{Kind: "felix", Mailbox: "bob@x.test", Mu: 22, Sigma: 7, Games: 1},
		}); err != nil {
			return err
		}
		if err := tx.SetPlayerName(ctx, oldAddr, "Oldie"); err != nil {
			return err
		}
		if err := tx.SetPlayerTimeZone(ctx, oldAddr, "Europe/Paris"); err != nil {
			return err
		}
		if err := tx.SetPlayerNotify(ctx, oldAddr, NotifyTurns); err != nil {
			return err
		}
		if _, err := tx.StartVacation(ctx, oldAddr, t0, t0.Add(72*time.Hour)); err != nil {
			return err
		}
		if _, err := tx.Spend(ctx, oldBox, "answers", t0, 24*time.Hour, 10); err != nil {
			return err
		}
		if err := tx.MarkAnswered(ctx, oldBox, t0); err != nil {
			return err
		}
		// The new address wrote once before (its confirmation): pbem
		// made it a row, which gives way.
		if _, err := tx.UpsertPlayer(ctx, newAddr, ""); err != nil {
			return err
		}
		return tx.AskAddressChange(ctx, AddressChange{Token: "tok", Address: oldAddr, NewAddress: newAddr, AskedAt: t0})
	})
	return f
}

// TestMoveAddress: every row of the old address and of its mailbox
// follows the player; bob's stay his; nothing of the old address is
// left in a column MoveAddress moves.
func TestMoveAddress(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	f := setUpMove(t, s)
	mustTx(t, s, func(tx *Tx) error {
		return tx.MoveAddress(ctx, AddressMove{Old: oldAddr, New: newAddr, OldMailbox: oldBox, NewMailbox: newBox})
	})
	mustTx(t, s, func(tx *Tx) error {
		for _, id := range []int64{f.running[0], f.running[1], f.finished} {
			seats, err := tx.Seats(ctx, id)
			if err != nil {
				return err
			}
			var addrs []string
			for _, st := range seats {
				addrs = append(addrs, st.Address)
			}
			if !slices.Contains(addrs, newAddr) || slices.Contains(addrs, oldAddr) || !slices.Contains(addrs, "bob@x.test") {
				t.Errorf("game %d seats %v", id, addrs)
			}
		}
		g, err := tx.Game(ctx, f.running[0])
		if err != nil {
			return err
		}
		if g.Creator != newAddr {
			t.Errorf("creator %q", g.Creator)
		}
		p, err := tx.Player(ctx, newAddr)
		if err != nil {
			return err
		}
		if p.Name != "Oldie" || p.TimeZone != "Europe/Paris" || p.Notify != NotifyTurns {
			t.Errorf("settings did not follow: %+v", p)
		}
		if _, err := tx.Player(ctx, oldAddr); !errors.Is(err, ErrNotFound) {
			t.Errorf("old player row: %v", err)
		}
		if _, err := tx.CurrentVacation(ctx, newAddr); err != nil {
			t.Errorf("vacation did not follow: %v", err)
		}
		r, err := tx.Ratings(ctx, "felix", []string{newBox, oldBox})
		if err != nil {
			return err
		}
		if _, ok := r[newBox]; !ok || len(r) != 1 {
			t.Errorf("ratings %v", r)
		}
		st, err := tx.Standings(ctx, newBox)
		if err != nil {
			return err
		}
		if len(st) == 0 {
			t.Error("no standings at the new mailbox")
		}
		if n, err := tx.Spent(ctx, newBox, "answers", t0, 24*time.Hour); err != nil || n != 1 {
			t.Errorf("budget at the new mailbox: %d, %v", n, err)
		}
		if _, answered, err := tx.InviteStatus(ctx, newBox); err != nil || !answered {
			t.Errorf("answered at the new mailbox: %v, %v", answered, err)
		}
		if _, err := tx.AddressChangeByToken(ctx, "tok"); !errors.Is(err, ErrNotFound) {
			t.Errorf("the change is still asked: %v", err)
		}
		for _, c := range slices.Concat(movedByAddress, movedByMailbox, []string{"players.address", "mailboxes.mailbox"}) {
			table, column := splitColumn(c)
			var n int
			if err := tx.q.QueryRowContext(ctx, `SELECT count(*) FROM `+table+` WHERE `+column+` IN (?, ?)`,
				oldAddr, oldBox).Scan(&n); err != nil {
				return err
			}
			if n > 0 {
				t.Errorf("%s still holds the old address in %d rows", c, n)
			}
		}
		return nil
	})
}

// TestMoveAddressRefused: not to a player of its own (merging is not
// offered), not to itself.
func TestMoveAddressRefused(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	setUpMove(t, s)
	newGame(t, s, "carol@z.test", "bob@x.test")
	err := s.Tx(ctx, func(tx *Tx) error {
		return tx.MoveAddress(ctx, AddressMove{Old: oldAddr, New: "carol@z.test", OldMailbox: oldBox, NewMailbox: "carol@z.test"})
	})
	if !errors.Is(err, ErrAddressInUse) {
		t.Errorf("move to a player: %v", err)
	}
	err = s.Tx(ctx, func(tx *Tx) error {
		return tx.MoveAddress(ctx, AddressMove{Old: oldAddr, New: "OLD+pbem@x.test", OldMailbox: oldBox, NewMailbox: oldBox})
	})
	if err == nil {
		t.Error("a move to the same address was done")
	}
	mustTx(t, s, func(tx *Tx) error {
		inUse, err := tx.AddressInUse(ctx, "bob@x.test", "bob@x.test")
		if err != nil || !inUse {
			t.Errorf("bob in use: %v, %v", inUse, err)
		}
		inUse, err = tx.AddressInUse(ctx, "nobody@x.test", "nobody@x.test")
		if err != nil || inUse {
			t.Errorf("nobody in use: %v, %v", inUse, err)
		}
		return nil
	})
}

// TestAlias: an added address is read as the player, and its mailbox
// spends the player's budget and shares his invitation status.
func TestAlias(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	setUpMove(t, s)
	mustTx(t, s, func(tx *Tx) error {
		return tx.AddAlias(ctx, Alias{Alias: "Work@Z.test", Address: oldAddr, AliasMailbox: "work@z.test", Mailbox: oldBox})
	})
	mustTx(t, s, func(tx *Tx) error {
		if p, err := tx.PlayerOf(ctx, "work@z.test"); err != nil || p != oldAddr {
			t.Errorf("PlayerOf(alias) = %q, %v", p, err)
		}
		if p, err := tx.PlayerOf(ctx, "bob@x.test"); err != nil || p != "bob@x.test" {
			t.Errorf("PlayerOf(bob) = %q, %v", p, err)
		}
		if a, err := tx.Aliases(ctx, oldAddr); err != nil || !slices.Equal(a, []string{"work@z.test"}) {
			t.Errorf("Aliases = %v, %v", a, err)
		}
		// One unit was spent at old@ by setUpMove: the alias has one
		// left of two.
		if ok, err := tx.Spend(ctx, "work@z.test", "answers", t0, 24*time.Hour, 2); err != nil || !ok {
			t.Errorf("first spend: %v, %v", ok, err)
		}
		if ok, err := tx.Spend(ctx, "work@z.test", "answers", t0, 24*time.Hour, 2); err != nil || ok {
			t.Errorf("the alias spent beyond the player's budget: %v, %v", ok, err)
		}
		if _, answered, err := tx.InviteStatus(ctx, "work@z.test"); err != nil || !answered {
			t.Errorf("the alias does not share the player's status: %v, %v", answered, err)
		}
		return nil
	})
	err := s.Tx(ctx, func(tx *Tx) error {
		return tx.AddAlias(ctx, Alias{Alias: "bob@x.test", Address: oldAddr, AliasMailbox: "bob@x.test", Mailbox: oldBox})
	})
	if !errors.Is(err, ErrAddressInUse) {
		t.Errorf("a player added as an alias: %v", err)
	}
	// The alias follows its player when he moves.
	mustTx(t, s, func(tx *Tx) error {
		return tx.MoveAddress(ctx, AddressMove{Old: oldAddr, New: newAddr, OldMailbox: oldBox, NewMailbox: newBox})
	})
	mustTx(t, s, func(tx *Tx) error {
		if p, err := tx.PlayerOf(ctx, "work@z.test"); err != nil || p != newAddr {
			t.Errorf("after the move PlayerOf(alias) = %q, %v", p, err)
		}
		return nil
	})
}

// TestAddressChange: a change asked is found by its token, asked again
// replaces the first, and is dropped.
func TestAddressChange(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	mustTx(t, s, func(tx *Tx) error {
		if _, err := tx.UpsertPlayer(ctx, "a@x.test", ""); err != nil {
			return err
		}
		if err := tx.AskAddressChange(ctx, AddressChange{Token: "t1", Address: "A@x.test", NewAddress: "b@x.test", AskedAt: t0}); err != nil {
			return err
		}
		return tx.AskAddressChange(ctx, AddressChange{Token: "t2", Address: "a@x.test", NewAddress: "B@x.test", Add: true, AskedAt: t0.Add(time.Hour)})
	})
	mustTx(t, s, func(tx *Tx) error {
		if _, err := tx.AddressChangeByToken(ctx, "t1"); !errors.Is(err, ErrNotFound) {
			t.Errorf("the first change still works: %v", err)
		}
		c, err := tx.AddressChangeByToken(ctx, "T2")
		if err != nil {
			return err
		}
		want := AddressChange{Token: "t2", Address: "a@x.test", NewAddress: "b@x.test", Add: true, AskedAt: t0.Add(time.Hour)}
		if c != want {
			t.Errorf("change %+v, want %+v", c, want)
		}
		return tx.DropAddressChange(ctx, "t2")
	})
	mustTx(t, s, func(tx *Tx) error {
		if _, err := tx.AddressChangeByToken(ctx, "t2"); !errors.Is(err, ErrNotFound) {
			t.Errorf("a dropped change: %v", err)
		}
		return nil
	})
}
