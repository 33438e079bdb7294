package templates

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pbem/pbem/engine/gracias"
)

// colours writes cards by colour, in the game's colour order, leaving out
// colours with none: "red 2, orange 1", or "none".
func colours(c gracias.Counts) string {
	var parts []string
	for i, n := range c {
		if n != 0 {
			parts = append(parts, fmt.Sprintf("%s %d", gracias.Colour(i), n))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// Points writes a player's session points: "2 + 3 + 1".
func (d *gameData) Points(sessions []int) string {
	if len(sessions) == 0 {
		return "0"
	}
	parts := make([]string, len(sessions))
	for i, p := range sessions {
		parts[i] = fmt.Sprint(p)
	}
	return strings.Join(parts, " + ")
}

// SmallChose reports whether the small start player has taken his
// triplet this round: until then he "chooses first", not "chose first".
func (d *gameData) SmallChose() bool {
	v := d.Gracias
	for _, t := range v.Triplets {
		if t.Taken && t.TakenBy == v.Small {
			return true
		}
	}
	return false
}

// LastSession is the most recently scored session, or nil.
func (d *gameData) LastSession() *gracias.SessionView {
	v := d.Gracias
	if v == nil || len(v.History) == 0 {
		return nil
	}
	return &v.History[len(v.History)-1]
}

// GraciasTieBreak explains how a tie on the top total was broken, or ""
// when the top total was not tied.
func (d *gameData) GraciasTieBreak() string {
	v := d.Gracias
	if v == nil || len(v.Players) == 0 {
		return ""
	}
	top := v.Players[0].Total
	for _, p := range v.Players {
		top = max(top, p.Total)
	}
	type tiedPlayer struct {
		name         string
		best, second int
	}
	var tied []tiedPlayer
	for _, p := range v.Players {
		if p.Total != top {
			continue
		}
		s := slices.Clone(p.Sessions)
		slices.Sort(s)
		slices.Reverse(s)
		s = append(s, 0, 0)
		tied = append(tied, tiedPlayer{p.Name, s[0], s[1]})
	}
	if len(tied) < 2 {
		return ""
	}
	var names, best, second []string
	sameBest := true
	for _, p := range tied {
		names = append(names, p.name)
		best = append(best, fmt.Sprintf("%s %d", p.name, p.best))
		second = append(second, fmt.Sprintf("%s %d", p.name, p.second))
		sameBest = sameBest && p.best == tied[0].best
	}
	all := "both"
	if len(tied) > 2 {
		all = "all"
	}
	head := fmt.Sprintf("%s %s have %d points", andList(names), all, top)
	switch {
	case len(d.Winners) == len(tied):
		return fmt.Sprintf("%s and equal best and second-best sessions (%d and %d), so they share the win.",
			head, tied[0].best, tied[0].second)
	case !sameBest:
		return fmt.Sprintf("%s, so the best single session decides: %s.", head, andList(best))
	}
	return fmt.Sprintf("%s and equal best sessions (%d), so the second-best decides: %s.",
		head, tied[0].best, andList(second))
}
