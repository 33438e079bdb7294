// Package felix implements Felix: The Cat in the Sack for 3 to 5 players,
// as docs/felix.md rules it.
package felix

import (
	"strings"

	"github.com/pbem/pbem/engine"
)

// Kind is one of the ten pet cards of a set.
type Kind int8

const (
	CatMinus8 Kind = iota
	CatMinus5
	Cat3
	Cat5
	Cat8
	Cat11
	Cat15
	Rabbit
	LargeDog
	SmallDog
	numKinds
)

const allKinds = uint16(1)<<numKinds - 1

// kindNames are the canonical names, as commands and transcripts write them.
var kindNames = [numKinds]string{"-8", "-5", "3", "5", "8", "11", "15", "rabbit", "large-dog", "small-dog"}

// kindWords are the names in running text.
var kindWords = [numKinds]string{"-8", "-5", "3", "5", "8", "11", "15", "rabbit", "large dog", "small dog"}

var kindValues = [numKinds]int{-8, -5, 3, 5, 8, 11, 15, 0, 0, 0}

// defaultOrder is the card a player places by default at a deadline: the
// rabbit, which changes nothing; else the cat nearest zero (positive
// first); the dogs last, since they throw the auction around most.
var defaultOrder = [numKinds]Kind{Rabbit, Cat3, Cat5, CatMinus5, Cat8, CatMinus8, Cat11, Cat15, SmallDog, LargeDog}

func (k Kind) String() string {
	if k < 0 || k >= numKinds {
		return "?"
	}
	return kindNames[k]
}

// Word is the card's name in running text ("large dog").
func (k Kind) Word() string {
	if k < 0 || k >= numKinds {
		return "?"
	}
	return kindWords[k]
}

// Value is the card's points: the cat's number, 0 for the rabbit and dogs.
func (k Kind) Value() int { return kindValues[k] }

// IsCat reports whether k is a cat (the rabbit is not).
func (k Kind) IsCat() bool { return k >= CatMinus8 && k <= Cat15 }

// IsDog reports whether k is one of the dogs.
func (k Kind) IsDog() bool { return k == LargeDog || k == SmallDog }

// ParseKind reads a card name in any of the forms commands accept.
func ParseKind(s string) (Kind, bool) {
	s = strings.Join(strings.Fields(strings.ToLower(s)), " ")
	for k := Kind(0); k < numKinds; k++ {
		if kindNames[k] == s || kindWords[k] == s {
			return k, true
		}
	}
	switch s {
	case "big dog", "big-dog", "largedog", "bigdog":
		return LargeDog, true
	case "little dog", "little-dog", "smalldog", "littledog":
		return SmallDog, true
	case "+3", "+5", "+8", "+11", "+15":
		return ParseKind(s[1:])
	}
	return 0, false
}

// cardChoices is the CARD argument of `play`.
func cardChoices() []engine.ChoiceVal {
	vals := make([]engine.ChoiceVal, numKinds)
	for k := Kind(0); k < numKinds; k++ {
		vals[k] = engine.ChoiceVal{Value: kindNames[k]}
	}
	vals[LargeDog].Aliases = []string{"large dog", "big dog", "big-dog"}
	vals[SmallDog].Aliases = []string{"small dog", "little dog", "little-dog"}
	// The German edition's names, read only: "spiele großer Hund",
	// "spiele den Hasen" (engine.Fold reads "grosser" too).
	vals[Rabbit].Aliases = []string{"hase", "hasen", "kaninchen"}
	vals[LargeDog].Aliases = append(vals[LargeDog].Aliases, "großer hund", "großer-hund", "großen hund", "großen-hund")
	vals[SmallDog].Aliases = append(vals[SmallDog].Aliases, "kleiner hund", "kleiner-hund", "kleinen hund", "kleinen-hund")
	for _, k := range []Kind{Cat3, Cat5, Cat8, Cat11, Cat15} {
		vals[k].Aliases = []string{"+" + kindNames[k]}
	}
	return vals
}

// A card is identified by its colour (its owner's seat, or dummyColour)
// and its kind, as colour*10+kind: 60 ids fit a uint64 mask.
type cardID int8

const dummyColour = maxPlayers

func mkCard(colour int, k Kind) cardID { return cardID(colour*int(numKinds) + int(k)) }
func (c cardID) kind() Kind            { return Kind(int(c) % int(numKinds)) }
func (c cardID) bit() uint64           { return 1 << uint(c) }

// kindsOf lists the kinds of a card mask in kind order (all colours).
func kindsOf(mask uint64) []Kind {
	var ks []Kind
	for k := Kind(0); k < numKinds; k++ {
		for col := 0; col <= dummyColour; col++ {
			if mask&mkCard(col, k).bit() != 0 {
				ks = append(ks, k)
			}
		}
	}
	return ks
}

func kindStrings(ks []Kind) []string {
	out := make([]string, len(ks))
	for i, k := range ks {
		out[i] = k.String()
	}
	return out
}

func catTotal(mask uint64) int {
	t := 0
	for _, k := range kindsOf(mask) {
		t += k.Value()
	}
	return t
}
