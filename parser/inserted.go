package parser

import (
	"regexp"
	"strings"
)

// This file knows the lines that mail software, not the player, puts
// into a reply: sensitivity labels and external-sender banners, which
// are skipped wherever they stand, and corporate disclaimers, which end
// the player's text. Only known shapes are: a line that merely looks
// official is the player's, and is read (and explained if it is no
// command).

var (
	// labelRe: a sensitivity or classification label, as Microsoft
	// Purview, Titus and Boldon James insert it: "Classification:
	// Internal", "Sensitivity: Confidential", "[Internal]", "INTERNAL
	// USE ONLY", "Official: Sensitive", "C2 General".
	labelRe = regexp.MustCompile(`(?i)^\[?\s*(((data |information |security )?classification|sensitivity|sensitivity label|label|klassifizierung|klassifikation|vertraulichkeit|classification de sécurité|sensibilité|clasificación|confidencialidad|classificatie|gevoeligheid)\s*:\s*)?` +
		`(c[1-4]\s*[-:]?\s*)?(public|internal|internal only|internal use|internal use only|for internal use only|intern|interne|interno|confidential|highly confidential|strictly confidential|restricted|general|general business|general use|personal|non-business|unclassified|official|official[- :]+sensitive|vertraulich|streng vertraulich|öffentlich|allgemein|confidentiel|général|público|publico|confidencial|restringido|vertrouwelijk|openbaar|algemeen|external|extern|externe)\s*\]?\.?$`)
	// bannerRe: the warning a mail server puts above a mail from outside
	// the organisation, and Outlook's first-contact tip.
	bannerRe = regexp.MustCompile(`(?i)^(\[?(external|extern|externe|caution|warning|attention|achtung|vorsicht)\]?\s*(e-?mail|message|sender|mail)?\s*[:!-]\s*.*(originated from outside|from outside (of )?(the|your|our) organi[sz]ation|external (sender|e-?mail)|do not click links|außerhalb (ihrer|unserer|der) organisation|l'extérieur de (votre|l'|notre)|fuera de (la|su|nuestra) organización)|this (e-?mail|message) (originated|came|was sent|is) from (outside|an external)|you don't often get e-?mail from\s|some people who received this message don't often get e-?mail from\s|sie erhalten nicht oft e-?mails von\s)`)
	// disclaimerRe: the start of a company's disclaimer, appended below
	// the text; what follows is the company's, not the player's.
	disclaimerRe = regexp.MustCompile(`(?i)^((disclaimer|confidentiality notice|confidentiality note|notice of confidentiality|legal notice|important notice|privileged (and|&) confidential|haftungsausschluss|vertraulichkeitshinweis|rechtlicher hinweis|avis de confidentialité|aviso legal|aviso de confidencialidad)\s*[:!-]|` +
		`(this|the information (contained )?in this|the content of this|the contents of this) (e-?mail|message|communication|transmission)\b.{0,120}\b(confidential|privileged|intended (solely |only )?for)|` +
		`(diese|der inhalt dieser) (e-?mail|nachricht)\b.{0,80}\b(vertraulich|ist ausschließlich für)|` +
		`(ce|le présent) (message|courriel|e-?mail)\b.{0,80}\b(confidentiel|destinés? exclusivement)|` +
		`(este|el presente) (mensaje|correo)\b.{0,80}\b(confidencial|dirigido exclusivamente)|` +
		`(dit|deze) (e-?mail(bericht)?|bericht)\b.{0,80}\b(vertrouwelijk|uitsluitend bestemd))`)
)

// maxBannerLines bounds the lines of a wrapped external-sender banner.
const maxBannerLines = 4

// insertedLines returns how many lines from i mail software inserted as
// a label or banner (0 for none): a label is one line; a banner wrapped
// over several lines runs on until a line ends its sentence, to a blank
// line, at most maxBannerLines.
func insertedLines(lines []string, i int) int {
	t := strings.TrimSpace(lines[i])
	if len(t) > maxHeaderLine {
		return 0
	}
	if len(t) <= maxFooterLine && labelRe.MatchString(t) {
		return 1
	}
	if !bannerRe.MatchString(t) {
		return 0
	}
	n := 1
	for n < maxBannerLines && i+n < len(lines) && !endsSentence(strings.TrimSpace(lines[i+n-1])) {
		next := strings.TrimSpace(lines[i+n])
		if next == "" || isQuoted(next) {
			break
		}
		n++
	}
	return n
}

func endsSentence(t string) bool { return strings.HasSuffix(t, ".") || strings.HasSuffix(t, "!") }

// isDisclaimer reports whether a trimmed line starts a disclaimer. Only
// its start is looked at: a disclaimer is often one long line.
func isDisclaimer(t string) bool {
	if len(t) > maxHeaderLine {
		t = truncate(t, maxHeaderLine)
	}
	return disclaimerRe.MatchString(t)
}

// noticeFooterRe matches the last line of every notice's footer, "pbem:
// send `help` for the commands, `games` for your games." (templates'
// notice.footer, the Service's name first); normalising makes the
// backquotes straight quotes.
var noticeFooterRe = regexp.MustCompile("^\\S.{0,60}: send [`'\"]?help[`'\"]? for the commands, [`'\"]?games[`'\"]? for your games\\.?$")

// gameFooterRe matches the last line of every game mail, its one-line
// footer "Any time: help · status · history · rules · notify digest"
// (templates' game footer), in the text and in the HTML part, whose
// buttons read "help status history rules".
var gameFooterRe = regexp.MustCompile(`^(?i)any time:\s+help\W+status\W+history\W+rules\b`)

// oldGameFooterEnd ended the footer of game mails written before the
// one-line footer: a reply may still copy one.
const oldGameFooterEnd = "the zone your deadlines are shown in"

// EndsOwnMail reports whether a line of text is the last line of one of
// pbem's own mails: the last line of the footer every game mail and
// every notice ends with. A reply that copies pbem's mail without
// quoting it (Outlook's "-----Original Message-----") and goes on below
// the copy is read again from the line after it. The templates' tests
// check that every mail pbem writes ends so.
func EndsOwnMail(line string) bool {
	t := strings.TrimSpace(line)
	if t == "" || len(t) > maxHeaderLine || isQuoted(t) {
		return false
	}
	return gameFooterRe.MatchString(t) || strings.HasSuffix(t, oldGameFooterEnd) || noticeFooterRe.MatchString(t) || endsGermanMail(t)
}

// ownCopies finds, once per text, where copies of pbem's mail end: for
// each line, the next line at or after it that ends pbem's mail (-1 for
// none), and whether a line that marks pbem's own words (its reply
// marker, a headline marker, its address) stands between. Both make
// resuming after a copy linear in the text.
type ownCopies struct {
	nextEnd []int // nextEnd[i]: the first k >= i with EndsOwnMail(lines[k]), or -1
	marks   []int // marks[i]: how many own-marker lines come before line i
}

func findOwnCopies(lines []string, markers []string, service *regexp.Regexp) ownCopies {
	c := ownCopies{nextEnd: make([]int, len(lines)+1), marks: make([]int, len(lines)+1)}
	for i, l := range lines {
		c.marks[i+1] = c.marks[i]
		if ownMarkLine(l, markers, service) {
			c.marks[i+1]++
		}
	}
	c.nextEnd[len(lines)] = -1
	for i := len(lines) - 1; i >= 0; i-- {
		c.nextEnd[i] = c.nextEnd[i+1]
		if EndsOwnMail(lines[i]) {
			c.nextEnd[i] = i
		}
	}
	return c
}

// ownMarkLine reports whether a line marks pbem's own words: it starts
// with one of the markers (the reply marker line, a headline) or names
// pbem's address.
func ownMarkLine(line string, markers []string, service *regexp.Regexp) bool {
	t := strings.TrimSpace(line)
	if t == "" || isQuoted(t) || len(t) > maxHeaderLine {
		return false
	}
	lower := strings.ToLower(t)
	for _, m := range markers {
		if strings.HasPrefix(lower, m) {
			return true
		}
	}
	return service != nil && strings.Contains(t, "@") && service.MatchString(t)
}

// endOfCopy returns the line after the copy of pbem's mail that starts
// at line i (a cut there: a separator, a header block, a marker), or i
// when there is none: a line that ends pbem's mail below i, with a line
// marking pbem's words between them, so that only a copy of pbem's own
// mail is skipped, never another's.
func (c ownCopies) endOfCopy(i int) int {
	k := c.nextEnd[i]
	if k < 0 || c.marks[k+1]-c.marks[i] == 0 {
		return i
	}
	return k + 1
}
