package main

import (
	"context"
	"flag"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/pbem/pbem/internal/demo"
)

func runDemo(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	setUsage(fs, "usage: pbem demo [--seed N] [--all] [--notify SETTING] [--confirm on|off]\n\nPlays a Felix and a Gracias game by mail with scripted players, on embedded\nmail servers in this process, and prints what alice received and how many\nmails the players got.")
	seed := fs.Uint64("seed", 0, "decides the scripted players' choices (default a new one each run, printed first)")
	all := fs.Bool("all", false, "print every mail alice received, not only the first and the last of each game")
	notify := fs.String("notify", "", "the players' notify setting: normal (the default), all, turns or off")
	confirm := fs.String("confirm", "", "the players' confirm setting: on (the default) or off")
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 0 {
		fs.Usage()
		return usageError("demo takes no arguments, only options")
	}
	seedSet := false
	fs.Visit(func(f *flag.Flag) { seedSet = seedSet || f.Name == "seed" })
	if !seedSet {
		*seed = uint64(time.Now().UnixNano())
	}
	fmt.Fprintf(e.stdout, "Seed %d: pbem demo --seed %d makes the players choose the same again.\n", *seed, *seed)
	fmt.Fprintln(e.stdout, "Starting embedded IMAP and SMTP servers and pbem; scripted players read their mail over IMAP and answer over SMTP.")
	settings, err := playerSettings(*notify, *confirm)
	if err != nil {
		return err
	}
	w, err := demo.Start(ctx, demo.Options{Seed: *seed, Settings: settings})
	if err != nil {
		return err
	}
	defer w.Close()
	plays := []struct {
		kind    string
		players []string
	}{
		{"felix", []string{"alice@pbem.test", "bob@pbem.test", "carol@pbem.test", "dave@pbem.test"}},
		{"gracias", []string{"alice@pbem.test", "bob@pbem.test", "carol@pbem.test"}},
	}
	for _, p := range plays {
		start := time.Now()
		fmt.Fprintf(e.stdout, "\nPlaying %s by mail with %d players...\n", p.kind, len(p.players))
		g, err := w.Play(ctx, p.kind, p.players, 10*time.Minute)
		if err != nil {
			return err
		}
		mails := 0
		for _, ms := range g.Mails {
			mails += len(ms)
		}
		fmt.Fprintf(e.stdout, "Game #%d (%s) finished in %s; the players received %d mails: %.1f per player, %.2f per decision.\nFinal scores:\n",
			g.ID, g.Kind, time.Since(start).Round(time.Second), mails, g.MailsPerPlayer(), g.MailsPerDecision())
		players := append([]string(nil), g.Players...)
		sort.SliceStable(players, func(i, j int) bool { return g.Scores[players[i]] > g.Scores[players[j]] })
		for _, pl := range players {
			win := ""
			for _, wnr := range g.Winners {
				if wnr == pl {
					win = "  (winner)"
				}
			}
			fmt.Fprintf(e.stdout, "  %-18s %3d%s\n", pl, g.Scores[pl], win)
		}
		alice := g.Mails["alice@pbem.test"]
		for i, m := range alice {
			if !*all && i != 0 && i != len(alice)-1 {
				continue
			}
			fmt.Fprintf(e.stdout, "\n======== mail %d of %d to alice@pbem.test: %s\n%s", i+1, len(alice), m.Subject, m.Text)
		}
	}
	return nil
}

// playerSettings turns the --notify and --confirm options of demo and
// loadtest into the commands the scripted players send before their
// first game; "" leaves pbem's defaults.
func playerSettings(notify, confirm string) (string, error) {
	var cmds []string
	switch notify {
	case "":
	case "normal", "all", "turns", "off":
		cmds = append(cmds, "notify "+notify)
	case "digest":
		return "", usageError("--notify digest cannot be measured here: the scripted players answer each mail at once, while a digest comes once a day (TestMailCounts in internal/daemon counts digests with a clock it moves a day at a time)")
	default:
		return "", usageError("--notify %q: write normal, all, turns or off", notify)
	}
	switch confirm {
	case "":
	case "on", "off":
		cmds = append(cmds, "confirm "+confirm)
	default:
		return "", usageError("--confirm %q: write on or off", confirm)
	}
	return strings.Join(cmds, "\n"), nil
}
