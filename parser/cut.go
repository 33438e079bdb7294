package parser

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// Cutting keeps the lines a player wrote in this reply and nothing else.
// Lines are looked at top down:
//
//   - A quoted line (">" first) is skipped, and reading goes on after the
//     quote: that keeps bottom-posted and interleaved answers.
//   - A quote header (an attribution such as "On ..., X wrote:" in one of
//     34 languages, possibly wrapped over up to three lines or split
//     after its date as Claws Mail does, Horde's "Quoting X <...>:", or
//     any line naming pbem's own address) is skipped when a ">" quote
//     follows it, and otherwise cuts: a client that quotes without ">"
//     puts the original right below it. Right above a quote, a line is
//     an attribution by its shape too, in any language: it ends in a
//     colon and holds a date, an address or pbem's name
//     (attributionByShape). The lines right above an
//     attribution stay the player's (see quoteHeader). An HTML quote
//     comes here as a line ">" (see prune).
//   - Labels and banners that mail software inserts ("Classification:
//     Internal", "CAUTION: This email originated from outside...") are
//     skipped wherever they stand (inserted.go).
//   - Everything else that starts foreign text cuts the rest: signature
//     separators ("-- ", "--", "__"; but a signature above any of the
//     player's text and right above a quote is skipped, see
//     sigAboveQuote), framed separators ("-----Original
//     Message-----", "---------- Forwarded message ---------",
//     "--- pbem ... ---"), Apple Mail's "Begin forwarded message:", an
//     Outlook header block (From:/Sent:/To:/Subject: in several
//     languages), company disclaimers, and the caller's own markers (the
//     first line of pbem's turn summary).
//   - Phones' footers ("Sent from my iPhone", "发自我的iPhone", K-9
//     Mail's, footer.go) are skipped: what follows one is a quote or a
//     separator, known as such, or a command typed below it.
//   - Where a cut starts a copy of pbem's own mail (a marker or pbem's
//     address stands in it), reading resumes after the copy's end, the
//     last line of pbem's footer (EndsOwnMail): Outlook copies the
//     original unquoted, and a player may type below it.
//
// Many people sign with no "-- " line. Below the player's first line, a
// line that is the sender's display name, or its first word, or that
// starts with the display name and a separator ("Alice Example | Head
// of Cats"), starts a signature and cuts the rest. The address's local
// part is not used there: it may be any word, even a command's.
//
// Last, a final line that is only the sender's name ("Alice", "-- bob",
// also the address's local part) is dropped.

type cutOptions struct {
	markers []string       // lines starting a copy of pbem's mail
	service *regexp.Regexp // pbem's address (serviceRegexp); nil: none
	name    string         // the display name of pbem's mails, lower-case
	sender  []string       // names the sender signs with, lower-case
	signer  []string       // the display name and its first word, lower-case
}

// maxHeaderLine bounds the lines tested as attributions: a real one is
// short, and the bound keeps pathological input linear.
const maxHeaderLine = 400

// maxFooterLine bounds the lines tested as phone footers and forward
// intros.
const maxFooterLine = 80

// ownText returns the player's own new text of a normalised body.
func ownText(body string, o cutOptions) string {
	lines := strings.Split(body, "\n")
	service := o.service
	markers := ownMarkers(o.markers)
	copies := findOwnCopies(lines, markers, service)
	var out []string
	for i := 0; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i])
		switch {
		case t == "":
			out = append(out, "")
			continue
		case isQuoted(t):
			continue
		}
		if n := insertedLines(lines, i); n > 0 {
			i += n - 1 // a label or banner: not the player's, but no end
			continue
		}
		if len(t) <= maxPhoneFooterLine && isFooter(t) {
			// A phone's footer is not the player's, but it ends nothing:
			// what comes below it is a quote, an attribution or a
			// separator, each known, or a command he typed below it,
			// which must not be lost unseen.
			continue
		}
		if n := quoteHeader(lines, i, service); n > 0 {
			if quoteFollows(lines, i+n) {
				i += n - 1
				continue
			}
			if continuesHeader(lines, i+n) && quoteFollows(lines, i+n+1) {
				i += n // its last line wrapped below it: "<game@...> kirjoitti:"
				continue
			}
			if k := copies.endOfCopy(i); k > i {
				i = k - 1 // an unquoted copy of pbem's mail: read on below it
				continue
			}
			break
		}
		if n := attributionByShape(lines, i, o.name); n > 0 {
			i += n - 1 // an attribution in words no list here has
			continue
		}
		if startsForeignText(lines, i, markers) {
			if k := sigAboveQuote(lines, i, out, service); k > i {
				i = k - 1 // read on from the quote's header
				continue
			}
			if k := copies.endOfCopy(i); k > i {
				i = k - 1 // an unquoted copy of pbem's mail: read on below it
				continue
			}
			break
		}
		if len(trimBlank(out)) > 0 && startsSignature(t, o.signer) {
			break
		}
		out = append(out, lines[i])
	}
	out = trimBlank(out)
	if n := len(out); n > 0 && isSenderName(out[n-1], o.sender) {
		out = trimBlank(out[:n-1])
	}
	return strings.Join(out, "\n")
}

func trimBlank(lines []string) []string {
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

func isQuoted(trimmed string) bool { return strings.HasPrefix(trimmed, ">") }

// quoteFollows reports whether the first non-blank line from i on is
// quoted.
func quoteFollows(lines []string, i int) bool {
	for ; i < len(lines); i++ {
		if t := strings.TrimSpace(lines[i]); t != "" {
			return isQuoted(t)
		}
	}
	return false
}

// service is the matcher of pbem's address: opts.Service, or
// ServiceAddress compiled for this mail.
func (opts ExtractOptions) service() *regexp.Regexp {
	if opts.Service != nil {
		return opts.Service.re
	}
	return serviceRegexp(opts.ServiceAddress)
}

// Service matches pbem's own address in a line, with or without a
// +tag (ExtractOptions.ServiceAddress).
type Service struct {
	re *regexp.Regexp // nil: an address with no local part or domain, which matches nothing
}

// CompileService compiles addr for ExtractOptions.Service: compiling
// it for every mail was 5 kB and 0.7 % of a command's CPU (issue 40).
func CompileService(addr string) *Service {
	return &Service{re: serviceRegexp(addr)}
}

// serviceRegexp matches pbem's address, with or without a +tag.
func serviceRegexp(addr string) *regexp.Regexp {
	local, domain, ok := strings.Cut(strings.ToLower(strings.TrimSpace(addr)), "@")
	if !ok || local == "" || domain == "" {
		return nil
	}
	local, _, _ = strings.Cut(local, "+")
	return regexp.MustCompile(`(?i)\b` + regexp.QuoteMeta(local) + `(\+[^@\s]*)?@` + regexp.QuoteMeta(domain) + `\b`)
}

func ownMarkers(markers []string) []string {
	out := []string{"--- pbem"}
	for _, m := range markers {
		if m = strings.ToLower(strings.TrimSpace(normalize(m))); m != "" {
			out = append(out, m)
		}
	}
	return out
}

var (
	// forwardIntroRe: Apple Mail and others introduce a forward in words.
	forwardIntroRe = mustLinePattern(`(?i)^(begin forwarded message|anfang der weitergeleiteten nachricht|début du message réexpédié|inicio del mensaje reenviado|inizio messaggio inoltrato|begin doorgestuurd bericht)\s{0,8}:$`)
	// headerFromRe and headerRestRe: an Outlook header block, which
	// may be set in bold (*From:*) by the HTML conversion.
	headerFromRe = mustLinePattern(`(?i)^\*{0,4}(from|von|de|van|da|från|fra|od|от|差出人|发件人|寄件者)\s{0,8}\*{0,4}\s{0,8}:`)
	headerRestRe = mustLinePattern(`(?i)^\*{0,4}(sent|date|to|cc|subject|gesendet|datum|an|betreff|envoyé|à|objet|enviado|enviado el|fecha|para|asunto|inviato|data|a|oggetto|verzonden|aan|onderwerp|送信日時|日付|宛先|件名|发送时间|收件人|主题)\s{0,8}\*{0,4}\s{0,8}:`)
)

// maxFramedText bounds the text between the dashes of a framed
// separator.
const maxFramedText = 60

// isSeparator reports whether a trimmed line is a separator: a rule of
// three dashes or more, or of two underscores or more, or up to 60
// characters framed by two dashes or more on each side ("-----Original
// Message-----", "----- Mensaje original -----", "---------- Forwarded
// message ---------", "--- pbem ---"). It reads the line once, by hand:
// the expression it replaces, ^(-{2,}.{0,60}-{2,}|-{3,}|_{2,})$, spent
// a millisecond on each 990-byte line of dashes that did not match.
func isSeparator(t string) bool {
	if len(t) >= 2 && strings.Trim(t, "_") == "" {
		return true
	}
	inner := strings.TrimLeft(t, "-")
	lead := len(t) - len(inner)
	if inner == "" {
		return lead >= 3
	}
	inner = strings.TrimRight(inner, "-")
	trail := len(t) - lead - len(inner)
	return lead >= 2 && trail >= 2 && len(inner) <= maxFramedText*utf8.UTFMax && utf8.RuneCountInString(inner) <= maxFramedText
}

// startsForeignText reports whether line i begins text the player did not
// write now.
func startsForeignText(lines []string, i int, markers []string) bool {
	t := strings.TrimSpace(lines[i])
	if (t[0] == '-' || t[0] == '_') && (lines[i] == "-- " || t == "--" || t == "--=20" || isSeparator(t)) {
		return true
	}
	if isDisclaimer(t) {
		return true
	}
	if len(t) > maxHeaderLine {
		return false
	}
	lower := strings.ToLower(t)
	for _, m := range markers {
		if strings.HasPrefix(lower, m) {
			return true
		}
	}
	// Footers and forward intros are short; the length test spares the
	// expressions most lines.
	if len(t) <= maxFooterLine && forwardIntroRe.match(t) {
		return true
	}
	return headerBlock(lines, i)
}

// headerBlock reports whether line i starts a block of header fields
// (From:, Sent:, To:, Subject: in some order and language) that a client
// put above the original instead of quoting it: at least two fields
// within seven lines, one of them the sender.
func headerBlock(lines []string, i int) bool {
	t := strings.TrimSpace(lines[i])
	if !strings.Contains(t, ":") {
		return false
	}
	from := headerFromRe.match(t)
	if !from && !headerRestRe.match(t) {
		return false
	}
	fields := 1
	for j := i + 1; j < len(lines) && j <= i+6; j++ {
		u := strings.TrimSpace(lines[j])
		switch {
		case headerFromRe.match(u):
			from = true
			fields++
		case headerRestRe.match(u):
			fields++
		}
	}
	return from && fields >= 2
}

// maxSigLines bounds a signature that sits above a quote.
const maxSigLines = 8

// sigAboveQuote handles a signature separator above any of the player's
// text: a client set to answer below the quote may put the signature
// above it (Alpine does). When a quote, or a quote header followed by
// one, comes within maxSigLines, it returns that line, so that reading
// goes on below the quote; otherwise i, and the separator cuts as usual.
func sigAboveQuote(lines []string, i int, out []string, service *regexp.Regexp) int {
	t := strings.TrimSpace(lines[i])
	if len(trimBlank(out)) > 0 || !(lines[i] == "-- " || t == "--" || t == "--=20") {
		return i
	}
	for k := i + 1; k < len(lines) && k <= i+maxSigLines; k++ {
		u := strings.TrimSpace(lines[k])
		if isQuoted(u) {
			return k
		}
		if u == "" {
			continue
		}
		if n := quoteHeader(lines, k, service); n > 0 && quoteFollows(lines, k+n) {
			return k
		}
	}
	return i
}

// isSenderName reports whether a line is only the sender signing: "Alice",
// "-- bob", "~Alice Smith".
func isSenderName(line string, names []string) bool {
	t := strings.ToLower(strings.Trim(strings.TrimSpace(line), "-~–—.,!* "))
	if t == "" {
		return false
	}
	for _, n := range names {
		if t == n {
			return true
		}
	}
	return false
}

// startsSignature reports whether a trimmed line starts a signature
// block without "-- ": the sender's name alone ("Alice", "~Alice
// Example") or the display name and a separator ("Alice Example |
// Head of Cats", "Alice Example, Acme").
func startsSignature(t string, names []string) bool {
	if len(names) == 0 || len(t) > maxFooterLine {
		return false
	}
	if isSenderName(t, names) {
		return true
	}
	full := names[0]
	lower := strings.ToLower(t)
	if !strings.Contains(full, " ") || !strings.HasPrefix(lower, full) {
		return false
	}
	rest := strings.TrimSpace(lower[len(full):])
	return rest != "" && strings.ContainsRune("|,-–—/(", []rune(rest)[0])
}

// signerNames lists the names that start a signature: the display name
// and, when it has several words, its first.
func signerNames(name string) []string {
	var out []string
	name = strings.ToLower(strings.Trim(strings.TrimSpace(name), `"' `))
	if name == "" || len(name) > 60 {
		return nil
	}
	out = append(out, name)
	if f := strings.Fields(name); len(f) > 1 && len(f[0]) >= 2 {
		out = append(out, f[0])
	}
	return out
}

// senderNames lists the ways the sender may sign: the display name, its
// first word, and the address's local part.
func senderNames(name, address string) []string {
	var out []string
	add := func(s string) {
		if s = strings.ToLower(strings.TrimSpace(s)); s != "" && len(s) <= 60 {
			out = append(out, s)
		}
	}
	name = strings.Trim(name, `"' `)
	add(name)
	if f := strings.Fields(name); len(f) > 1 {
		add(f[0])
	}
	if local, _, ok := strings.Cut(address, "@"); ok {
		add(local)
	}
	return out
}
