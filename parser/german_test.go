package parser

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/gracias"
)

// realGracias is Gracias's own grammar, German words included
// (graciasLang has only its shape).
func realGracias() Grammar {
	return Grammar{Games: testGames, Specs: gracias.Rules{}.Specs(), Nouns: gracias.Rules{}.Nouns(), Players: []string{"alice", "bob", "carol"}}
}

// TestGermanReadsAsEnglish checks that each German command reads as
// the same canonical command as its English counterpart: the issue's
// examples and every word of docs/commands.md's "Commands in German".
func TestGermanReadsAsEnglish(t *testing.T) {
	t.Parallel()
	tests := []struct {
		grammar         Grammar
		german, english string
	}{
		// Felix.
		{felixLang(), "biete 4", "bid 4"},
		{felixLang(), "Biete vier", "bid 4"},
		{felixLang(), "ich biete 4 Mäuse, bitte", "bid 4"},
		{felixLang(), "bieten 12", "bid 12"},
		{felixLang(), "biete bis 9", "bid up to 9"},
		{felixLang(), "biete bis zu 9", "bid up to 9"},
		{felixLang(), "Biete bis zu neun Mäuse", "bid up to 9"},
		{felixLang(), "passe", "pass"},
		{felixLang(), "Passen", "pass"},
		{felixLang(), "kaufe", "buy"},
		{felixLang(), "spiele Hase", "play rabbit"},
		{felixLang(), "spiel den Hasen", "play rabbit"},
		{felixLang(), "spiele das Kaninchen", "play rabbit"},
		{felixLang(), "spiele -8", "play -8"},
		{felixLang(), "spiele die Karte +15", "play 15"},
		{felixLang(), "spiele großer Hund", "play large dog"},
		{felixLang(), "spiele grosser Hund", "play large dog"},
		{felixLang(), "spiele großer-hund", "play large-dog"},
		{felixLang(), "SPIELE GROSSEN HUND", "play large-dog"},
		{felixLang(), "spiele kleiner Hund", "play small dog"},
		{felixLang(), "spiele den kleinen Hund", "play small dog"},
		// Gracias.
		{realGracias(), "nimm 2 behalte rot gib bob", "take 2 keep red give bob"},
		{realGracias(), "Nimm zwei, behalte Rot und gib Bob", "take 2 keep red give bob"},
		{realGracias(), "nimm 3", "take 3"},
		{realGracias(), "behalte grün gib alice", "keep green give alice"},
		{realGracias(), "behalte gruen gib alice", "keep green give alice"},
		{realGracias(), "behalte orange gib carol", "keep orange give carol"},
		{realGracias(), "behalte gelb gib carol", "keep yellow give carol"},
		{realGracias(), "behalte blau gib carol", "keep blue give carol"},
		{realGracias(), "behalte lila gib carol", "keep purple give carol"},
		{realGracias(), "behalte die rote Karte gib carol", "keep red give carol"},
		// The lobby.
		{lobbyLang(), "Hilfe", "help"},
		{lobbyLang(), "Sprache deutsch", "language german"},
		{lobbyLang(), "sprache Englisch", "language english"},
		{lobbyLang(), "language Deutsch", "language german"},
		{lobbyLang(), "language german", "language german"},
		{lobbyLang(), "Regeln", "rules"},
		{lobbyLang(), "Regeln felix", "rules felix"},
		{lobbyLang(), "neu felix mit bob@x.test und carol@y.test", "new felix with bob@x.test carol@y.test"},
		{lobbyLang(), "neu felix mit bob@x.test und ein Bot", "new felix with bob@x.test and a bot"},
		{lobbyLang(), "neu gracias mit zwei Bots Frist 2 Tage Wochenenden frei", "new gracias with two bots deadline 2 days weekends off"},
		{lobbyLang(), "neu felix mit bob@x.test Frist 36 Stunden", "new felix with bob@x.test deadline 36 hours"},
		{lobbyLang(), "beitreten", "join"},
		{lobbyLang(), "mitspielen", "join"},
		{lobbyLang(), "ablehnen", "decline"},
		{lobbyLang(), "niemals", "never"},
		{lobbyLang(), "Partien", "games"},
		{lobbyLang(), "Stand", "status"},
		{lobbyLang(), "Name Jürgen", "name Jürgen"},
		{lobbyLang(), "Benachrichtigung alle", "notify all"},
		{lobbyLang(), "Benachrichtigungen aus hier", "notify off here"},
		{lobbyLang(), "Benachrichtigung Zusammenfassung 19", "notify digest 19"},
		{lobbyLang(), "Benachrichtigung Züge", "notify turns"},
		{lobbyLang(), "bestätigen an", "confirm on"},
		{lobbyLang(), "bestaetigen aus", "confirm off"},
		{lobbyLang(), "Zeitzone Europe/Berlin", "timezone Europe/Berlin"},
		{lobbyLang(), "Ruhezeit 22-7", "quiet 22-7"},
		{lobbyLang(), "Ruhezeit aus", "quiet off"},
		{lobbyLang(), "Urlaub 5 Tage", "vacation 5 days"},
		{lobbyLang(), "Urlaub fünf Tage", "vacation 5 days"},
		{lobbyLang(), "Urlaub eine Woche", "vacation 1 week"},
		{lobbyLang(), "Urlaub 2 Wochen", "vacation 2 weeks"},
		{lobbyLang(), "Urlaub bis 2026-12-24", "vacation until 2026-12-24"},
		{lobbyLang(), "Urlaub bis 24.12.2026", "vacation until 2026-12-24"},
		{lobbyLang(), "Urlaub bis 2.1.2027", "vacation until 2027-01-02"},
		{lobbyLang(), "Urlaub bis zum 02.01.2027", "vacation until 2027-01-02"},
		{lobbyLang(), "zurück", "back"},
		{lobbyLang(), "zurueck", "back"},
		{lobbyLang(), "ZURÜCK", "back"},
		{lobbyLang(), "Adresse neu@x.test", "address neu@x.test"},
		{lobbyLang(), "Adresse hinzufügen b@y.test", "address add b@y.test"},
		{lobbyLang(), "Revanche", "rematch"},
		{lobbyLang(), "Verlauf", "history"},
		{lobbyLang(), "Rangliste", "standings"},
		{lobbyLang(), "Rangliste Details", "standings detail"},
		{lobbyLang(), "link neu", "link new"},
		{lobbyLang(), "Zuschauer an", "spectators on"},
		{lobbyLang(), "sag Hallo zusammen", "say Hallo zusammen"},
		{lobbyLang(), "sage Hallo zusammen", "say Hallo zusammen"},
		{lobbyLang(), "anstupsen", "poke"},
		{lobbyLang(), "rückgängig", "undo"},
		{lobbyLang(), "rueckgaengig", "undo"},
		{lobbyLang(), "zustimmen", "agree"},
		{lobbyLang(), "widersprechen", "refuse"},
		{lobbyLang(), "aufgeben", "resign"},
		{lobbyLang(), "neu felix mit zwei strong Bots", "new felix with two strong bots"},
		{lobbyLang(), "Benachrichtigung normal", "notify normal"},
		{lobbyLang(), "ich möcht bitte beitreten", "join"},
		// Lobby words inside a game.
		{felixLang(), "Stand", "status"},
		{realGracias(), "Hilfe", "help"},
	}
	for _, tt := range tests {
		got, gotProb := Read(tt.german, tt.grammar)
		want, wantProb := Read(tt.english, tt.grammar)
		if gotProb != nil || wantProb != nil || len(want) != 1 {
			t.Errorf("%q: %v, %v; %q: %v, %v", tt.german, got, gotProb, tt.english, want, wantProb)
			continue
		}
		if g, w := commandSummary(got), commandSummary(want); g != w {
			t.Errorf("%q reads as\n %s\nand %q as\n %s", tt.german, g, tt.english, w)
		}
	}
}

// commandSummary is what a read command means, without where it was
// written (Line, Source).
func commandSummary(cs []Command) string {
	var parts []string
	for _, c := range cs {
		parts = append(parts, fmt.Sprintf("%v %s %q %q move=%q said=%q name=%q addrs=%v add=%v here=%v bots=%v deadline=%v weekends=%v",
			c.Kind, c.Name, c.Args, c.Text, c.Move.Text, c.Said, c.NewName, c.Addresses, c.AddAddress, c.ThisGame, c.Bots, c.Deadline, c.WeekendsOff))
	}
	return strings.Join(parts, "; ")
}

// TestEnglishAlwaysRead checks that English reads alongside German in a
// game, that "und" and "dann" separate commands as "and" and "then" do,
// and that canonical text is English whatever the words.
func TestEnglishAlwaysRead(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]string{
		"biete 4\npass":            "bid 4|pass",
		"Hilfe und Stand":          "help|status",
		"Stand, dann Verlauf":      "status|history",
		"biete 4 und Hilfe bitte":  "bid 4|help",
		"status und history":       "status|history",
		"Regeln felix and Verlauf": "rules felix|history",
	} {
		cmds, prob := Read(text, felixLang())
		var got []string
		for _, c := range cmds {
			got = append(got, c.Text)
		}
		if prob != nil || strings.Join(got, "|") != want {
			t.Errorf("%q: %q, %v; want %q", text, got, prob, want)
		}
	}
}

// spelling is one way to write a keyword: the word, folded, and what it
// stands for.
type spelling struct {
	word    string // folded (engine.Fold)
	meaning string // "lobby:status", "felix:bid"
	english bool   // one of the English words, which may be abbreviated
}

// spellings lists every keyword of a grammar in both languages: the lobby
// commands' words and the keywords of the game's Specs (and of their
// German patterns, Spec.Also), each with what it stands for. A game's
// keyword stands for itself, not for one Spec: "bid" begins both `bid N`
// and `bid up to N`, and "nimm" both `take T` and `take T keep ...`, as
// one keyword read the same way in each.
func spellings(game string, g Grammar) []spelling {
	var out []spelling
	fold := func(w string) string { return engine.Fold(strings.ToLower(w)) }
	for _, lc := range lobbyCmds {
		for _, w := range lc.words {
			out = append(out, spelling{fold(w), "lobby:" + lc.Name, true})
		}
		for _, w := range germanWords[lc.Kind] {
			out = append(out, spelling{fold(w), "lobby:" + lc.Name, false})
		}
	}
	out = append(out, spelling{"with", "lobby:with", true}, spelling{germanWith, "lobby:with", false})
	for _, s := range g.Specs {
		for i, words := range append([][]engine.Word{s.Words}, s.Also...) {
			for _, w := range words {
				if w.Kind != engine.Literal {
					continue
				}
				kw := fold(w.Text)
				out = append(out, spelling{kw, game + ":" + kw, i == 0})
				for _, a := range w.Also {
					out = append(out, spelling{fold(a), game + ":" + kw, false})
				}
			}
		}
	}
	return out
}

// grammars are the grammars a mail is read with: the lobby's alone, and
// each game's with the lobby's.
func grammars() map[string]Grammar {
	return map[string]Grammar{"lobby": lobbyLang(), "felix": felixLang(), "gracias": realGracias()}
}

// TestNoWordMeansTwoCommands checks the rule that keeps two languages
// apart: in each grammar a mail is read with (the lobby's, or a game's
// with the lobby's), every word, folded, stands for one keyword, whether
// it is English or German: no word names one command in English and
// another in German, nor two in one language. A game's keyword may begin
// several of its Specs ("bid N", "bid up to N"): it is still one keyword,
// read the same way. Nor is a command word filler or a number, which
// would be skipped or read as an argument; and each Choice's forms name
// one value each.
func TestNoWordMeansTwoCommands(t *testing.T) {
	t.Parallel()
	for name, g := range grammars() {
		meaning := map[string]string{}
		for _, s := range spellings(name, g) {
			if m, ok := meaning[s.word]; ok && m != s.meaning {
				t.Errorf("%s: %q is both %s and %s", name, s.word, m, s.meaning)
			}
			meaning[s.word] = s.meaning
			if s.english {
				continue // as before the German words ("to" is filler too)
			}
			if fillerWords[s.word] || germanFillerWords[s.word] || slices.Contains(g.Nouns, s.word) {
				t.Errorf("%s: the German command word %q is filler", name, s.word)
			}
			if _, ok := numberWords[s.word]; ok {
				t.Errorf("%s: the German command word %q is a number", name, s.word)
			}
		}
		for _, s := range g.Specs {
			for _, w := range s.Words {
				for form, vals := range choiceForms(w) {
					if len(vals) > 1 {
						t.Errorf("%s: %s's %q names %v", name, w.Text, form, vals)
					}
				}
			}
		}
	}
}

// choiceForms maps each form of a Choice word, folded, to the values it
// names.
func choiceForms(w engine.Word) map[string][]string {
	out := map[string][]string{}
	for _, c := range w.Choices {
		for _, f := range append([]string{c.Value}, c.Aliases...) {
			f = engine.Fold(strings.ToLower(f))
			if !slices.Contains(out[f], c.Value) {
				out[f] = append(out[f], c.Value)
			}
		}
	}
	return out
}

// readAs lists what a lone word is read as in a compiled grammar: the
// lobby commands it names and the game keywords it stands for.
func readAs(c *compiled, game string, specs []engine.Spec, tok string) []string {
	var out []string
	for _, lc := range lobbyCmds {
		if c.keywordOf(lc, tok) {
			out = append(out, "lobby:"+lc.Name)
		}
	}
	if c.isKeyword("with", tok) {
		out = append(out, "lobby:with")
	}
	seen := map[string]bool{}
	for _, s := range specs {
		for _, w := range s.Words {
			kw := strings.ToLower(w.Text)
			if w.Kind == engine.Literal && !seen[kw] && c.isKeyword(kw, tok) {
				seen[kw] = true
				out = append(out, game+":"+kw)
			}
		}
	}
	for _, s := range specs {
		for _, seq := range s.Also {
			for _, w := range seq {
				kw := strings.ToLower(w.Text)
				if w.Kind == engine.Literal && !seen[kw] && c.isKeyword(kw, tok) {
					seen[kw] = true
					out = append(out, game+":"+kw)
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// TestPrefixesStayUnambiguous checks the prefix rule across both
// languages. The rule: an English word may be shortened to a prefix of
// two letters or more that begins no other English word (of another
// command: "timezone" and "tz" are one's), but for the commands written
// in full; a German word is read only whole, with or without umlauts, so
// that German words make no prefix ambiguous and change no English
// abbreviation; and a word written whole is what it is whole ("stand" is
// status's German word, not a prefix of standings). So every prefix of
// every word of both languages is read as at most one command, and as a
// command only when it is that command's word whole or the unique
// prefix of one English word (of all, the words of commands written in
// full included, which are read only whole but still share prefixes).
func TestPrefixesStayUnambiguous(t *testing.T) {
	t.Parallel()
	for name, g := range grammars() {
		c := compile(g)
		all := spellings(name, g)
		whole := map[string]string{}
		for _, s := range all {
			whole[s.word] = s.meaning
		}
		for _, s := range all {
			for n := 2; n <= len(s.word); n++ {
				p := s.word[:n]
				got := readAs(c, name, g.Specs, p)
				if len(got) > 1 {
					t.Errorf("%s: %q is read as %v", name, p, got)
					continue
				}
				want := ""
				if m, ok := whole[p]; ok {
					want = m
				} else if !wholeWords[p] {
					var of []string
					for _, e := range all {
						if e.english && strings.HasPrefix(e.word, p) && !slices.Contains(of, e.word) {
							of = append(of, e.word)
						}
					}
					if len(of) == 1 && !inFull(whole[of[0]]) {
						want = whole[of[0]]
					}
				}
				if strings.Join(got, "") != want {
					t.Errorf("%s: %q is read as %v, want %q", name, p, got, want)
				}
			}
		}
	}
}

// inFull reports whether a lobby meaning is a command written in full.
func inFull(meaning string) bool {
	name, ok := strings.CutPrefix(meaning, "lobby:")
	return ok && slices.Contains(WrittenInFull(), name)
}

// englishOnly is specs without their German words, as they were before
// them.
func englishOnly(specs []engine.Spec) []engine.Spec {
	out := make([]engine.Spec, len(specs))
	for i, s := range specs {
		s.Also = nil
		s.Words = slices.Clone(s.Words)
		for j := range s.Words {
			s.Words[j].Also = nil
		}
		out[i] = s
	}
	return out
}

// TestGermanChangesNoEnglishAbbreviation checks that every prefix of an
// English keyword stands for what it stood for before the German words,
// but for the few that are now German words themselves, listed here:
// "stand" is status (it was a prefix of standings), and "und" is German
// filler (it was undo cut short, which is refused as undo is written in
// full).
func TestGermanChangesNoEnglishAbbreviation(t *testing.T) {
	t.Parallel()
	var lobby []string
	for _, lc := range lobbyCmds {
		lobby = append(lobby, lc.words...)
	}
	changed := map[string]bool{}
	for name, g := range grammars() {
		now := compile(g).words
		before := engine.NewVocabulary(englishOnly(g.Specs), append(lobby, "with"), wholeWords)
		for _, w := range before.Words() {
			for n := 2; n <= len(w); n++ {
				p := w[:n]
				if germanFillerWords[p] {
					changed[p] = true
					continue
				}
				if b, a := before.Keywords(p), now.Keywords(p); !slices.Equal(b, a) {
					t.Logf("%s: %q stood for %v, now %v", name, p, b, a)
					changed[p] = true
				}
			}
		}
	}
	var got []string
	for p := range changed {
		got = append(got, p)
	}
	sort.Strings(got)
	if want := []string{"stand", "und"}; !slices.Equal(got, want) {
		t.Errorf("changed abbreviations %q, want %q", got, want)
	}
}

// TestGermanWordsListed checks the list the daemon keeps names apart
// from: the German commands and argument words, folded.
func TestGermanWordsListed(t *testing.T) {
	t.Parallel()
	got := GermanWords()
	for _, w := range []string{"zurueck", "hilfe", "rueckgaengig", "mit", "bis", "aus", "zusammenfassung"} {
		if !slices.Contains(got, w) {
			t.Errorf("GermanWords lacks %q: %q", w, got)
		}
	}
	for _, w := range got {
		if w != engine.Fold(strings.ToLower(w)) {
			t.Errorf("%q is not folded", w)
		}
	}
}

// TestGermanChangesNoEnglishChoice checks that the games' German card
// and colour names change no reading of an English one shortened: every
// prefix of an English form of a value reads as it did with the English
// forms alone.
func TestGermanChangesNoEnglishChoice(t *testing.T) {
	t.Parallel()
	english := map[string]bool{"large dog": true, "big dog": true, "big-dog": true, "small dog": true, "little dog": true, "little-dog": true}
	for name, g := range map[string]Grammar{"felix": felixLang(), "gracias": realGracias()} {
		before := g
		before.Specs = englishOnly(g.Specs)
		for i, s := range before.Specs {
			for j, w := range s.Words {
				if w.Kind != engine.Choice {
					continue
				}
				w.Choices = slices.Clone(w.Choices)
				for k, c := range w.Choices {
					c.Aliases = slices.DeleteFunc(slices.Clone(c.Aliases), func(a string) bool {
						return !english[a] && !strings.HasPrefix(a, "+")
					})
					w.Choices[k] = c
				}
				before.Specs[i].Words[j] = w
			}
		}
		for _, s := range before.Specs {
			for wi, w := range s.Words {
				if w.Kind != engine.Choice {
					continue
				}
				for _, c := range w.Choices {
					for _, f := range append([]string{c.Value}, c.Aliases...) {
						for n := 2; n <= len(f); n++ {
							line := englishExample(s, wi, f[:n])
							b, _ := Read(line, before)
							a, _ := Read(line, g)
							if commandSummary(b) != commandSummary(a) {
								t.Errorf("%s: %q read as %s, now %s", name, line, commandSummary(b), commandSummary(a))
							}
						}
					}
				}
			}
		}
	}
}

// englishExample writes a command of s with text at its word wi and a
// plain value at each other argument: "keep re give alice".
func englishExample(s engine.Spec, wi int, text string) string {
	parts := make([]string, len(s.Words))
	for i, w := range s.Words {
		switch {
		case i == wi:
			parts[i] = text
		case w.Kind == engine.Literal:
			parts[i] = w.Text
		case w.Kind == engine.Number:
			parts[i] = "2"
		case w.Kind == engine.Player:
			parts[i] = "alice"
		default:
			parts[i] = w.Choices[0].Value
		}
	}
	return strings.Join(parts, " ")
}
