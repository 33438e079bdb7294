package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os/user"
	"strconv"
	"strings"

	"github.com/pbem/pbem/engine/games"
	"github.com/pbem/pbem/internal/admin"
	"github.com/pbem/pbem/internal/daemon"
	"github.com/pbem/pbem/internal/wiring"
	"github.com/pbem/pbem/store"
)

// adminUsage is pbem admin's usage: the acts as the admin package's one
// table of them writes them (admin.Usage), as an admin's mail is answered.
var adminUsage = "usage: pbem admin [--config FILE] [--as NAME] GAME ACT ...\n" +
	"       pbem admin [--config FILE] [--as NAME] address OLD NEW\n\n  " +
	strings.Join(admin.Usage(), "\n  ") + `

PLAYER is the player's name in the game or his address. Every act is written
to the game's audit log and announced to its players by mail (the running
service sends the mail). The options may stand anywhere; after -- every
word is the act's, even one starting with '-'.

address OLD NEW moves the player at OLD, in every game, to NEW: his seats,
settings, vacation days and ratings, as his own address command does once
NEW confirms it (docs/admin.md). Both addresses are mailed.`

func runAdmin(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("admin", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	me := "admin"
	if u, err := user.Current(); err == nil && u.Username != "" {
		me = u.Username
	}
	as := fs.String("as", me, "the admin's name in the audit log and the players' mail")
	setUsage(fs, adminUsage)
	cfg, err := loadConfig(fs, args)
	if err != nil {
		return err
	}
	rest := fs.Args()
	if len(rest) < 2 {
		fs.Usage()
		return usageError("admin needs a game and an act")
	}
	id, err := strconv.ParseInt(strings.TrimPrefix(rest[0], "#"), 10, 64)
	if err != nil && rest[0] != "address" {
		return usageError("%q is not a game number", rest[0])
	}
	if rest[0] == "address" && len(rest) != 3 {
		fs.Usage()
		return usageError("admin address needs the old address and the new")
	}
	st, err := store.Open(ctx, cfg.Store.Database)
	if err != nil {
		return err
	}
	defer st.Close()
	svc, err := daemon.New(wiring.ConfigFrom(cfg), st, mustTemplates(), games.Lookup, games.Names(), daemon.WithLogger(newLogger(e.stderr, cfg.Log)))
	if err != nil {
		return err
	}
	if rest[0] == "address" {
		return adminAddress(ctx, e, svc, rest[1], rest[2], *as)
	}
	// The act's words are read as an admin's mail's are (admin.Parse):
	// a mistake in them is refused like the act itself.
	word := rest[1]
	act, err := admin.Parse(word, rest[2:])
	if err == nil {
		err = svc.Admin(ctx, id, act, *as)
	}
	if errors.Is(err, admin.ErrRefused) {
		return &exitError{code: 1, err: err}
	}
	if err == nil {
		fmt.Fprintf(e.stdout, "game %d: %s done; the players will be mailed by the running service.\n", id, word)
	}
	return err
}

// adminAddress is pbem admin address OLD NEW.
func adminAddress(ctx context.Context, e *env, svc *daemon.Service, old, to, as string) error {
	err := svc.AdminAddress(ctx, old, to, as)
	if errors.Is(err, admin.ErrRefused) {
		return &exitError{code: 1, err: err}
	}
	if err == nil {
		fmt.Fprintf(e.stdout, "%s moved to %s; both will be mailed by the running service.\n", old, to)
	}
	return err
}
