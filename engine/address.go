package engine

import "strings"

// Addresser may be implemented by a Presenter to write an event for one
// reader: what he did himself in the second person ("You bid 2." where
// the others read "bob bids 2."), so that no mail tells its reader his
// own acts by his name. Address returns e as the player named reader
// reads it. It changes only the words that name him, never what the
// event says, and returns e as it is when it is not about him: an event
// he may not see stays one he may not see, and nothing is added to it.
type Addresser interface {
	Address(e Event, reader string) Event
}

// Verbs maps a game's verbs in the third person singular to the second
// person: "bids" to "bid", "passes" to "pass".
type Verbs map[string]string

// YouAt writes the sentence of text that starts at byte at for the
// player named name, when he is its subject there: "bob bids 2." becomes
// "You bid 2.", "bob's card is turned up" "Your card is turned up". The
// verbs of the subject's clause (up to the first '.', ':' or ';') that
// are in verbs are put in the second person: "bob passes and takes the
// 4-mouse card" becomes "You pass and take the 4-mouse card". "You" is
// written with a capital at the start of text or of a sentence (after
// ". "), else "you". ok is false, and text is returned as it is, when
// name is not the subject at at.
//
// A name is lower case (ValidName), so that it never stands for the
// capitalised first word of a game's own sentence; a game calls YouAt
// only where its sentences put a player's name.
func YouAt(text string, at int, name string, verbs Verbs) (out string, ok bool) {
	if at < 0 || at > len(text) || name == "" || !strings.HasPrefix(text[at:], name) {
		return text, false
	}
	head, after := text[:at], text[at+len(name):]
	you, your := "you", "your"
	if at == 0 || strings.HasSuffix(head, ". ") {
		you, your = "You", "Your"
	}
	switch {
	case strings.HasPrefix(after, "'s "):
		return head + your + after[len("'s"):], true
	case strings.HasPrefix(after, " ") || strings.HasPrefix(after, ","):
	default:
		return text, false
	}
	end := strings.IndexAny(after, ".:;")
	if end < 0 {
		end = len(after)
	}
	return head + you + secondPerson(after[:end], verbs) + after[end:], true
}

// YouFirst is YouAt at the start of text.
func YouFirst(text, name string, verbs Verbs) (string, bool) { return YouAt(text, 0, name, verbs) }

// YouAfter is YouAt where name follows the first occurrence of lead in
// text: YouAfter("The auction begins: bob bids first.", ": ", "bob", v)
// is "The auction begins: you bid first.".
func YouAfter(text, lead, name string, verbs Verbs) (string, bool) {
	i := strings.Index(text, lead)
	if i < 0 {
		return text, false
	}
	return YouAt(text, i+len(lead), name, verbs)
}

// secondPerson puts every word of clause that verbs holds in the second
// person, leaving everything between words as it is.
func secondPerson(clause string, verbs Verbs) string {
	var b strings.Builder
	word := func(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
	for i := 0; i < len(clause); {
		if !word(clause[i]) {
			b.WriteByte(clause[i])
			i++
			continue
		}
		j := i
		for j < len(clause) && word(clause[j]) {
			j++
		}
		w := clause[i:j]
		// A word joined to another by a hyphen ("4-mouse") is no verb.
		if v, ok := verbs[w]; ok && (i == 0 || clause[i-1] != '-') && (j == len(clause) || clause[j] != '-') {
			w = v
		}
		b.WriteString(w)
		i = j
	}
	return b.String()
}
