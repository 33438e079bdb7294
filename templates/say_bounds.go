// The sentences of internal/daemon/bounds.go.

package templates

func (e Words) OneNewGamePerMail(text string) string {
	return e.f("Not done: %s: pbem starts one game per mail; send another mail for another game.", text)
}

func (e Words) OneRenamePerMail(text string) string {
	return e.f("Not done: %s: pbem reads one name command per mail; send another mail for another.", text)
}

func (e Words) OneVacationPerMail(text string) string {
	return e.f("Not done: %s: pbem reads one vacation or back per mail; send another mail for another.", text)
}

func (e Words) SettingsLimitReached(text string, limit int) string {
	return e.f("Not done: %s: pbem does at most %d settings commands an hour for one address (name, vacation, back and rematch in a game's thread count with every command to pbem's own address). Please send it again later.", text, limit)
}

func (e Words) SettingNeedsGameThread(text string) string {
	return e.f("Not done: %s: anyone can put your address in a mail's From, so pbem does not take this from its own address: reply with it to a mail of one of your games (an invitation will do), whose address is yours alone; it applies to all your games.", text)
}

func (e Words) YouHaveNoGame() string {
	return e.f(" You have no game yet: start one with new and send it in reply to pbem's answer, or reply to an invitation.")
}

func (e Words) OneRunningGame() string {
	return e.f("your one running game")
}

func (e Words) AllRunningGames(held int) string {
	return e.f("all %d of your running games", held)
}

func (e Words) SomeRunningGames(held int, told int) string {
	return e.f("%d of your %d running games", held, told)
}

func (e Words) TablesNotToldOfVacation(which string, limit int) string {
	return e.f(" pbem did not mail the other players of %s about it: it mails a table about one player's vacations at most %d times a day; they read it with their next mail.", which, limit)
}
