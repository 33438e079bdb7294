package store

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"slices"
	"strings"
)

// copyTables are the store's tables, each before those that refer to it,
// as Copy copies them. goose's own table is not copied: each database
// keeps its own, and Copy wants the same schema version on both.
var copyTables = []string{
	"players", "games", "seats", "inbound", "moves", "events", "outbox", "outbox_messages",
	"imap_cursor", "refusals", "audit", "budget", "talk", "vacations",
	"undos", "ended_games", "web_links", "rated_games", "rated_seats", "ratings",
	"leases", "mailboxes", "address_changes", "address_aliases", "bounce_key", "bounce_days", "unreachable",
	"calendar_feeds",
}

// identityTables are those of copyTables whose id PostgreSQL numbers.
var identityTables = []string{"games", "inbound", "events", "outbox", "refusals", "audit", "budget", "vacations"}

// Copied counts the rows Copy copied, by table.
type Copied map[string]int64

// Copy copies every row of src into dst, an empty database at the same
// schema version, in one transaction of dst: all of it or, on any error,
// nothing. The two may be on different engines; ids are kept. It is for
// moving a stopped installation (pbem store copy): writes to src while it
// runs might be missed. Afterwards the caller checks Digest on both.
func Copy(ctx context.Context, dst, src *Store) (Copied, error) {
	sv, err := src.SchemaVersion(ctx)
	if err != nil {
		return nil, err
	}
	dv, err := dst.SchemaVersion(ctx)
	if err != nil {
		return nil, err
	}
	if sv != dv {
		return nil, fmt.Errorf("store: copy: the source's schema is version %d, the destination's %d", sv, dv)
	}
	if err := src.knowsTables(ctx); err != nil {
		return nil, err
	}
	copied := Copied{}
	err = dst.Tx(ctx, func(tx *Tx) error {
		for _, table := range copyTables {
			var n int64
			if err := tx.q.QueryRowContext(ctx, `SELECT count(*) FROM `+table).Scan(&n); err != nil {
				return fmt.Errorf("store: copy: %s: %w", table, wrap(err))
			}
			if n > 0 {
				return fmt.Errorf("store: copy: the destination is not empty (%d rows in %s)", n, table)
			}
		}
		for _, table := range copyTables {
			n, err := copyTable(ctx, tx, src, table)
			if err != nil {
				return fmt.Errorf("store: copy: %s: %w", table, err)
			}
			copied[table] = n
		}
		if tx.be.engine() == PostgreSQL {
			// Identity columns were given their values: the next
			// row must be numbered after them.
			for _, table := range identityTables {
				if _, err := tx.exec(ctx, `SELECT setval(pg_get_serial_sequence(?, 'id'), coalesce((SELECT max(id) FROM `+table+`), 0) + 1, false)`, table); err != nil {
					return fmt.Errorf("store: copy: %s: %w", table, err)
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return copied, nil
}

// copyTable copies the rows of one table, by column name.
func copyTable(ctx context.Context, tx *Tx, src *Store, table string) (int64, error) {
	rows, err := src.q.QueryContext(ctx, `SELECT * FROM `+table)
	if err != nil {
		return 0, wrap(err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return 0, err
	}
	insert := `INSERT INTO ` + table + ` (` + strings.Join(cols, ", ") + `) VALUES (` +
		strings.TrimSuffix(strings.Repeat("?, ", len(cols)), ", ") + `)`
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	var n int64
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return n, err
		}
		if _, err := tx.exec(ctx, insert, vals...); err != nil {
			return n, err
		}
		n++
	}
	return n, wrap(rows.Err())
}

// knowsTables fails if the database has a table Copy would not copy: a
// migration added it and copyTables was not told.
func (s *Store) knowsTables(ctx context.Context) error {
	query := `SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`
	if s.be.engine() == PostgreSQL {
		query = `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()`
	}
	rows, err := s.q.QueryContext(ctx, query)
	if err != nil {
		return fmt.Errorf("store: tables: %w", wrap(err))
	}
	defer rows.Close()
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return err
		}
		if name != "goose_db_version" && !slices.Contains(copyTables, name) {
			return fmt.Errorf("store: copy does not know table %s", name)
		}
	}
	return wrap(rows.Err())
}

// Digest returns a digest of every table's rows, the same for the same
// rows on either engine whatever their order: what pbem store copy
// compares between the source and the copy.
func (s *Store) Digest(ctx context.Context) (map[string]string, error) {
	if err := s.knowsTables(ctx); err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, table := range copyTables {
		d, err := s.digestTable(ctx, table)
		if err != nil {
			return nil, fmt.Errorf("store: digest of %s: %w", table, err)
		}
		out[table] = d
	}
	return out, nil
}

// digestTable hashes each row, its columns by name, and then the sorted
// row hashes: the engines order text differently, so the rows are not
// read in an order.
func (s *Store) digestTable(ctx context.Context, table string) (string, error) {
	rows, err := s.q.QueryContext(ctx, `SELECT * FROM `+table)
	if err != nil {
		return "", wrap(err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return "", err
	}
	order := make([]int, len(cols)) // columns by name: the engines may order them differently
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(cols[a], cols[b]) })
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	var hashes [][sha256.Size]byte
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return "", err
		}
		h := sha256.New()
		for _, i := range order {
			var buf []byte
			switch v := vals[i].(type) {
			case nil:
				buf = []byte{'n'}
			case int64:
				buf = binary.BigEndian.AppendUint64([]byte{'i'}, uint64(v))
			case float64:
				buf = binary.BigEndian.AppendUint64([]byte{'f'}, math.Float64bits(v))
			case string: // text and blobs alike: the engines return either
				buf = binary.BigEndian.AppendUint64([]byte{'s'}, uint64(len(v)))
				buf = append(buf, v...)
			case []byte:
				buf = binary.BigEndian.AppendUint64([]byte{'s'}, uint64(len(v)))
				buf = append(buf, v...)
			default:
				return "", fmt.Errorf("column %s: unexpected %T", cols[i], v)
			}
			h.Write([]byte(cols[i]))
			h.Write(buf)
		}
		hashes = append(hashes, [sha256.Size]byte(h.Sum(nil)))
	}
	if err := rows.Err(); err != nil {
		return "", wrap(err)
	}
	slices.SortFunc(hashes, func(a, b [sha256.Size]byte) int { return strings.Compare(string(a[:]), string(b[:])) })
	h := sha256.New()
	for _, x := range hashes {
		h.Write(x[:])
	}
	return fmt.Sprintf("%d rows, %s", len(hashes), hex.EncodeToString(h.Sum(nil))[:16]), nil
}
