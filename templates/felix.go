package templates

import (
	"fmt"
	"sort"

	"github.com/pbem/pbem/engine/felix"
)

// RowCard says what the reader sees at one position of the row: a face-up
// card, "face down", "your 8, face down" or "not placed yet".
func (d *gameData) RowCard(rc felix.RowCard) string {
	switch {
	case !rc.Placed:
		return "not placed yet"
	case rc.FaceUp && rc.Card != "":
		return cardWord(rc.Card)
	case rc.Card != "" && rc.Owner == d.Reader:
		return "your " + cardWord(rc.Card) + ", face down"
	case rc.Card != "":
		// A view gives a face-down card only to its owner; show what
		// it holds all the same, so that a wrong view is caught by the
		// tests rather than hidden here.
		return cardWord(rc.Card) + ", face down"
	}
	return "face down"
}

// OwnMoney is the reader's money as the table shows it: the mice in hand
// and, while he has a stake in the auction, the stake beside them, so
// that "bid 8..24" next to "18 mice" adds up. Both are his own to know.
func (d *gameData) OwnMoney() string {
	v := d.Felix
	if v.Money == nil {
		return "unknown"
	}
	money := plural(*v.Money, "mouse", "mice")
	for _, p := range v.Players {
		if p.Name == v.You && p.Stake > 0 {
			return fmt.Sprintf("%s in hand, %d staked", money, p.Stake)
		}
	}
	return money
}

// HighHolders names who holds the highest stake.
func (d *gameData) HighHolders() string {
	v := d.Felix
	var names []string
	for _, p := range v.Players {
		if v.HighStake > 0 && p.Stake == v.HighStake {
			names = append(names, p.Name)
		}
	}
	return andList(names)
}

// FelixTieBreak explains how a tie on the top score was broken, or ""
// when the top score was not tied.
func (d *gameData) FelixTieBreak() string {
	v := d.Felix
	if v == nil || len(v.Players) == 0 {
		return ""
	}
	score := func(p felix.PlayerView) int {
		if p.Score != nil {
			return *p.Score
		}
		return d.ScoreOf(p.Name)
	}
	top := score(v.Players[0])
	for _, p := range v.Players {
		top = max(top, score(p))
	}
	var tied []felix.PlayerView
	for _, p := range v.Players {
		if score(p) == top {
			tied = append(tied, p)
		}
	}
	if len(tied) < 2 {
		return ""
	}
	names := make([]string, len(tied))
	for i, p := range tied {
		names[i] = p.Name
	}
	both := "both"
	if len(tied) > 2 {
		both = "all"
	}
	if len(d.Winners) == len(tied) {
		return fmt.Sprintf("%s %s scored %d and have the same cat total (%d), so they share the win.",
			andList(names), both, top, tied[0].Cats)
	}
	sort.SliceStable(tied, func(i, j int) bool { return tied[i].Cats > tied[j].Cats })
	var cats []string
	for _, p := range tied {
		cats = append(cats, fmt.Sprintf("%s %d", p.Name, p.Cats))
	}
	return fmt.Sprintf("%s %s scored %d, so the higher cat total decides: %s.",
		andList(names), both, top, andList(cats))
}
