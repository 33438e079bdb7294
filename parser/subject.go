package parser

import (
	"regexp"
	"strings"
)

// ReadMessage reads the commands of a mail: its own text, or, when that
// holds no command at all, its Subject (stripped of reply/forward
// prefixes such as Re:, RE:, Fwd:, AW:, SV:, Antw:, and of bracketed
// tags) as if it were the body's first line.
//
// A player who writes "bid 5" as the Subject of a new mail, or a
// one-word "help" with an empty body, means it as a command. The Subject
// is read strictly, with no filler words: "I bid 5" there is not read,
// and neither is pbem's own "The rules of Gracias", which the lenient
// reading of a body would take as "rules gracias". A Subject that does
// not read whole as commands is ignored, and the result is the body's
// alone: it never causes a problem of its own.
//
// When the Subject is read, its commands come first, with Line 0 and
// Source the Subject's words; the body is then read after them as usual
// (a greeting on its first line is skipped, a sign-off ends it), and a
// Problem's Line is a line of the body. fromSubject is true only then.
func ReadMessage(m Message, grammar Grammar) (cmds []Command, prob *Problem, fromSubject bool) {
	c := compile(grammar)
	cmds, prob = c.read(m.Text, nil)
	if len(cmds) > 0 {
		return cmds, prob, false
	}
	subj := c.readSubject(m.Subject)
	if len(subj) == 0 {
		return cmds, prob, false
	}
	cmds, prob = c.read(m.Text, subj)
	return cmds, prob, true
}

// maxSubjectTags bounds how many prefixes and tags are stripped from a
// Subject: "Re: Re: AW: [pbem] Fwd:" is long already.
const maxSubjectTags = 20

var (
	// subjectPrefixRe: what clients put in front of a subject when
	// replying or forwarding, in the languages they localise into, with
	// an optional count ("Re[2]:", "RE(3):") and a full-width colon.
	subjectPrefixRe = regexp.MustCompile(`(?i)^(re|aw|sv|vs|antw|antwort|wg|fwd?|tr|rv|enc|odp|pd|réf|ref|r|i|回复|回覆|答复|转发|轉寄)\s*([\[(]\d{1,3}[\])])?\s*[:：]\s*`)
	// subjectTagRe: a bracketed tag ("[pbem]", "[EXTERNAL]") a list or
	// a mail server put in front.
	subjectTagRe = regexp.MustCompile(`^\[[^\]]{0,60}\]\s*`)
)

// subjectText strips a Subject of its reply and forward prefixes and its
// bracketed tags: "Re: [pbem] AW: bid 5" is "bid 5".
func subjectText(subject string) string {
	if len(subject) > 4*maxLineBytes {
		return "" // a command is short; spare the work on a long one
	}
	s := strings.Join(strings.Fields(normalize(subject)), " ")
	if len(s) > maxLineBytes {
		return ""
	}
	for range maxSubjectTags {
		loc := subjectPrefixRe.FindStringIndex(s)
		if loc == nil {
			loc = subjectTagRe.FindStringIndex(s)
		}
		if loc == nil {
			break
		}
		s = s[loc[1]:]
	}
	return strings.TrimSpace(s)
}

// readSubject reads a Subject as commands, strictly: without filler
// words, and only if all of it reads. It returns nil otherwise.
func (c *compiled) readSubject(subject string) []Command {
	s := subjectText(subject)
	if s == "" {
		return nil
	}
	strict := *c
	strict.filler = map[string]bool{}
	cmds, prob := strict.read(s, nil)
	if prob != nil {
		return nil
	}
	for i := range cmds {
		cmds[i].Line = 0
	}
	return cmds
}
