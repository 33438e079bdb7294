// Command pbem is the play-by-email game host: one binary with
// subcommands. It only wires pbem's packages together.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"
)

// command is one subcommand.
type command struct {
	summary string
	run     func(ctx context.Context, env *env, args []string) error
}

// env is what a subcommand may touch of the outside world.
type env struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	// resolver looks up DNS for pbem check; nil: the system's.
	resolver txtResolver
}

// exitError carries an exit status with the message to print.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func commands() map[string]command {
	return map[string]command{
		"replay":   {"rebuild a game from a transcript and print its state", runReplay},
		"parse":    {"show the commands pbem reads in a mail message", runParse},
		"serve":    {"run the service: read players' mail, apply commands, send summaries", runServe},
		"check":    {"check the configuration as serve does at start: database directory, IMAP login, SMTP session", runCheck},
		"demo":     {"play a Felix and a Gracias game by mail with scripted players", runDemo},
		"export":   {"print a stored game as a transcript", runExport},
		"games":    {"list the stored games", runGames},
		"admin":    {"repair a game: extend, move, replace, pause, resume, abort, retry", runAdmin},
		"loadtest": {"play many games at once by mail on loopback and report speed and memory", runLoadtest},
		"backup":   {"write a consistent copy of the database while pbem serve runs", runBackup},
		"store":    {"copy a stopped installation's database to another, SQLite or PostgreSQL, and check the copy", runStore},
		"arena":    {"play many seeded games between bots, the default and random players, and report win rates", runArena},
	}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr}, os.Args[1:])
	stop()
	os.Exit(code)
}

func run(ctx context.Context, e *env, args []string) int {
	cmds := commands()
	if len(args) == 2 && args[0] == "help" {
		// pbem help COMMAND: the command's own usage.
		if _, ok := cmds[args[1]]; ok {
			args = []string{args[1], "--help"}
		}
	}
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		if len(args) == 0 {
			usage(e.stderr, cmds)
			return 2
		}
		if len(args) > 1 && args[0] == "help" {
			fmt.Fprintf(e.stderr, "pbem: unknown command %q\n\n", args[1])
			usage(e.stderr, cmds)
			return 2
		}
		usage(e.stdout, cmds)
		return 0
	}
	c, ok := cmds[args[0]]
	if !ok {
		fmt.Fprintf(e.stderr, "pbem: unknown command %q\n\n", args[0])
		usage(e.stderr, cmds)
		return 2
	}
	if err := c.run(ctx, e, args[1:]); err != nil {
		var help *helpError
		if errors.As(err, &help) {
			fmt.Fprint(e.stdout, help.usage)
			return 0
		}
		fmt.Fprintf(e.stderr, "pbem %s: %v\n", args[0], err)
		var ee *exitError
		if errors.As(err, &ee) {
			return ee.code
		}
		return 1
	}
	return 0
}

func usage(w io.Writer, cmds map[string]command) {
	fmt.Fprintln(w, "usage: pbem COMMAND [ARGS]")
	fmt.Fprintln(w)
	var names []string
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, cmds[n].summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "pbem help COMMAND (or pbem COMMAND --help) shows a command's usage and options.")
	fmt.Fprintln(w, "Options may come before or after a command's arguments; -- ends the options.")
}

// usageError is a mistake in the command line: exit status 2.
func usageError(format string, args ...any) error {
	return &exitError{code: 2, err: fmt.Errorf(format, args...)}
}

func joinNames(xs []string) string { return strings.Join(xs, ", ") }
