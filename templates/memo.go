package templates

import "sync"

// sentences keeps the sentences a language's words printed, by their
// key and arguments, so that the next mail that says the same thing
// does not print it again (issue 40: x/text's Sprintf, which looks the
// key up in the catalog and formats the arguments anew, was a tenth of
// the CPU a mail took to render, and a command's mails say mostly the
// same sentences). A sentence is a function of its key, its arguments
// and the language alone, so one reader is only ever given what his own
// mail's sentence prints; nothing of another's mail. Only arguments of
// plain comparable kinds (strings, whole numbers) are kept: anything
// else prints each time.
//
// The renderer makes one for each language it writes; the words of
// For, In and Say have none and print every time.
type sentences struct {
	mu sync.RWMutex
	m  map[sentenceKey]string
}

// maxSentences bounds what sentences keeps: when full it starts again,
// so that what the mails of the moment say is soon kept again and what
// they said long ago is not kept for ever.
const maxSentences = 4096

// maxSentenceArgs is the most arguments a kept sentence has.
const maxSentenceArgs = 4

// sentenceKey is a message's key and its arguments.
type sentenceKey struct {
	key  string
	n    int
	args [maxSentenceArgs]any
}

// keyOf is the key of the sentence key prints from args, and whether it
// may be kept at all.
func keyOf(key string, args []any) (sentenceKey, bool) {
	k := sentenceKey{key: key, n: len(args)}
	if len(args) > maxSentenceArgs {
		return k, false
	}
	for i, a := range args {
		switch a.(type) {
		case string, int, int64, int32, uint, uint64, uint32:
			k.args[i] = a
		default:
			return k, false
		}
	}
	return k, true
}

// get is the sentence kept under k.
func (s *sentences) get(k sentenceKey) (string, bool) {
	s.mu.RLock()
	out, ok := s.m[k]
	s.mu.RUnlock()
	return out, ok
}

// put keeps a printed sentence.
func (s *sentences) put(k sentenceKey, out string) {
	s.mu.Lock()
	if s.m == nil || len(s.m) >= maxSentences {
		s.m = make(map[sentenceKey]string, 256)
	}
	s.m[k] = out
	s.mu.Unlock()
}
