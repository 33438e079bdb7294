package engine

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Phrase is a sentence of a game's log as a message key and its
// arguments, so that each reader reads it in his own language (issue
// 39): the key is the sentence's English format ("%s bids %d."), which
// the message catalogs (Localizer) translate, and the arguments are kept
// typed, not written out, so that a card or a nested sentence is
// translated too. It marshals to small, stable JSON:
//
//	{"k":"%s bids %d.","a":[{"s":"bob"},{"n":4}]}
//
// A list phrase has no Key: its List says how its Args are joined
// ({"l":"and","a":[{"s":"alice"},{"s":"bob"}]} is "alice and bob").
type Phrase struct {
	Key  string `json:"k,omitempty"`
	Args []Arg  `json:"a,omitempty"`
	// List, when set, makes the phrase a list of its Args: ListAnd joins
	// them as JoinAnd does ("a, b and c", with the reader's ", " and
	// "%s and %s"); any other List is the key of the separator that
	// joins every two of them (", ", "; ", " and ").
	List string `json:"l,omitempty"`
}

// ListAnd is the List of a phrase that joins its items as JoinAnd does.
const ListAnd = "and"

// Arg is one argument of a Phrase: exactly one field is set.
type Arg struct {
	S *string `json:"s,omitempty"` // as written, in every language: a name, a cat's number
	N *int    `json:"n,omitempty"` // a number, printed as fmt's %d does
	P *Phrase `json:"p,omitempty"` // words the reader's language translates: a card, a list, a part of a sentence
	T *Time   `json:"t,omitempty"` // a moment, written as a date in the reader's language
}

// Time is a moment a phrase writes as a date (the end of a player's
// vacation): its Unix seconds, the zone it is written in (an IANA name,
// as time.LoadLocation reads it; "" for UTC), and its layout, a key the
// catalogs translate to the language's own layout ("Mon 2 Jan 15:04
// MST"). The engine only carries it: the templates write it in the
// reader's language (templates.Words.Event), with his names of the
// weekdays and months; String writes it in English.
type Time struct {
	Unix   int64  `json:"u"`
	Zone   string `json:"z,omitempty"`
	Layout string `json:"l"`
}

// TimeOf is t as a phrase's Time, written in t's zone with layout.
func TimeOf(t time.Time, layout string) Time {
	zone := t.Location().String()
	if zone == "UTC" {
		zone = ""
	}
	return Time{Unix: t.Unix(), Zone: zone, Layout: layout}
}

// In is the moment in its zone (UTC when the zone is unknown here).
func (t Time) In() time.Time {
	loc, err := time.LoadLocation(t.Zone)
	if err != nil {
		loc = time.UTC
	}
	return time.Unix(t.Unix, 0).In(loc)
}

// String is the moment written in English: its layout as time.Format
// reads it.
func (t Time) String() string { return t.In().Format(t.Layout) }

// W is a phrase of translatable words: a card ("rabbit") or colour
// ("red") by its catalog key, or a part of a sentence ("%d mice", n).
// Each argument is a string (S), a whole number of any int type (N), a
// Phrase (P) or a Time (T); anything else is written out with fmt's %v as S.
func W(key string, args ...any) Phrase { return Phrase{Key: key, Args: toArgs(args)} }

// And is the list of items as JoinAnd writes it: "a", "a and b", "a, b
// and c", each item a string, a number or a Phrase.
func And(items ...any) Phrase { return Phrase{List: ListAnd, Args: toArgs(items)} }

// Join is the list of items joined by sep, a key the catalogs translate
// (", ", "; ", " and "), as strings.Join writes them in English.
func Join(sep string, items ...any) Phrase { return Phrase{List: sep, Args: toArgs(items)} }

// toArgs converts a format's arguments, as Recorder and W take them.
func toArgs(xs []any) []Arg {
	if len(xs) == 0 {
		return nil
	}
	out := make([]Arg, len(xs))
	for i, x := range xs {
		out[i] = ArgOf(x)
	}
	return out
}

// ArgOf is x as an argument: a string as written (S), a whole number
// (N), a Phrase or *Phrase to translate (P). Anything else is written
// out with fmt's %v, as written.
func ArgOf(x any) Arg {
	switch v := x.(type) {
	case string:
		return Arg{S: &v}
	case Phrase:
		return Arg{P: &v}
	case *Phrase:
		if v != nil {
			p := *v
			return Arg{P: &p}
		}
	case Time:
		return Arg{T: &v}
	case int:
		return Arg{N: &v}
	case int8:
		return intArg(int(v))
	case int16:
		return intArg(int(v))
	case int32:
		return intArg(int(v))
	case int64:
		return intArg(int(v))
	case uint8:
		return intArg(int(v))
	case uint16:
		return intArg(int(v))
	case uint32:
		return intArg(int(v))
	}
	s := fmt.Sprint(x)
	return Arg{S: &s}
}

func intArg(n int) Arg { return Arg{N: &n} }

// value is the argument as say prints it: a string, an int, or the
// nested phrase written with say.
func (a Arg) value(say Say) any {
	switch {
	case a.S != nil:
		return *a.S
	case a.N != nil:
		return *a.N
	case a.P != nil:
		return a.P.In(say)
	case a.T != nil:
		return *a.T // a Stringer: say writes it in its language, or in English
	}
	return ""
}

// text is the argument written out, as a list item.
func (a Arg) text(say Say) string {
	switch v := a.value(say).(type) {
	case string:
		return v
	case int:
		return strconv.Itoa(v)
	case Time:
		return v.String()
	}
	return ""
}

// In writes the phrase with say, a reader's language's printer (the
// templates' words, or English): its nested phrases first, then its key
// with its arguments; a list with say's separators.
func (p Phrase) In(say Say) string {
	if p.List != "" {
		items := make([]string, len(p.Args))
		for i, a := range p.Args {
			items[i] = a.text(say)
		}
		if p.List != ListAnd {
			return strings.Join(items, say(p.List))
		}
		switch len(items) {
		case 0:
			return ""
		case 1:
			return items[0]
		}
		return say("%s and %s", strings.Join(items[:len(items)-1], say(", ")), items[len(items)-1])
	}
	args := make([]any, len(p.Args))
	for i, a := range p.Args {
		args[i] = a.value(say)
	}
	return say(p.Key, args...)
}

// English writes the phrase in English: fmt.Sprintf of its key with
// its arguments' English, in the one form of a plural key
// (EnglishPlural) for a count of 1 or -1. It is the Text of the event the phrase says.
func (p Phrase) English() string { return p.In(english) }

// english is English with the plural keys' one forms (EnglishPlural).
func english(key string, args ...any) string { return English(englishForm(key, args), args...) }

// String is the phrase in English, so that fmt prints a phrase as its
// English.
func (p Phrase) String() string { return p.English() }

// Names reports whether argument i (from 0) of p is the name name.
func (p Phrase) Names(i int, name string) bool {
	return i >= 0 && i < len(p.Args) && p.Args[i].S != nil && *p.Args[i].S == name
}

// Without is p's arguments without those at the indexes drop, under key:
// the form of p for a reader its dropped arguments named ("%s bids %d."
// for bob, without argument 0, is "You bid %d.").
func (p Phrase) Without(key string, drop ...int) Phrase {
	out := Phrase{Key: key}
	for i, a := range p.Args {
		dropped := false
		for _, d := range drop {
			dropped = dropped || d == i
		}
		if !dropped {
			out.Args = append(out.Args, a)
		}
	}
	return out
}

// ListAt is argument i of p when it is a list phrase, and whether it is.
func (p Phrase) ListAt(i int) (Phrase, bool) {
	if i < 0 || i >= len(p.Args) || p.Args[i].P == nil || p.Args[i].P.List == "" {
		return Phrase{}, false
	}
	return *p.Args[i].P, true
}

// englishPlurals are the English one-forms of the plural keys, by key
// (EnglishPlural).
var englishPlurals sync.Map

// EnglishPlural declares a message whose English chooses its form by a
// count, its first argument: one for 1 and -1 (as Plural does), other,
// its key, for any other count. It returns the key, so that a game
// declares its plural messages where it uses them:
//
//	var miceKey = engine.EnglishPlural("%d mouse", "%d mice")
//
// Phrase.English (an event's Text) writes the right form; the game's catalogs give the same table for English
// (locales/en/*.toml: "%d mice" = { one = "%d mouse", other = "%d mice" })
// and each other language's forms, for the renderer.
func EnglishPlural(one, other string) string {
	if prev, loaded := englishPlurals.LoadOrStore(other, one); loaded && prev.(string) != one {
		panic(fmt.Sprintf("engine: plural %q declared with two one-forms, %q and %q", other, prev, one))
	}
	return other
}

// englishForm is key's form for args in English: the one form of a
// plural key (EnglishPlural) when the count is 1 or -1.
func englishForm(key string, args []any) string {
	if len(args) == 0 {
		return key
	}
	n, ok := args[0].(int)
	if !ok || (n != 1 && n != -1) {
		return key
	}
	if one, ok := englishPlurals.Load(key); ok {
		return one.(string)
	}
	return key
}

// YouForm is a phrase's form for a reader it names (Addresser): Key,
// in the second person, without the arguments Names (indexes from 0),
// which all name him.
type YouForm struct {
	Key   string
	Names []int
}

// Yous maps a phrase's key to its forms for a reader it names, in the
// order to try them: "%s bids %d." to "You bid %d." without argument 0.
type Yous map[string][]YouForm

// Address returns say as the player named reader reads it: in the first
// of its key's forms whose Names all name him, with ok true; say as it
// is, and false, when none does. A nil say stays nil.
func (y Yous) Address(say *Phrase, reader string) (out *Phrase, ok bool) {
	if say == nil || reader == "" {
		return say, false
	}
	for _, f := range y[say.Key] {
		all := len(f.Names) > 0
		for _, i := range f.Names {
			all = all && say.Names(i, reader)
		}
		if all {
			p := say.Without(f.Key, f.Names...)
			return &p, true
		}
	}
	return say, false
}

// LeadingName reports whether argument i of p is a list whose first
// item is the name name, and returns the list without it: "alice and
// bob share the win." is "You and %s share the win." for alice, with
// "bob" the rest.
func (p Phrase) LeadingName(i int, name string) (rest Phrase, ok bool) {
	l, ok := p.ListAt(i)
	if !ok || !l.Names(0, name) {
		return Phrase{}, false
	}
	l.Args = l.Args[1:]
	return l, true
}
