package store

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestNormalizeAddress(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, want string }{
		{"ann@example.org", "ann@example.org"},
		{"  Ann@Example.ORG\n", "ann@example.org"},
		{"ANN+felix@EXAMPLE.org", "ann+felix@example.org"},
		{"", ""},
	} {
		if got := NormalizeAddress(tt.in); got != tt.want {
			t.Errorf("NormalizeAddress(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestUpsertPlayer(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	// Each step runs on the same store, in order.
	for _, tt := range []struct {
		name, addr, display string
		want                Player
	}{
		{"new without name", "bob@example.org", "", player("bob@example.org", "", "UTC", NotifyNormal)},
		{"new with name", " Ann@Example.org ", " Ann ", player("ann@example.org", "Ann", "UTC", NotifyNormal)},
		{"known keeps its name", "ann@example.org", "Annie", player("ann@example.org", "Ann", "UTC", NotifyNormal)},
		{"known without name takes one", "BOB@example.org", "Bob", player("bob@example.org", "Bob", "UTC", NotifyNormal)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got Player
			mustTx(t, s, func(tx *Tx) error {
				var err error
				got, err = tx.UpsertPlayer(ctx, tt.addr, tt.display)
				return err
			})
			if got != tt.want {
				t.Errorf("UpsertPlayer = %+v, want %+v", got, tt.want)
			}
			if p, err := s.Player(ctx, tt.addr); err != nil || p != tt.want {
				t.Errorf("Player = %+v, %v; want %+v", p, err, tt.want)
			}
		})
	}
	err := s.Tx(ctx, func(tx *Tx) error { _, err := tx.UpsertPlayer(ctx, "  ", "x"); return err })
	if err == nil {
		t.Error("UpsertPlayer with an empty address succeeded")
	}
	if _, err := s.Player(ctx, "nobody@example.org"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Player of an unknown address = %v, want ErrNotFound", err)
	}
}

func TestSetPlayerSettings(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	mustTx(t, s, func(tx *Tx) error { _, err := tx.UpsertPlayer(ctx, "ann@example.org", "Ann"); return err })

	for _, tt := range []struct {
		name    string
		set     func(tx *Tx) error
		wantErr error // nil: success; errAny: any error
		want    Player
	}{
		{"name", func(tx *Tx) error { return tx.SetPlayerName(ctx, "ANN@example.org", " Ann Smith ") }, nil,
			player("ann@example.org", "Ann Smith", "UTC", NotifyNormal)},
		{"time zone", func(tx *Tx) error { return tx.SetPlayerTimeZone(ctx, "ann@example.org", "Europe/Berlin") }, nil,
			player("ann@example.org", "Ann Smith", "Europe/Berlin", NotifyNormal)},
		{"notify turns", func(tx *Tx) error { return tx.SetPlayerNotify(ctx, "ann@example.org", NotifyTurns) }, nil,
			player("ann@example.org", "Ann Smith", "Europe/Berlin", NotifyTurns)},
		{"notify off", func(tx *Tx) error { return tx.SetPlayerNotify(ctx, "ann@example.org", NotifyOff) }, nil,
			player("ann@example.org", "Ann Smith", "Europe/Berlin", NotifyOff)},
		{"invalid notify", func(tx *Tx) error { return tx.SetPlayerNotify(ctx, "ann@example.org", "sometimes") }, errAny,
			player("ann@example.org", "Ann Smith", "Europe/Berlin", NotifyOff)},
		{"empty time zone", func(tx *Tx) error { return tx.SetPlayerTimeZone(ctx, "ann@example.org", "") }, errAny,
			player("ann@example.org", "Ann Smith", "Europe/Berlin", NotifyOff)},
		{"unknown player", func(tx *Tx) error { return tx.SetPlayerName(ctx, "zed@example.org", "Zed") }, ErrNotFound,
			player("ann@example.org", "Ann Smith", "Europe/Berlin", NotifyOff)},
		{"notify all", func(tx *Tx) error { return tx.SetPlayerNotify(ctx, "ann@example.org", NotifyAll) }, nil,
			player("ann@example.org", "Ann Smith", "Europe/Berlin", NotifyAll)},
		{"confirm on", func(tx *Tx) error { return tx.SetPlayerConfirm(ctx, "ann@example.org", true) }, nil,
			func() Player {
				p := player("ann@example.org", "Ann Smith", "Europe/Berlin", NotifyAll)
				p.Confirm = true
				return p
			}()},
		{"confirm off", func(tx *Tx) error { return tx.SetPlayerConfirm(ctx, "ann@example.org", false) }, nil,
			player("ann@example.org", "Ann Smith", "Europe/Berlin", NotifyAll)},
		{"digest", func(tx *Tx) error {
			if err := tx.SetPlayerNotify(ctx, "ann@example.org", NotifyDigest); err != nil {
				return err
			}
			return tx.SetPlayerDigest(ctx, "ann@example.org", 19, time.Unix(1800000000, 0))
		}, nil,
			func() Player {
				p := player("ann@example.org", "Ann Smith", "Europe/Berlin", NotifyDigest)
				p.DigestHour, p.DigestDue = 19, time.Unix(1800000000, 0)
				return p
			}()},
		{"digest hour out of range", func(tx *Tx) error { return tx.SetPlayerDigest(ctx, "ann@example.org", 24, time.Unix(1800000000, 0)) }, errAny,
			func() Player {
				p := player("ann@example.org", "Ann Smith", "Europe/Berlin", NotifyDigest)
				p.DigestHour, p.DigestDue = 19, time.Unix(1800000000, 0)
				return p
			}()},
		{"leaving digest clears its due time", func(tx *Tx) error { return tx.SetPlayerNotify(ctx, "ann@example.org", NotifyNormal) }, nil,
			func() Player {
				p := player("ann@example.org", "Ann Smith", "Europe/Berlin", NotifyNormal)
				p.DigestHour = 19
				return p
			}()},
		{"quiet hours", func(tx *Tx) error { return tx.SetPlayerQuiet(ctx, "ann@example.org", 23, 7) }, nil,
			func() Player {
				p := player("ann@example.org", "Ann Smith", "Europe/Berlin", NotifyNormal)
				p.DigestHour, p.QuietStart, p.QuietEnd = 19, 23, 7
				return p
			}()},
		{"quiet hours out of range", func(tx *Tx) error { return tx.SetPlayerQuiet(ctx, "ann@example.org", 23, 24) }, errAny,
			func() Player {
				p := player("ann@example.org", "Ann Smith", "Europe/Berlin", NotifyNormal)
				p.DigestHour, p.QuietStart, p.QuietEnd = 19, 23, 7
				return p
			}()},
		{"quiet hours off", func(tx *Tx) error { return tx.SetPlayerQuiet(ctx, "ann@example.org", 0, 0) }, nil,
			func() Player {
				p := player("ann@example.org", "Ann Smith", "Europe/Berlin", NotifyNormal)
				p.DigestHour, p.QuietStart, p.QuietEnd = 19, 0, 0
				return p
			}()},
		{"zone guessed and asked", func(tx *Tx) error {
			if err := tx.SetPlayerZoneGuess(ctx, "ann@example.org", "Asia/Kolkata"); err != nil {
				return err
			}
			return tx.SetPlayerZoneAsked(ctx, "ann@example.org")
		}, nil,
			func() Player {
				p := player("ann@example.org", "Ann Smith", "Europe/Berlin", NotifyNormal)
				p.DigestHour, p.QuietStart, p.QuietEnd = 19, 0, 0
				p.ZoneGuess, p.ZoneAsked = "Asia/Kolkata", true
				return p
			}()},
		{"language", func(tx *Tx) error { return tx.SetPlayerLanguage(ctx, "ann@example.org", "de") }, nil,
			func() Player {
				p := player("ann@example.org", "Ann Smith", "Europe/Berlin", NotifyNormal)
				p.DigestHour, p.QuietStart, p.QuietEnd = 19, 0, 0
				p.ZoneGuess, p.ZoneAsked = "Asia/Kolkata", true
				p.Language = "de"
				return p
			}()},
		{"not a language", func(tx *Tx) error { return tx.SetPlayerLanguage(ctx, "ann@example.org", "Deutsch") }, errAny,
			func() Player {
				p := player("ann@example.org", "Ann Smith", "Europe/Berlin", NotifyNormal)
				p.DigestHour, p.QuietStart, p.QuietEnd = 19, 0, 0
				p.ZoneGuess, p.ZoneAsked = "Asia/Kolkata", true
				p.Language = "de"
				return p
			}()},
		{"english again", func(tx *Tx) error { return tx.SetPlayerLanguage(ctx, "ann@example.org", "en") }, nil,
			func() Player {
				p := player("ann@example.org", "Ann Smith", "Europe/Berlin", NotifyNormal)
				p.DigestHour, p.QuietStart, p.QuietEnd = 19, 0, 0
				p.ZoneGuess, p.ZoneAsked = "Asia/Kolkata", true
				p.Language = "en"
				return p
			}()},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := s.Tx(ctx, tt.set)
			checkErr(t, err, tt.wantErr)
			if p, err := s.Player(ctx, "ann@example.org"); err != nil || p != tt.want {
				t.Errorf("Player = %+v, %v; want %+v", p, err, tt.want)
			}
		})
	}
}

// player is a Player with the default confirm and digest settings.
func player(address, name, tz string, n Notify) Player {
	return Player{Address: address, Name: name, TimeZone: tz, Notify: n, Confirm: DefaultConfirm, DigestHour: DefaultDigestHour,
		QuietStart: DefaultQuietStart, QuietEnd: DefaultQuietEnd}
}

// errAny stands for "some error" in table tests.
var errAny = errors.New("any error")

func checkErr(t *testing.T, err, want error) {
	t.Helper()
	switch {
	case want == nil && err != nil:
		t.Errorf("unexpected error: %v", err)
	case want == errAny && err == nil:
		t.Error("no error, want one")
	case want != nil && want != errAny && !errors.Is(err, want):
		t.Errorf("error = %v, want %v", err, want)
	}
}

// DueDigests finds the players whose digest is due, and only them: not
// one due later, not one who left digest.
func TestDueDigests(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	set := func(addr string, hour int, due time.Time) {
		mustTx(t, s, func(tx *Tx) error {
			if _, err := tx.UpsertPlayer(ctx, addr, ""); err != nil {
				return err
			}
			if err := tx.SetPlayerNotify(ctx, addr, NotifyDigest); err != nil {
				return err
			}
			return tx.SetPlayerDigest(ctx, addr, hour, due)
		})
	}
	set("late@example.org", 9, t0.Add(time.Hour))
	set("due@example.org", 8, t0.Add(-time.Hour))
	set("now@example.org", 12, t0)
	set("left@example.org", 7, t0.Add(-2*time.Hour))
	mustTx(t, s, func(tx *Tx) error { return tx.SetPlayerNotify(ctx, "left@example.org", NotifyNormal) })
	mustTx(t, s, func(tx *Tx) error { _, err := tx.UpsertPlayer(ctx, "normal@example.org", ""); return err })

	got, err := s.DueDigests(ctx, t0)
	if err != nil {
		t.Fatal(err)
	}
	want := []DueDigest{{"due@example.org", t0.Add(-time.Hour)}, {"now@example.org", t0}}
	if len(got) != len(want) {
		t.Fatalf("DueDigests = %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i].Address != want[i].Address || !got[i].Due.Equal(want[i].Due) {
			t.Errorf("DueDigests[%d] = %+v, want %+v", i, got[i], want[i])
		}
	}
}

// The sweep runs every minute: it finds the due digests through the
// partial index players_digest_due, in order, not by reading every
// player.
func TestDueDigestsUsesIndex(t *testing.T) {
	sqliteOnly(t)
	t.Parallel()
	s, _ := newStore(t)
	rows, err := s.r.Query(`EXPLAIN QUERY PLAN `+dueDigestsQuery, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	if p := strings.Join(plan, "; "); !strings.Contains(p, "SEARCH players USING INDEX players_digest_due") || !strings.Contains(p, "digest_due<?") || strings.Contains(p, "TEMP B-TREE") {
		t.Errorf("plan of\n%s\nis %q; want a search of players_digest_due", dueDigestsQuery, p)
	}
}

// TestSeatedPlayers checks that SeatedPlayers reads each seat's player
// as Player does, and no one else.
func TestSeatedPlayers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	mustTx(t, s, func(tx *Tx) error {
		for _, a := range []string{"a@x.test", "b@x.test", "c@x.test"} {
			if _, err := tx.UpsertPlayer(ctx, a, a[:1]); err != nil {
				return err
			}
		}
		return tx.SetPlayerTimeZone(ctx, "b@x.test", "Europe/Berlin")
	})
	id := newGame(t, s, "a@x.test", "b@x.test")
	got, err := s.SeatedPlayers(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("SeatedPlayers read %d players, want the 2 seated: %v", len(got), got)
	}
	for _, a := range []string{"a@x.test", "b@x.test"} {
		want, err := s.Player(ctx, a)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got[a], want) {
			t.Errorf("SeatedPlayers[%s] = %+v, Player reads %+v", a, got[a], want)
		}
	}
}
