package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/pbem/pbem/store/storetest"
)

// TestOutboxReadsWhatItNeedsOnAFreshDatabase: on PostgreSQL, the claim
// of a batch and its marks, planned on a fresh database's estimates
// (never analyzed) and kept as generic plans, as pgx keeps them on a
// connection from its first minute, read the entries of the mail sent
// since the last vacuum: the claim scanned the partial index of pending
// mail, and the heap behind it, once for each candidate, and the marks
// read the batch through it rather than by the ids (issue 40: 900–1,800
// pages a claim in a 32-game load). They must read about what their
// batch is, not what the outbox has sent.
func TestOutboxReadsWhatItNeedsOnAFreshDatabase(t *testing.T) {
	if !storetest.OnPostgres() {
		t.Skip("PostgreSQL's plans")
	}
	t.Parallel()
	ctx := context.Background()
	// A database of its own: a transaction of another test's, in a
	// schema of the shared database, would keep the entries of the
	// mail sent alive to every index scan (a failure in a run of the
	// store's tests: 2,445 pages, the claim's probes walking them all).
	url := storetest.OwnDatabase(t)
	st, err := Open(ctx, url) // its schema
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	db, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// One connection: its prepared statements, their plans, and the
	// transactions begun by hand, which database/sql would not give back.
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	run := func(q string, args ...any) {
		t.Helper()
		if _, err := conn.ExecContext(ctx, q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	const batch = 20
	// Never analyzed, as in a load's first minute: autovacuum could
	// analyze the outbox as the test fills it, when nearly all of it is
	// pending, and its statistics would make the plans again (2,206
	// pages a claim, with an ANALYZE there by hand).
	run(`ALTER TABLE outbox SET (autovacuum_enabled = false)`)
	run(`SET plan_cache_mode = force_generic_plan`)
	run(`PREPARE claim AS ` + rebind(claimSQL(PostgreSQL, batch)))
	run(`PREPARE mark AS ` + rebind(markAllSentSQL(`= ANY (?)`)))
	// The plans are made while the outbox is empty, and kept.
	run(`BEGIN`)
	run(`EXECUTE claim(1, 1, 'node', 2)`)
	run(`EXECUTE mark(1, '{1,2}')`)
	run(`ROLLBACK`)

	// 4,000 mails to 40 players queued and sent, no vacuum since, and a
	// batch's worth pending.
	run(`INSERT INTO outbox (message_id, rcpt, not_before, message_size)
		SELECT 'sent-' || i, 'player' || (i % 40) || '@example.org', i, 100 FROM generate_series(1, 4000) AS i`)
	run(`UPDATE outbox SET state = 'sent', sent_at = not_before`)
	run(`INSERT INTO outbox (message_id, rcpt, not_before, message_size)
		SELECT 'due-' || i, 'player' || (i % 40) || '@example.org', 4000 + i, 100 FROM generate_series(1, $1::int) AS i`, batch)
	var due string
	if err := conn.QueryRowContext(ctx, `SELECT array_agg(id)::text FROM outbox WHERE state = 'pending'`).Scan(&due); err != nil {
		t.Fatal(err)
	}

	// pages is what EXPLAIN ANALYZE says statement read in all, and in
	// finding the rows it updates (the update's scan of outbox), and how
	// many rows it returned. It runs statement twice and tells of the
	// second: a claim once the one before has marked the entries of sent
	// mail dead, which an index scan does, as the load's claims follow
	// one another.
	pages := func(statement string) (total, found, rows int64) {
		t.Helper()
		for range 2 {
			run(`BEGIN`)
			var out []byte
			if err := conn.QueryRowContext(ctx, `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) `+statement).Scan(&out); err != nil {
				t.Fatalf("%s: %v", statement, err)
			}
			run(`ROLLBACK`)
			var plans []struct{ Plan planNode }
			if err := json.Unmarshal(out, &plans); err != nil || len(plans) != 1 {
				t.Fatalf("%s: the plan: %v\n%s", statement, err, out)
			}
			top := plans[0].Plan
			total, rows, found = top.pages(), top.Rows, 0
			for _, c := range top.Plans {
				if c.Relation == "outbox" {
					found += c.pages()
				}
			}
		}
		return total, found, rows
	}
	claimPages, _, claimed := pages(`EXECUTE claim(1000000, 1, 'node', 2)`)
	if claimed != batch {
		t.Fatalf("the claim took %d mails, want %d", claimed, batch)
	}
	_, markScan, marked := pages(fmt.Sprintf(`EXECUTE mark(1, '%s')`, due))
	if marked != batch {
		t.Fatalf("the mark marked %d mails, want %d", marked, batch)
	}
	t.Logf("a claim of %d mails read %d pages; a mark of them found its mails in %d pages", batch, claimPages, markScan)
	// A candidate's test reads a few index pages; the update of its row
	// a few more. 4,000 mails sent are 16 index pages and 30 of the
	// heap: read again for each candidate they are hundreds.
	if claimPages > 25*batch {
		t.Errorf("a claim of %d mails read %d pages: more than its batch needs, with 4,000 mails sent before it", batch, claimPages)
	}
	if markScan > 4*batch {
		t.Errorf("a mark of %d mails read %d pages to find them: not by their ids", batch, markScan)
	}
}

// planNode is a node of EXPLAIN's plan in JSON, what the tests read.
type planNode struct {
	Type     string     `json:"Node Type"`
	Relation string     `json:"Relation Name"`
	Rows     int64      `json:"Actual Rows"`
	Hit      int64      `json:"Shared Hit Blocks"`
	Read     int64      `json:"Shared Read Blocks"`
	Plans    []planNode `json:"Plans"`
}

func (n planNode) pages() int64 { return n.Hit + n.Read }
