// The sentences of internal/daemon/names.go.

package templates

func (e Words) NameNotChanged(reason string) string {
	return e.f("Your name was not changed: %s", reason)
}

func (e Words) NameNotChangedGameAside(title string, id int64) string {
	return e.f("Your name was not changed: %s #%d is being repaired. Please try again once it goes on.", title, id)
}

func (e Words) NameTakenInGame(name string, title string, id int64) string {
	return e.f("Your name was not changed: %s is the name of another player in %s #%d. Choose another one.", name, title, id)
}

func (e Words) RenameLimitReached(limit int) string {
	return e.f("Your name was not changed: pbem changes a player's name at most %d times a day, and yours has changed %d times in the last 24 hours. Please try again later.", limit, limit)
}

func (e Words) NameChanged(name string) string {
	return e.f("Your name is now %s: the other players see it in your games that are not over, and in new ones.", name)
}

func (e Words) NameMissing() string {
	return e.f("write the new name after the word name, such as: name robert")
}

func (e Words) NameNotOneWord() string {
	return e.f("a name is one word (a letter, then letters, digits, - or _), such as robert or bob_s.")
}

func (e Words) NameNotValid(maxNameLen int) string {
	return e.f("a name is one word of at most %d characters: a letter, then letters, digits, - or _.", maxNameLen)
}

func (e Words) NameIsCommandWord(name string) string {
	return e.f("%s is a word of pbem's commands, so it cannot be a name.", name)
}

func (e Words) NowCalled(old string, name string) string {
	return e.f("%s is now called %s.", old, name)
}
