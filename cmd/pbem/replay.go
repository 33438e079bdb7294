package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/bot"
	"github.com/pbem/pbem/engine/games"
	"github.com/pbem/pbem/engine/transcript"
)

func runReplay(_ context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	asJSON := fs.Bool("json", false, "print the final state as one JSON object")
	quiet := fs.Bool("quiet", false, "print only the final state, not the public log")
	setUsage(fs, "usage: pbem replay [--json] [--quiet] FILE   (FILE - reads standard input)")
	if _, err := parseInterspersed(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return usageError("one transcript file expected")
	}
	var in io.Reader = e.stdin
	if name := fs.Arg(0); name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		defer f.Close()
		in = f
	}
	t, err := transcript.Read(in, games.Lookup)
	if err != nil {
		return err
	}
	g, log, err := t.Replay()
	if err == nil && len(t.Bots) > 0 {
		// A bot's line must be the move the bot makes there: a replay
		// of a game with bots is only the same game if it is.
		err = t.CheckBots()
	}
	if err != nil {
		var le *transcript.LineError
		if errors.As(err, &le) {
			return &exitError{code: 1, err: err}
		}
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(g.Summary())
	}
	if !*quiet {
		for _, ev := range log {
			if ev.VisibleTo(engine.Public) {
				fmt.Fprintln(e.stdout, ev.Text)
			}
		}
		fmt.Fprintln(e.stdout)
	}
	printResult(e.stdout, g, t.Bots)
	return nil
}

// printResult prints a game's standing in words, for any game; bots (seat
// to level, or nil) are named as the service names them.
func printResult(w io.Writer, g engine.Game, bots map[int]bot.Level) {
	res := g.Result()
	names := g.Players()
	if res.Finished {
		fmt.Fprintf(w, "%s: finished.\n", g.Rules().Title())
	} else {
		var waiting []string
		for _, p := range g.Waiting() {
			waiting = append(waiting, names[p])
		}
		fmt.Fprintf(w, "%s: in progress, waiting for %s.\n", g.Rules().Title(), joinNames(waiting))
	}
	for p, n := range names {
		label := "score"
		if !res.Finished {
			label = "score so far"
		}
		fmt.Fprintf(w, "  %-12s %s %d", n, label, res.Scores[p])
		if level, ok := bots[p]; ok {
			fmt.Fprintf(w, "  (%s)", bot.Title(n, level))
		}
		fmt.Fprintln(w)
	}
	if res.Finished {
		var win []string
		for _, p := range res.Winners {
			win = append(win, names[p])
		}
		if len(win) == 1 {
			fmt.Fprintf(w, "Winner: %s\n", win[0])
		} else {
			fmt.Fprintf(w, "Shared win: %s\n", joinNames(win))
		}
	}
}
