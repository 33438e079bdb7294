package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"strings"
)

// helpError is the answer to --help (or -h): the subcommand's usage, which
// run prints on standard output before exiting 0. It is flag.ErrHelp.
type helpError struct{ usage string }

func (h *helpError) Error() string        { return "help requested" }
func (h *helpError) Is(target error) bool { return target == flag.ErrHelp }

// boolFlag is how package flag tells a flag that takes no value.
type boolFlag interface{ IsBoolFlag() bool }

// parseInterspersed parses the flags of fs wherever they stand among args,
// so that "pbem replay FILE --json" works as "pbem replay --json FILE", and
// returns the other arguments in order. "--" ends the flags: everything
// after it is an argument, even if it starts with '-'. A lone "-" (standard
// input) is an argument. A flag takes the next argument as its value unless
// it is a boolean flag (IsBoolFlag) or is written --name=value.
//
// Afterwards fs.Args() is the same as the arguments returned. --help and -h
// give a *helpError carrying the usage (nothing is printed); any other
// mistake prints the error and the usage on fs.Output() and gives a usage
// error (exit status 2).
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var flags, pos []string
	needsValue := false // the last flag in flags still waits for its value
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			pos = append(pos, args[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			pos = append(pos, a)
			continue
		}
		flags = append(flags, a)
		name := strings.TrimPrefix(a[1:], "-")
		if name == "" || name[0] == '-' || name[0] == '=' || strings.Contains(name, "=") {
			continue // bad syntax (fs.Parse says so) or an inline value
		}
		f := fs.Lookup(name)
		if f == nil {
			continue // -h, --help, or unknown: fs.Parse deals with it
		}
		if b, ok := f.Value.(boolFlag); ok && b.IsBoolFlag() {
			continue
		}
		if i+1 < len(args) {
			i++
			flags = append(flags, args[i])
		} else {
			needsValue = true
		}
	}
	if !needsValue && len(pos) > 0 {
		// The arguments go after "--" so that fs.Args() gives them back.
		flags = append(append(flags, "--"), pos...)
	}

	// Package flag prints the usage itself; catch it, to send --help's to
	// standard output.
	out := fs.Output()
	var buf bytes.Buffer
	fs.SetOutput(&buf)
	err := fs.Parse(flags)
	fs.SetOutput(out)
	text := fixUsage(fs.Name(), buf.String())
	if err == flag.ErrHelp {
		return nil, &helpError{usage: text}
	}
	if err != nil {
		io.WriteString(out, text)
		return nil, usageError("%v", err)
	}
	return pos, nil
}

// fixUsage gives package flag's default usage, "Usage of serve:", the
// form of pbem's others.
func fixUsage(name, text string) string {
	return strings.Replace(text, "Usage of "+name+":\n", "usage: pbem "+name+" [OPTIONS]\n\noptions:\n", 1)
}

// setUsage makes fs's usage the text given followed by its options, both
// on fs.Output() (standard error, or standard output for --help).
func setUsage(fs *flag.FlagSet, text string) {
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), text)
		hasFlags := false
		fs.VisitAll(func(*flag.Flag) { hasFlags = true })
		if hasFlags {
			fmt.Fprintln(fs.Output(), "\noptions:")
			fs.PrintDefaults()
		}
	}
}
