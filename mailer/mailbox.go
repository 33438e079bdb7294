package mailer

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// closeGrace bounds how long Close waits for the server to end IDLE and
// answer LOGOUT before it cuts the connection.
const closeGrace = 5 * time.Second

// MailboxReader reads one mailbox the way a mail client does: over one
// IMAP session that it keeps open between reads, logged in once, with the
// mailbox opened read-only (EXAMINE), asking each time only for the mail
// above the last UID the caller read. Between reads the session sits in
// IDLE when the server offers it, and Changed tells of new mail the
// server announces. ReadSince (read.go) logs in for every read instead:
// a caller that reads often, such as a scripted player or many of them
// at once, would keep the server busy with logins.
//
// A kept session that fails is dropped and dialled again at once, within
// the same read; a new session that fails fails the read, and the next
// read dials again. A MailboxReader is safe for concurrent use; reads
// take turns.
type MailboxReader struct {
	cfg     InboxConfig
	user    string
	mailbox string
	changed chan struct{} // holds at most one pending notice

	mu     sync.Mutex
	c      *imapclient.Client // nil until dialled, and after a failure
	idle   *imapclient.IdleCommand
	closed bool
	// selected is how many messages the session's SELECT found.
	selected uint32
}

// NewMailboxReader returns a reader of cfg.Mailbox (INBOX when empty) for
// user (cfg.Username when empty), with cfg's address, security and
// password. It does not connect: the first read does.
func NewMailboxReader(cfg InboxConfig, user string) (*MailboxReader, error) {
	if user == "" {
		user = cfg.Username
	}
	if cfg.Addr == "" || user == "" {
		return nil, errors.New("mailer: mailbox reader needs an IMAP address and a user name")
	}
	sec, err := ParseSecurity(string(cfg.Security))
	if err != nil {
		return nil, err
	}
	cfg.Security = sec
	mailbox := cfg.Mailbox
	if mailbox == "" {
		mailbox = "INBOX"
	}
	return &MailboxReader{cfg: cfg, user: user, mailbox: mailbox, changed: make(chan struct{}, 1)}, nil
}

// Changed receives a value when the server announces new messages in the
// mailbox while the reader idles between two reads. A notice may be stale
// (the read that follows finds nothing), and there are none while the
// reader does not idle (see Idling): a caller waiting for mail waits on
// Changed with a timeout, and reads again when either comes.
func (r *MailboxReader) Changed() <-chan struct{} { return r.changed }

// Idling reports whether the reader's session sits in IDLE, so that
// Changed will tell of new mail. It does not after a failed read, before
// the first one, or on a server without IDLE (or with cfg.DisableIdle):
// then a caller must poll.
func (r *MailboxReader) Idling() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.idle != nil
}

// notify records a notice for Changed without blocking: the IMAP client
// calls it from its reader goroutine.
func (r *MailboxReader) notify() {
	select {
	case r.changed <- struct{}{}:
	default:
	}
}

// ReadSince returns the messages whose UID is above after, in UID order,
// without changing anything on the server. It connects when there is no
// session, and once more when the kept one fails; a failure of a new
// session drops it and is returned.
func (r *MailboxReader) ReadSince(ctx context.Context, after uint32) ([]StoredMessage, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil, fmt.Errorf("mailer: read %s: reader closed", r.user)
	}
	kept := r.c != nil
	msgs, err := r.read(ctx, after)
	if err != nil && kept && ctx.Err() == nil {
		// A kept session may have been cut since the last read (a server
		// restart, an idle timeout): that is no failure of this read, as
		// a mail client would just connect again. Once.
		r.drop()
		msgs, err = r.read(ctx, after)
	}
	if err != nil {
		r.drop()
		if ctx.Err() != nil {
			// The connection was cut because ctx ended: say so, not
			// only what the cut did to the command in hand (EOF).
			return nil, fmt.Errorf("mailer: read %s: %w (%v)", r.user, ctx.Err(), err)
		}
		return nil, fmt.Errorf("mailer: read %s: %w", r.user, err)
	}
	return msgs, nil
}

// read does ReadSince's work; r.mu is held.
func (r *MailboxReader) read(ctx context.Context, after uint32) ([]StoredMessage, error) {
	if r.idle != nil {
		idle := r.idle
		r.idle = nil
		if err := stopIdle(idle); err != nil {
			return nil, err
		}
	}
	// What was announced so far is read below.
	select {
	case <-r.changed:
	default:
	}
	fresh := false
	if r.c == nil {
		if err := r.connect(ctx); err != nil {
			return nil, err
		}
		fresh = true
	}
	c := r.c
	// A cancelled ctx cuts the connection, which ends the command in
	// hand; the session is then dropped.
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	if !fresh {
		// A server need not tell a session of mail that arrived since
		// its last command (Dovecot tells it after the next one), and
		// UID FETCH only sees the messages the session was told of.
		if err := c.Noop().Wait(); err != nil {
			return nil, fmt.Errorf("noop: %w", err)
		}
	}
	// go-imap v2 (beta.8) ends SELECT's Wait before its reader goroutine
	// records the selected mailbox on the client (completeCommand), so
	// right after connect c.Mailbox() may still be nil, and the mail
	// already there would be missed: a fresh session counts what SELECT
	// answered. A kept session asks the client, which has recorded the
	// SELECT by the time NOOP's answer (read after it) ends the NOOP, and
	// counts the EXISTS the server sent since.
	exists := r.selected
	if mb := c.Mailbox(); mb != nil && !fresh {
		exists = mb.NumMessages
	}
	var msgs []StoredMessage
	if exists > 0 {
		var err error
		if msgs, err = fetchSince(c, after); err != nil {
			return nil, err
		}
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if !r.cfg.DisableIdle && c.Caps().Has(imap.CapIdle) {
		idle, err := c.Idle()
		if err != nil {
			return nil, fmt.Errorf("idle: %w", err)
		}
		r.idle = idle
	}
	return msgs, nil
}

// connect dials, logs in and opens the mailbox read-only; r.mu is held.
func (r *MailboxReader) connect(ctx context.Context) error {
	cn, err := dial(ctx, r.cfg.Addr, r.cfg.Security, r.cfg.TLSConfig, r.user, r.cfg.Password)
	if err != nil {
		return err
	}
	c := cn.c
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	data, err := c.Select(r.mailbox, &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		c.Close()
		return fmt.Errorf("examine %s: %w", r.mailbox, err)
	}
	r.selected = data.NumMessages
	// dial's client announces new messages on cn.wake; pass them on to
	// Changed for as long as this connection lives.
	go func() {
		for {
			select {
			case <-cn.wake:
				r.notify()
			case <-c.Closed():
				return
			}
		}
	}()
	r.c = c
	return nil
}

// fetchSince fetches the messages above after, whole and unchanged
// (BODY.PEEK), in UID order. It asks for their UIDs first and for the
// bodies of the new ones only: UID after+1:* also matches the highest
// UID when that is not above after, and a reader that looks often would
// otherwise fetch its last message again on every look.
func fetchSince(c *imapclient.Client, after uint32) ([]StoredMessage, error) {
	heads, err := c.Fetch(imap.UIDSet{imap.UIDRange{Start: imap.UID(after + 1), Stop: 0}}, &imap.FetchOptions{UID: true}).Collect()
	if err != nil {
		return nil, fmt.Errorf("fetch uids: %w", err)
	}
	var set imap.UIDSet
	for _, h := range heads {
		if uint32(h.UID) > after {
			set.AddNum(h.UID)
		}
	}
	if len(set) == 0 {
		return nil, nil
	}
	section := &imap.FetchItemBodySection{Peek: true}
	bufs, err := c.Fetch(set, &imap.FetchOptions{
		UID:         true,
		Flags:       true,
		BodySection: []*imap.FetchItemBodySection{section},
	}).Collect()
	if err != nil {
		return nil, fmt.Errorf("fetch: %w", err)
	}
	msgs := make([]StoredMessage, 0, len(bufs))
	for _, b := range bufs {
		if uint32(b.UID) <= after {
			continue // a server may answer with more than was asked
		}
		m := StoredMessage{UID: uint32(b.UID), Raw: b.FindBodySection(section)}
		for _, f := range b.Flags {
			m.Flags = append(m.Flags, string(f))
		}
		msgs = append(msgs, m)
	}
	slices.SortFunc(msgs, func(a, b StoredMessage) int { return cmp.Compare(a.UID, b.UID) })
	return msgs, nil
}

// stopIdle ends IDLE and waits for the server's answer.
func stopIdle(idle *imapclient.IdleCommand) error {
	if err := idle.Close(); err != nil {
		return fmt.Errorf("stop idle: %w", err)
	}
	if err := idle.Wait(); err != nil {
		return fmt.Errorf("idle: %w", err)
	}
	return nil
}

// drop cuts the session after a failure; r.mu is held.
func (r *MailboxReader) drop() {
	if r.c != nil {
		r.c.Close()
	}
	r.c, r.idle = nil, nil
}

// Close ends the session politely (DONE, LOGOUT), cutting it if the
// server does not answer within closeGrace. Reads after Close fail.
func (r *MailboxReader) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil
	}
	r.closed = true
	if r.c == nil {
		return nil
	}
	c := r.c
	t := time.AfterFunc(closeGrace, func() { c.Close() })
	defer t.Stop()
	var err error
	if r.idle != nil {
		err = stopIdle(r.idle)
	}
	if err == nil {
		if err = c.Logout().Wait(); err != nil {
			err = fmt.Errorf("logout: %w", err)
		}
	}
	c.Close()
	r.c, r.idle = nil, nil
	if err != nil {
		return fmt.Errorf("mailer: close reader of %s: %w", r.user, err)
	}
	return nil
}
