package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/games"
	"github.com/pbem/pbem/internal/outgoing"
	"github.com/pbem/pbem/parser"
)

// stringList is a flag that may be given several times.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ", ") }
func (l *stringList) Set(s string) error { *l = append(*l, s); return nil }

// runParse shows what pbem reads in a mail: the commands in canonical
// form, one per line, or the explanation the player would get.
func runParse(_ context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("parse", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	game := fs.String("game", "", "read the commands of this game too: "+strings.Join(games.Names(), "|"))
	players := fs.String("players", "", "the game's player names, comma-separated, for commands that name a player")
	service := fs.String("service", "", "pbem's own address: a line naming it starts a quote of pbem's mail")
	serviceName := fs.String("service-name", "pbem", "the display name of pbem's mails: a line naming it and ending in a colon, above a quote, is the quote's attribution")
	var markers stringList
	fs.Var(&markers, "marker", "a line that starts a copy of pbem's own mail, beside the headlines of its game mails (repeatable)")
	maxBytes := fs.Int64("max-bytes", parser.DefaultMaxBytes, "refuse a message larger than this")
	verbose := fs.Bool("v", false, "also print the text pbem kept from the message, on standard error")
	setUsage(fs, "usage: pbem parse [--game GAME] [--players a,b,...] [--service ADDRESS] [--service-name NAME] [--marker LINE]... [-v] FILE.eml   (FILE - reads standard input)")
	if _, err := parseInterspersed(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return usageError("one message file expected")
	}
	grammar := parser.Grammar{Games: games.Names()}
	if *game != "" {
		rules, ok := games.Lookup(*game)
		if !ok {
			return usageError("unknown game %q; games are %s", *game, joinNames(games.Names()))
		}
		grammar.Specs = rules.Specs()
		grammar.Nouns = engine.NounsOf(rules)
	}
	for _, p := range strings.Split(*players, ",") {
		if p = strings.TrimSpace(p); p != "" {
			grammar.Players = append(grammar.Players, p)
		}
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
	// The markers the service itself uses (its mails' headlines), then
	// the caller's.
	own := append(outgoing.OwnMarkers(games.Names(), games.Lookup), markers...)
	m, err := parser.Extract(in, parser.ExtractOptions{MaxBytes: *maxBytes, OwnMarkers: own, ServiceAddress: *service, ServiceName: *serviceName})
	if errors.Is(err, parser.ErrTooLarge) {
		return &exitError{code: 1, err: err}
	}
	if err != nil {
		return err
	}
	if *verbose {
		fmt.Fprintf(e.stderr, "--- text read from %s:\n%s\n---\n", m.From, m.Text)
		if m.Ref != "" {
			// Taken out of the text: it names the mail a one-tap link
			// came from, for the stale-reply rule.
			fmt.Fprintf(e.stderr, "(%s: the mail a one-tap link came from)\n", parser.RefLine(m.Ref))
		}
	}
	cmds, prob, fromSubject := parser.ReadMessage(m, grammar)
	if fromSubject {
		fmt.Fprintln(e.stderr, "(read from the Subject: the body holds no command)")
	}
	for _, c := range cmds {
		fmt.Fprintln(e.stdout, c.Text)
	}
	if prob == nil {
		return nil
	}
	fmt.Fprint(e.stderr, prob.Explain())
	if len(cmds) == 0 {
		return &exitError{code: 1, err: errors.New("no command understood")}
	}
	return nil
}
