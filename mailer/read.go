package mailer

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/emersion/go-imap/v2"
)

// StoredMessage is a message as ReadAll found it.
type StoredMessage struct {
	UID   uint32
	Flags []string // system flags (\Seen) and keywords ($PbemDone)
	Raw   []byte
}

// HasFlag reports whether the message carries flag (case-insensitive, as in
// IMAP).
func (m StoredMessage) HasFlag(flag string) bool {
	return slices.ContainsFunc(m.Flags, func(f string) bool { return strings.EqualFold(f, flag) })
}

// ReadAll logs in as user (cfg.Username when user is empty) with cfg's
// address, security and password, and returns every message of cfg.Mailbox
// (INBOX when empty) in UID order, without changing anything: the folder is
// opened read-only. It is meant for tests, demos and scripted players, not
// for large mailboxes.
func ReadAll(ctx context.Context, cfg InboxConfig, user string) ([]StoredMessage, error) {
	return ReadSince(ctx, cfg, user, 0)
}

// ReadSince is ReadAll for the messages whose UID is above after: what a
// client that keeps what it read fetches each time.
func ReadSince(ctx context.Context, cfg InboxConfig, user string, after uint32) ([]StoredMessage, error) {
	if user == "" {
		user = cfg.Username
	}
	mailbox := cfg.Mailbox
	if mailbox == "" {
		mailbox = "INBOX"
	}
	sec, err := ParseSecurity(string(cfg.Security))
	if err != nil {
		return nil, err
	}
	cn, err := dial(ctx, cfg.Addr, sec, cfg.TLSConfig, user, cfg.Password)
	if err != nil {
		return nil, fmt.Errorf("mailer: read %s: %w", user, err)
	}
	c := cn.c
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()

	data, err := c.Select(mailbox, &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		return nil, fmt.Errorf("mailer: read %s: select %s: %w", user, mailbox, err)
	}
	if data.NumMessages == 0 {
		c.Logout().Wait()
		return nil, nil
	}
	section := &imap.FetchItemBodySection{Peek: true}
	// UID after+1:* also matches the highest UID when that is not above
	// after, so the results are filtered below.
	bufs, err := c.Fetch(imap.UIDSet{imap.UIDRange{Start: imap.UID(after + 1), Stop: 0}}, &imap.FetchOptions{
		UID:         true,
		Flags:       true,
		BodySection: []*imap.FetchItemBodySection{section},
	}).Collect()
	if err != nil {
		return nil, fmt.Errorf("mailer: read %s: fetch: %w", user, err)
	}
	msgs := make([]StoredMessage, 0, len(bufs))
	for _, b := range bufs {
		if uint32(b.UID) <= after {
			continue
		}
		m := StoredMessage{UID: uint32(b.UID), Raw: b.FindBodySection(section)}
		for _, f := range b.Flags {
			m.Flags = append(m.Flags, string(f))
		}
		msgs = append(msgs, m)
	}
	slices.SortFunc(msgs, func(a, b StoredMessage) int { return cmp.Compare(a.UID, b.UID) })
	c.Logout().Wait()
	return msgs, nil
}
