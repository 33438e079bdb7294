package engine

// Results is implemented by a game whose log has events that decide
// something: the outcome of a round or a session (an auction won, a
// session scored). The service mails a player such an event at once even
// when he has nothing to decide, because it changes what he knows about
// the game; other events wait for his next mail.
type Results interface {
	// ResultKinds lists the Kinds of the events that decide a round or a
	// session.
	ResultKinds() []string
}

// IsResult reports whether events of kind decide a round or a session of
// the game r: false for a game that does not say (Results).
func IsResult(r Rules, kind string) bool {
	res, ok := r.(Results)
	if !ok {
		return false
	}
	for _, k := range res.ResultKinds() {
		if k == kind {
			return true
		}
	}
	return false
}
