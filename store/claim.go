package store

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"
)

// Every node on one database sends mail (issue 27). A node takes a batch
// of due mail for itself before it sends it (ClaimOutgoing): the rows
// carry its name and the time its claim lapses, in unix milliseconds of
// its clock, as leases do. No other node takes a row while its claim is
// live; a mark (MarkSent, MarkFailed, MarkDead) or ReleaseClaims ends the
// claim, and a node that dies mid-batch leaves its rows to the others
// once the claim lapses.

// claimBatchSQL and claimUpdateSQL claim due rows (claimSQL puts them
// together); in claimBatchSQL, %d is the batch's size, and %s is where
// PostgreSQL locks the candidates (claimLock). The size is written
// into the statement, not bound: SQLite's planner reads a bound LIMIT's
// value, and so marks the statement to be compiled again whenever the
// parameter is bound anew, which database/sql does on every run. As a
// parameter, compiling the claim again took two thirds of its CPU
// (issue 40). A node's batch size is fixed, so its claim is still one
// statement, prepared once. It is one statement, so on SQLite (one writer at a time)
// its reads and its write cannot be interleaved with another node's.
//
// claim_batch are the oldest due rows with no live claim. Of those it claims
// each whose recipient has no earlier pending mail that another node
// holds (a live claim) or that is due, claimable and yet not in claim_batch: a
// recipient's mail goes out in order, whichever nodes send it. That
// test is a sub-select of one row, NULL when there is none, not NOT
// EXISTS: PostgreSQL turns NOT EXISTS into an anti-join, which on a
// fresh database's estimates (never analyzed: a few rows) scanned the
// whole partial index of pending mail, and the heap behind each entry,
// once for every candidate; the entries of mail sent since the last
// vacuum stay in it until then. In a 32-game load that was 900–1,800
// pages a claim (issue 40). As a sub-select it runs once for each
// candidate, with the candidate's recipient and id bound, and reads an
// index by them: with analyzed estimates the recipients' index, on a
// fresh database's the due index below the candidate's id. An index
// scan marks the entries of sent mail dead as it meets them, for the
// claims after it to pass by; a bitmap scan does not.
//
// On PostgreSQL, two nodes claim at once. claim_batch locks its rows and skips
// those another transaction has locked (FOR UPDATE SKIP LOCKED): the
// nodes never wait on each other's rows nor take the same ones. A row
// skipped is not in claim_batch, so while another node is claiming a
// recipient's earlier mail, even uncommitted and invisible to this
// statement's snapshot, the recipient's later mail is left alone. A
// candidate whose row another node claimed and committed meanwhile is
// read again as it locks it (READ COMMITTED), and drops out: its claim is
// live.
const (
	claimBatchSQL = `claim_batch AS MATERIALIZED (
		SELECT id, rcpt FROM outbox
		WHERE state = 'pending' AND not_before <= ?1
			AND (claimed_until IS NULL OR claimed_until <= ?2)
		ORDER BY not_before, id LIMIT %d %s
	)`
	claimUpdateSQL = `UPDATE outbox SET claimed_by = ?3, claimed_until = ?4
	WHERE id IN (SELECT id FROM claim_batch WHERE (
		SELECT 1 FROM outbox e
		WHERE e.rcpt = claim_batch.rcpt AND e.state = 'pending' AND e.id < claim_batch.id
			AND e.id NOT IN (SELECT id FROM claim_batch)
			AND ((e.claimed_until > ?2 AND e.claimed_by <> ?3)
				OR (e.not_before <= ?1 AND (e.claimed_until IS NULL OR e.claimed_until <= ?2)))
		LIMIT 1) IS NULL)`
)

// claimSQL is the claim of at most limit mails on engine e. It returns
// the claimed rows without their messages, which the claim takes from
// memory (queued.go), or reads after, for the mails this process did not
// queue (Tx.readMessages): on PostgreSQL that is a round trip more, for a
// claim of another node's mail, where every claim returned its messages
// read back from their compressed, out-of-line rows (issue 40: a
// millisecond of the server's time a claim of 11 mails).
func claimSQL(e Engine, limit int) string {
	claim := `WITH ` + fmt.Sprintf(claimBatchSQL, limit, claimLock[e])
	if e != PostgreSQL {
		return claim + ` ` + claimUpdateSQL + ` RETURNING ` + outHeadColumns
	}
	// On PostgreSQL the claimed mails come with what the unreachable
	// table holds of their recipients (claimedUnreachable), which the
	// outbox asks next, in a round trip of its own (issue 40). SQLite
	// has no UPDATE in a WITH, and its read is a call.
	return claim + `, claimed AS (` + claimUpdateSQL + ` RETURNING ` + outHeadColumns + `)
	SELECT claimed.*, u.address, u.since, u.status, u.handled, u.probed_at
	FROM claimed LEFT JOIN unreachable u ON u.address = claimed.rcpt`
}

// claimLock locks the candidates of a claim, by engine.
var claimLock = map[Engine]string{
	SQLite:     "",
	PostgreSQL: "FOR UPDATE SKIP LOCKED",
}

// ClaimOutgoing claims for node, until until, at most limit pending
// mails due at now that no node holds, those due longest first, and
// returns them in the order to send them: the order they were queued. A mail is not claimed while another node holds
// an earlier pending mail to the same recipient, nor while an earlier one
// is due and left for a later batch: each recipient gets his mail in the
// order it was queued. now and until are node's clock (the store reads
// none): the nodes' clocks must agree to well within the claim's length.
//
// The claim ends with the mail's mark, or ReleaseClaims; if node never
// marks it (it died), any node may claim the mail again from until on.
func (tx *Tx) ClaimOutgoing(ctx context.Context, node string, now, until time.Time, limit int) ([]Outgoing, error) {
	if node == "" || !until.After(now) || limit <= 0 {
		return nil, fmt.Errorf("store: claim outgoing for %q: need a node, a claim that lasts (%s) and a limit (%d)", node, until.Sub(now), limit)
	}
	rows, err := tx.q.QueryContext(ctx, claimSQL(tx.be.engine(), limit), unix(now), now.UnixMilli(), node, until.UnixMilli())
	if err != nil {
		return nil, fmt.Errorf("store: claim outgoing for %q: %w", node, wrap(err))
	}
	defer rows.Close()
	var out []Outgoing
	pg := tx.be.engine() == PostgreSQL // claimSQL reads the recipients' bounces
	var bounced claimedUnreachable
	for rows.Next() {
		sc := interface{ Scan(...any) error }(rows)
		if pg {
			sc = bounced.scanner(rows)
		}
		o, err := scanOutgoing(sc)
		if err != nil {
			return nil, fmt.Errorf("store: claim outgoing for %q: %w", node, wrap(err))
		}
		if pg {
			bounced.keep(o.To)
		}
		out = append(out, o)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: claim outgoing for %q: %w", node, wrap(err))
	}
	tx.memo.keepUnreachable(bounced)
	// RETURNING keeps no order. The batch goes in the order it was
	// queued, which keeps each recipient's mail in order even when an
	// earlier mail, deferred by a failure, is due later than his next.
	slices.SortFunc(out, func(a, b Outgoing) int { return cmp.Compare(a.ID, b.ID) })
	if tx.queued != nil {
		for i := range out {
			out[i].Raw = tx.queued.take(out[i].MessageID, out[i].To)
		}
	}
	if err := tx.readMessages(ctx, out); err != nil {
		return nil, fmt.Errorf("store: claim outgoing for %q: %w", node, err)
	}
	return out, nil
}

// readMessages fills in the messages of out, sorted by id, that it
// lacks, from outbox_messages: a pending mail always has its message.
func (tx *Tx) readMessages(ctx context.Context, out []Outgoing) error {
	if len(out) == 0 {
		return nil
	}
	ids := make([]int64, 0, len(out))
	for _, o := range out {
		if o.Raw == nil { // not taken from memory (queuedMessages)
			ids = append(ids, o.ID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	in, arg := tx.be.idsIn(ids)
	rows, err := tx.q.QueryContext(ctx, `SELECT id, raw FROM outbox_messages WHERE id `+in, arg)
	if err != nil {
		return wrap(err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var raw []byte
		if err := rows.Scan(&id, &raw); err != nil {
			return wrap(err)
		}
		if i, ok := slices.BinarySearchFunc(out, id, func(o Outgoing, id int64) int { return cmp.Compare(o.ID, id) }); ok {
			if out[i].Raw, err = unpackMessage(raw); err != nil {
				return fmt.Errorf("the message of %s: %w", out[i].MessageID, err)
			}
		}
	}
	return wrap(rows.Err())
}

// ReleaseNodeClaims ends every claim node holds on pending mail, and
// reports how many. A node's outbox calls it as it starts: a node started
// again under the same name sends at once the mail its previous life
// claimed and died with, rather than after the claim lapses. Names must
// be unique among the running nodes, or a node would release another's
// claims.
func (tx *Tx) ReleaseNodeClaims(ctx context.Context, node string) (int64, error) {
	res, err := tx.exec(ctx, `UPDATE outbox SET claimed_by = NULL, claimed_until = NULL
		WHERE claimed_by = ? AND state = 'pending'`, node)
	if err != nil {
		return 0, fmt.Errorf("store: release the claims of %q: %w", node, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("store: release the claims of %q: %w", node, wrap(err))
	}
	return n, nil
}

// ReleaseClaims ends node's claims on the pending mails ids without
// marking them (a node that stops, or stops a batch, before sending
// them), so that any node may send them at once; it reports how many
// claims it ended. A claim another node holds now is left alone.
func (tx *Tx) ReleaseClaims(ctx context.Context, node string, ids []int64) (int64, error) {
	if len(ids) == 0 {
		return 0, nil
	}
	in, arg := tx.be.idsIn(ids)
	res, err := tx.exec(ctx, `UPDATE outbox SET claimed_by = NULL, claimed_until = NULL
		WHERE id `+in+` AND claimed_by = ? AND state = `+pendingUnproved, arg, node)
	if err != nil {
		return 0, fmt.Errorf("store: release %d claims of %q: %w", len(ids), node, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("store: release %d claims of %q: %w", len(ids), node, wrap(err))
	}
	return n, nil
}
