package main

import (
	"context"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/pbem/pbem/daemon"
	"github.com/pbem/pbem/store"
)

// openStore opens the database named by the configuration.
func openStore(ctx context.Context, fs *flag.FlagSet, args []string) (*store.Store, error) {
	cfg, err := loadConfig(fs, args)
	if err != nil {
		return nil, err
	}
	return store.Open(ctx, cfg.Store.Database)
}

func runExport(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() { fmt.Fprintln(e.stderr, "usage: pbem export [--config FILE] GAME") }
	st, err := openStore(ctx, fs, args)
	if err != nil {
		return err
	}
	defer st.Close()
	if fs.NArg() != 1 {
		return usageError("export takes one game number")
	}
	id, err := strconv.ParseInt(strings.TrimPrefix(fs.Arg(0), "#"), 10, 64)
	if err != nil {
		return usageError("%q is not a game number", fs.Arg(0))
	}
	return daemon.Export(ctx, st, id, e.stdout)
}

func runGames(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("games", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	st, err := openStore(ctx, fs, args)
	if err != nil {
		return err
	}
	defer st.Close()
	gs, err := st.AllGames(ctx)
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
		if g.Broken != "" {
			// Set aside: the admin's list says why, and what to do.
			status += ", BROKEN since " + g.BrokenAt.Format("2006-01-02 15:04") + " UTC: " + g.Broken + " (pbem admin " + fmt.Sprint(g.ID) + " retry, once repaired)"
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%d\t%s\n", g.ID, g.Kind, status, g.LastSeq, strings.Join(names, ", "))
	}
	return tw.Flush()
}
