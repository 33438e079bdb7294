package templates

import (
	"regexp"
	"strings"
	"testing"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/internal/testlib"
)

// The tests of this file check that what a mail says is true for its
// reader at that moment, one statement at a time, on the rendered text
// and HTML (the goldens show the same mails whole).

const basics4p = "engine/felix/testdata/basics-4p.txt"

// gameMail renders seat name's mail after the first n moves of file.
func gameMail(t *testing.T, file string, n int, name string, kind MailKind) (GameMail, Mail) {
	t.Helper()
	g, opening, steps := play(t, file, n)
	seat := engine.Seat(g, name)
	m := mailFor(t, g, seat, kind, sinceLastMove(seat, opening, steps))
	return m, render(t, newRenderer(t), m)
}

// TestFelixMoneyWithStake: beside "bid 6..15" the table says how the
// reader's mice add up: in hand, and staked in this auction.
func TestFelixMoneyWithStake(t *testing.T) {
	t.Parallel()
	// basics-4p after alice's bid of 5: carol has staked 3 and holds 12.
	m, mail := gameMail(t, basics4p, 9, "carol", "turn")
	if got := engine.OptionsText(m.Options); got != "bid 6..15, pass, bid up to 6..15" {
		t.Fatalf("carol's options: %s", got)
	}
	const want = "Money: 12 mice in hand, 3 staked"
	if !strings.Contains(mail.Text, "\n"+want+"\n") {
		t.Errorf("the text lacks %q:\n%s", want, mail.Text)
	}
	if !strings.Contains(htmlText(mail.HTML), "Money: 12 mice in hand, 3 staked") {
		t.Errorf("the HTML part lacks %q", want)
	}
	// Without a stake, the money alone.
	_, mail = gameMail(t, basics4p, 9, "dave", "turn")
	if !strings.Contains(mail.Text, "\nMoney: 19 mice\n") || strings.Contains(mail.Text, "staked") {
		t.Errorf("dave, who passed, has no stake:\n%s", mail.Text)
	}
}

// TestGraciasChoosesFirst: the small start player "chooses first" until
// he has taken a triplet, and "chose first" after.
func TestGraciasChoosesFirst(t *testing.T) {
	t.Parallel()
	const file = "engine/gracias/testdata/scoring-3p.txt"
	for _, c := range []struct {
		moves      int
		reader     string
		want, dont string
	}{
		{0, "bob", "Now: alice to take a triplet (alice laid them out).", "and chose first"},
		{0, "alice", "Now: your turn to take a triplet (you laid them out).", "and chose first"},
		{1, "carol", "(alice laid them out and chose first).", "laid them out)."},
	} {
		_, mail := gameMail(t, file, c.moves, c.reader, "turn")
		text := unwrap(mail.Text)
		if !strings.Contains(text, c.want) || strings.Contains(text, c.dont) {
			t.Errorf("after %d moves, %s's mail does not say %q:\n%s", c.moves, c.reader, c.want, mail.Text)
		}
		html := htmlText(mail.HTML)
		if !strings.Contains(html, c.want) || strings.Contains(html, c.dont) {
			t.Errorf("after %d moves, the HTML part of %s's mail does not say %q", c.moves, c.reader, c.want)
		}
	}
}

// TestSignatureSeparator: game mails and notices end with the standard
// signature separator, "-- " with its space, on a line of its own, so
// that mail clients grey out the footer and leave it out of replies.
func TestSignatureSeparator(t *testing.T) {
	t.Parallel()
	_, game := gameMail(t, basics4p, -1, "bob", "turn")
	mails := map[string]Mail{"game": game}
	r := newRenderer(t)
	for name, n := range noticeCases() {
		m, err := r.Notice(n)
		if err != nil {
			t.Fatal(err)
		}
		mails["notice "+name] = m
	}
	for name, m := range mails {
		if strings.Count(m.Text, "\n-- \n") != 1 {
			t.Errorf("%s: no single \"-- \" line in:\n%q", name, m.Text)
		}
		if strings.Contains(m.Text, "\n--\n") {
			t.Errorf("%s: a signature separator without its space", name)
		}
	}
}

// TestReminderHeadline: a reminder is the status mail with a headline
// that says it is a reminder, in the game's thread like every other.
func TestReminderHeadline(t *testing.T) {
	t.Parallel()
	r := newRenderer(t)
	g, opening, steps := play(t, basics4p, -1)
	bob := engine.Seat(g, "bob")
	m := mailFor(t, g, bob, "status", sinceLastMove(bob, opening, steps))
	status := render(t, r, m)
	m.Kind = "reminder"
	reminder := render(t, r, m)
	if reminder.Headline != "Reminder: "+status.Headline {
		t.Errorf("reminder headline %q, status headline %q", reminder.Headline, status.Headline)
	}
	if reminder.Subject != m.ThreadSubject || status.Subject != m.ThreadSubject {
		t.Errorf("reminder subject %q, status subject %q: want the thread's %q", reminder.Subject, status.Subject, m.ThreadSubject)
	}
	if reminder.Text != "Reminder: "+status.Text {
		t.Errorf("the reminder's text differs from the status mail's beyond its first line:\n%s", reminder.Text)
	}
	if strings.Replace(reminder.HTML, "Reminder: ", "", 1) != status.HTML {
		t.Errorf("the reminder's HTML part differs from the status mail's beyond its headline")
	}
}

// TestRulesWrapWords: the rules summary is paragraphs wrapped at word
// boundaries: no line of a paragraph could have taken the next line's
// first word (the old summary had "takes the mice on" / "the").
func TestRulesWrapWords(t *testing.T) {
	t.Parallel()
	r := newRenderer(t)
	for _, name := range []string{"rules-felix", "rules-gracias"} {
		m, err := r.Notice(noticeCases()[name])
		if err != nil {
			t.Fatal(err)
		}
		summary, _, ok := strings.Cut(m.Text, "\nCommands\n")
		if !ok {
			t.Fatalf("%s: no commands after the summary", name)
		}
		lines := strings.Split(summary, "\n")
		for i := 0; i+1 < len(lines); i++ {
			cur, next := lines[i], lines[i+1]
			if cur == "" || next == "" || strings.Trim(next, "-") == "" || strings.HasPrefix(cur, "--") {
				continue
			}
			word := strings.Fields(next)[0]
			if len([]rune(cur))+1+len([]rune(word)) <= lineWidth {
				t.Errorf("%s: %q is broken before %q", name, cur, word)
			}
		}
	}
}

// TestHelpNotify: help says what each notify setting does, off included.
func TestHelpNotify(t *testing.T) {
	t.Parallel()
	r := newRenderer(t)
	for _, name := range []string{"help-lobby"} {
		m, err := r.Notice(noticeCases()[name])
		if err != nil {
			t.Fatal(err)
		}
		text := unwrap(m.Text)
		for _, want := range []string{
			"`notify off` (mail only in answer to your own mail, the last reminder before a deadline, pokes, and the end)",
			"`notify turns` (mail only when you must decide, at the start and the end)",
			"`notify normal` (the default: a mail when you must decide, when a round or session is decided, at the start and the end, and an answer to each of your mails)",
			"`notify digest` (at most one mail a day, at 8:00 your time",
		} {
			if !strings.Contains(text, want) {
				t.Errorf("%s lacks %q:\n%s", name, want, m.Text)
			}
		}
		if strings.Contains(text, "or none") {
			t.Errorf("%s says notify can turn off every mail", name)
		}
	}
	// A help that lists notify among its commands explains it there,
	// once: not again in its prose.
	for _, name := range []string{"help-felix", "help-every-command"} {
		m, _ := r.Notice(noticeCases()[name])
		text := unwrap(m.Text)
		if want := "off: only answers to your own mail, the last reminder before a deadline, pokes, and the end. here, in a game's thread: for that game only (notify off here). Example: notify digest"; !strings.Contains(text, want) {
			t.Errorf("%s: the notify entry lacks %q:\n%s", name, want, m.Text)
		}
		for _, part := range []string{text, htmlText(m.HTML)} {
			if n := strings.Count(part, "at most one mail a day"); n != 1 {
				t.Errorf("%s explains notify digest %d times:\n%s", name, n, part)
			}
		}
	}
}

func TestDeclinedSaysWho(t *testing.T) {
	t.Parallel()
	n := Notice{Service: "pbem", Kind: "declined", Game: "felix", Title: "Felix: The Cat in the Sack", GameID: 4,
		From: "bob", Players: []string{"alice", "bob", "carol"}}
	m, err := newRenderer(t).Notice(n)
	if err != nil {
		t.Fatal(err)
	}
	if m.Subject != "Felix #4 will not start: bob declined" {
		t.Errorf("subject %q", m.Subject)
	}
	if !strings.Contains(m.Text, "Felix #4 will not start: bob declined.\n") {
		t.Errorf("body:\n%s", m.Text)
	}
	if !strings.Contains(htmlText(m.HTML), "Felix #4 will not start: bob declined.") {
		t.Errorf("HTML part: %s", htmlText(m.HTML))
	}
}

// TestCreatedNamesTheInvited: the creator is told where the invitations
// went, which is not to himself.
func TestCreatedNamesTheInvited(t *testing.T) {
	t.Parallel()
	m, err := newRenderer(t).Notice(noticeCases()["created"])
	if err != nil {
		t.Fatal(err)
	}
	const want = "Invitations have been sent to bob@example.org, carol@example.org and dave@example.org."
	for part, text := range map[string]string{"text": unwrap(m.Text), "HTML": htmlText(m.HTML)} {
		if !strings.Contains(text, want) {
			t.Errorf("the %s lacks %q", part, want)
		}
		if strings.Contains(text, "alice@example.org") {
			t.Errorf("the %s names the creator among the invited", part)
		}
	}
}

func TestWholeHistoryHeading(t *testing.T) {
	t.Parallel()
	r := newRenderer(t)
	g, opening, steps := play(t, basics4p, -1)
	bob := engine.Seat(g, "bob")
	var all []engine.Event
	all = append(all, opening...)
	for _, s := range steps {
		all = append(all, s.events...)
	}
	m := mailFor(t, g, bob, "status", visible(bob, all))
	m.WholeHistory = true
	mail := render(t, r, m)
	for part, text := range map[string]string{"text": mail.Text, "HTML": htmlText(mail.HTML)} {
		if !strings.Contains(text, "The whole game so far") || strings.Contains(text, "since your last mail") {
			t.Errorf("the %s is not headed as the whole history", part)
		}
	}
	m.WholeHistory = false
	// Without it, what happened is the story at the top, told once:
	// no heading below the table tells any of it again.
	if mail := render(t, r, m); strings.Contains(mail.Text, "The whole game so far") || strings.Contains(mail.Text, "since your last mail") {
		t.Errorf("without WholeHistory the events are headed below the table:\n%s", mail.Text)
	}
}

// TestRefusalToAStranger: whoever is refused has no game at that
// address, so he is not sent to "the game" or its table.
func TestRefusalToAStranger(t *testing.T) {
	t.Parallel()
	m, err := newRenderer(t).Notice(noticeCases()["refusal"])
	if err != nil {
		t.Fatal(err)
	}
	for part, text := range map[string]string{"text": unwrap(m.Text), "HTML": htmlText(m.HTML)} {
		for _, bad := range []string{"in the game", "`status`", "status", "the table"} {
			if strings.Contains(text, bad) {
				t.Errorf("the %s says %q to a stranger", part, bad)
			}
		}
	}
}

// TestInvalidNotice: a request that was read but cannot be done is not
// answered "could not be read".
func TestInvalidNotice(t *testing.T) {
	t.Parallel()
	n := noticeCases()["invalid"]
	n.DidYouMean = []string{"new felix with bob@example.org carol@example.org"}
	n.Lines = []string{"Your mail was read up to here."}
	m, err := newRenderer(t).Notice(n)
	if err != nil {
		t.Fatal(err)
	}
	checkShape(t, m)
	if m.Subject != "pbem: that cannot be done" {
		t.Errorf("subject %q", m.Subject)
	}
	text := unwrap(m.Text)
	at := 0
	for _, want := range []string{"pbem cannot do that: " + n.Reason, "Did you mean:", n.DidYouMean[0],
		n.Lines[0], "Commands", "new GAME with ADDRESS...", "Nothing was applied."} {
		i := strings.Index(text[at:], want)
		if i < 0 {
			t.Fatalf("%q missing or out of order in:\n%s", want, m.Text)
		}
		at += i + len(want)
	}
	html := htmlText(m.HTML)
	testlib.ContainsAll(t, "the HTML part", html, "pbem cannot do that: "+n.Reason, n.DidYouMean[0], n.Lines[0], "Nothing was applied.")
	if strings.Contains(text+html, "could not be read") {
		t.Error("an invalid request is answered as unreadable")
	}
}

// TestSubjectNeverWaitsForTheReader: the game may wait on the reader
// without offering him commands (the daemon gives none while a game is
// not active); the headline and the body still never say it waits for
// him by his own name. (The Subject names every player: it is the game's.)
func TestHeadlineNeverWaitsForTheReader(t *testing.T) {
	t.Parallel()
	r := newRenderer(t)
	// basics-4p at the end: the game waits on bob alone.
	g, opening, steps := play(t, basics4p, -1)
	bob := engine.Seat(g, "bob")
	m := mailFor(t, g, bob, "status", sinceLastMove(bob, opening, steps))
	m.Options = nil
	mail := render(t, r, m)
	if strings.Contains(mail.Headline, "bob") || !strings.Contains(mail.Headline, "waiting for you") {
		t.Errorf("headline %q", mail.Headline)
	}
	if strings.Contains(mail.Text, "Waiting for bob") || strings.Contains(mail.Text, "it is not your turn") {
		t.Errorf("the body tells bob the game waits for bob, or that it is not his turn:\n%s", mail.Text)
	}
	// Placing: the game waits on alice, who has not placed, and others.
	g, opening, steps = play(t, basics4p, 0)
	alice := engine.Seat(g, "alice")
	m = mailFor(t, g, alice, "status", sinceLastMove(alice, opening, steps))
	m.Options = nil
	mail = render(t, r, m)
	if want := "waiting for you and 3 others"; !strings.Contains(mail.Headline, want) {
		t.Errorf("headline %q, want it to say %q", mail.Headline, want)
	}
}

// readerWaitsInSubject reports whether a subject says the game waits for
// reader by name.
func readerWaitsInSubject(subject, reader string) bool {
	_, rest, ok := strings.Cut(subject, "waiting for ")
	return ok && regexp.MustCompile(`\b`+regexp.QuoteMeta(reader)+`\b`).MatchString(rest)
}
