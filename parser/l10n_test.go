package parser

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"

	"pgregory.net/rapid"
)

// The localisation tables of testdata/l10n hold the attributions,
// footers and sign-offs mail programs write in each language, as their
// own translation files have them (scripts/client-replies.d/l10n.sh and
// docs/client-replies.md say where each row comes from). The tests below
// read every row.

// l10nRow is one row of a table: its columns by the header's names.
type l10nRow map[string]string

// readL10n reads testdata/l10n/NAME.tsv: a header row, then rows of
// tab-separated columns.
func readL10n(t testing.TB, name string) []l10nRow {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "l10n", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var header []string
	var rows []l10nRow
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		if header == nil {
			header = cols
			continue
		}
		row := l10nRow{}
		for i, h := range header {
			if i < len(cols) {
				row[h] = cols[i]
			}
		}
		rows = append(rows, row)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 {
		t.Fatalf("%s has no rows", name)
	}
	return rows
}

// Values drawn for an attribution's placeholders: the names and
// addresses of the mail answered, and dates and times as the programs
// print them in their languages.
var (
	l10nNames = []string{"pbem", "pbem <game+g42@pbem.example>", "\"pbem\" <game@pbem.example>", "Bob Baker <bob@y.test>", "bob@y.test"}
	l10nDates = []string{"21.11.2026", "21/11/2026", "2026-11-21", "11/21/26", "2026/11/21", "Sat, Nov 21, 2026", "sáb., 21 nov. 2026", "сб, 21 нояб. 2026 г.", "2026年11月21日", "2026. 11. 21.", "٢١/١١/٢٠٢٦"}
	l10nTimes = []string{"17:00", "5:00 PM", "17:00:05", "١٧:٠٠"}
)

// attributionForms lists the attributions of the tables: the rows that
// end in a colon and name the sender, the date or the address, and are
// not a header block ("Von: {name}\nGesendet: ...") or a separator,
// which the tables hold too.
func attributionForms(t testing.TB) []l10nRow {
	var out []l10nRow
	for _, file := range []string{"attributions.tsv", "attributions-other.tsv"} {
		for _, row := range readL10n(t, file) {
			form := strings.ReplaceAll(row["form"], `\n`, "\n")
			row["form"], row["file"] = form, file
			end := strings.TrimSpace(form)
			if !strings.HasSuffix(end, ":") && !strings.HasSuffix(end, "：") || strings.Contains(form, ":\n") || strings.HasPrefix(end, "-") {
				continue
			}
			if strings.Contains(form, "{name}") || strings.Contains(form, "{date}") || strings.Contains(form, "{address}") {
				out = append(out, row)
			}
		}
	}
	return out
}

// fillAttribution puts the drawn values in a form's placeholders.
func fillAttribution(form, name, date, time string) string {
	return strings.NewReplacer("{name}", name, "{date}", date, "{time}", time, "{address}", "game@pbem.example",
		"{weekday}", "Sat", "{zone}", "CET", "{subject}", "Felix #12").Replace(form)
}

// replyShapes are the places an attribution stands in a reply: above the
// quote with the reply below (Thunderbird's "start my reply below the
// quote", Gmail on a phone), with a blank line or none, and below the
// reply, with a blank line or none (mutt's cursor).
var replyShapes = []struct {
	name string
	make func(reply, attribution, quote string) string
}{
	{"below the quote", func(r, a, q string) string { return a + "\n" + q + "\n" + r + "\n" }},
	{"below, blank lines", func(r, a, q string) string { return a + "\n\n" + q + "\n\n" + r + "\n" }},
	{"on top", func(r, a, q string) string { return r + "\n\n" + a + "\n" + q }},
	{"on top, tight", func(r, a, q string) string { return r + "\n" + a + "\n" + q }},
}

// TestAttributionTableNeverChangesCommands (property, issue 36): adding
// any attribution form of testdata/l10n, above or below the quote, with
// any name, date and time, never changes the commands read, and brings
// no complaint.
func TestAttributionTableNeverChangesCommands(t *testing.T) {
	var forms []string
	for _, row := range attributionForms(t) {
		forms = append(forms, row["form"])
	}
	replies := []string{"bid 7", "pass", "play rabbit", "bid 7\npass", "I bid 7", "1. play rabbit\n2. bid 4"}
	rapid.Check(t, func(t *rapid.T) {
		form := rapid.SampledFrom(forms).Draw(t, "form")
		attribution := fillAttribution(form, rapid.SampledFrom(l10nNames).Draw(t, "name"), rapid.SampledFrom(l10nDates).Draw(t, "date"), rapid.SampledFrom(l10nTimes).Draw(t, "time"))
		reply := rapid.SampledFrom(replies).Draw(t, "reply")
		shape := rapid.SampledFrom(replyShapes).Draw(t, "shape")
		want, wantProb := Read(reply, felixLang())
		got, prob := readAsMail(shape.make(reply, attribution, pbemQuote), ring3Options)
		if commandTexts(got) != commandTexts(want) || (prob == nil) != (wantProb == nil) {
			t.Fatalf("%s, %q: read %q (problem %v), without it %q (problem %v)", shape.name, attribution, commandTexts(got), prob, commandTexts(want), wantProb)
		}
	})
}

// TestAttributionTableEveryForm reads every form of the tables once in
// every shape, with pbem's name and a date, so that no row is left to
// chance.
func TestAttributionTableEveryForm(t *testing.T) {
	for _, row := range attributionForms(t) {
		a := fillAttribution(row["form"], "pbem <game+g42@pbem.example>", "21.11.2026", "17:00")
		for _, shape := range replyShapes {
			got, prob := readAsMail(shape.make("bid 7", a, pbemQuote), ring3Options)
			if commandTexts(got) != "bid 7" || prob != nil {
				t.Errorf("%s %s %s, %s: %q read as %q, problem %v", row["file"], row["grammar"], row["program"], shape.name, a, commandTexts(got), prob)
			}
		}
	}
}

// TestFooterTableEveryForm: every footer of the table, with its device,
// ends the text quietly, below the commands and above a quote.
func TestFooterTableEveryForm(t *testing.T) {
	for _, row := range readL10n(t, "footers.tsv") {
		for _, device := range []string{"iPhone", "Android", "Galaxy", "iPad"} {
			footer := strings.NewReplacer("{device}", device, "{app}", "K-9 Mail").Replace(row["form"])
			for _, body := range []string{"bid 7\n\n" + footer, "bid 7\n" + footer + "\n\n" + "21.11.2026 17:00, pbem:\n" + pbemQuote} {
				got, prob := readAsMail(body, ring3Options)
				if commandTexts(got) != "bid 7" || prob != nil {
					t.Errorf("%s %s: %q read as %q, problem %v", row["grammar"], row["program"], body, commandTexts(got), prob)
				}
			}
		}
	}
}

// TestSignoffTableEveryForm: every sign-off of the table ends the
// commands quietly when nothing but a name follows it, and a command
// below it is not lost without a word.
func TestSignoffTableEveryForm(t *testing.T) {
	for _, row := range readL10n(t, "signoffs.tsv") {
		s := row["form"]
		for _, body := range []string{"bid 7\n" + s, "bid 7\n\n" + s + ",\nJan Novák", "bid 7\n" + s + "\nJan\n"} {
			got, prob := readAsMail(body, ring3Options)
			if commandTexts(got) != "bid 7" || prob != nil {
				t.Errorf("%s: %q read as %q, problem %v", row["grammar"], body, commandTexts(got), prob)
			}
		}
		got, prob := readAsMail("bid 7\n"+s+"\nJan\npass", ring3Options)
		if commandTexts(got) != "bid 7" || prob == nil {
			t.Errorf("%s: a command two lines below %q: read %q, problem %v; want bid 7 and a problem", row["grammar"], s, commandTexts(got), prob)
		}
	}
}

// verblessForms are the forms of the tables with no verb of writing:
// only their shape (a colon right above a quote, a date, an address)
// says they are attributions.
var verblessForms = map[string]bool{
	"{date} ({weekday}), {time} {zone}, {name}:": true, // ko Evolution
	"{name}:":                true, // uk Geary
	"{date} {time}, {name}:": true, // uk Thunderbird
	"بتاريخ {date}، {name} الرسالة:":                     true, // ar K-9 Mail: "on DATE, NAME the message:"
	"{date}({weekday}) {time} {name} <{address}>:":       true, // ja Gmail
	"{weekday}, {date} г. в {time}, {name} <{address}>:": true, // ru Gmail
	"{weekday}, {date}, {time}, {name} <{address}>:":     true, // ru
}

// TestAttributionVerbs: every form of the tables with a verb is an
// attribution by its words alone, naming any sender, so that it also
// cuts where no quote follows it (a client that quotes without ">").
func TestAttributionVerbs(t *testing.T) {
	for _, row := range attributionForms(t) {
		if verblessForms[row["form"]] {
			continue
		}
		a := normalize(strings.ReplaceAll(fillAttribution(row["form"], "Bob Baker <bob@y.test>", "21.11.2026", "17:00"), "\n", " "))
		if !isAttribution(a) {
			t.Errorf("%s %s %s: %q is not an attribution by its words", row["grammar"], row["program"], row["key"], a)
		}
	}
}

// TestFooterFormsAreTheTable: the footers the reader knows are the forms
// of footers.tsv, no more and no fewer, so that each has its source.
func TestFooterFormsAreTheTable(t *testing.T) {
	table := map[string]bool{}
	for _, row := range readL10n(t, "footers.tsv") {
		table[strings.ToLower(row["form"])] = true
	}
	code := map[string]bool{}
	for _, f := range phoneFooterForms {
		code[strings.ToLower(f)] = true
		if !table[strings.ToLower(f)] {
			t.Errorf("footer %q is not in footers.tsv: give it a row and a source", f)
		}
	}
	for f := range table {
		if !code[f] {
			t.Errorf("footers.tsv's %q is not in phoneFooterForms", f)
		}
	}
}

// TestSignoffPhrasesHoldTheTable: every sign-off of signoffs.tsv is one
// the reader knows.
func TestSignoffPhrasesHoldTheTable(t *testing.T) {
	for _, row := range readL10n(t, "signoffs.tsv") {
		form := strings.ToLower(normalize(strings.TrimRight(strings.TrimSpace(row["form"]), ",.。，、!！")))
		if !slices.Contains(signoffs, form) {
			t.Errorf("%s sign-off %q is not in signoffPhrases", row["grammar"], row["form"])
		}
	}
}

// TestDigitValue: every range of Unicode's decimal digits is whole runs
// of ten from a zero, which digitValue counts on; and a bid or a date in
// another script's digits reads as in 0-9.
func TestDigitValue(t *testing.T) {
	for _, r16 := range unicode.Nd.R16 {
		if r16.Stride != 1 || (r16.Hi-r16.Lo+1)%10 != 0 {
			t.Errorf("Nd range %U-%U is not whole runs of ten", r16.Lo, r16.Hi)
		}
	}
	for _, r32 := range unicode.Nd.R32 {
		if r32.Stride != 1 || (r32.Hi-r32.Lo+1)%10 != 0 {
			t.Errorf("Nd range %U-%U is not whole runs of ten", r32.Lo, r32.Hi)
		}
	}
	for in, want := range map[string]string{"bid ٣": "bid 3", "bid ۱۲": "bid 12", "bid १०": "bid 10", "bid ๗": "bid 7", "bid ３": "bid 3"} {
		if got, _ := readAsMail(in, ring3Options); commandTexts(got) != want {
			t.Errorf("%q read as %q, want %q", in, commandTexts(got), want)
		}
	}
}

// TestOwnTextHostileShapes: lines in the shapes issue 36 taught the
// reader, many times over: attributions by shape above one-line quotes,
// two-line ones, lines that start and end as a footer and are none, and
// Unicode words: cutting stays linear in work (workGrowth).
func TestOwnTextHostileShapes(t *testing.T) {
	block := "21.11.2026 17:00, pbem " + strings.Repeat("пишет ", 30) + ":\n> q\n" +
		"Στις 21.11.2026\npbem <game@pbem.example> " + strings.Repeat("έγραψε ", 20) + ":\n> q\n" +
		"Von meinem " + strings.Repeat("iPhone ", 40) + "gesendet\n" +
		"Sent from my Android device with " + strings.Repeat("K-9 ", 30) + "Mail. Please excuse my brevity.\n" +
		strings.Repeat("كتب ", 60) + "\n"
	opts := ring3Options
	small, large := strings.Repeat(block, 50), strings.Repeat(block, 800)
	cut := func(body string) func() { return func() { ownText(normalize(body), opts) } }
	g := workGrowth(t, cut(small), cut(large))
	t.Logf("growth %+v", g)
	if !g.linear() {
		t.Fatalf("ownText did %+v times the work on 800 blocks as on 50, want at most %d times the bytes and %d the CPU (linear)", g, linearAllocGrowth, linearCPUGrowth)
	}
}
