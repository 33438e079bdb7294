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
	var tied []gracias.PlayerView
	for _, p := range v.Players {
		if p.Total == top {
			tied = append(tied, p)
		}
	}
	if len(tied) < 2 {
		return ""
	}
	var names, best []string
	for _, p := range tied {
		s := slices.Clone(p.Sessions)
		slices.Sort(s)
		slices.Reverse(s)
		var b, second int
		if len(s) > 0 {
			b = s[0]
		}
		if len(s) > 1 {
			second = s[1]
		}
		names = append(names, p.Name)
		best = append(best, fmt.Sprintf("%s %d and %d", p.Name, b, second))
	}
	all := "both"
	if len(tied) > 2 {
		all = "all"
	}
	if len(d.Winners) == len(tied) {
		return fmt.Sprintf("%s %s have %d points and the same best and second-best sessions (%s), so they share the win.",
			andList(names), all, top, andList(best))
	}
	return fmt.Sprintf("%s %s have %d points, so the best single session decides, then the second-best (best and second-best: %s).",
		andList(names), all, top, andList(best))
}
