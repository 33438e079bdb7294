package templates

import (
	"fmt"
	"html"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/felix"
	"github.com/pbem/pbem/engine/games"
)

// tapLink is one <a> of an HTML part, its href decoded.
type tapLink struct {
	text                       string // what the link shows
	raw                        string // the href as written, entities decoded
	to, subject, inReply, body string
}

// tapLinks finds every <a> in an HTML part and decodes its mailto: URL
// as a mail program does (RFC 6068).
func tapLinks(t *testing.T, h string) []tapLink {
	t.Helper()
	var out []tapLink
	in := -1 // the link being read, or -1
	var text strings.Builder
	scanHTML(h, func(s string) {
		if in >= 0 {
			text.WriteString(s)
		}
	}, func(name, tag string) {
		switch name {
		case "a":
			i := strings.Index(tag, ` href="`)
			if i < 0 {
				t.Fatalf("a link without href: %s", tag)
			}
			raw := html.UnescapeString(tag[i+len(` href="`) : i+len(` href="`)+strings.IndexByte(tag[i+len(` href="`):], '"')])
			u, err := url.Parse(raw)
			if err != nil || u.Scheme != "mailto" {
				t.Fatalf("the link %q is no mailto: URL (%v)", raw, err)
			}
			to, err := url.PathUnescape(u.Opaque)
			if err != nil {
				t.Fatalf("the link's address %q: %v", u.Opaque, err)
			}
			q, err := url.ParseQuery(u.RawQuery)
			if err != nil {
				t.Fatalf("the link's fields %q: %v", u.RawQuery, err)
			}
			for k, v := range q {
				if len(v) != 1 || !slices.Contains([]string{"subject", "In-Reply-To", "body"}, k) {
					t.Errorf("the link %q has a field %s=%q: only subject, In-Reply-To and body belong in it", raw, k, v)
				}
			}
			out = append(out, tapLink{raw: raw, to: to, subject: q.Get("subject"), inReply: q.Get("In-Reply-To"), body: q.Get("body")})
			in = len(out) - 1
			text.Reset()
		case "/a":
			out[in].text = html.UnescapeString(text.String())
			in = -1
		}
	})
	return out
}

// offeredLinks are the commands a game mail's HTML part offers as links:
// every command of its options (an option too large to list, its
// example), what a Felix player may send ahead of his turn, `rematch` at
// the end, and the footer's commands.
func offeredLinks(m GameMail) (cmds []string, compact int) {
	if m.Finished {
		return append([]string{"rematch"}, footerWords...), 0
	}
	for _, l := range optionLines(games.All()[m.Game].Specs(), m.Options) {
		cmds = append(cmds, l.Commands...)
		if l.Usage != "" {
			compact++
		}
	}
	if v, ok := m.View.(felix.View); ok && v.Ahead && len(m.Options) == 0 {
		aheadLimit := (felix.Rules{}).Funcs(engine.English)["aheadLimit"].(func(felix.View) int)
		if n := aheadLimit(v); n > 0 {
			cmds = append(cmds, fmt.Sprintf("bid up to %d", n))
		}
		if !v.StandingPass {
			cmds = append(cmds, "pass")
		}
	}
	return append(cmds, footerWords...), compact
}

// Every command a game mail offers (its options, the footer's, rematch)
// is a mailto: link to the seat's address that writes a reply with the
// thread's subject, the mail's id as In-Reply-To, and the command and
// the mail's reference line as its body; the links are exactly the
// commands offered, each once, and nothing else. An option too large to
// list shows its pattern and one example, which is a link. Mails are taken at every
// move of several games, for every player.
func TestLinksAreTheOptions(t *testing.T) {
	t.Parallel()
	r := newRenderer(t)
	files := []string{
		"engine/felix/testdata/basics-4p.txt", "engine/felix/testdata/buy-for-one-4p.txt",
		"engine/felix/testdata/dummy-3p.txt", "engine/felix/testdata/five-players.txt",
		"examples/gracias-3p.txt", "engine/gracias/testdata/scoring-3p.txt", "engine/gracias/testdata/sorted-6p.txt",
	}
	mails, compact := 0, 0
	for _, file := range files {
		_, _, all := play(t, file, -1)
		for n := 0; n <= len(all); n++ {
			g, opening, steps := play(t, file, n)
			for seat := range g.Players() {
				m := mailFor(t, g, seat, "turn", sinceLastMove(seat, opening, steps))
				mail := render(t, r, m)
				links := tapLinks(t, mail.HTML)
				want, c := offeredLinks(m)
				compact += c
				var got []string
				for _, l := range links {
					cmd, ref, ok := strings.Cut(l.body, "\r\n\r\n")
					switch {
					case !ok || ref != m.RefLine:
						t.Errorf("the link %q's body is %q: not the command, a blank line and %q", l.text, l.body, m.RefLine)
					case l.text != cmd && !strings.HasSuffix(cmd, " "+l.text):
						t.Errorf("the link for %q reads %q", cmd, l.text)
					case l.to != testReplyAddress:
						t.Errorf("the link for %q writes to %q, not the seat's address", cmd, l.to)
					case l.subject != "Re: "+mail.Subject:
						t.Errorf("the link for %q has the subject %q, not the thread's %q", cmd, l.subject, mail.Subject)
					case l.inReply != "<"+m.MessageID+">":
						t.Errorf("the link for %q answers %q", cmd, l.inReply)
					case strings.Contains(l.raw, "+"):
						t.Errorf("the link %q has a '+', which form decoders read as a space", l.raw)
					}
					got = append(got, cmd)
				}
				slices.Sort(want)
				slices.Sort(got)
				if !slices.Equal(got, want) {
					t.Errorf("%s after %d moves, %s: the links are\n%q\nthe commands offered\n%q", file, n, g.Players()[seat], got, want)
				}
				mails++
				if len(m.Options) > 0 && !m.Finished && !strings.Contains(htmlText(mail.HTML), "Tap a command to write your reply with it") {
					t.Errorf("%s after %d moves: the links are not explained", file, n)
				}
			}
		}
	}
	t.Logf("%d mails, %d options shown in their compact form", mails, compact)
}

// Without a reply address (a renderer's caller that has none) the
// commands are shown as before, to copy, and no sentence says "tap".
func TestNoLinksWithoutAddress(t *testing.T) {
	t.Parallel()
	r := newRenderer(t)
	g, opening, steps := play(t, "engine/felix/testdata/basics-4p.txt", -1)
	bob := engine.Seat(g, "bob")
	m := mailFor(t, g, bob, "turn", sinceLastMove(bob, opening, steps))
	m.ReplyAddress = ""
	mail := render(t, r, m)
	if strings.Contains(mail.HTML, "<a ") || strings.Contains(strings.ToLower(mail.HTML), "tap a command") {
		t.Errorf("a mail without a reply address has links")
	}
	checkSameContent(t, m, mail)
}

// A reminder's links answer in the game's thread: their subject is the
// game's, without "Reminder: ".
func TestReminderLinksAnswerTheThread(t *testing.T) {
	t.Parallel()
	r := newRenderer(t)
	g, opening, steps := play(t, "engine/felix/testdata/basics-4p.txt", -1)
	bob := engine.Seat(g, "bob")
	m := mailFor(t, g, bob, "reminder", sinceLastMove(bob, opening, steps))
	mail := render(t, r, m)
	links := tapLinks(t, mail.HTML)
	if len(links) == 0 {
		t.Fatal("the reminder has no links")
	}
	for _, l := range links {
		if want := "Re: " + strings.TrimPrefix(mail.Subject, "Reminder: "); l.subject != want {
			t.Errorf("a reminder's link has the subject %q, want %q", l.subject, want)
		}
	}
}

// An invitation's join, decline and rules are buttons: links that write
// the reply in the game's thread, from the seat's address.
func TestInvitationButtons(t *testing.T) {
	m, err := newRenderer(t).Notice(noticeCases()["invite"])
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range tapLinks(t, m.HTML) {
		cmd, _, _ := strings.Cut(l.body, "\r\n")
		if l.to != testReplyAddress || l.subject != "Re: "+m.Subject || l.text != cmd {
			t.Errorf("the invitation's link %q: to %q, subject %q, shows %q", cmd, l.to, l.subject, l.text)
		}
		got = append(got, cmd)
	}
	if want := []string{"join", "decline", "rules"}; !slices.Equal(got, want) {
		t.Errorf("the invitation's buttons are %q, want %q", got, want)
	}
}
