package templates

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/felix"
	"github.com/pbem/pbem/engine/gracias"
)

// TestWholeGamesTellOneStory reads every mail of every seat of random
// whole games of both games (issue 35) and checks that each tells what
// happened since its reader's last mail once, in order, at the top: the
// story's items come first after the marker, they are what happened in
// the order it happened (no effect above its cause), and none is told
// again below. It checks that no item names the reader as its subject
// (his own acts are "You ..."), and that no sentence holds a Go duration
// ("24h0m0s") or "1 mice".
func TestWholeGamesTellOneStory(t *testing.T) {
	r := newRenderer(t)
	type game struct {
		rules engine.Rules
		n     int
		seed  uint64
	}
	var list []game
	for i, n := range []int{3, 4, 5} {
		list = append(list, game{felix.Rules{}, n, uint64(350 + i)})
	}
	for i, n := range []int{3, 4, 5, 6} {
		list = append(list, game{gracias.Rules{}, n, uint64(360 + i)})
	}
	for _, gm := range list {
		t.Run(fmt.Sprintf("%s-%dp-%d", gm.rules.Name(), gm.n, gm.seed), func(t *testing.T) {
			t.Parallel() // the renderer is safe for concurrent use
			mails, items := 0, 0
			randomGame(t, gm.rules, gm.n, gm.seed, func(g engine.Game, seat int, kind MailKind, happened, _ []engine.Event) {
				m := mailFor(t, g, seat, kind, happened)
				mail, err := r.Game(m)
				if err != nil {
					t.Fatal(err)
				}
				mails++
				story := storyOf(t, mail.Text, m.Marker)
				items += len(story)
				if bad := storyProblems(story, m, gm.rules, mail.Text); len(bad) > 0 {
					t.Fatalf("%s's %s mail:\n%s\n\n%s", m.Reader, kind, strings.Join(bad, "\n"), mail.Text)
				}
				if bad := wordProblems(mail.Text + "\n" + htmlText(mail.HTML)); len(bad) > 0 {
					t.Fatalf("%s's %s mail:\n%s\n\n%s", m.Reader, kind, strings.Join(bad, "\n"), mail.Text)
				}
				// The HTML part tells the story as the text does: never
				// in the words the others read of the reader's acts.
				own := addressed(m.Happened, m.Reader, gm.rules)
				for i, e := range m.Happened {
					if own[i].Text != e.Text && strings.Contains(htmlText(mail.HTML), unwrap(e.Text)) {
						t.Fatalf("the HTML part of %s's %s mail says %q", m.Reader, kind, e.Text)
					}
				}
			})
			if mails == 0 || items == 0 {
				t.Fatalf("%d mails, %d story items: nothing was read", mails, items)
			}
		})
	}
}

// storyOf is the story at the top of a mail's text: the items ("- ...",
// each unwrapped) of the list that follows the marker.
func storyOf(t *testing.T, text, marker string) []string {
	t.Helper()
	lines := strings.Split(text, "\n")
	i := 0
	for i < len(lines) && lines[i] != marker {
		i++
	}
	if i == len(lines) {
		t.Fatalf("no marker in:\n%s", text)
	}
	// The mails read here have no intro: the first line after the
	// marker's blank one is the story's, or there is no story.
	for i++; i < len(lines) && lines[i] == ""; i++ {
	}
	if i == len(lines) || !strings.HasPrefix(lines[i], "- ") {
		return nil
	}
	var story []string
	for ; i < len(lines) && lines[i] != ""; i++ {
		if strings.HasPrefix(lines[i], "- ") {
			story = append(story, strings.TrimPrefix(lines[i], "- "))
			continue
		}
		story[len(story)-1] += " " + lines[i]
	}
	for j, item := range story {
		story[j] = unwrap(item)
	}
	return story
}

// storyProblems says where a mail's story is not what happened since
// the reader's last mail, in order and once, or tells his own acts by
// his name.
func storyProblems(story []string, m GameMail, rules engine.Rules, text string) []string {
	var bad []string
	happened := addressed(m.Happened, m.Reader, rules)
	next := 0 // the story is a subsequence of what happened, in its order
	for _, item := range story {
		found := false
		for next < len(happened) && !found {
			found = unwrap(happened[next].Text) == item
			next++
		}
		if !found {
			bad = append(bad, fmt.Sprintf("%q is not what happened next since the reader's last mail", item))
		}
		if strings.Count(unwrap(text), item) > 1 {
			bad = append(bad, fmt.Sprintf("%q is told twice", item))
		}
	}
	// Whatever else of what happened the mail tells, it tells in the
	// story: nothing of it below.
	told := map[string]bool{}
	for _, item := range story {
		told[item] = true
	}
	for _, e := range happened {
		if s := unwrap(e.Text); !told[s] && strings.Contains(unwrap(text), s) {
			bad = append(bad, fmt.Sprintf("%q is told below the story", s))
		}
	}
	if len(story) == 0 && len(shownEvents(m, rules)) > 0 {
		bad = append(bad, "what happened is not at the top")
	}
	return append(bad, thirdPerson(story, m.Reader)...)
}

// thirdPerson are the items that tell the reader's own acts by his name:
// his name as the subject of a sentence ("bob bids 2.", "bob's card").
func thirdPerson(items []string, reader string) []string {
	var bad []string
	for _, item := range items {
		for _, subject := range []string{reader + " ", reader + "'s ", reader + ", "} {
			if strings.HasPrefix(item, subject) || strings.Contains(item, ". "+subject) {
				bad = append(bad, fmt.Sprintf("%q tells %s's own act by his name", item, reader))
			}
		}
	}
	return bad
}

var (
	goDuration = regexp.MustCompile(`\b\d+h\d+m\d+s\b|\b\d+m\d+s\b`)
	oneMice    = regexp.MustCompile(`\b1 mice\b`)
)

// wordProblems are the Go durations and wrong plurals of a mail.
func wordProblems(text string) []string {
	var bad []string
	for _, re := range []*regexp.Regexp{goDuration, oneMice} {
		if s := re.FindString(text); s != "" {
			bad = append(bad, fmt.Sprintf("the mail says %q", s))
		}
	}
	return bad
}
