package store

import (
	"context"
	"errors"
	"testing"
)

func TestNormalizeAddress(t *testing.T) {
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
	ctx := context.Background()
	s, _ := newStore(t)
	// Each step runs on the same store, in order.
	for _, tt := range []struct {
		name, addr, display string
		want                Player
	}{
		{"new without name", "bob@example.org", "", Player{"bob@example.org", "", "UTC", NotifyAll}},
		{"new with name", " Ann@Example.org ", " Ann ", Player{"ann@example.org", "Ann", "UTC", NotifyAll}},
		{"known keeps its name", "ann@example.org", "Annie", Player{"ann@example.org", "Ann", "UTC", NotifyAll}},
		{"known without name takes one", "BOB@example.org", "Bob", Player{"bob@example.org", "Bob", "UTC", NotifyAll}},
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
			Player{"ann@example.org", "Ann Smith", "UTC", NotifyAll}},
		{"time zone", func(tx *Tx) error { return tx.SetPlayerTimeZone(ctx, "ann@example.org", "Europe/Berlin") }, nil,
			Player{"ann@example.org", "Ann Smith", "Europe/Berlin", NotifyAll}},
		{"notify turns", func(tx *Tx) error { return tx.SetPlayerNotify(ctx, "ann@example.org", NotifyTurns) }, nil,
			Player{"ann@example.org", "Ann Smith", "Europe/Berlin", NotifyTurns}},
		{"notify off", func(tx *Tx) error { return tx.SetPlayerNotify(ctx, "ann@example.org", NotifyOff) }, nil,
			Player{"ann@example.org", "Ann Smith", "Europe/Berlin", NotifyOff}},
		{"invalid notify", func(tx *Tx) error { return tx.SetPlayerNotify(ctx, "ann@example.org", "sometimes") }, errAny,
			Player{"ann@example.org", "Ann Smith", "Europe/Berlin", NotifyOff}},
		{"empty time zone", func(tx *Tx) error { return tx.SetPlayerTimeZone(ctx, "ann@example.org", "") }, errAny,
			Player{"ann@example.org", "Ann Smith", "Europe/Berlin", NotifyOff}},
		{"unknown player", func(tx *Tx) error { return tx.SetPlayerName(ctx, "zed@example.org", "Zed") }, ErrNotFound,
			Player{"ann@example.org", "Ann Smith", "Europe/Berlin", NotifyOff}},
		{"notify all", func(tx *Tx) error { return tx.SetPlayerNotify(ctx, "ann@example.org", NotifyAll) }, nil,
			Player{"ann@example.org", "Ann Smith", "Europe/Berlin", NotifyAll}},
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
