// Package games is the catalogue of the games pbem hosts.
package games

import (
	"sort"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/felix"
	"github.com/pbem/pbem/engine/gracias"
)

// All returns every game's rules, keyed by name.
func All() map[string]engine.Rules {
	rs := []engine.Rules{felix.Rules{}, gracias.Rules{}}
	m := make(map[string]engine.Rules, len(rs))
	for _, r := range rs {
		m[r.Name()] = r
	}
	return m
}

// Lookup finds a game's rules by name.
func Lookup(name string) (engine.Rules, bool) {
	r, ok := All()[name]
	return r, ok
}

// Names lists the games' names in order.
func Names() []string {
	var out []string
	for n := range All() {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
