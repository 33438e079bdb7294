package daemon

import (
	"reflect"
	"sync"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/parser"
)

// lexicons keeps, for each game's rules, the command grammar the parser
// reads a seat's mail with: the rules' Specs and Nouns and the words
// made of them (parser.Lexicon). Every mail to a seat asked the rules
// for them again, and the parser made its words again, though they are
// the same for every game played by the same rules (issue 40: 2.5% of a
// command's CPU, a tenth of its allocations). The rules are the key, so
// that rules whose grammar depends on their options keep one grammar
// each; rules that cannot be a key (not comparable) are asked each time.
// It holds at most lexiconsSize rules, and starts afresh when full. What
// it keeps is never changed, and is shared by every goroutine.
type lexicons struct {
	mu sync.Mutex
	m  map[engine.Rules]gameWords
}

// gameWords is what a grammar takes from a game's rules.
type gameWords struct {
	specs   []engine.Spec
	nouns   []string
	lexicon *parser.Lexicon
}

const lexiconsSize = 64

// of returns the grammar words of r, made once.
func (c *lexicons) of(r engine.Rules) gameWords {
	if !reflect.TypeOf(r).Comparable() {
		return wordsOf(r)
	}
	c.mu.Lock()
	w, ok := c.m[r]
	c.mu.Unlock()
	if ok {
		return w
	}
	w = wordsOf(r)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= lexiconsSize {
		c.m = make(map[engine.Rules]gameWords)
	}
	c.m[r] = w
	return w
}

// wordsOf makes r's grammar words.
func wordsOf(r engine.Rules) gameWords {
	specs, nouns := r.Specs(), engine.NounsOf(r)
	return gameWords{specs: specs, nouns: nouns, lexicon: parser.NewLexicon(specs, nouns)}
}
