// Package gracias implements Gracias for 3 to 6 players, as
// docs/gracias.md rules it: three sessions of four rounds, in which the
// players take triplets of cards, keep one face-up card, give the other
// away and try not to hold the most of any colour.
package gracias

import (
	"strconv"
	"strings"

	"github.com/pbem/pbem/engine"
)

// Colour is one of the six card colours.
type Colour int8

const (
	Red Colour = iota
	Orange
	Yellow
	Green
	Blue
	Purple
	numColours
)

// colourNames are the canonical names, as commands and transcripts write
// them, in the order views and set-up lines list colours.
var colourNames = [numColours]string{"red", "orange", "yellow", "green", "blue", "purple"}

func (c Colour) String() string {
	if c < 0 || c >= numColours {
		return "?"
	}
	return colourNames[c]
}

// ParseColour reads a colour's canonical name, ignoring case.
func ParseColour(s string) (Colour, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	for c := Colour(0); c < numColours; c++ {
		if colourNames[c] == s {
			return c, true
		}
	}
	return 0, false
}

// germanColours are the colours' German names, read only ("behalte
// rot", "behalte die rote"): engine.Fold reads "gruen" too. Orange is one
// word in both.
var germanColours = [numColours][]string{{"rot", "rote"}, nil, {"gelb", "gelbe"}, {"grün", "grüne"}, {"blau", "blaue"}, {"lila", "violett", "violette"}}

// colourChoices is the COLOUR argument of `keep`.
func colourChoices() []engine.ChoiceVal {
	vals := make([]engine.ChoiceVal, numColours)
	for c := Colour(0); c < numColours; c++ {
		vals[c] = engine.ChoiceVal{Value: colourNames[c], Aliases: germanColours[c]}
	}
	return vals
}

// Counts is a number of cards per colour. It marshals as a JSON object
// with the colours in their canonical order.
type Counts [numColours]int

// MarshalJSON writes {"red":1,"orange":0,...}.
func (n Counts) MarshalJSON() ([]byte, error) {
	var b strings.Builder
	b.WriteByte('{')
	for c := Colour(0); c < numColours; c++ {
		if c > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"` + colourNames[c] + `":`)
		b.WriteString(strconv.Itoa(n[c]))
	}
	b.WriteByte('}')
	return []byte(b.String()), nil
}

// Total is the number of cards of every colour.
func (n Counts) Total() int {
	t := 0
	for _, k := range n {
		t += k
	}
	return t
}
