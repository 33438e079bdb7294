// The sentences of internal/daemon/talk.go.

package templates

func (e Words) NotSaidYouResigned() string {
	return e.f("Not said: you resigned from this game, so pbem no longer relays your words to its table.")
}

func (e Words) NotSaidNotStarted() string {
	return e.f("Not said: the game has not started yet; say reaches the other players once everyone has joined.")
}

func (e Words) NotSaid(why string) string {
	return e.f("Not said: %s", why)
}

func (e Words) NotSaidEmpty() string {
	return e.f("Not said: there was nothing after say.")
}

func (e Words) NotSaidLimitReached(limit int, when string) string {
	return e.f("Not said: pbem relays at most %d messages of yours at this table in 24 hours; you may say more from %s.", limit, when)
}

func (e Words) Says(name string, said string) string {
	return e.f("%s says: %s", name, said)
}

func (e Words) SaidToTable() string {
	return e.f("Said to the table. Your words are in this game's history; the other players whose notify setting is normal or all get them now, the others with their next mail or digest.")
}

func (e Words) NobodyPoked(why string) string {
	return e.f("Nobody was poked: %s", why)
}

func (e Words) VacationUntil(name string, when string) string {
	return e.f("%s is on vacation until %s", name, when)
}

func (e Words) NobodyPokedAllAway(away []string) string {
	return e.f("Nobody was poked: %s, and pbem does not poke players on vacation.", e.joinAnd(away))
}

func (e Words) NobodyPokedWaitsOnYou() string {
	return e.f("Nobody was poked: the game waits only on you.")
}

func (e Words) NobodyPokedWaitsOnNobody() string {
	return e.f("Nobody was poked: the game waits on nobody now.")
}

func (e Words) NobodyPokedOncePerDay(when string, until string) string {
	return e.f("Nobody was poked: you may poke each game once a day, and you poked this one at %s; you may poke it again from %s.", when, until)
}

func (e Words) PokedYou(name string) string {
	return e.f("%s poked you: the table is waiting for your move.", name)
}

func (e Words) PbemReminded(names []string) string {
	return e.f("pbem reminded %s that the table is waiting.", e.joinAnd(names))
}

func (e Words) DidNotPokeAway(away []string) string {
	return e.f(" It did not poke players on vacation: %s.", e.joinAnd(away))
}
