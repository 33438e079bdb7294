// The reader's explanations: why pbem could not read a line of a mail
// (parser.Problem), as internal/daemon/route.go and seat.go tell it.

package templates

import (
	"strings"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/parser"
)

// Told is why pbem could not read the line of p, as the player is told
// it (p.Told), in the words' language: the problem's message
// (p.ToldMessage) printed through the catalog, its keys the parser's
// and the engine grammar's formats (parser.Formats, in
// locales/LANG/parser.toml). A problem without a message is told as it
// is, in English. The player's words, the commands' syntax ("bid N",
// "notify normal|all|turns|digest|off [here]") and the values a command
// takes ("large-dog", "red") are printed as they are: they are what he
// writes, in any language.
//
// p is taken by value: it is only read.
func (e Words) Told(p parser.Problem) string {
	m, ok := p.ToldMessage()
	if !ok {
		return p.Told()
	}
	return e.message(m)
}

// message prints m in the words' language: its format's translation,
// with each argument that is a message or a list of alternatives
// printed so too, and every other argument as it is.
func (e Words) message(m engine.Message) string {
	args := make([]any, len(m.Args))
	for i, a := range m.Args {
		switch a := a.(type) {
		case engine.Message:
			args[i] = e.message(a)
		case engine.OrList:
			args[i] = e.orList(a)
		default:
			args[i] = a
		}
	}
	return e.f(m.Format, args...)
}

// orList writes alternatives as engine.JoinOr does, in the words'
// language: "a", "a or b", "a, b or c".
func (e Words) orList(xs []string) string {
	if len(xs) <= 1 {
		return strings.Join(xs, "")
	}
	return e.f("%s or %s", e.joinComma(xs[:len(xs)-1]), xs[len(xs)-1])
}
