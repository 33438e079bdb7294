package daemon

import (
	"context"
	"github.com/pbem/pbem/templates"
	"math/rand/v2"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pbem/pbem/internal/outgoing"

	"github.com/pbem/pbem/store"
)

// This file threads mail as mail clients do, to prove that a game's mails
// to one player form one thread in every client (issue 13): by the JWZ
// algorithm (https://www.jwz.org/doc/threading.html), which Thunderbird,
// mutt, Apple Mail and most others use or follow, and by the rule that
// groups mail by normalized subject, which Gmail and Outlook's
// conversation view apply.

// threadMsg is what threading reads of a mail.
type threadMsg struct {
	ID         string
	References []string // oldest first
	InReplyTo  string
	Subject    string
}

// container is the JWZ algorithm's node: a message, or an empty
// placeholder for one that was referred to but not seen.
type container struct {
	msg      *threadMsg
	parent   *container
	children []*container
}

// reaches reports whether c is target or has it below.
func (c *container) reaches(target *container) bool {
	if c == target {
		return true
	}
	for _, k := range c.children {
		if k.reaches(target) {
			return true
		}
	}
	return false
}

// setParent makes p the parent of c, unlinking c from its old parent; a
// nil p makes c a root.
func (c *container) setParent(p *container) {
	if c.parent != nil {
		kids := c.parent.children
		for i, k := range kids {
			if k == c {
				c.parent.children = append(kids[:i:i], kids[i+1:]...)
				break
			}
		}
	}
	c.parent = p
	if p != nil {
		p.children = append(p.children, c)
	}
}

// jwzThread threads msgs and returns the root set, one container per
// thread.
func jwzThread(msgs []threadMsg) []*container {
	idTable := map[string]*container{}
	var order []*container // containers in the order made, so that results are stable
	get := func(id string) *container {
		c, ok := idTable[id]
		if !ok {
			c = &container{}
			idTable[id] = c
			order = append(order, c)
		}
		return c
	}
	for i := range msgs {
		m := &msgs[i]
		// 1A: the message's own container, perhaps a placeholder made
		// when an earlier message referred to it.
		c := get(m.ID)
		if c.msg != nil {
			// A duplicate id: thread it on its own, as JWZ suggests.
			c = &container{}
			order = append(order, c)
		}
		c.msg = m
		refs := append([]string(nil), m.References...)
		if m.InReplyTo != "" && (len(refs) == 0 || refs[len(refs)-1] != m.InReplyTo) {
			refs = append(refs, m.InReplyTo)
		}
		// 1B: link the references in order, keeping links already made
		// and adding none that would make a loop.
		var prev *container
		for _, id := range refs {
			r := get(id)
			if prev != nil && r.parent == nil && r != prev && !r.reaches(prev) {
				r.setParent(prev)
			}
			prev = r
		}
		// 1C: the message's parent is its last reference (none without
		// references), replacing an earlier guess, unless that loops.
		if prev != nil && c.reaches(prev) {
			prev = nil
		}
		if c.parent != prev {
			c.setParent(prev)
		}
	}
	// 2: the root set.
	var roots []*container
	for _, c := range order {
		if c.parent == nil {
			roots = append(roots, c)
		}
	}
	// 4: prune empty containers.
	roots = pruneEmpty(roots, true)
	for _, r := range roots {
		r.parent = nil
	}
	// 5: gather the roots of one subject.
	return groupBySubject(roots)
}

// pruneEmpty drops empty containers without children and puts the
// children of the others in their place, except at the root, where an
// empty container keeps two or more children together.
func pruneEmpty(list []*container, atRoot bool) []*container {
	var out []*container
	for _, c := range list {
		c.children = pruneEmpty(c.children, false)
		for _, k := range c.children {
			k.parent = c
		}
		switch {
		case c.msg == nil && len(c.children) == 0:
			continue
		case c.msg == nil && (!atRoot || len(c.children) == 1):
			for _, k := range c.children {
				k.parent = c.parent
			}
			out = append(out, c.children...)
			continue
		}
		out = append(out, c)
	}
	return out
}

// replyPrefixRe is what clients put in front of a subject when they reply
// or forward, in the languages they localise into, and list tags.
var replyPrefixRe = regexp.MustCompile(`(?i)^\s*((re|fwd?|aw|wg|sv|vs|antw|tr|rv|enc|odp|r|i)\s*(\[\d+\]|\(\d+\))?\s*[:：]|\[[^\]]*\])\s*`)

// baseSubject strips a subject of reply and forward prefixes and tags,
// folds case and spaces: the subject a conversation view groups by. It
// reports whether anything was stripped (a "Re:" version).
func baseSubject(s string) (string, bool) {
	stripped := false
	for {
		loc := replyPrefixRe.FindStringIndex(s)
		if loc == nil || loc[1] == 0 {
			break
		}
		s, stripped = s[loc[1]:], true
	}
	return strings.ToLower(strings.Join(strings.Fields(s), " ")), stripped
}

// subjectOf is a thread's subject: its message's, or its first child's.
func subjectOf(c *container) (string, bool) {
	if c.msg != nil {
		return baseSubject(c.msg.Subject)
	}
	if len(c.children) > 0 && c.children[0].msg != nil {
		return baseSubject(c.children[0].msg.Subject)
	}
	return "", false
}

// groupBySubject is JWZ's step 5: roots of the same subject become one
// thread.
func groupBySubject(roots []*container) []*container {
	table := map[string]*container{}
	for _, c := range roots {
		subj, re := subjectOf(c)
		if subj == "" {
			continue
		}
		old, ok := table[subj]
		if !ok {
			table[subj] = c
			continue
		}
		_, oldRe := subjectOf(old)
		if (c.msg == nil && old.msg != nil) || (old.msg != nil && c.msg != nil && oldRe && !re) {
			table[subj] = c
		}
	}
	var out []*container
	for _, c := range roots {
		subj, re := subjectOf(c)
		that, ok := table[subj]
		if subj == "" || !ok || that == c {
			out = appendRoot(out, c)
			continue
		}
		_, thatRe := subjectOf(that)
		switch {
		case that.msg == nil && c.msg == nil:
			for _, k := range append([]*container(nil), c.children...) {
				k.setParent(that)
			}
		case that.msg == nil:
			c.setParent(that)
		case c.msg == nil:
			// that is a message, c a placeholder: that becomes c's
			// child, and c takes its place.
			that.setParent(c)
			table[subj] = c
			out = replaceRoot(out, that, c)
		case !thatRe && re:
			c.setParent(that)
		case thatRe && !re:
			that.setParent(c)
			table[subj] = c
			out = replaceRoot(out, that, c)
		default:
			dummy := &container{}
			that.setParent(dummy)
			c.setParent(dummy)
			table[subj] = dummy
			out = replaceRoot(out, that, dummy)
		}
	}
	return out
}

// appendRoot adds c to roots once.
func appendRoot(roots []*container, c *container) []*container {
	for _, r := range roots {
		if r == c {
			return roots
		}
	}
	return append(roots, c)
}

// replaceRoot puts new in the place of old in roots, or appends it.
func replaceRoot(roots []*container, old, new *container) []*container {
	for i, r := range roots {
		if r == old {
			roots[i] = new
			return roots
		}
	}
	return appendRoot(roots, new)
}

// depth is how far below c its deepest container lies.
func depth(c *container) int {
	d := 0
	for _, k := range c.children {
		d = max(d, 1+depth(k))
	}
	return d
}

// threadIDs lists the ids of the messages in c's thread.
func threadIDs(c *container) []string {
	var ids []string
	if c.msg != nil {
		ids = append(ids, c.msg.ID)
	}
	for _, k := range c.children {
		ids = append(ids, threadIDs(k)...)
	}
	return ids
}

// subjectGroups is the conversation view's rule: mails of one normalized
// subject are one conversation, flat (depth 1 at most). It returns the
// ids of each conversation by subject.
func subjectGroups(msgs []threadMsg) map[string][]string {
	groups := map[string][]string{}
	for _, m := range msgs {
		subj, _ := baseSubject(m.Subject)
		groups[subj] = append(groups[subj], m.ID)
	}
	return groups
}

// TestJWZ checks the threading itself on small cases, a deep chain among
// them: a test of pbem's threads that used an algorithm unable to see a
// deep thread would prove nothing.
func TestJWZ(t *testing.T) {
	t.Parallel()
	type want struct {
		threads int
		depths  []int // of each thread, in root order
	}
	for _, tc := range []struct {
		name string
		msgs []threadMsg
		want want
	}{
		{"flat", []threadMsg{
			{ID: "a", Subject: "Felix #1 with x, y"},
			{ID: "b", InReplyTo: "a", References: []string{"a"}, Subject: "Felix #1 with x, y"},
			{ID: "c", InReplyTo: "a", References: []string{"a"}, Subject: "Felix #1 with x, y"},
		}, want{1, []int{1}}},
		{"deep chain", []threadMsg{
			{ID: "a", Subject: "s"},
			{ID: "b", InReplyTo: "a", References: []string{"a"}, Subject: "Re: s"},
			{ID: "c", InReplyTo: "b", References: []string{"a", "b"}, Subject: "Re: s"},
		}, want{1, []int{2}}},
		{"chain by References alone, out of order", []threadMsg{
			{ID: "c", References: []string{"a", "b"}, Subject: "Re: s"},
			{ID: "a", Subject: "s"},
			{ID: "b", References: []string{"a"}, Subject: "Re: s"},
		}, want{1, []int{2}}},
		{"missing root keeps its replies together", []threadMsg{
			{ID: "b", InReplyTo: "x", Subject: "Re: s"},
			{ID: "c", InReplyTo: "x", Subject: "Re: s"},
		}, want{1, []int{1}}},
		{"missing root of one reply is pruned", []threadMsg{
			{ID: "b", InReplyTo: "x", Subject: "Re: s"},
		}, want{1, []int{0}}},
		{"same subject, no references: grouped", []threadMsg{
			{ID: "a", Subject: "Felix #1 with x, y"},
			{ID: "b", Subject: "Re: Felix #1 with x, y"},
		}, want{1, []int{1}}},
		{"same subject twice, no references: under a placeholder", []threadMsg{
			{ID: "a", Subject: "Felix #1 with x, y"},
			{ID: "b", Subject: "Felix #1 with x, y"},
		}, want{1, []int{1}}},
		{"different subjects stay apart", []threadMsg{
			{ID: "a", Subject: "Felix #1 with x, y"},
			{ID: "b", Subject: "Felix #2 with x, y"},
		}, want{2, []int{0, 0}}},
		{"a reference loop does not hang", []threadMsg{
			{ID: "a", References: []string{"b"}, Subject: "s"},
			{ID: "b", References: []string{"a"}, Subject: "s"},
		}, want{1, []int{1}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			roots := jwzThread(tc.msgs)
			var depths []int
			n := 0
			for _, r := range roots {
				depths = append(depths, depth(r))
				n += len(threadIDs(r))
			}
			if len(roots) != tc.want.threads || !equalInts(depths, tc.want.depths) {
				t.Errorf("%d threads of depths %v, want %d of %v", len(roots), depths, tc.want.threads, tc.want.depths)
			}
			if n != len(tc.msgs) {
				t.Errorf("%d messages in the threads, want %d", n, len(tc.msgs))
			}
		})
	}
	if s, re := baseSubject("Re: AW: [pbem] Fwd:  Felix #12 with alice,  bob"); s != "felix #12 with alice, bob" || !re {
		t.Errorf("baseSubject = %q, %v", s, re)
	}
	if g := subjectGroups([]threadMsg{{ID: "a", Subject: "X"}, {ID: "b", Subject: "RE: x"}, {ID: "c", Subject: "y"}}); len(g) != 2 || len(g["x"]) != 2 {
		t.Errorf("subject groups %v", g)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestOneThreadPerGame plays a whole Felix game of four and a whole
// Gracias game of three with the same people in both, with help, rules,
// an unreadable mail, a command that has no place in a game, status,
// history, games and a reminder in each: for every player, every mail of
// a game forms exactly one thread of depth at most one, both by JWZ and
// by subject, and no two games' mails (nor a mail about no game) ever
// share a thread. Every mail of a game also carries the seat's one-click
// unsubscribe.
func TestOneThreadPerGame(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.svc.cfg.Reminders = remindBefore(24 * time.Hour)
	felix := []string{"alice@x.test", "bob@y.test", "carol@z.test", "dave@x.test"}
	gracias := []string{"bob@y.test", "alice@x.test", "carol@z.test"}
	fReply, fID := w.startGame("felix", felix...)
	gReply, gID := w.startGame("gracias", gracias...)
	for _, g := range []struct {
		reply   map[string]string
		players []string
	}{{fReply, felix}, {gReply, gracias}} {
		for i, p := range g.players {
			// Everyone asks something of his game, in its thread.
			cmd := []string{"help", "rules", "bd 5", "new felix with zed@x.test", "status", "history", "games"}[i%7]
			w.send(p, g.reply[p], cmd)
		}
		w.send(g.players[0], g.reply[g.players[0]], "rules gracias\nstatus")
	}
	w.send("alice@x.test", "pbem@example.test", "games") // about no game: a thread of its own
	w.clock = w.clock.Add(49 * time.Hour)                // a day before the first deadlines
	if _, err := w.svc.Sweeper().SweepDeadlines(context.Background()); err != nil {
		t.Fatal(err)
	}
	w.flush()
	w.playOut(fID, fReply, felix, rand.New(rand.NewPCG(7, 8)))
	w.playOut(gID, gReply, gracias, rand.New(rand.NewPCG(9, 10)))

	reminders := 0
	for _, p := range felix {
		box := w.inbox[p]
		game := map[string]string{} // Message-ID -> the game it is of, or "" for none
		var msgs []threadMsg
		for _, m := range box {
			switch m.ReplyTo {
			case fReply[p]:
				game[m.MessageID] = "felix"
			case gReply[p]:
				game[m.MessageID] = "gracias"
			default:
				game[m.MessageID] = ""
			}
			if g := game[m.MessageID]; g != "" {
				// An invitation's unsubscribe is never; a game mail's,
				// notify off here.
				want := "<mailto:" + m.ReplyTo + "?subject=notify%20off%20here>"
				if strings.Contains(m.Headline, "invit") {
					want = "<mailto:" + m.ReplyTo + "?subject=never>"
				}
				if m.Unsubscribe != want {
					t.Errorf("%s's %s mail %q has List-Unsubscribe %q, want %q", p, g, m.Headline, m.Unsubscribe, want)
				}
				if strings.HasPrefix(m.Headline, outgoing.ReminderPrefix) {
					reminders++
				}
			}
			msgs = append(msgs, threadMsg{ID: m.MessageID, References: m.References, InReplyTo: m.InReplyTo, Subject: m.Subject})
		}
		count := map[string]int{}
		for _, g := range game {
			count[g]++
		}
		if count["felix"] < 10 || (p != "dave@x.test" && count["gracias"] < 10) {
			t.Fatalf("%s got %d Felix and %d Gracias mails: too few to prove anything", p, count["felix"], count["gracias"])
		}

		// JWZ: one thread per game, flat, holding all of its mails and
		// nothing else.
		threadOf := map[string]int{} // game -> threads holding its mails
		for _, root := range jwzThread(msgs) {
			ids := threadIDs(root)
			games := map[string]bool{}
			for _, id := range ids {
				games[game[id]] = true
			}
			if len(games) != 1 {
				t.Errorf("%s: a JWZ thread mixes %v: %v", p, games, ids)
			}
			for g := range games {
				if g == "" {
					continue
				}
				threadOf[g]++
				if d := depth(root); d > 1 {
					t.Errorf("%s: the %s thread has depth %d, want at most 1", p, g, d)
				}
				if len(ids) != count[g] {
					t.Errorf("%s: the %s thread holds %d mails of the game's %d", p, g, len(ids), count[g])
				}
			}
		}
		for g := range count {
			if g != "" && threadOf[g] != 1 {
				t.Errorf("%s: the %s mails are in %d JWZ threads, want 1", p, g, threadOf[g])
			}
		}

		// By subject: one conversation per game, and only its mails.
		for subj, ids := range subjectGroups(msgs) {
			games := map[string]int{}
			for _, id := range ids {
				games[game[id]]++
			}
			for g, n := range games {
				if len(games) > 1 {
					t.Errorf("%s: the subject %q groups mails of %v", p, subj, games)
				}
				if g != "" && n != count[g] {
					t.Errorf("%s: the subject %q holds %d of the %d %s mails", p, subj, n, count[g], g)
				}
			}
		}

		// The headers themselves: the root names nothing, every other
		// mail of the game names the root alone.
		root := map[string]string{}
		for _, m := range box {
			g := game[m.MessageID]
			if g == "" {
				continue
			}
			if root[g] == "" {
				root[g] = m.MessageID
				if m.InReplyTo != "" || len(m.References) != 0 {
					t.Errorf("%s: the first %s mail answers %q %v", p, g, m.InReplyTo, m.References)
				}
				continue
			}
			if m.InReplyTo != root[g] || len(m.References) != 1 || m.References[0] != root[g] {
				t.Errorf("%s: %s mail %q: In-Reply-To %q, References %v; want the root %q", p, g, m.Headline, m.InReplyTo, m.References, root[g])
			}
		}
	}
	if reminders == 0 {
		t.Error("no reminder was checked")
	}
}

// TestUnsubscribeIsOneClick: what a mail client sends for the
// List-Unsubscribe of a game mail — a mail to the seat's address with
// the Subject "notify off here" and no text — turns that game's mail off
// as the typed command does, and he is told so; his own setting, and so
// his other games, are untouched.
func TestUnsubscribeIsOneClick(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test"}
	reply, id := w.startGame("felix", players...)
	m := w.last("bob@y.test")
	to, query, ok := strings.Cut(strings.TrimSuffix(strings.TrimPrefix(m.Unsubscribe, "<mailto:"), ">"), "?")
	if !ok || to != reply["bob@y.test"] || query != "subject=notify%20off%20here" {
		t.Fatalf("List-Unsubscribe %q", m.Unsubscribe)
	}
	subject, err := url.QueryUnescape(strings.TrimPrefix(query, "subject="))
	if err != nil {
		t.Fatal(err)
	}
	w.send("bob@y.test", to, "", "Subject: "+subject)
	if p, err := w.st.Player(context.Background(), "bob@y.test"); err != nil || p.Notify != store.NotifyNormal {
		t.Fatalf("bob's own notify setting: %+v, %v", p, err)
	}
	if got := seatNotifyOf(t, w, id, 1); got != store.NotifyOff {
		t.Fatalf("bob's game setting: %q", got)
	}
	got := w.last("bob@y.test")
	if text := strings.Join(strings.Fields(got.Text), " "); !strings.Contains(text, "mail about this game only in answer to your own mail") || !strings.Contains(text, "Your other games keep your own setting, `notify normal`") || !strings.Contains(text, templates.Say.CommandFromSubject()) {
		t.Errorf("the answer does not confirm notify off:\n%s", got.Text)
	}
	if got.Subject != m.Subject {
		t.Errorf("the confirmation has subject %q, not the game's %q", got.Subject, m.Subject)
	}
	// And it holds: the others' moves no longer reach bob.
	n := len(w.inbox["bob@y.test"])
	w.send("alice@x.test", reply["alice@x.test"], w.legal(id, 0))
	if len(w.inbox["bob@y.test"]) != n {
		t.Error("bob was mailed after unsubscribing")
	}
}

// TestUnquotedCopyIsNotRead: a reply that copies pbem's mail below the
// command without quoting it (no ">" and no header block) is read up to
// the copy's headline, which is no command.
func TestUnquotedCopyIsNotRead(t *testing.T) {
	t.Parallel()
	for _, reminder := range []bool{false, true} {
		w := newWorld(t)
		w.svc.cfg.Reminders = remindBefore(24 * time.Hour)
		players := []string{"alice@x.test", "bob@y.test", "carol@z.test"}
		reply, id := w.startGame("felix", players...)
		w.confirmOn(players...) // the test reads answers to moves or says

		if reminder {
			w.clock = w.clock.Add(49 * time.Hour)
			if _, err := w.svc.Sweeper().SweepDeadlines(context.Background()); err != nil {
				t.Fatal(err)
			}
			w.flush()
		}
		m := w.last("bob@y.test")
		if reminder != strings.HasPrefix(m.Headline, outgoing.ReminderPrefix) {
			t.Fatalf("headline %q", m.Headline)
		}
		cmd := w.legal(id, 1)
		w.send("bob@y.test", reply["bob@y.test"], cmd+"\n\n"+strings.ReplaceAll(m.Text, "\r\n", "\n"))
		if w.moves(id) != 1 {
			t.Fatalf("the command above the copy was not applied")
		}
		got := w.last("bob@y.test")
		if !strings.Contains(got.Text, "Applied: "+cmd+".") || strings.Contains(got.Text, "stopped reading") || strings.Contains(got.Text, "could not read") {
			t.Errorf("reminder %v: the copy's headline was read:\n%s", reminder, got.Text)
		}
	}
}

// TestSubjectOutlivesRenames: the game's subject is the one it was made
// with, whatever its players call themselves later.
func TestSubjectOutlivesRenames(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test"}
	reply, _ := w.startGame("felix", players...)
	before := w.last("bob@y.test").Subject
	if before != "Felix #1" {
		t.Fatalf("subject %q", before)
	}
	w.send("bob@y.test", reply["bob@y.test"], "name robert\nstatus")
	got := w.last("bob@y.test")
	if got.Subject != before || !strings.Contains(got.Text, "Your name is now robert") {
		t.Errorf("after a rename: subject %q, want %q; text:\n%s", got.Subject, before, got.Text)
	}
}

// TestSubjectOfAnOlderGame: a game made before subjects were stored gets
// one on its first mail, its reference (no player's name: issue 33), and
// keeps it.
func TestSubjectOfAnOlderGame(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	var id int64
	err := w.st.Tx(ctx, func(tx *store.Tx) error {
		var err error
		id, err = tx.CreateGame(ctx, store.NewGame{Kind: "gracias", Setup: []byte(`{}`), Creator: "ann@x.test", CreatedAt: w.clock})
		if err != nil {
			return err
		}
		for i, name := range []string{"ann", "ben", "cy"} {
			if err := tx.AddSeat(ctx, id, i, name+"@x.test", name, store.NewToken()); err != nil {
				return err
			}
		}
		th, err := w.svc.workIn(ctx, tx).thread(id)
		if err != nil {
			return err
		}
		if th.Subject != "Gracias #1" || th.Ref != "Gracias #1" {
			t.Errorf("derived thread %+v", th)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if g, err := w.st.Game(ctx, id); err != nil || g.ThreadSubject != "Gracias #1" {
		t.Fatalf("stored subject %q, %v", g.ThreadSubject, err)
	}
}
