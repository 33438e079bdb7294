package store

import (
	"context"
	"fmt"
)

// AllInbound returns every inbound record, in the order they were
// recorded: for audits and for tests that prove each message was taken
// exactly once.
func (r reader) AllInbound(ctx context.Context) ([]Inbound, error) {
	rows, err := r.q.QueryContext(ctx, `SELECT `+inboundColumns+` FROM inbound ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("store: all inbound: %w", wrap(err))
	}
	defer rows.Close()
	var out []Inbound
	for rows.Next() {
		in, err := scanInbound(rows)
		if err != nil {
			return nil, fmt.Errorf("store: all inbound: %w", err)
		}
		out = append(out, in)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: all inbound: %w", err)
	}
	return out, nil
}

// AllOutgoing returns every outbox row, whatever its state, in the order
// they were queued: for audits and for tests that compare what each
// recipient received with what was sent to him.
func (r reader) AllOutgoing(ctx context.Context) ([]Outgoing, error) {
	rows, err := r.q.QueryContext(ctx, `SELECT `+outColumns+` FROM `+outFrom+` ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("store: all outgoing: %w", wrap(err))
	}
	defer rows.Close()
	var out []Outgoing
	for rows.Next() {
		o, err := scanOutgoing(rows)
		if err != nil {
			return nil, fmt.Errorf("store: all outgoing: %w", err)
		}
		out = append(out, o)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: all outgoing: %w", err)
	}
	return out, nil
}
