package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/pbem/pbem/engine/games"
	"github.com/pbem/pbem/internal/loaded"
	"github.com/pbem/pbem/store"
)

const storeUsage = `usage: pbem store copy FROM TO

Copies every row of the database FROM into the new or empty database TO,
and checks the copy: the digest of every table, and every game's export
(pbem export), must be the same in both. Each is a SQLite file's path or
a PostgreSQL URL (postgres://…), so that an installation moves from one
engine to the other, and back. Stop pbem serve first: mail it handles
during the copy would be missing from TO. FROM is not changed.`

func runStore(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("store", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	setUsage(fs, storeUsage)
	if _, err := parseInterspersed(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 3 || fs.Arg(0) != "copy" {
		fs.Usage()
		return usageError("store takes copy FROM TO")
	}
	from, to := fs.Arg(1), fs.Arg(2)
	// Neither a path nor a postgres:// URL (a libpq key=value string)
	// is refused before a message could show it: it may hold a password.
	for _, arg := range [][2]string{{"FROM", from}, {"TO", to}} {
		if _, err := store.ClassifyDatabase(arg[1]); err != nil {
			return fmt.Errorf("pbem store copy %s: %w", arg[0], err)
		}
	}
	// store.Open would create an empty database where none is: a copy
	// from a wrong path must fail, not copy nothing.
	if !store.IsURL(from) {
		if _, err := os.Stat(from); err != nil {
			return fmt.Errorf("no database to copy: %w", err)
		}
	}
	src, err := store.Open(ctx, from)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := store.Open(ctx, to)
	if err != nil {
		return err
	}
	defer dst.Close()
	copied, err := store.Copy(ctx, dst, src)
	if err != nil {
		return err
	}
	if err := compareCopy(ctx, src, dst); err != nil {
		return fmt.Errorf("copied, but the copy differs from %s: %w", store.Redact(from), err)
	}
	var total int64
	for _, n := range copied {
		total += n
	}
	fmt.Fprintf(e.stdout, "copied %d rows of %d tables from %s (%s) to %s (%s); every table's digest and every game's export match\n",
		total, len(copied), store.Redact(from), src.Engine(), store.Redact(to), dst.Engine())
	return nil
}

// compareCopy compares the digests of every table and the export of
// every game of the two databases.
func compareCopy(ctx context.Context, a, b *store.Store) error {
	da, err := a.Digest(ctx)
	if err != nil {
		return err
	}
	db, err := b.Digest(ctx)
	if err != nil {
		return err
	}
	for _, table := range slices.Sorted(maps.Keys(da)) {
		if da[table] != db[table] {
			return fmt.Errorf("table %s: %s, and %s in the copy", table, da[table], db[table])
		}
	}
	gs, err := a.AllGames(ctx)
	if err != nil {
		return err
	}
	for _, g := range gs {
		var ea, eb bytes.Buffer
		errA := loaded.Export(ctx, a, games.Lookup, g.ID, &ea)
		errB := loaded.Export(ctx, b, games.Lookup, g.ID, &eb)
		if (errA == nil) != (errB == nil) || (errA != nil && !sameError(errA, errB)) {
			return fmt.Errorf("game %d: export %v, and %v in the copy", g.ID, errA, errB)
		}
		if !bytes.Equal(ea.Bytes(), eb.Bytes()) {
			return fmt.Errorf("game %d: the exports differ", g.ID)
		}
	}
	return nil
}

// sameError reports whether two exports failed alike (a game whose kind
// this pbem does not know, say).
func sameError(a, b error) bool {
	return errors.Is(a, b) || strings.TrimSpace(a.Error()) == strings.TrimSpace(b.Error())
}
