// The sentences of internal/daemon/web.go.

package templates

func (e Words) GameBegins() string {
	return e.f("The game begins.")
}

func (e Words) NoWebPagesToRenew() string {
	return e.f("This pbem serves no web pages, so your table has no link to renew.")
}

func (e Words) TableLinkRenewed() string {
	return e.f("Your table's web page has a new address, below; the old link no longer works.")
}

func (e Words) NoWebPagesForSpectators() string {
	return e.f("This pbem serves no web pages, so a game cannot be opened to spectators.")
}

func (e Words) OnlyStarterSetsSpectators() string {
	return e.f("Only the player who started this game can open it to spectators or close it.")
}

func (e Words) ClosedToSpectators() string {
	return e.f("This game is closed to spectators: its public link no longer works.")
}

func (e Words) OpenToSpectators(pageURL string) string {
	return e.f("This game is open to spectators: anyone with this link sees what the whole table sees, never a hidden card: %s (spectators off closes it).", pageURL)
}
