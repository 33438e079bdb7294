// The sentences of internal/daemon/language.go.

package templates

// LanguageChosenForYou is the one line a player's first German mail
// from pbem starts with: why it is German, and how to switch.
func (e Words) LanguageChosenForYou() string {
	return e.f("pbem writes to you in German, as your mail was in German. For English, send: language english")
}

// LanguageSet answers `language`: in the language just chosen.
func (e Words) LanguageSet(german bool) string {
	if german {
		return e.f("From now on pbem writes to you in German, in every game. It reads your commands in English and in German.")
	}
	return e.f("From now on pbem writes to you in English, in every game. It reads your commands in English and in German.")
}
