package daemon

import "strings"

// The titles of game kinds, as mails and pages show them.

// title is a game kind's title for people, or the kind itself.
func (w *work) title(kind string) string {
	if r, ok := w.games(kind); ok {
		return strings.SplitN(r.Title(), ":", 2)[0]
	}
	return kind
}

// gameTitle is a game kind's title, or its name for a kind this pbem no
// longer knows.
func (s *Service) gameTitle(kind string) string {
	if r, ok := s.games(kind); ok {
		return r.Title()
	}
	return kind
}
