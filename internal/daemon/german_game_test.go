package daemon

import (
	"html"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/pbem/pbem/engine"
)

// The words that show a sentence of one language in a mail of the other:
// the commonest small words, each of which the other language never
// writes (German "was", "will", "also", "an" are English words too, and
// are not listed).
var (
	englishOnly = wordList("the", "you", "your", "is", "are", "and", "to", "of", "with", "for", "not", "has", "have",
		"can", "this", "that", "from", "by", "when", "what", "or", "it", "be", "on", "at", "reply", "send", "game",
		"move", "turn", "now", "yes", "please", "his", "their", "they", "we", "only", "each", "every", "bids",
		"passes", "plays", "takes", "keeps", "gives", "round", "row", "mice", "deadline", "waiting", "wins")
	germanOnly = wordList("der", "das", "und", "ist", "nicht", "du", "dein", "deine", "deinen", "dir", "mit", "für",
		"auf", "eine", "einen", "von", "zu", "partie", "zug", "frist", "schicke", "antworte", "jetzt", "noch",
		"wenn", "oder", "bitte", "bietet", "passt", "spielt", "nimmt", "behält", "runde", "reihe", "mäuse")
)

func wordList(ws ...string) map[string]bool {
	m := map[string]bool{}
	for _, w := range ws {
		m[w] = true
	}
	return m
}

var (
	tagRe  = regexp.MustCompile(`(?s)<style.*?</style>|<[^>]*>`)
	linkRe = regexp.MustCompile(`(https?|mailto):\S+`)
)

// foreignWords are the words of text that belong to the other language
// (foreign): a mail's text, or an HTML part or page with its tags and
// links dropped.
func foreignWords(text string, foreign map[string]bool) []string {
	text = linkRe.ReplaceAllString(html.UnescapeString(tagRe.ReplaceAllString(text, " ")), " ")
	var found []string
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || strings.ContainsRune("äöüß", r))
	}) {
		if foreign[w] && !slices.Contains(found, w) {
			found = append(found, w)
		}
	}
	return found
}

// TestForeignWordsFindsBoth: the check below can fail.
func TestForeignWordsFindsBoth(t *testing.T) {
	if got := foreignWords("Du bist am Zug: the row is yours", englishOnly); len(got) != 3 {
		t.Errorf("English in German: %v", got)
	}
	if got := foreignWords("<p>Your move</p> Runde 2: du bietest", germanOnly); len(got) != 2 {
		t.Errorf("German in English: %v", got)
	}
	if got := foreignWords(`<a href="mailto:x?body=the">Zug</a> https://x.test/the`, englishOnly); len(got) != 0 {
		t.Errorf("links and tags read as words: %v", got)
	}
}

// germanCommand is cmd, a command of the game, as a German player
// writes it: the game's own German words (engine.CommandTranslator).
func germanCommand(t *testing.T, w *world, game, cmd string) string {
	t.Helper()
	rules, ok := w.svc.games(game)
	if !ok {
		t.Fatalf("no game %s", game)
	}
	tr, ok := rules.(engine.CommandTranslator)
	if !ok {
		t.Fatalf("%s writes no command in German (engine.CommandTranslator)", game)
	}
	return tr.CommandIn(cmd, w.svc.render.Words("de").T)
}

// TestGermanPlayerAtEnglishTable (issue 39, done when): a whole game of
// Felix and one of Gracias, by mail, with one German-speaking player who
// writes only German (the lobby, his moves, Urlaub, zurück, Hilfe,
// Regeln, Stand, Verlauf) and reads only German, at a table of English
// players who read only English: no English word in any of his mails
// or his page, no German one in theirs.
func TestGermanPlayerAtEnglishTable(t *testing.T) {
	for _, game := range []string{"felix", "gracias"} {
		t.Run(game, func(t *testing.T) {
			t.Parallel()
			w := newWorldConfig(t, func(c *Config) { c.Limits = unlimited; c.WebURL = "https://web.pbem.test" })
			anna, others := "anna@x.test", []string{"bob@x.test", "carol@x.test", "dave@x.test"}
			w.send(anna, "pbem@example.test", "Hallo!\nneu "+game+" mit "+strings.Join(others, " "))
			reply := map[string]string{anna: w.last(anna).ReplyTo}
			for _, o := range others {
				reply[o] = w.last(o).ReplyTo
				w.send(o, reply[o], "join")
			}
			id := w.gameOf(reply[anna])
			for _, cmd := range []string{"Hilfe", "Regeln", "Stand", "Verlauf", "Urlaub 2 Tage", "zurück"} {
				w.send(anna, reply[anna], cmd)
			}
			seats := map[int]string{0: anna, 1: others[0], 2: others[1], 3: others[2]}
			rng := rand.New(rand.NewPCG(39, uint64(len(game))))
			for steps := 0; ; steps++ {
				if steps > 600 {
					t.Fatal("the game does not end")
				}
				tb := w.loaded(id)
				if tb.State.Result().Finished {
					break
				}
				seat := tb.State.Waiting()[0]
				var cmds []string
				for _, o := range tb.State.Options(seat) {
					cmds = append(cmds, o.Commands...)
				}
				cmd := cmds[rng.IntN(len(cmds))]
				if seats[seat] == anna {
					cmd = germanCommand(t, w, game, cmd)
				}
				w.send(seats[seat], reply[seats[seat]], cmd)
			}
			check := func(addr string, foreign map[string]bool, lang string, from int) {
				t.Helper()
				for i, m := range w.mailsTo(addr)[from:] {
					for part, text := range map[string]string{"subject": m.Subject, "text": m.Text, "html": m.HTML} {
						if found := foreignWords(text, foreign); len(found) > 0 {
							t.Errorf("%s's mail %d (%s) has %v in a %s mail:\n%s", addr, i, part, found, lang, text)
							return
						}
					}
				}
			}
			check(anna, englishOnly, "German", 0)
			for _, o := range others {
				// An invitation from anna is in her language, as pbem
				// knows none of theirs yet; their own mails decide the
				// rest.
				inv := w.mailsTo(o)[0]
				if found := foreignWords(inv.Text, englishOnly); len(found) > 0 || !strings.Contains(inv.Text, "beitreten") {
					t.Errorf("%s's invitation from a German player is not German (%v):\n%s", o, found, inv.Text)
				}
				check(o, germanOnly, "English", 1)
			}
			// As short as the English ones: lines per game mail (the
			// text part) in the same range as the others'.
			perMail := func(addr string, from int) float64 {
				mails := w.mailsTo(addr)[from:]
				lines := 0
				for _, m := range mails {
					lines += strings.Count(strings.TrimSpace(m.Text), "\n") + 1
				}
				return float64(lines) / float64(len(mails))
			}
			german, english := perMail(anna, 0), 0.0
			for _, o := range others {
				english += perMail(o, 1) / float64(len(others))
			}
			t.Logf("%s: %d mails to anna, %.1f lines each; %.1f lines each to the English players", game, len(w.mailsTo(anna)), german, english)
			if german > 1.25*english || german < 0.75*english {
				t.Errorf("anna's German mails have %.1f lines each, the English ones %.1f", german, english)
			}
			for seat, addr := range seats {
				page, _ := w.pageNow(w.pageToken(id, seat))
				foreign, lang := germanOnly, "English"
				if addr == anna {
					foreign, lang = englishOnly, "German"
				}
				if found := foreignWords(page, foreign); len(found) > 0 {
					t.Errorf("%s's page has %v in a %s page:\n%s", addr, found, lang, linkRe.ReplaceAllString(html.UnescapeString(tagRe.ReplaceAllString(page, " ")), " "))
				}
			}
		})
	}
}
