package embedded

import (
	"bufio"
	"bytes"
	"crypto/subtle"
	"io"
	"net/mail"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-message/textproto"
)

// session is an IMAP session over the store. It logs in any user of the
// domain with the shared password.
type session struct {
	s    *Servers
	u    *user    // nil until login
	mb   *mailbox // selected mailbox, or nil
	view *imapserver.SessionTracker
	// searchRes is the saved result of SEARCH RETURN (SAVE), "$".
	searchRes imap.UIDSet

	// idleMu guards mb and view against the one goroutine that runs
	// beside the connection's: IDLE's, which may still poll while a closed
	// connection closes the session.
	idleMu sync.Mutex
}

var _ imapserver.SessionMove = (*session)(nil)
var _ imapserver.SessionNamespace = (*session)(nil)

func (sess *session) Close() error {
	sess.unselect()
	return nil
}

func (sess *session) Login(username, password string) error {
	if subtle.ConstantTimeCompare([]byte(password), []byte(sess.s.password)) != 1 {
		return imapserver.ErrAuthFailed
	}
	u, err := sess.s.st.user(sess.s.userName(username))
	if err != nil {
		return err
	}
	sess.u = u
	return nil
}

func (sess *session) unselect() {
	sess.idleMu.Lock()
	defer sess.idleMu.Unlock()
	if sess.view != nil {
		sess.view.Close()
	}
	sess.mb, sess.view, sess.searchRes = nil, nil, nil
}

func (sess *session) Select(name string, _ *imap.SelectOptions) (*imap.SelectData, error) {
	sess.unselect()
	mb := sess.u.mailbox(name)
	if mb == nil {
		return nil, errNoMailbox()
	}
	mb.mu.Lock()
	defer mb.mu.Unlock()
	if mb.deleted {
		return nil, errNoMailbox()
	}
	sess.idleMu.Lock()
	sess.mb, sess.view = mb, mb.tracker.NewSession()
	sess.idleMu.Unlock()
	flags := []imap.Flag{imap.FlagSeen, imap.FlagAnswered, imap.FlagFlagged, imap.FlagDeleted, imap.FlagDraft}
	var firstUnseen uint32
	for i, m := range mb.msgs {
		for _, f := range m.flags {
			if !hasFlag(flags, f) {
				flags = append(flags, f)
			}
		}
		if firstUnseen == 0 && !hasFlag(m.flags, imap.FlagSeen) {
			firstUnseen = uint32(i + 1)
		}
	}
	return &imap.SelectData{
		Flags:             flags,
		PermanentFlags:    append(append([]imap.Flag(nil), flags...), imap.FlagWildcard),
		NumMessages:       uint32(len(mb.msgs)),
		FirstUnseenSeqNum: firstUnseen,
		UIDNext:           mb.uidNext,
		UIDValidity:       mb.validity,
	}, nil
}

func (sess *session) Unselect() error {
	sess.unselect()
	return nil
}

func (sess *session) Create(name string, _ *imap.CreateOptions) error { return sess.u.create(name) }

func (sess *session) Delete(name string) error { return sess.u.delete(name) }

func (sess *session) Rename(name, newName string, _ *imap.RenameOptions) error {
	return sess.u.rename(name, newName)
}

func (sess *session) Subscribe(name string) error   { return sess.subscribe(name, true) }
func (sess *session) Unsubscribe(name string) error { return sess.subscribe(name, false) }

func (sess *session) subscribe(name string, on bool) error {
	mb := sess.u.mailbox(name)
	if mb == nil {
		return errNoMailbox()
	}
	return mb.setSubscribed(on)
}

func (sess *session) Namespace() (*imap.NamespaceData, error) {
	return &imap.NamespaceData{Personal: []imap.NamespaceDescriptor{{Delim: '/'}}}, nil
}

func (sess *session) List(w *imapserver.ListWriter, ref string, patterns []string, options *imap.ListOptions) error {
	if len(patterns) == 0 {
		return w.WriteList(&imap.ListData{Attrs: []imap.MailboxAttr{imap.MailboxAttrNoSelect}, Delim: '/'})
	}
	for _, mb := range sess.u.list() {
		mb.mu.Lock()
		name, subscribed := mb.name, mb.subscribed
		var status *imap.StatusData
		if options.ReturnStatus != nil {
			status = mb.statusLocked(options.ReturnStatus)
		}
		mb.mu.Unlock()
		if !matchAny(name, ref, patterns) || options.SelectSubscribed && !subscribed || options.SelectSpecialUse {
			continue
		}
		data := &imap.ListData{Mailbox: name, Delim: '/', Status: status}
		if subscribed {
			data.Attrs = append(data.Attrs, imap.MailboxAttrSubscribed)
		}
		if err := w.WriteList(data); err != nil {
			return err
		}
	}
	return nil
}

func matchAny(name, ref string, patterns []string) bool {
	for _, p := range patterns {
		if imapserver.MatchList(name, '/', ref, p) {
			return true
		}
	}
	return false
}

func (sess *session) Status(name string, options *imap.StatusOptions) (*imap.StatusData, error) {
	mb := sess.u.mailbox(name)
	if mb == nil {
		return nil, errNoMailbox()
	}
	mb.mu.Lock()
	defer mb.mu.Unlock()
	return mb.statusLocked(options), nil
}

func (mb *mailbox) statusLocked(options *imap.StatusOptions) *imap.StatusData {
	data := &imap.StatusData{Mailbox: mb.name}
	count := func(f imap.Flag) uint32 {
		var n uint32
		for _, m := range mb.msgs {
			if hasFlag(m.flags, f) {
				n++
			}
		}
		return n
	}
	num := uint32(len(mb.msgs))
	if options.NumMessages {
		data.NumMessages = &num
	}
	if options.UIDNext {
		data.UIDNext = mb.uidNext
	}
	if options.UIDValidity {
		data.UIDValidity = mb.validity
	}
	if options.NumUnseen {
		n := num - count(imap.FlagSeen)
		data.NumUnseen = &n
	}
	if options.NumDeleted {
		n := count(imap.FlagDeleted)
		data.NumDeleted = &n
	}
	if options.Size {
		var size int64
		for _, m := range mb.msgs {
			size += m.size
		}
		data.Size = &size
	}
	if options.NumRecent {
		var n uint32
		data.NumRecent = &n
	}
	return data
}

func (sess *session) Append(name string, r imap.LiteralReader, options *imap.AppendOptions) (*imap.AppendData, error) {
	buf, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	mb := sess.u.mailbox(name)
	if mb == nil {
		return nil, &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeTryCreate, Text: "No such mailbox"}
	}
	uids, err := mb.append(newMail{buf: buf, flags: options.Flags, date: options.Time})
	if err != nil {
		return nil, err
	}
	mb.mu.Lock()
	defer mb.mu.Unlock()
	return &imap.AppendData{UID: uids[0], UIDValidity: mb.validity}, nil
}

func (sess *session) Poll(w *imapserver.UpdateWriter, allowExpunge bool) error {
	sess.idleMu.Lock()
	defer sess.idleMu.Unlock()
	if sess.view == nil {
		return nil
	}
	return sess.view.Poll(w, allowExpunge)
}

// idlePoll is how often an idling session looks for updates.
const idlePoll = 100 * time.Millisecond

// Idle reports updates to an idling client. go-imap's tracker wakes an
// idler only for updates queued after IDLE began; mail delivered between
// the client's last command and its IDLE would wait, unannounced, for the
// next update. Polling the session's queue closes that gap at the cost of a
// timer per idling client, which suits a server for a handful of users.
func (sess *session) Idle(w *imapserver.UpdateWriter, stop <-chan struct{}) error {
	t := time.NewTicker(idlePoll)
	defer t.Stop()
	for {
		if err := sess.Poll(w, true); err != nil {
			return err
		}
		select {
		case <-stop:
			return nil
		case <-t.C:
		}
	}
}

// picked is a message chosen by a number set, with what is needed to
// answer about it once the mailbox lock is released.
type picked struct {
	seq   uint32 // as the client sees it
	uid   imap.UID
	flags []imap.Flag
	date  time.Time
	size  int64
	buf   []byte
	dir   string
	msg   *message
}

// pickLocked returns the messages of the selected mailbox in numSet.
// Messages the client has not been told of yet are left out: it cannot
// have meant them, and a response about them would need a sequence number
// the client does not know.
func (sess *session) pickLocked(numSet imap.NumSet) []picked {
	numSet = sess.staticNumSet(numSet)
	var out []picked
	for i, m := range sess.mb.msgs {
		seq := sess.view.EncodeSeqNum(uint32(i + 1))
		if seq == 0 {
			continue
		}
		var in bool
		switch set := numSet.(type) {
		case imap.SeqSet:
			in = set.Contains(seq)
		case imap.UIDSet:
			in = set.Contains(m.uid)
		}
		if in {
			out = append(out, picked{seq: seq, uid: m.uid, flags: m.flags, date: m.date, size: m.size, buf: m.buf, dir: sess.mb.dir, msg: m})
		}
	}
	return out
}

// staticNumSet replaces "*" by the largest number and "$" by the saved
// search result.
func (sess *session) staticNumSet(numSet imap.NumSet) imap.NumSet {
	if imap.IsSearchRes(numSet) {
		return sess.searchRes
	}
	fix := func(start, stop *uint32, max uint32) {
		if *start == 0 {
			*start = max
		}
		if *stop == 0 {
			*stop = max
		}
		if *start > *stop {
			*start, *stop = *stop, *start
		}
	}
	switch set := numSet.(type) {
	case imap.SeqSet:
		out := make(imap.SeqSet, len(set))
		copy(out, set)
		for i := range out {
			fix(&out[i].Start, &out[i].Stop, uint32(len(sess.mb.msgs)))
		}
		return out
	case imap.UIDSet:
		out := make(imap.UIDSet, len(set))
		copy(out, set)
		for i := range out {
			fix((*uint32)(&out[i].Start), (*uint32)(&out[i].Stop), uint32(sess.mb.uidNext-1))
		}
		return out
	}
	return numSet
}

func (p *picked) body() ([]byte, error) {
	if p.dir == "" {
		return p.buf, nil
	}
	return readBody(p.msg, p.dir)
}

func (sess *session) Fetch(w *imapserver.FetchWriter, numSet imap.NumSet, options *imap.FetchOptions) error {
	markSeen := false
	for _, bs := range options.BodySection {
		markSeen = markSeen || !bs.Peek
	}
	list, err := sess.pickForFetch(numSet, markSeen)
	if err != nil {
		return err
	}
	needBody := options.Envelope || options.BodyStructure != nil || len(options.BodySection) > 0 ||
		len(options.BinarySection) > 0 || len(options.BinarySectionSize) > 0
	for _, p := range list {
		var buf []byte
		if needBody {
			var err error
			if buf, err = p.body(); err != nil {
				// Expunged by another session since it was picked.
				continue
			}
		}
		rw := w.CreateMessage(p.seq)
		writeFetchedItems(rw, p, buf, options, markSeen)
		if err := writeFetchedSections(rw, buf, options); err != nil {
			return err
		}
		if err := rw.Close(); err != nil {
			return err
		}
	}
	return nil
}

// pickForFetch picks the messages of numSet, and flags them \Seen when
// the fetch reads a body section without PEEK, telling the other
// sessions.
func (sess *session) pickForFetch(numSet imap.NumSet, markSeen bool) ([]picked, error) {
	mb := sess.mb
	mb.mu.Lock()
	defer mb.mu.Unlock()
	list := sess.pickLocked(numSet)
	if !markSeen {
		return list, nil
	}
	for i := range list {
		p := &list[i]
		flags := storeFlags(p.msg.flags, imap.StoreFlagsAdd, []imap.Flag{imap.FlagSeen})
		changed, err := mb.setFlagsLocked(p.msg, flags)
		if err != nil {
			return nil, err
		}
		if changed {
			p.flags = flags
			mb.tracker.QueueMessageFlags(sess.serverSeqLocked(p.msg), p.uid, flags, sess.view)
		}
	}
	return list, nil
}

// writeFetchedItems writes a fetched message's items that are not
// sections: its UID, flags, date, size, envelope and body structure.
func writeFetchedItems(rw *imapserver.FetchResponseWriter, p picked, buf []byte, options *imap.FetchOptions, markSeen bool) {
	rw.WriteUID(p.uid)
	if options.Flags || markSeen {
		rw.WriteFlags(p.flags)
	}
	if options.InternalDate {
		rw.WriteInternalDate(p.date)
	}
	if options.RFC822Size {
		rw.WriteRFC822Size(p.size)
	}
	if options.Envelope {
		if h, err := textproto.ReadHeader(bufio.NewReader(bytes.NewReader(buf))); err == nil {
			rw.WriteEnvelope(imapserver.ExtractEnvelope(h))
		}
	}
	if options.BodyStructure != nil {
		rw.WriteBodyStructure(imapserver.ExtractBodyStructure(bytes.NewReader(buf)))
	}
}

// writeFetchedSections writes the body and binary sections a fetch asks
// for, from the message's bytes.
func writeFetchedSections(rw *imapserver.FetchResponseWriter, buf []byte, options *imap.FetchOptions) error {
	for _, bs := range options.BodySection {
		sec := imapserver.ExtractBodySection(bytes.NewReader(buf), bs)
		if err := writeSection(rw.WriteBodySection(bs, int64(len(sec))), sec); err != nil {
			return err
		}
	}
	for _, bs := range options.BinarySection {
		sec := imapserver.ExtractBinarySection(bytes.NewReader(buf), bs)
		if err := writeSection(rw.WriteBinarySection(bs, int64(len(sec))), sec); err != nil {
			return err
		}
	}
	for _, bs := range options.BinarySectionSize {
		rw.WriteBinarySectionSize(bs, imapserver.ExtractBinarySectionSize(bytes.NewReader(buf), bs))
	}
	return nil
}

// writeSection writes one section's bytes and closes its writer; the
// first error of the two is returned.
func writeSection(wc io.WriteCloser, sec []byte) error {
	_, err := wc.Write(sec)
	if cerr := wc.Close(); err == nil {
		err = cerr
	}
	return err
}

// serverSeqLocked is a message's sequence number in the mailbox itself, as
// the tracker counts.
func (sess *session) serverSeqLocked(m *message) uint32 {
	for i, x := range sess.mb.msgs {
		if x == m {
			return uint32(i + 1)
		}
	}
	return 0
}

func (sess *session) Store(w *imapserver.FetchWriter, numSet imap.NumSet, flags *imap.StoreFlags, _ *imap.StoreOptions) error {
	mb := sess.mb
	mb.mu.Lock()
	list := sess.pickLocked(numSet)
	for i := range list {
		p := &list[i]
		nf := storeFlags(p.msg.flags, flags.Op, flags.Flags)
		changed, err := mb.setFlagsLocked(p.msg, nf)
		if err != nil {
			mb.mu.Unlock()
			return err
		}
		p.flags = nf
		if changed {
			mb.tracker.QueueMessageFlags(sess.serverSeqLocked(p.msg), p.uid, nf, sess.view)
		}
	}
	mb.mu.Unlock()
	if flags.Silent {
		return nil
	}
	for _, p := range list {
		rw := w.CreateMessage(p.seq)
		rw.WriteUID(p.uid)
		rw.WriteFlags(p.flags)
		if err := rw.Close(); err != nil {
			return err
		}
	}
	return nil
}

func (sess *session) Expunge(_ *imapserver.ExpungeWriter, uids *imap.UIDSet) error {
	mb := sess.mb
	mb.mu.Lock()
	defer mb.mu.Unlock()
	// The tracker tells every session, this one too, in the poll that ends
	// the command.
	_, err := mb.expungeLocked(func(m *message) bool {
		return hasFlag(m.flags, imap.FlagDeleted) && (uids == nil || uids.Contains(m.uid))
	})
	return err
}

func (sess *session) Copy(numSet imap.NumSet, dest string) (*imap.CopyData, error) {
	data, _, err := sess.copy(numSet, dest)
	return data, err
}

func (sess *session) Move(w *imapserver.MoveWriter, numSet imap.NumSet, dest string) error {
	data, moved, err := sess.copy(numSet, dest)
	if err != nil {
		return err
	}
	if err := w.WriteCopyData(data); err != nil {
		return err
	}
	mb := sess.mb
	mb.mu.Lock()
	defer mb.mu.Unlock()
	// As with EXPUNGE, the EXPUNGE responses come from the tracker.
	_, err = mb.expungeLocked(func(m *message) bool { return moved[m] })
	return err
}

// copy appends the picked messages to dest, with their flags and dates.
func (sess *session) copy(numSet imap.NumSet, destName string) (*imap.CopyData, map[*message]bool, error) {
	dest := sess.u.mailbox(destName)
	if dest == nil {
		return nil, nil, &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeTryCreate, Text: "No such mailbox"}
	}
	if dest == sess.mb {
		return nil, nil, &imap.Error{Type: imap.StatusResponseTypeNo, Text: "Source and destination mailboxes are identical"}
	}
	sess.mb.mu.Lock()
	list := sess.pickLocked(numSet)
	sess.mb.mu.Unlock()
	var (
		mails  []newMail
		source imap.UIDSet
		moved  = map[*message]bool{}
	)
	for _, p := range list {
		buf, err := p.body()
		if err != nil {
			continue // expunged meanwhile
		}
		mails = append(mails, newMail{buf: buf, flags: p.flags, date: p.date})
		source.AddNum(p.uid)
		moved[p.msg] = true
	}
	uids, err := dest.append(mails...)
	if err != nil {
		return nil, nil, err
	}
	var destUIDs imap.UIDSet
	destUIDs.AddNum(uids...)
	dest.mu.Lock()
	validity := dest.validity
	dest.mu.Unlock()
	return &imap.CopyData{UIDValidity: validity, SourceUIDs: source, DestUIDs: destUIDs}, moved, nil
}

func (sess *session) Search(kind imapserver.NumKind, criteria *imap.SearchCriteria, options *imap.SearchOptions) (*imap.SearchData, error) {
	mb := sess.mb
	mb.mu.Lock()
	defer mb.mu.Unlock()
	crit := sess.staticCriteria(criteria)
	var (
		data   imap.SearchData
		seqSet imap.SeqSet
		uidSet imap.UIDSet
	)
	for i, m := range mb.msgs {
		seq := sess.view.EncodeSeqNum(uint32(i + 1))
		c := candidate{m: m, seq: seq, dir: mb.dir}
		if !c.matches(crit) {
			continue
		}
		uidSet.AddNum(m.uid)
		num := uint32(m.uid)
		if kind == imapserver.NumKindSeq {
			if seq == 0 {
				continue
			}
			seqSet.AddNum(seq)
			num = seq
		}
		if data.Min == 0 || num < data.Min {
			data.Min = num
		}
		data.Max = max(data.Max, num)
		data.Count++
	}
	if kind == imapserver.NumKindSeq {
		data.All = seqSet
	} else {
		data.All = uidSet
	}
	if options != nil && options.ReturnSave {
		sess.searchRes = uidSet
	}
	return &data, nil
}

// staticCriteria returns a copy of c with its number sets made static.
func (sess *session) staticCriteria(c *imap.SearchCriteria) *imap.SearchCriteria {
	out := *c
	out.SeqNum, out.UID = nil, nil
	for _, s := range c.SeqNum {
		switch set := sess.staticNumSet(s).(type) {
		case imap.SeqSet:
			out.SeqNum = append(out.SeqNum, set)
		case imap.UIDSet: // "$"
			out.UID = append(out.UID, set)
		}
	}
	for _, s := range c.UID {
		out.UID = append(out.UID, sess.staticNumSet(s).(imap.UIDSet))
	}
	out.Not = nil
	for i := range c.Not {
		out.Not = append(out.Not, *sess.staticCriteria(&c.Not[i]))
	}
	out.Or = nil
	for _, or := range c.Or {
		out.Or = append(out.Or, [2]imap.SearchCriteria{*sess.staticCriteria(&or[0]), *sess.staticCriteria(&or[1])})
	}
	return &out
}

// candidate is a message being searched; its text is read once, if a
// criterion needs it.
type candidate struct {
	m      *message
	seq    uint32
	dir    string
	loaded bool
	buf    []byte
	header textproto.Header
	body   []byte
}

func (c *candidate) load() {
	if c.loaded {
		return
	}
	c.loaded = true
	buf, err := readBody(c.m, c.dir)
	if err != nil {
		return
	}
	c.buf = buf
	br := bufio.NewReader(bytes.NewReader(buf))
	if h, err := textproto.ReadHeader(br); err == nil {
		c.header = h
		c.body, _ = io.ReadAll(br)
	}
}

// matches applies the search keys: first those the message's place and
// flags answer, then those that need its text, then NOT and OR. BODY and
// TEXT look for the words in the raw message, without decoding MIME
// parts: enough for a test and demo server.
func (c *candidate) matches(k *imap.SearchCriteria) bool {
	if !c.matchesEnvelope(k) || !c.matchesText(k) {
		return false
	}
	for i := range k.Not {
		if c.matches(&k.Not[i]) {
			return false
		}
	}
	for i := range k.Or {
		if !c.matches(&k.Or[i][0]) && !c.matches(&k.Or[i][1]) {
			return false
		}
	}
	return true
}

// matchesEnvelope applies the keys that need no text: numbers, the
// internal date, flags and size.
func (c *candidate) matchesEnvelope(k *imap.SearchCriteria) bool {
	for _, s := range k.SeqNum {
		if c.seq == 0 || !s.Contains(c.seq) {
			return false
		}
	}
	for _, s := range k.UID {
		if !s.Contains(c.m.uid) {
			return false
		}
	}
	if !inDates(c.m.date, k.Since, k.Before) {
		return false
	}
	for _, f := range k.Flag {
		if !hasFlag(c.m.flags, f) {
			return false
		}
	}
	for _, f := range k.NotFlag {
		if hasFlag(c.m.flags, f) {
			return false
		}
	}
	return !(k.Larger != 0 && c.m.size <= k.Larger || k.Smaller != 0 && c.m.size >= k.Smaller)
}

// matchesText applies the keys that read the message: header fields,
// the Date field, the body and the whole text. It loads the text only
// if one of them is given.
func (c *candidate) matchesText(k *imap.SearchCriteria) bool {
	sent := !k.SentSince.IsZero() || !k.SentBefore.IsZero()
	if len(k.Header) == 0 && len(k.Body) == 0 && len(k.Text) == 0 && !sent {
		return true
	}
	c.load()
	for _, h := range k.Header {
		values := c.header.Values(h.Key)
		if len(values) == 0 {
			return false
		}
		if h.Value != "" && !containsFold(strings.Join(values, "\n"), h.Value) {
			return false
		}
	}
	if sent {
		t, err := mail.ParseDate(c.header.Get("Date"))
		if err != nil || !inDates(t, k.SentSince, k.SentBefore) {
			return false
		}
	}
	for _, s := range k.Body {
		if !containsFold(string(c.body), s) {
			return false
		}
	}
	for _, s := range k.Text {
		if !containsFold(string(c.buf), s) {
			return false
		}
	}
	return true
}

func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}

// inDates compares dates only, ignoring time and zone, as RFC 3501 asks.
func inDates(t, since, before time.Time) bool {
	d := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	if !since.IsZero() && d.Before(since) {
		return false
	}
	return before.IsZero() || d.Before(before)
}
