package embedded

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
)

// The store keeps every user's mailboxes. With a directory it keeps them on
// disk, one maildir-like folder per mailbox:
//
//	DIR/uidvalidity                 the last UIDVALIDITY handed out
//	DIR/password                    the generated password (embedded.go)
//	DIR/USER/MAILBOX/cur/UID        one file per message, named by its UID;
//	                                its modification time is the INTERNALDATE
//	DIR/USER/MAILBOX/new/           drop mail here (tmp/ then rename) while
//	                                pbem is down: delivered at the next start
//	DIR/USER/MAILBOX/tmp/           files being written
//	DIR/USER/MAILBOX/journal        UIDVALIDITY, UIDNEXT, flags and expunges
//
// USER and MAILBOX are the names with every byte outside [A-Za-z0-9@._+-]
// (and a leading dot) written as %XX, so "Archive/2024" is "Archive%2F2024".
// Without a directory the same structures live in memory only.
//
// The files are the truth for which messages exist; the journal, an
// append-only list of lines, for everything else. It is rewritten compactly
// when the mailbox is loaded. Every change is written and fsynced before
// the command that made it is answered.
//
// Files in new/ (and files in cur/ not named by a number) are only looked
// at when the servers start: while they run, mail comes in by SMTP. Kept
// simple on purpose: one process per directory; RENAME moves one mailbox,
// not the ones below it; renaming INBOX away leaves a new, empty INBOX to be
// made at the next delivery or login.

const journalMagic = "pbem-mailbox 1"

// store is the set of users.
type store struct {
	dir string // "" keeps everything in memory
	log *slog.Logger

	mu    sync.Mutex
	users map[string]*user

	// validityMu guards lastValidity; it is taken under user and mailbox
	// locks, never the other way round.
	validityMu   sync.Mutex
	lastValidity uint32
}

type user struct {
	st   *store
	name string
	dir  string

	mu        sync.Mutex
	mailboxes map[string]*mailbox
}

type mailbox struct {
	tracker *imapserver.MailboxTracker

	mu         sync.Mutex
	name       string
	dir        string // "" in memory
	validity   uint32
	uidNext    imap.UID
	subscribed bool
	deleted    bool
	msgs       []*message // in UID order
	journal    *os.File
}

type message struct {
	uid   imap.UID
	date  time.Time
	size  int64
	flags []imap.Flag
	buf   []byte // in memory mode only; on disk it is read when needed
}

// openStore loads every user found in dir (if any), delivering mail dropped
// into new/ folders and compacting the journals.
func openStore(dir string, log *slog.Logger) (*store, error) {
	st := &store{dir: dir, log: log, users: make(map[string]*user)}
	if dir == "" {
		return st, nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("embedded: mail dir: %w", err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "uidvalidity"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("embedded: mail dir: %w", err)
	}
	if len(b) > 0 {
		v, err := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 32)
		if err != nil {
			return nil, fmt.Errorf("embedded: %s/uidvalidity: %w", dir, err)
		}
		st.lastValidity = uint32(v)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("embedded: mail dir: %w", err)
	}
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		name, err := url.PathUnescape(e.Name())
		if err != nil {
			st.log.Warn("ignoring folder with a malformed name", "dir", filepath.Join(dir, e.Name()))
			continue
		}
		u, err := st.loadUser(name)
		if err != nil {
			return nil, err
		}
		st.users[name] = u
	}
	return st, nil
}

// close closes the journals.
func (st *store) close() {
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, u := range st.users {
		u.mu.Lock()
		for _, mb := range u.mailboxes {
			mb.mu.Lock()
			if mb.journal != nil {
				mb.journal.Close()
				mb.journal = nil
			}
			mb.mu.Unlock()
		}
		u.mu.Unlock()
	}
}

// nextValidity hands out a UIDVALIDITY never handed out before from this
// directory: the time in seconds, as Dovecot does, but always above the
// last one, which is recorded before it is used. Time makes a fresh
// directory (or an in-memory store) unlikely to repeat an earlier life's
// values, so a cursor remembered from then cannot match.
func (st *store) nextValidity() (uint32, error) {
	st.validityMu.Lock()
	defer st.validityMu.Unlock()
	v := uint32(time.Now().Unix())
	if v <= st.lastValidity {
		v = st.lastValidity + 1
	}
	if st.dir != "" {
		if err := writeFileAtomic(filepath.Join(st.dir, "uidvalidity"), []byte(strconv.FormatUint(uint64(v), 10)+"\n")); err != nil {
			return 0, fmt.Errorf("embedded: uidvalidity: %w", err)
		}
	}
	st.lastValidity = v
	return v, nil
}

// noteValidity makes sure later values are above v, found on disk.
func (st *store) noteValidity(v uint32) {
	st.validityMu.Lock()
	st.lastValidity = max(st.lastValidity, v)
	st.validityMu.Unlock()
}

// user returns the named user, creating it with an INBOX on first use.
func (st *store) user(name string) (*user, error) {
	st.mu.Lock()
	u := st.users[name]
	if u == nil {
		u = &user{st: st, name: name, mailboxes: make(map[string]*mailbox)}
		if st.dir != "" {
			u.dir = filepath.Join(st.dir, fsName(name))
			if err := os.MkdirAll(u.dir, 0o700); err != nil {
				st.mu.Unlock()
				return nil, fmt.Errorf("embedded: user %s: %w", name, err)
			}
			if err := syncDir(st.dir); err != nil {
				st.mu.Unlock()
				return nil, fmt.Errorf("embedded: user %s: %w", name, err)
			}
		}
		st.users[name] = u
	}
	st.mu.Unlock()
	if _, err := u.inbox(); err != nil {
		return nil, err
	}
	return u, nil
}

func (st *store) loadUser(name string) (*user, error) {
	u := &user{st: st, name: name, dir: filepath.Join(st.dir, fsName(name)), mailboxes: make(map[string]*mailbox)}
	entries, err := os.ReadDir(u.dir)
	if err != nil {
		return nil, fmt.Errorf("embedded: user %s: %w", name, err)
	}
	for _, e := range entries {
		path := filepath.Join(u.dir, e.Name())
		if strings.HasPrefix(e.Name(), ".") {
			// A mailbox half created or half deleted when the process
			// stopped: nothing in it was acknowledged.
			if err := os.RemoveAll(path); err != nil {
				return nil, fmt.Errorf("embedded: %w", err)
			}
			continue
		}
		if !e.IsDir() {
			continue
		}
		mbName, err := url.PathUnescape(e.Name())
		if err != nil {
			st.log.Warn("ignoring folder with a malformed name", "dir", path)
			continue
		}
		mb, err := st.loadMailbox(mbName, path)
		if err != nil {
			return nil, err
		}
		u.mailboxes[mbName] = mb
	}
	return u, nil
}

// inbox returns the user's INBOX, creating it if it is missing.
func (u *user) inbox() (*mailbox, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if mb := u.mailboxes["INBOX"]; mb != nil {
		return mb, nil
	}
	return u.createLocked("INBOX")
}

// canonicalName makes INBOX case-insensitive, as RFC 3501 wants.
func canonicalName(name string) string {
	name = strings.TrimRight(name, "/")
	if strings.EqualFold(name, "INBOX") {
		return "INBOX"
	}
	return name
}

func (u *user) mailbox(name string) *mailbox {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.mailboxes[canonicalName(name)]
}

var errExists = &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeAlreadyExists, Text: "Mailbox already exists"}

func errNoMailbox() error {
	return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeNonExistent, Text: "No such mailbox"}
}

func (u *user) create(name string) error {
	name = canonicalName(name)
	if name == "" {
		return &imap.Error{Type: imap.StatusResponseTypeNo, Text: "Empty mailbox name"}
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.mailboxes[name] != nil {
		return errExists
	}
	_, err := u.createLocked(name)
	return err
}

// createLocked makes a new, empty mailbox with a new UIDVALIDITY. On disk
// it is built under a dot name and renamed into place, so a crash leaves
// either nothing or a whole mailbox.
func (u *user) createLocked(name string) (*mailbox, error) {
	v, err := u.st.nextValidity()
	if err != nil {
		return nil, err
	}
	mb := &mailbox{tracker: imapserver.NewMailboxTracker(0), name: name, validity: v, uidNext: 1}
	if u.dir != "" {
		tmp := filepath.Join(u.dir, ".new-"+randomName())
		for _, sub := range []string{"cur", "new", "tmp"} {
			if err := os.MkdirAll(filepath.Join(tmp, sub), 0o700); err != nil {
				return nil, fmt.Errorf("embedded: create %s: %w", name, err)
			}
		}
		mb.dir = tmp
		if err := mb.compact(); err != nil {
			return nil, fmt.Errorf("embedded: create %s: %w", name, err)
		}
		final := filepath.Join(u.dir, fsName(name))
		if err := os.Rename(tmp, final); err != nil {
			mb.journal.Close()
			return nil, fmt.Errorf("embedded: create %s: %w", name, err)
		}
		if err := syncDir(u.dir); err != nil {
			mb.journal.Close()
			return nil, fmt.Errorf("embedded: create %s: %w", name, err)
		}
		mb.dir = final
	}
	u.mailboxes[name] = mb
	return mb, nil
}

func (u *user) delete(name string) error {
	name = canonicalName(name)
	u.mu.Lock()
	defer u.mu.Unlock()
	mb := u.mailboxes[name]
	if mb == nil {
		return errNoMailbox()
	}
	mb.mu.Lock()
	defer mb.mu.Unlock()
	if mb.dir != "" {
		// Renamed away first, so a crash halfway through removing it
		// cannot leave half a mailbox under its name.
		trash := filepath.Join(u.dir, ".deleted-"+randomName())
		if err := os.Rename(mb.dir, trash); err != nil {
			return fmt.Errorf("embedded: delete %s: %w", name, err)
		}
		if err := syncDir(u.dir); err != nil {
			return fmt.Errorf("embedded: delete %s: %w", name, err)
		}
		if mb.journal != nil {
			mb.journal.Close()
			mb.journal = nil
		}
		if err := os.RemoveAll(trash); err != nil {
			u.st.log.Warn("could not remove a deleted mailbox", "dir", trash, "err", err)
		}
	}
	mb.deleted = true
	delete(u.mailboxes, name)
	return nil
}

func (u *user) rename(oldName, newName string) error {
	oldName, newName = canonicalName(oldName), canonicalName(newName)
	if newName == "" {
		return &imap.Error{Type: imap.StatusResponseTypeNo, Text: "Empty mailbox name"}
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	mb := u.mailboxes[oldName]
	if mb == nil {
		return errNoMailbox()
	}
	if u.mailboxes[newName] != nil {
		return errExists
	}
	mb.mu.Lock()
	defer mb.mu.Unlock()
	if mb.dir != "" {
		dir := filepath.Join(u.dir, fsName(newName))
		if err := os.Rename(mb.dir, dir); err != nil {
			return fmt.Errorf("embedded: rename %s: %w", oldName, err)
		}
		if err := syncDir(u.dir); err != nil {
			return fmt.Errorf("embedded: rename %s: %w", oldName, err)
		}
		mb.dir = dir
	}
	mb.name = newName
	delete(u.mailboxes, oldName)
	u.mailboxes[newName] = mb
	return nil
}

// list returns the user's mailboxes sorted by name.
func (u *user) list() []*mailbox {
	u.mu.Lock()
	defer u.mu.Unlock()
	l := make([]*mailbox, 0, len(u.mailboxes))
	for _, mb := range u.mailboxes {
		l = append(l, mb)
	}
	sort.Slice(l, func(i, j int) bool { return l[i].name < l[j].name })
	return l
}

// loadMailbox reads a mailbox folder, delivers what waits in new/, throws
// away tmp/ and rewrites the journal compactly.
func (st *store) loadMailbox(name, dir string) (*mailbox, error) {
	mb := &mailbox{name: name, dir: dir, uidNext: 1}
	for _, sub := range []string{"cur", "new", "tmp"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o700); err != nil {
			return nil, fmt.Errorf("embedded: load %s: %w", dir, err)
		}
	}
	flags := map[imap.UID][]imap.Flag{}
	expunged := map[imap.UID]bool{}
	if err := mb.readJournal(flags, expunged, st.log); err != nil {
		return nil, err
	}
	if mb.validity == 0 {
		// No journal: a folder made by hand to drop mail into.
		v, err := st.nextValidity()
		if err != nil {
			return nil, err
		}
		mb.validity = v
	}
	st.noteValidity(mb.validity)
	for uid := range expunged {
		mb.uidNext = max(mb.uidNext, uid+1)
	}

	// Leftovers in tmp/ and half-written journals were never
	// acknowledged.
	if err := clearDir(filepath.Join(dir, "tmp")); err != nil {
		return nil, fmt.Errorf("embedded: load %s: %w", dir, err)
	}
	if tmps, err := filepath.Glob(filepath.Join(dir, "journal.tmp-*")); err == nil {
		for _, t := range tmps {
			os.Remove(t)
		}
	}
	strays, err := mb.loadCur(flags, expunged)
	if err != nil {
		return nil, err
	}
	if err := st.deliverStrays(mb, strays); err != nil {
		return nil, err
	}
	mb.tracker = imapserver.NewMailboxTracker(uint32(len(mb.msgs)))
	if err := mb.compact(); err != nil {
		return nil, fmt.Errorf("embedded: load %s: %w", dir, err)
	}
	return mb, nil
}

// loadCur lists the mail in cur/ as the mailbox's messages, with the
// flags the journal gave them, and finishes the removal of those it
// expunged. It returns the files of cur/ not named by a UID, and the files
// waiting in new/: mail to deliver.
func (mb *mailbox) loadCur(flags map[imap.UID][]imap.Flag, expunged map[imap.UID]bool) (strays []string, err error) {
	dir := mb.dir
	cur := filepath.Join(dir, "cur")
	entries, err := os.ReadDir(cur)
	if err != nil {
		return nil, fmt.Errorf("embedded: load %s: %w", dir, err)
	}
	for _, e := range entries {
		uid64, err := strconv.ParseUint(e.Name(), 10, 32)
		if err != nil || uid64 == 0 || e.IsDir() {
			strays = append(strays, filepath.Join(cur, e.Name()))
			continue
		}
		uid := imap.UID(uid64)
		mb.uidNext = max(mb.uidNext, uid+1)
		path := filepath.Join(cur, e.Name())
		if expunged[uid] {
			// The expunge was journalled; removing the file was not
			// finished.
			if err := os.Remove(path); err != nil {
				return nil, fmt.Errorf("embedded: load %s: %w", dir, err)
			}
			continue
		}
		info, err := e.Info()
		if err != nil {
			return nil, fmt.Errorf("embedded: load %s: %w", dir, err)
		}
		mb.msgs = append(mb.msgs, &message{uid: uid, date: info.ModTime(), size: info.Size(), flags: flags[uid]})
	}
	sort.Slice(mb.msgs, func(i, j int) bool { return mb.msgs[i].uid < mb.msgs[j].uid })

	newDir := filepath.Join(dir, "new")
	entries, err = os.ReadDir(newDir)
	if err != nil {
		return nil, fmt.Errorf("embedded: load %s: %w", dir, err)
	}
	for _, e := range entries {
		if !e.IsDir() {
			strays = append(strays, filepath.Join(newDir, e.Name()))
		}
	}
	return strays, nil
}

// deliverStrays delivers mail dropped into the mail dir: each regular file
// gets the next UID, in the order given, and cur/ is synced once.
func (st *store) deliverStrays(mb *mailbox, strays []string) error {
	for _, path := range strays {
		info, err := os.Stat(path)
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		uid := mb.uidNext
		if err := os.Rename(path, mb.path(uid)); err != nil {
			return fmt.Errorf("embedded: deliver %s: %w", path, err)
		}
		mb.uidNext++
		mb.msgs = append(mb.msgs, &message{uid: uid, date: info.ModTime(), size: info.Size()})
		st.log.Info("delivered mail dropped into the mail dir", "file", path, "mailbox", mb.name, "uid", uid)
	}
	if len(strays) > 0 {
		if err := syncDir(filepath.Join(mb.dir, "cur")); err != nil {
			return fmt.Errorf("embedded: load %s: %w", mb.dir, err)
		}
	}
	return nil
}

// readJournal replays the journal. A last line without its newline was
// being written when the process stopped; the command it belongs to was not
// answered, so it is dropped.
func (mb *mailbox) readJournal(flags map[imap.UID][]imap.Flag, expunged map[imap.UID]bool, log *slog.Logger) error {
	b, err := os.ReadFile(filepath.Join(mb.dir, "journal"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		return fmt.Errorf("embedded: journal: %w", err)
	}
	text := string(b)
	if i := strings.LastIndexByte(text, '\n'); i < len(text)-1 {
		text = text[:i+1]
	}
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if !mb.replayJournalLine(sc.Text(), flags, expunged) {
			log.Warn("ignoring a journal line", "dir", mb.dir, "line", sc.Text())
		}
	}
	return sc.Err()
}

// replayJournalLine applies one journal line to the mailbox, the flags and
// the expunged UIDs, and reports false for a line it does not know.
func (mb *mailbox) replayJournalLine(line string, flags map[imap.UID][]imap.Flag, expunged map[imap.UID]bool) bool {
	f := strings.Fields(line)
	if len(f) == 0 {
		return true
	}
	var n uint64
	var err error
	if len(f) > 1 {
		n, err = strconv.ParseUint(f[1], 10, 32)
	}
	switch {
	case line == journalMagic:
	case len(f) == 2 && f[0] == "uidvalidity" && err == nil && n > 0:
		mb.validity = uint32(n)
	case len(f) == 2 && f[0] == "uidnext" && err == nil:
		mb.uidNext = max(mb.uidNext, imap.UID(n))
	case len(f) == 2 && f[0] == "subscribed":
		mb.subscribed = f[1] == "1"
	case len(f) >= 2 && f[0] == "flags" && err == nil && n > 0:
		var l []imap.Flag
		for _, s := range f[2:] {
			l = append(l, imap.Flag(s))
		}
		flags[imap.UID(n)] = l
	case len(f) == 2 && f[0] == "expunge" && err == nil && n > 0:
		expunged[imap.UID(n)] = true
		delete(flags, imap.UID(n))
	default:
		return false
	}
	return true
}

// compact rewrites the journal with the current state and opens it for
// appending.
func (mb *mailbox) compact() error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\nuidvalidity %d\nuidnext %d\n", journalMagic, mb.validity, mb.uidNext)
	if mb.subscribed {
		b.WriteString("subscribed 1\n")
	}
	for _, m := range mb.msgs {
		if len(m.flags) > 0 {
			b.WriteString(flagsLine(m))
		}
	}
	path := filepath.Join(mb.dir, "journal")
	if err := writeFileAtomic(path, []byte(b.String())); err != nil {
		return err
	}
	if mb.journal != nil {
		mb.journal.Close()
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	mb.journal = f
	return nil
}

func flagsLine(m *message) string {
	var b strings.Builder
	fmt.Fprintf(&b, "flags %d", m.uid)
	for _, f := range m.flags {
		b.WriteString(" " + string(f))
	}
	b.WriteString("\n")
	return b.String()
}

// logLocked appends lines to the journal and syncs it. In memory it does
// nothing.
func (mb *mailbox) logLocked(lines string) error {
	if mb.dir == "" || lines == "" {
		return nil
	}
	if mb.journal == nil {
		return fmt.Errorf("embedded: mailbox %s is closed", mb.name)
	}
	if _, err := mb.journal.WriteString(lines); err != nil {
		return fmt.Errorf("embedded: journal %s: %w", mb.name, err)
	}
	if err := mb.journal.Sync(); err != nil {
		return fmt.Errorf("embedded: journal %s: %w", mb.name, err)
	}
	return nil
}

func (mb *mailbox) path(uid imap.UID) string {
	return filepath.Join(mb.dir, "cur", strconv.FormatUint(uint64(uid), 10))
}

// readBody returns a message's bytes, from memory or from the mailbox
// folder dir.
func readBody(m *message, dir string) ([]byte, error) {
	if dir == "" {
		return m.buf, nil
	}
	return os.ReadFile(filepath.Join(dir, "cur", strconv.FormatUint(uint64(m.uid), 10)))
}

// newMail is a message to append.
type newMail struct {
	buf   []byte
	flags []imap.Flag
	date  time.Time
}

// append adds messages and returns their UIDs. On disk each is in cur/,
// synced, before append returns: the caller may then acknowledge it.
func (mb *mailbox) append(mails ...newMail) ([]imap.UID, error) {
	mb.mu.Lock()
	defer mb.mu.Unlock()
	if mb.deleted {
		return nil, errNoMailbox()
	}
	var (
		uids  []imap.UID
		added []*message
		log   strings.Builder
	)
	for _, nm := range mails {
		if nm.date.IsZero() {
			nm.date = time.Now()
		}
		m := &message{uid: mb.uidNext, date: nm.date, size: int64(len(nm.buf)), flags: storeFlags(nil, imap.StoreFlagsSet, nm.flags)}
		if mb.dir == "" {
			m.buf = nm.buf
		} else {
			tmp := filepath.Join(mb.dir, "tmp", randomName())
			if err := writeFileSynced(tmp, nm.buf); err != nil {
				return nil, fmt.Errorf("embedded: append to %s: %w", mb.name, err)
			}
			if err := os.Chtimes(tmp, nm.date, nm.date); err != nil {
				os.Remove(tmp)
				return nil, fmt.Errorf("embedded: append to %s: %w", mb.name, err)
			}
			if err := os.Rename(tmp, mb.path(m.uid)); err != nil {
				os.Remove(tmp)
				return nil, fmt.Errorf("embedded: append to %s: %w", mb.name, err)
			}
			if len(m.flags) > 0 {
				log.WriteString(flagsLine(m))
			}
		}
		mb.uidNext++
		uids = append(uids, m.uid)
		added = append(added, m)
	}
	if mb.dir != "" {
		if err := syncDir(filepath.Join(mb.dir, "cur")); err != nil {
			return nil, fmt.Errorf("embedded: append to %s: %w", mb.name, err)
		}
	}
	if err := mb.logLocked(log.String()); err != nil {
		return nil, err
	}
	mb.msgs = append(mb.msgs, added...)
	mb.tracker.QueueNumMessages(uint32(len(mb.msgs)))
	return uids, nil
}

// expungeLocked removes the messages for which drop is true. The journal
// records it before the files go, so a crash in between cannot bring them
// back.
func (mb *mailbox) expungeLocked(drop func(*message) bool) ([]imap.UID, error) {
	var (
		log  strings.Builder
		gone []imap.UID
		seqs []uint32
		keep []*message
	)
	for i, m := range mb.msgs {
		if drop(m) {
			fmt.Fprintf(&log, "expunge %d\n", m.uid)
			gone = append(gone, m.uid)
			seqs = append(seqs, uint32(i+1))
		} else {
			keep = append(keep, m)
		}
	}
	if len(gone) == 0 {
		return nil, nil
	}
	if err := mb.logLocked(log.String()); err != nil {
		return nil, err
	}
	if mb.dir != "" {
		for _, uid := range gone {
			// If this fails the journal still says expunged, and the
			// next start removes the file.
			os.Remove(mb.path(uid))
		}
	}
	mb.msgs = keep
	// From the highest down, so every number is still valid when queued.
	for i := len(seqs) - 1; i >= 0; i-- {
		mb.tracker.QueueExpunge(seqs[i])
	}
	return gone, nil
}

// setFlagsLocked changes a message's flags and records them.
func (mb *mailbox) setFlagsLocked(m *message, flags []imap.Flag) (bool, error) {
	if slices.Equal(m.flags, flags) {
		return false, nil
	}
	old := m.flags
	m.flags = flags
	if err := mb.logLocked(flagsLine(m)); err != nil {
		m.flags = old
		return false, err
	}
	return true, nil
}

func (mb *mailbox) setSubscribed(on bool) error {
	mb.mu.Lock()
	defer mb.mu.Unlock()
	v := "0"
	if on {
		v = "1"
	}
	if err := mb.logLocked("subscribed " + v + "\n"); err != nil {
		return err
	}
	mb.subscribed = on
	return nil
}

// storeFlags applies a STORE operation to a flag list. Flags compare
// without regard to case and keep the case they were first given in.
func storeFlags(flags []imap.Flag, op imap.StoreFlagsOp, change []imap.Flag) []imap.Flag {
	var out []imap.Flag
	if op != imap.StoreFlagsSet {
		out = slices.Clone(flags)
	}
	for _, f := range change {
		i := slices.IndexFunc(out, func(g imap.Flag) bool { return strings.EqualFold(string(f), string(g)) })
		switch {
		case op == imap.StoreFlagsDel && i >= 0:
			out = slices.Delete(out, i, i+1)
		case op != imap.StoreFlagsDel && i < 0 && f != "" && !strings.ContainsAny(string(f), " \r\n"):
			out = append(out, f)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

func hasFlag(flags []imap.Flag, f imap.Flag) bool {
	return slices.ContainsFunc(flags, func(g imap.Flag) bool { return strings.EqualFold(string(f), string(g)) })
}

// fsName makes a user or mailbox name safe and readable as a file name.
func fsName(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			strings.IndexByte("@_+-", c) >= 0 || c == '.' && i > 0 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

func randomName() string {
	b := make([]byte, 8)
	rand.Read(b)
	return strconv.FormatInt(time.Now().UnixNano(), 10) + "." + hex.EncodeToString(b)
}

// writeFileSynced writes a new file and syncs it.
func writeFileSynced(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// writeFileAtomic replaces path with data: written to a temporary file,
// synced, renamed over path, and the directory synced.
func writeFileAtomic(path string, data []byte) error {
	tmp := path + ".tmp-" + randomName()
	if err := writeFileSynced(tmp, data); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return syncDir(filepath.Dir(path))
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

func clearDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
			return err
		}
	}
	return nil
}
