package main

import (
	"context"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/pbem/pbem/engine/games"
	"github.com/pbem/pbem/internal/loaded"
	"github.com/pbem/pbem/store"
)

func runExport(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	setUsage(fs, "usage: pbem export [--config FILE] GAME\n\nPrints stored game number GAME as a transcript, which pbem replay reads.")
	cfg, err := loadConfig(fs, args)
	if err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return usageError("export takes one game number")
	}
	id, err := strconv.ParseInt(strings.TrimPrefix(fs.Arg(0), "#"), 10, 64)
	if err != nil {
		return usageError("%q is not a game number", fs.Arg(0))
	}
	st, err := store.Open(ctx, cfg.Store.Database)
	if err != nil {
		return err
	}
	defer st.Close()
	return loaded.Export(ctx, st, games.Lookup, id, e.stdout)
}

func runGames(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("games", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	setUsage(fs, "usage: pbem games [--config FILE] [--after GAME] [--limit N]\n\nLists the stored games: number, kind, status, moves and players, a page\nof at most N games (100 by default) with numbers after GAME (0: from the first).")
	after := fs.Int64("after", 0, "list the games with numbers after `GAME`")
	limit := fs.Int("limit", 100, "list at most `N` games")
	cfg, err := loadConfig(fs, args)
	if err != nil {
		return err
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return usageError("games takes no arguments, only options")
	}
	if *limit < 1 || *after < 0 {
		fs.Usage()
		return usageError("--limit must be at least 1 and --after at least 0")
	}
	st, err := store.Open(ctx, cfg.Store.Database)
	if err != nil {
		return err
	}
	defer st.Close()
	// A page, not every game: listing 100,000 games would read them all
	// and their seats, for a screen that shows a few (issue 15).
	gs, err := st.GamesAfter(ctx, *after, *limit)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "GAME\tKIND\tSTATUS\tMOVES\tPLAYERS")
	for _, g := range gs {
		seats, err := st.Seats(ctx, g.ID)
		if err != nil {
			return err
		}
		var names []string
		for _, s := range seats {
			names = append(names, s.Name+" <"+s.Address+">")
		}
		status := string(g.Status)
		if g.Aside != "" {
			// Set aside: the admin's list says why, and what to do.
			status += ", BROKEN since " + g.AsideAt.Format("2006-01-02 15:04") + " UTC: " + g.Aside + " (pbem admin " + fmt.Sprint(g.ID) + " retry, once repaired)"
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%d\t%s\n", g.ID, g.Kind, status, g.LastSeq, strings.Join(names, ", "))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(gs) == *limit {
		fmt.Fprintf(e.stdout, "(more: pbem games --after %d --limit %d)\n", gs[len(gs)-1].ID, *limit)
	}
	return nil
}
