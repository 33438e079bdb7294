package parser

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// footerRe: what phones and apps append below the text, in the
// languages with a "sent" and a "from" (the localised forms of
// phoneFooters cover the rest). One ^ before the alternatives, not one
// in each: the matcher then tries the line's start only, not every
// position of it.
var footerRe = mustLinePattern(`(?i)^(?:(sent|envoyé|enviado|inviato|verzonden|gesendet|skickat|sendt|wysłane)\s{1,8}(from|de|desde|da|vanaf|von|via|with|using|avec|mit|con|från|fra|z)\s|get outlook for\b|télécharger outlook pour\b|holen sie sich outlook\b)`)

// isFooter reports whether a short line is a phone's or an app's footer:
// footerRe, or one of the localised forms ("发自我的iPhone", "Von meinem
// iPhone gesendet", "Scarica Outlook per Android").
func isFooter(t string) bool {
	return footerRe.match(t) || phoneFooters.match(t)
}

// A footerForm is a localised footer split where a name stands: "Von
// meinem {device} gesendet" is "von meinem " and " gesendet", K-9
// Mail's "Sent from my Android device with {app}. Please excuse my
// brevity." is two pieces around the app's name. A form with no name is
// one piece.
type footerForm struct {
	pieces []string // lower-case, one more than the names
}

// maxNameBytes and maxNameWords bound a device's or an app's name in a
// footer: "Samsung Galaxy Smartphone", "iPhone'umdan", "K-9 Mail".
const (
	maxNameBytes = 40
	maxNameWords = 4
)

// maxPhoneFooterLine bounds the lines tested as localised footers: K-9
// Mail's apology in Japanese is 300 bytes.
const maxPhoneFooterLine = maxHeaderLine

// footerIndex holds the forms by their first character, and those that
// begin with a name ("{device}から送信") by their last, so that a line is
// compared only with the few forms that can match it: isFooter is asked
// of every short line of a mail.
type footerIndex struct {
	byFirst, byLast map[rune][]footerForm
}

// phoneFooters are the forms of phoneFooterForms (footer_words.go).
var phoneFooters = newFooterIndex(phoneFooterForms)

// footerSlots are the names a form may leave open.
var footerSlots = strings.NewReplacer("{device}", "\x00", "{app}", "\x00")

func newFooterIndex(forms []string) footerIndex {
	x := footerIndex{byFirst: map[rune][]footerForm{}, byLast: map[rune][]footerForm{}}
	for _, f := range forms {
		// The text a form is compared with is normalised: so is the form
		// (Persian's zero-width non-joiner goes, as in the text).
		form := footerForm{pieces: strings.Split(footerSlots.Replace(strings.ToLower(normalize(f))), "\x00")}
		if first := form.pieces[0]; first != "" {
			r, _ := utf8.DecodeRuneInString(first)
			x.byFirst[r] = append(x.byFirst[r], form)
			continue
		}
		r, _ := utf8.DecodeLastRuneInString(form.pieces[len(form.pieces)-1])
		x.byLast[r] = append(x.byLast[r], form)
	}
	return x
}

// match reports whether a line is one of the forms, with a name of at
// most maxNameWords words in each place, and maybe a full stop.
func (x footerIndex) match(t string) bool {
	t = strings.TrimRight(t, ".!。！ ")
	first, _ := utf8.DecodeRuneInString(t)
	last, _ := utf8.DecodeLastRuneInString(t)
	byFirst, byLast := x.byFirst[unicode.ToLower(first)], x.byLast[unicode.ToLower(last)]
	if len(byFirst) == 0 && len(byLast) == 0 {
		return false
	}
	var lower string // the line in lower case, made for the first form that may match
	for _, forms := range [][]footerForm{byFirst, byLast} {
		for _, f := range forms {
			if !f.mayMatch(t) {
				continue
			}
			if lower == "" {
				lower = strings.TrimRight(strings.ToLower(t), ".!。！ ")
			}
			if f.matches(lower) {
				return true
			}
		}
	}
	return false
}

// mayMatch reports whether t starts and ends as the form, in any case:
// a test that costs no copy of the line, which most lines fail.
func (f footerForm) mayMatch(t string) bool {
	first, last := f.pieces[0], strings.TrimRight(f.pieces[len(f.pieces)-1], ".!。！ ")
	if len(f.pieces) == 1 {
		first = last // the line's full stop is gone, and the form's
	}
	return len(t) >= len(first) && strings.EqualFold(t[:len(first)], first) &&
		len(t) >= len(last) && strings.EqualFold(t[len(t)-len(last):], last)
}

// matches reports whether lower is the form, each name in its place
// found as the shortest text before the next piece.
func (f footerForm) matches(lower string) bool {
	last := len(f.pieces) - 1
	first, end := f.pieces[0], strings.TrimRight(f.pieces[last], ".!。！ ")
	if last == 0 {
		return lower == end
	}
	if len(lower) < len(first)+len(end) || !strings.HasPrefix(lower, first) || !strings.HasSuffix(lower, end) {
		return false
	}
	rest := lower[len(first) : len(lower)-len(end)]
	for _, piece := range f.pieces[1:last] {
		k := strings.Index(rest, piece)
		if k < 0 || !isName(rest[:k]) {
			return false
		}
		rest = rest[k+len(piece):]
	}
	return isName(rest)
}

// isName reports whether text may be a device's or an app's name in a
// footer.
func isName(text string) bool {
	text = strings.TrimSpace(text)
	return text != "" && len(text) <= maxNameBytes && len(strings.Fields(text)) <= maxNameWords
}
