// The sentences of internal/daemon/web.go.

package templates

func (English) GameBegins() string {
	return "The game begins."
}

func (English) NoWebPagesToRenew() string {
	return "This pbem serves no web pages, so your table has no link to renew."
}

func (English) TableLinkRenewed() string {
	return "Your table's web page has a new address, below; the old link no longer works."
}

func (English) NoWebPagesForSpectators() string {
	return "This pbem serves no web pages, so a game cannot be opened to spectators."
}

func (English) OnlyStarterSetsSpectators() string {
	return "Only the player who started this game can open it to spectators or close it."
}

func (English) ClosedToSpectators() string {
	return "This game is closed to spectators: its public link no longer works."
}

func (English) OpenToSpectators(pageURL string) string {
	return "This game is open to spectators: anyone with this link sees what the whole table sees, never a hidden card: " + pageURL + " (spectators off closes it)."
}
