package parser

import (
	"strings"
	"unicode/utf8"
)

// Closing words: a greeting on a mail's first line is skipped, and a
// sign-off ends the commands (see Read).

var greetingRe = mustLinePattern(`(?i)^(hi|hello|hey|hiya|howdy|dear|greetings|good (morning|afternoon|evening|day)|morning|evening|hallo|moin|servus|guten (morgen|tag|abend)|liebe|lieber|bonjour|bonsoir|salut|coucou|hola|buenos d[ií]as|buenas|ciao|buongiorno|hej|hoi)([\s,.!:;]|$)`)

// isGreeting reports whether the first line is a greeting to skip: one
// that starts with a greeting word, or any short line ending in "," or
// "!" whose first word is not a (mistyped) command.
func (c *compiled) isGreeting(line string) bool {
	if len(line) > maxLineBytes {
		return false // a greeting is short; spare splitting a long line
	}
	words := strings.Fields(line)
	if len(words) > 6 {
		return false
	}
	if greetingRe.match(line) {
		return true
	}
	if len(words) > 5 || !(strings.HasSuffix(line, ",") || strings.HasSuffix(line, "!")) {
		return false
	}
	for _, t := range tokenize(line) {
		if c.filler[t.low] {
			continue
		}
		return len(c.keywords(t.low)) == 0 && len(nearWords(t.low, c.vocab)) == 0
	}
	return true
}

// maxSignoffFields bounds a line read as a sign-off: "Cheers, Alice"
// is short, and a sentence that happens to start with "best" is not.
const maxSignoffFields = 12

// isSignoff reports whether a line closes the mail: it starts with a
// sign-off ("Thanks!", "Cheers, Alice", "Best regards", "S pozdravem",
// "Pozdrawiam,"), a whole phrase of signoffPhrases followed by no
// letter.
func isSignoff(line string) bool {
	t := strings.ToLower(strings.TrimSpace(line))
	if t == "" || len(strings.Fields(t)) > maxSignoffFields {
		return false
	}
	for _, p := range signoffs {
		if !strings.HasPrefix(t, p) {
			continue
		}
		if next, _ := utf8.DecodeRuneInString(t[len(p):]); len(t) == len(p) || !isWordRune(next) && next != '\'' {
			return true
		}
	}
	return false
}

// signoffs are signoffPhrases as the lines they are compared with are:
// normalised and in lower case (Go writes "İ" in lower case as "i", not
// as "i" and a combining dot).
var signoffs = lowerNormalized(signoffPhrases)

func lowerNormalized(phrases []string) []string {
	out := make([]string, len(phrases))
	for i, p := range phrases {
		out[i] = strings.ToLower(normalize(p))
	}
	return out
}

// deviceNames are the phones and mail apps whose names their footers
// carry, whatever the language around them: "Отправлено с iPhone",
// "iPhone'umdan gönderildi", "Wysłane z iPhone'a", "Samsung Galaxy
// cihazımdan gönderildi"), as the stems their declensions keep
// ("Odesláno z iPhonu"). Words common in English ("pixel", "honor") are
// not among them.
var deviceNames = []string{"iphon", "ipad", "android", "galax", "samsung", "outlook", "huawei", "xiaomi", "blackberr", "yahoo", "gmail"}

// maxDeviceFooterWords bounds a line read as a phone's footer by its
// shape.
const maxDeviceFooterWords = 12

// isDeviceFooter reports whether a line that is no command is a phone's
// or a mail app's footer by its shape: short, and naming a device or an
// app, in a language whose footer no table has. Read treats it as a
// sign-off: it ends the commands quietly where no command follows it.
// (The footers of footers.tsv are cut before reading, with all below
// them.)
func isDeviceFooter(line string) bool {
	if len(line) > maxPhoneFooterLine || len(strings.Fields(line)) > maxDeviceFooterWords {
		return false
	}
	lower := strings.ToLower(line)
	for _, d := range deviceNames {
		if strings.Contains(lower, d) {
			return true
		}
	}
	return false
}

// maxSignatureLines is how many lines below a sign-off are looked at for
// a command before the sign-off is taken to close the mail: a name, a
// title, a telephone number.
const maxSignatureLines = 10

// signoffEffect is what a sign-off does to the lines below it.
type signoffEffect int

const (
	// signoffCloses: no command follows; the commands end, quietly.
	signoffCloses signoffEffect = iota
	// signoffSkipped: a command follows right below it ("Thanks!",
	// then "pass"); it is passed over like a greeting.
	signoffSkipped
	// signoffHides: a command follows further down, below lines that
	// are none: the player is told where reading stopped, rather than
	// lose that command without a word.
	signoffHides
)

// afterSignoff says what a sign-off does to rest, the lines below it.
// It reads at most maxSignatureLines of them, each bounded as any line
// is.
func (c *compiled) afterSignoff(rest []string) signoffEffect {
	seen := 0
	for _, line := range rest {
		t := withoutListMarker(strings.TrimSpace(line))
		if _, ok := firstToken(t); !ok {
			continue
		}
		if seen == maxSignatureLines {
			break
		}
		if got, prob := c.readLine(t, 0); isSay(t) || prob == nil && len(got) > 0 {
			if seen == 0 {
				return signoffSkipped
			}
			return signoffHides
		}
		seen++
	}
	return signoffCloses
}
