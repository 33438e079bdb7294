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
	"github.com/pbem/pbem/internal/daemon"
	"github.com/pbem/pbem/internal/wiring"
	"github.com/pbem/pbem/store"
)

// adminUsage is pbem admin's usage: the acts as the daemon's one table of
// them writes them (daemon.AdminUsage), as an admin's mail is answered.
var adminUsage = "usage: pbem admin [--config FILE] [--as NAME] GAME ACT ...\n\n  " +
	strings.Join(daemon.AdminUsage, "\n  ") + `

PLAYER is the player's name in the game or his address. Every act is written
to the game's audit log and announced to its players by mail (the running
service sends the mail). The options may stand anywhere; after -- every
word is the act's, even one starting with '-'.`

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
	if err != nil {
		return usageError("%q is not a game number", rest[0])
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
	act, params := rest[1], rest[2:]
	err = svc.Admin(ctx, id, act, params, *as)
	if errors.Is(err, daemon.ErrAdmin) {
		return &exitError{code: 1, err: err}
	}
	if err == nil {
		fmt.Fprintf(e.stdout, "game %d: %s done; the players will be mailed by the running service.\n", id, act)
	}
	return err
}
