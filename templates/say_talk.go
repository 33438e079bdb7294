// The sentences of internal/daemon/talk.go.

package templates

import (
	"fmt"
)

func (English) NotSaidYouResigned() string {
	return "Not said: you resigned from this game, so pbem no longer relays your words to its table."
}

func (English) NotSaidNotStarted() string {
	return "Not said: the game has not started yet; say reaches the other players once everyone has joined."
}

func (English) NotSaid(why string) string {
	return "Not said: " + why
}

func (English) NotSaidEmpty() string {
	return "Not said: there was nothing after say."
}

func (English) NotSaidLimitReached(limit int, when string) string {
	return fmt.Sprintf("Not said: pbem relays at most %d messages of yours at this table in 24 hours; you may say more from %s.", limit, when)
}

func (English) Says(name string, said string) string {
	return fmt.Sprintf("%s says: %s", name, said)
}

func (English) SaidToTable() string {
	return "Said to the table. Your words are in this game's history; the other players whose notify setting is normal or all get them now, the others with their next mail or digest."
}

func (English) NobodyPoked(why string) string {
	return "Nobody was poked: " + why
}

func (English) VacationUntil(name string, when string) string {
	return fmt.Sprintf("%s is on vacation until %s", name, when)
}

func (English) NobodyPokedAllAway(away []string) string {
	return "Nobody was poked: " + Say.joinAnd(away) + ", and pbem does not poke players on vacation."
}

func (English) NobodyPokedWaitsOnYou() string {
	return "Nobody was poked: the game waits only on you."
}

func (English) NobodyPokedWaitsOnNobody() string {
	return "Nobody was poked: the game waits on nobody now."
}

func (English) NobodyPokedOncePerDay(when string, until string) string {
	return fmt.Sprintf("Nobody was poked: you may poke each game once a day, and you poked this one at %s; you may poke it again from %s.", when, until)
}

func (English) PokedYou(name string) string {
	return fmt.Sprintf("%s poked you: the table is waiting for your move.", name)
}

func (English) PbemReminded(names []string) string {
	return "pbem reminded " + Say.joinAnd(names) + " that the table is waiting."
}

func (English) DidNotPokeAway(away []string) string {
	return " It did not poke players on vacation: " + Say.joinAnd(away) + "."
}
