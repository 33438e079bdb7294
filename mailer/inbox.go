package mailer

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"slices"
	"strings"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// Defaults for InboxConfig.
const (
	// DefaultPollInterval is how often the Inbox searches for new mail on a
	// server without IDLE. A player's move then waits up to a minute, which
	// suits a play-by-email game; servers with IDLE answer within a second.
	DefaultPollInterval = 60 * time.Second
	// DefaultIdleRefresh is how often the Inbox leaves IDLE to search anyway.
	// It bounds the delay of mail whose notification was lost and keeps
	// idle connections from being dropped by middleboxes.
	DefaultIdleRefresh = 5 * time.Minute
	// DefaultRetryDelay is how long the Inbox waits before offering a message
	// again after its handler failed.
	DefaultRetryDelay = 10 * time.Second
	// DefaultMaxSize is the largest message handed over whole.
	DefaultMaxSize = 1 << 20
	// DefaultProcessed is the keyword set on messages once handled.
	DefaultProcessed = "$PbemDone"
	// DefaultBatchSize is the most messages handed over at once.
	DefaultBatchSize = 32
	// DefaultBatchBytes bounds the bytes of one batch (each message
	// counted at its size on the server, or at most MaxSize): a batch of
	// large hostile mails costs no more memory than this.
	DefaultBatchBytes = 8 << 20
)

// idleSettle is how soon after entering IDLE the Inbox searches once more
// when it has just connected or mail has just been flowing. Some servers
// (go-imap's in-memory backend among them) do not announce mail that arrived
// between the last command and the start of IDLE; this narrows that window
// without polling all the time, and IdleRefresh bounds what is left.
const idleSettle = time.Second

// logoutGrace bounds how long a stopping session may take to leave IDLE,
// finish the message in hand and log out.
const logoutGrace = 15 * time.Second

// InboxConfig configures an Inbox.
type InboxConfig struct {
	Addr     string   // host:port of the IMAP server
	Username string   // login name, often a full address
	Password string   // login password
	Security Security // none, starttls or tls; empty means none
	// TLSConfig is used for starttls and tls. Nil means the system roots
	// and the host name from Addr.
	TLSConfig *tls.Config

	// Mailbox is the folder to read; empty means INBOX.
	Mailbox string
	// Processed says how handled messages are marked. A value starting with
	// '$' is an IMAP keyword that is added to the message, which stays in
	// Mailbox; anything else is a folder the message is moved to (created if
	// missing). Empty means the keyword DefaultProcessed.
	Processed string

	// PollInterval is the time between searches on servers without IDLE.
	// Zero means DefaultPollInterval (60 s).
	PollInterval time.Duration
	// IdleRefresh is the time between searches while idling. Zero means
	// DefaultIdleRefresh.
	IdleRefresh time.Duration
	// DisableIdle makes the Inbox poll even when the server offers IDLE.
	DisableIdle bool
	// RetryDelay is how long to wait before offering a message again after
	// the handler returned an error. Zero means DefaultRetryDelay.
	RetryDelay time.Duration
	// MaxSize is the largest message whose full text is fetched; a larger
	// one is handed over with its header only and TooLarge set. Zero means
	// DefaultMaxSize (1 MB).
	MaxSize int64

	// BatchSize is the most new messages handed to a BatchHandler at
	// once, and BatchBytes bounds their total size. Zero means
	// DefaultBatchSize and DefaultBatchBytes. A Handler (Run) gets them
	// one by one either way; they are fetched and marked together.
	BatchSize  int
	BatchBytes int64

	// ReconnectMin and ReconnectMax bound the exponential backoff between
	// connection attempts. Zero means 1 s and 60 s.
	ReconnectMin, ReconnectMax time.Duration

	// Logger receives connection and handler problems. Nil means
	// slog.Default().
	Logger *slog.Logger
	// Observer is told of connections and searches, for metrics and the
	// health check. Nil tells no one.
	Observer InboxObserver
}

// InboxObserver is told how the Inbox fares with its server. Its methods
// are called from the Inbox's goroutine and must not block.
type InboxObserver interface {
	// Connected reports a session that logged in and selected the
	// mailbox; every one after the first is a reconnection.
	Connected()
	// Searched reports a search for new mail that the server answered:
	// the last moment pbem is known to have seen the mailbox.
	Searched(at time.Time)
}

type nopInboxObserver struct{}

func (nopInboxObserver) Connected()         {}
func (nopInboxObserver) Searched(time.Time) {}

// Message is one message read from the Inbox.
type Message struct {
	Mailbox     string // the folder it was read from
	UIDValidity uint32 // the folder's UIDVALIDITY when it was read
	UID         uint32 // its UID; unique and increasing within UIDValidity
	Size        int64  // its size on the server (RFC822.SIZE)
	// Raw is the message as stored on the server, or only its header when
	// TooLarge is set.
	Raw      []byte
	TooLarge bool // Size exceeds InboxConfig.MaxSize
	// ID identifies a message that has no UID (one delivered by LMTP,
	// LMTPServer): a digest of its bytes as the client sent them, the
	// same each time the client delivers it again. Empty for IMAP.
	ID string
}

// Handler handles one message. Returning nil commits it: the Inbox marks it
// processed and moves on. Returning an error leaves it unmarked; the Inbox
// stops the current batch, so that messages stay in order, and offers the
// same message again after RetryDelay. A Handler should therefore return an
// error only for trouble that may pass (a busy database), and answer bad
// commands itself.
//
// To get exactly-once effects, the Handler records msg.UIDValidity and
// msg.UID in the same transaction as the message's effects; the Inbox reads
// them back through its Cursor after a restart or reconnection.
type Handler func(ctx context.Context, msg Message) error

// BatchHandler handles new messages in UID order, the mail that arrived
// together, so that their effects can be committed together. It reports
// how many of msgs, from the first, it committed: the Inbox marks those
// processed and moves past them. When it commits fewer than all, err
// says why the next one failed, and the Inbox offers that message again
// after RetryDelay, as for a Handler. Whatever it commits must record
// each message's UIDVALIDITY and UID in the same transaction as the
// message's effects, as a Handler does.
type BatchHandler func(ctx context.Context, msgs []Message) (committed int, err error)

// batch makes a Handler a BatchHandler that takes the messages one at a
// time.
func (h Handler) batch() BatchHandler {
	return func(ctx context.Context, msgs []Message) (int, error) {
		for i, m := range msgs {
			if ctx.Err() != nil {
				return i, nil // stopping: take no more
			}
			if err := h(ctx, m); err != nil {
				return i, err
			}
		}
		return len(msgs), nil
	}
}

// Cursor tells the Inbox where it left off in a mailbox: the UIDVALIDITY and
// the highest UID the Handler has committed. A Cursor that has nothing for
// the mailbox returns zeros.
type Cursor interface {
	ResumeAt(ctx context.Context, mailbox string) (uidValidity, lastUID uint32, err error)
}

// Inbox reads new mail from one IMAP folder and hands it to a Handler.
type Inbox struct {
	cfg    InboxConfig
	cursor Cursor
	log    *slog.Logger
}

// NewInbox returns an Inbox reading with cfg. The cursor may be nil, in which
// case every message not yet marked processed is new after each connection.
func NewInbox(cfg InboxConfig, cursor Cursor) (*Inbox, error) {
	if cfg.Addr == "" || cfg.Username == "" {
		return nil, errors.New("mailer: inbox needs an IMAP address and a user name")
	}
	sec, err := ParseSecurity(string(cfg.Security))
	if err != nil {
		return nil, err
	}
	cfg.Security = sec
	if cfg.Mailbox == "" {
		cfg.Mailbox = "INBOX"
	}
	if cfg.Processed == "" {
		cfg.Processed = DefaultProcessed
	}
	if cfg.Processed == cfg.Mailbox {
		return nil, fmt.Errorf("mailer: processed folder %q is the folder being read", cfg.Processed)
	}
	if strings.HasPrefix(cfg.Processed, "$") && strings.ContainsAny(cfg.Processed, " ()[]{%*\"\\") {
		return nil, fmt.Errorf("mailer: %q is not a valid IMAP keyword", cfg.Processed)
	}
	setDefault(&cfg.PollInterval, DefaultPollInterval)
	setDefault(&cfg.IdleRefresh, DefaultIdleRefresh)
	setDefault(&cfg.RetryDelay, DefaultRetryDelay)
	setDefault(&cfg.ReconnectMin, time.Second)
	setDefault(&cfg.ReconnectMax, 60*time.Second)
	if cfg.BatchSize <= 0 {
		cfg.BatchSize = DefaultBatchSize
	}
	if cfg.BatchBytes <= 0 {
		cfg.BatchBytes = DefaultBatchBytes
	}
	if cfg.MaxSize <= 0 {
		cfg.MaxSize = DefaultMaxSize
	}
	log := cfg.Logger
	if log == nil {
		log = slog.Default()
	}
	log = log.With("imap", cfg.Addr, "user", cfg.Username, "mailbox", cfg.Mailbox)
	if cfg.Observer == nil {
		cfg.Observer = nopInboxObserver{}
	}
	return &Inbox{cfg: cfg, cursor: cursor, log: log}, nil
}

func setDefault(d *time.Duration, def time.Duration) {
	if *d <= 0 {
		*d = def
	}
}

// keyword reports whether handled messages are marked with a keyword rather
// than moved to a folder.
func (in *Inbox) keyword() bool { return strings.HasPrefix(in.cfg.Processed, "$") }

// Run reads mail and calls h for every new message, in UID order, until ctx
// is done; then it returns ctx.Err(). Connection problems never end it: it
// logs them and reconnects with exponential backoff and jitter.
func (in *Inbox) Run(ctx context.Context, h Handler) error {
	return in.RunBatch(ctx, h.batch())
}

// RunBatch is Run for a handler that takes the messages found together in
// one call (up to BatchSize of them, BatchBytes in all), such as one that
// commits them in one transaction.
func (in *Inbox) RunBatch(ctx context.Context, h BatchHandler) error {
	b := backoff{min: in.cfg.ReconnectMin, max: in.cfg.ReconnectMax}
	for {
		if ctx.Err() != nil {
			return ctx.Err() // stopped before connecting: no session to cut
		}
		start := time.Now()
		selected, err := in.session(ctx, h)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if selected && time.Since(start) >= in.cfg.ReconnectMax {
			// The session worked for a good while, so this is a fresh
			// failure (a restart, say): come back quickly. A session that
			// fails right after SELECT keeps backing off instead.
			b.reset()
		}
		delay := b.next()
		in.log.Warn("imap session ended; reconnecting", "err", err, "delay", delay.Round(time.Millisecond))
		if !sleep(ctx, delay) {
			return ctx.Err()
		}
	}
}

// conn is one connected, logged-in IMAP session.
type conn struct {
	c *imapclient.Client
	// wake receives a value when the server announces new messages
	// (EXISTS). It holds at most one pending wake-up.
	wake chan struct{}
}

// dial connects and logs in.
func dial(ctx context.Context, addr string, sec Security, tlsConfig *tls.Config, username, password string) (*conn, error) {
	wake := make(chan struct{}, 1)
	opts := &imapclient.Options{
		TLSConfig: tlsConfig,
		Dialer:    &net.Dialer{Timeout: 30 * time.Second},
		UnilateralDataHandler: &imapclient.UnilateralDataHandler{
			// Called from the client's reader goroutine: never block.
			Mailbox: func(data *imapclient.UnilateralDataMailbox) {
				if data.NumMessages != nil {
					select {
					case wake <- struct{}{}:
					default:
					}
				}
			},
		},
	}
	var (
		c   *imapclient.Client
		err error
	)
	// The client's Dial functions take no context; a cancelled ctx closes
	// the connection below, and the dialer's timeout bounds the rest.
	switch sec {
	case SecurityTLS:
		c, err = imapclient.DialTLS(addr, opts)
	case SecurityStartTLS:
		c, err = imapclient.DialStartTLS(addr, opts)
	default:
		c, err = imapclient.DialInsecure(addr, opts)
	}
	if err != nil {
		return nil, fmt.Errorf("connect: %w", err)
	}
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	if err := c.WaitGreeting(); err != nil {
		c.Close()
		return nil, fmt.Errorf("greeting: %w", err)
	}
	if err := c.Login(username, password).Wait(); err != nil {
		c.Close()
		return nil, fmt.Errorf("login as %s: %w", username, err)
	}
	return &conn{c: c, wake: wake}, nil
}

// session runs one connection: it logs in, selects the mailbox, and reads
// until an error or until ctx is done. selected reports whether it got as
// far as selecting the mailbox.
func (in *Inbox) session(ctx context.Context, h BatchHandler) (selected bool, err error) {
	cn, err := dial(ctx, in.cfg.Addr, in.cfg.Security, in.cfg.TLSConfig, in.cfg.Username, in.cfg.Password)
	if err != nil {
		return false, err
	}
	c := cn.c
	defer c.Close()
	// A stop ends the session politely: the loop leaves IDLE, the message
	// in hand is finished and marked, and the session logs out, so that
	// neither side logs a broken connection. A server that does not
	// answer within logoutGrace is cut off.
	ended := make(chan struct{})
	defer close(ended)
	stop := context.AfterFunc(ctx, func() {
		t := time.NewTimer(logoutGrace)
		defer t.Stop()
		select {
		case <-ended:
		case <-t.C:
			c.Close()
		}
	})
	defer stop()
	defer func() {
		if ctx.Err() != nil {
			if err := c.Logout().Wait(); err != nil {
				in.log.Debug("imap logout", "err", err)
			}
		}
	}()

	if !in.keyword() {
		if err := c.Create(in.cfg.Processed, nil).Wait(); err != nil && !alreadyExists(err) {
			return false, fmt.Errorf("create %s: %w", in.cfg.Processed, err)
		}
	}
	data, err := c.Select(in.cfg.Mailbox, nil).Wait()
	if err != nil {
		return false, fmt.Errorf("select %s: %w", in.cfg.Mailbox, err)
	}
	if in.keyword() && !keywordsAllowed(data.PermanentFlags, in.cfg.Processed) {
		in.log.Warn("server may not keep the processed keyword; consider a processed folder",
			"keyword", in.cfg.Processed, "permanentflags", data.PermanentFlags)
	}

	var lastUID uint32
	trusted := false // whether a cursor says where to resume in this folder
	if in.cursor != nil {
		validity, uid, err := in.cursor.ResumeAt(ctx, in.cfg.Mailbox)
		if err != nil {
			return true, fmt.Errorf("load cursor: %w", err)
		}
		switch {
		case validity == data.UIDValidity && data.UIDNext != 0 && imap.UID(uid) >= data.UIDNext:
			// The cursor is past every UID this folder ever handed out:
			// it belongs to another folder that reused the UIDVALIDITY
			// (a server that lost its mail, say). Trusting it would skip
			// mail silently; the Message-ID record catches repeats.
			in.log.Warn("the cursor is beyond the folder's UIDNEXT; reading the folder from the start",
				"uidvalidity", validity, "lastUID", uid, "uidnext", data.UIDNext)
		case validity == data.UIDValidity:
			lastUID, trusted = uid, true
		case validity != 0:
			// The server renumbered the folder: UIDs from before mean
			// nothing now. Everything not marked processed is offered
			// again; the handler's Message-ID record catches repeats.
			in.log.Warn("UIDVALIDITY changed; reading the folder from the start",
				"was", validity, "now", data.UIDValidity, "lastUID", uid)
		}
	}
	s := &state{Inbox: in, c: c, wake: cn.wake, h: h, validity: data.UIDValidity, lastUID: lastUID, trusted: trusted}
	if err := s.repair(ctx); err != nil {
		return true, err
	}
	useIdle := !in.cfg.DisableIdle && c.Caps().Has(imap.CapIdle)
	in.log.Info("imap connected", "uidvalidity", data.UIDValidity, "lastUID", lastUID, "idle", useIdle)
	in.cfg.Observer.Connected()
	return true, s.loop(ctx, useIdle)
}

// state is what one session knows while it reads.
type state struct {
	*Inbox
	c        *imapclient.Client
	wake     chan struct{}
	h        BatchHandler
	validity uint32
	lastUID  uint32 // highest UID handled in this UIDVALIDITY
	// trusted says the cursor was kept for this UIDVALIDITY: then the
	// cursor alone says what is new, and mail above it is read even when
	// flagged processed. That is what a database restored from a backup
	// needs: the mail handled since the backup was flagged, and must be
	// read again (the handler's Message-ID record skips what it knows).
	trusted bool
}

// loop searches, hands new messages over, and waits for more, until an error.
func (s *state) loop(ctx context.Context, useIdle bool) error {
	first := true
	for {
		// Drain a pending wake-up first: the search below sees everything
		// it announced.
		select {
		case <-s.wake:
		default:
		}
		found, herr, err := s.processNew(ctx)
		if err != nil {
			return err
		}

		var wait time.Duration
		switch {
		case herr != nil:
			wait = s.cfg.RetryDelay
		case !useIdle:
			wait = s.cfg.PollInterval
		case found > 0 || first:
			wait = min(idleSettle, s.cfg.IdleRefresh)
		default:
			wait = s.cfg.IdleRefresh
		}
		first = false
		if useIdle {
			err = s.idle(ctx, wait)
		} else {
			err = s.pause(ctx, wait)
		}
		if err != nil {
			return err
		}
	}
}

// pause waits for d, a wake-up, or the end of the connection.
func (s *state) pause(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-s.wake:
		return nil
	case <-s.c.Closed():
		return errors.New("connection closed")
	case <-ctx.Done():
		return ctx.Err()
	}
}

// idle sits in IDLE until the server announces mail, d passes, or the
// connection ends.
func (s *state) idle(ctx context.Context, d time.Duration) error {
	cmd, err := s.c.Idle()
	if err != nil {
		return fmt.Errorf("idle: %w", err)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	var waitErr error
	select {
	case <-t.C:
	case <-s.wake:
	case <-s.c.Closed():
		waitErr = errors.New("connection closed while idling")
	case <-ctx.Done():
		waitErr = ctx.Err()
	}
	if err := cmd.Close(); err != nil && waitErr == nil {
		waitErr = fmt.Errorf("stop idle: %w", err)
	}
	if err := cmd.Wait(); err != nil && waitErr == nil {
		waitErr = fmt.Errorf("idle: %w", err)
	}
	return waitErr
}

// searchCriteria selects messages with UIDs in set that are not yet marked
// processed.
func (s *state) searchCriteria(set imap.UIDSet) *imap.SearchCriteria {
	crit := &imap.SearchCriteria{UID: []imap.UIDSet{set}}
	if s.keyword() {
		crit.NotFlag = []imap.Flag{imap.Flag(s.cfg.Processed)}
	} else {
		// A COPY+STORE fallback may have left a \Deleted copy behind.
		crit.NotFlag = []imap.Flag{imap.FlagDeleted}
	}
	return crit
}

// repair marks messages the cursor covers but that are not marked yet: the
// handler committed them, and then the connection (or the process) died
// before the mark reached the server.
func (s *state) repair(ctx context.Context) error {
	if s.lastUID == 0 {
		return nil
	}
	set := imap.UIDSet{imap.UIDRange{Start: 1, Stop: imap.UID(s.lastUID)}}
	data, err := s.c.UIDSearch(s.searchCriteria(set), nil).Wait()
	if err != nil {
		return fmt.Errorf("search: %w", err)
	}
	uids := data.AllUIDs()
	if len(uids) == 0 {
		return nil
	}
	s.log.Info("marking messages committed before a disconnect", "count", len(uids))
	var todo imap.UIDSet
	for _, uid := range uids {
		if uint32(uid) <= s.lastUID {
			todo.AddNum(uid)
		}
	}
	return s.mark(todo)
}

// processNew hands every new message to the handler in UID order, in
// batches. found counts the messages handed over; herr is the handler's
// error, if it failed; err is a connection or protocol error that ends
// the session.
func (s *state) processNew(ctx context.Context) (found int, herr, err error) {
	set := imap.UIDSet{imap.UIDRange{Start: imap.UID(s.lastUID + 1), Stop: 0}} // lastUID+1:*
	crit := s.searchCriteria(set)
	if s.trusted && s.keyword() {
		crit.NotFlag = nil
	}
	data, err := s.c.UIDSearch(crit, nil).Wait()
	if err != nil {
		return 0, nil, fmt.Errorf("search: %w", err)
	}
	s.cfg.Observer.Searched(time.Now())
	var uids []uint32
	for _, uid := range data.AllUIDs() {
		// "n:*" also matches the highest UID when it is below n.
		if uint32(uid) > s.lastUID {
			uids = append(uids, uint32(uid))
		}
	}
	slices.Sort(uids)
	for len(uids) > 0 {
		if ctx.Err() != nil {
			return found, nil, ctx.Err() // stopping: take no more
		}
		msgs, taken, err := s.fetchBatch(uids[:min(len(uids), s.cfg.BatchSize)])
		if err != nil {
			return found, nil, err
		}
		uids = uids[taken:]
		if len(msgs) == 0 {
			continue // expunged meanwhile by someone else
		}
		found += len(msgs)
		n, herr := s.h(ctx, msgs)
		if n > 0 {
			s.lastUID = msgs[n-1].UID
			var done imap.UIDSet
			for _, m := range msgs[:n] {
				done.AddNum(imap.UID(m.UID))
			}
			if err := s.mark(done); err != nil {
				return found, nil, err
			}
		}
		if n < len(msgs) {
			if ctx.Err() != nil {
				return found, nil, ctx.Err()
			}
			if herr == nil {
				herr = fmt.Errorf("handler took %d of %d messages and gave no reason", n, len(msgs))
			}
			s.log.Error("handler failed; will retry", "uid", msgs[n].UID, "err", herr, "retry", s.cfg.RetryDelay)
			return found, herr, nil
		}
	}
	return found, nil, nil
}

// fetchBatch reads the first of uids (UID order) that fit in a batch:
// their sizes in one command, then the whole text of those within
// MaxSize and the header alone of the others, in one command each.
// taken counts the uids it dealt with, msgs those still there (a
// message expunged meanwhile by someone else is skipped). The batch
// stops before BatchBytes, counting each message at most MaxSize, but
// holds one message at least.
func (s *state) fetchBatch(uids []uint32) (msgs []Message, taken int, err error) {
	var set imap.UIDSet
	for _, uid := range uids {
		set.AddNum(imap.UID(uid))
	}
	bufs, err := s.c.Fetch(set, &imap.FetchOptions{UID: true, RFC822Size: true}).Collect()
	if err != nil {
		return nil, 0, fmt.Errorf("fetch sizes of %v: %w", set, err)
	}
	var whole, headers imap.UIDSet
	var bytes int64
	for _, uid := range uids {
		size, ok := findSize(bufs, uid)
		if !ok {
			taken++ // gone
			continue
		}
		cost := min(size, s.cfg.MaxSize)
		if len(msgs) > 0 && bytes+cost > s.cfg.BatchBytes {
			break
		}
		bytes += cost
		taken++
		m := Message{Mailbox: s.cfg.Mailbox, UIDValidity: s.validity, UID: uid, Size: size, TooLarge: size > s.cfg.MaxSize}
		if m.TooLarge {
			headers.AddNum(imap.UID(uid))
		} else {
			whole.AddNum(imap.UID(uid))
		}
		msgs = append(msgs, m)
	}
	// PEEK leaves \Seen alone, so a person looking at the mailbox still
	// sees what is new to them.
	for _, part := range []struct {
		set     imap.UIDSet
		section *imap.FetchItemBodySection
	}{
		{whole, &imap.FetchItemBodySection{Peek: true}},
		{headers, &imap.FetchItemBodySection{Peek: true, Specifier: imap.PartSpecifierHeader}},
	} {
		if len(part.set) == 0 {
			continue
		}
		bufs, err := s.c.Fetch(part.set, &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{part.section}}).Collect()
		if err != nil {
			return nil, 0, fmt.Errorf("fetch %v: %w", part.set, err)
		}
		for i := range msgs {
			if !part.set.Contains(imap.UID(msgs[i].UID)) {
				continue
			}
			for _, b := range bufs {
				if uint32(b.UID) == msgs[i].UID {
					msgs[i].Raw = b.FindBodySection(part.section)
					if msgs[i].Raw == nil {
						return nil, 0, fmt.Errorf("fetch %d: server sent no body", msgs[i].UID)
					}
				}
			}
		}
	}
	// A message expunged between the two commands has no text: it is
	// gone, as if the first command had not found it.
	kept := msgs[:0]
	for _, m := range msgs {
		if m.Raw != nil {
			kept = append(kept, m)
		}
	}
	return kept, taken, nil
}

func findSize(bufs []*imapclient.FetchMessageBuffer, uid uint32) (int64, bool) {
	for _, b := range bufs {
		if uint32(b.UID) == uid {
			return b.RFC822Size, true
		}
	}
	return 0, false
}

// mark marks handled messages: a keyword, or a move to the processed folder.
func (s *state) mark(set imap.UIDSet) error {
	if len(set) == 0 {
		return nil
	}
	if s.keyword() {
		store := &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.Flag(s.cfg.Processed)}}
		if err := s.c.Store(set, store, nil).Close(); err != nil {
			return fmt.Errorf("store %s on %v: %w", s.cfg.Processed, set, err)
		}
		return nil
	}
	// Move falls back to COPY, STORE \Deleted and (UID) EXPUNGE on servers
	// without MOVE. We ignore the EXPUNGE responses: go-imap's own server
	// reports them twice after MOVE, and UIDs are all we need.
	if _, err := s.c.Move(set, s.cfg.Processed).Wait(); err != nil {
		return fmt.Errorf("move %v to %s: %w", set, s.cfg.Processed, err)
	}
	return nil
}

func alreadyExists(err error) bool {
	var ierr *imap.Error
	return errors.As(err, &ierr) && ierr.Code == imap.ResponseCodeAlreadyExists
}

// keywordsAllowed reports whether PERMANENTFLAGS lets us store kw.
func keywordsAllowed(perm []imap.Flag, kw string) bool {
	if perm == nil {
		return true // not announced; assume the best and let STORE tell
	}
	for _, f := range perm {
		if f == imap.FlagWildcard || strings.EqualFold(string(f), kw) {
			return true
		}
	}
	return false
}
