// The sentences of internal/daemon/vacation.go.

package templates

import "time"

func (e Words) VacationDateInPast(date string, now string, loc *time.Location) string {
	return e.f("Not done: %s is in the past (it is %s in %s now).", date, now, loc)
}

func (e Words) DateLayout() string {
	return e.f("Mon 2 Jan 2006")
}

func (e Words) NoVacationsAllowed() string {
	return e.f("Not done: this pbem allows no vacations. Ask the other players for patience, or the host to extend a deadline.")
}

func (e Words) VacationCannotShorten(date string) string {
	return e.f("Not done: you are already away until %s. A vacation can be made longer, not shorter: to come back earlier, send back.", date)
}

func (e Words) VacationExtensionOverAllowance(days int, left int, allowance int, year int) string {
	return e.f("Not done: that would add %s to your vacation, and you have %d of your %s left in %d.", e.nDays(days), left, e.nDays(allowance), year)
}

func (e Words) VacationOverAllowance(days int, left int, allowance int, year int) string {
	return e.f("Not done: that vacation would count %s, and you have %d of your %s left in %d.", e.nDays(days), left, e.nDays(allowance), year)
}

func (e Words) PlayerAway(name string, date string) string {
	return e.f("%s is away until %s; his deadlines wait for him.", name, date)
}

func (e Words) YouAreAwayUntil(date string, games int, days int, left int, allowance int, year int, held string) string {
	return e.f("You are away until %s. %s: each will have the time it had left, and a decision that comes while you are away gets its full time from your return. This vacation counts %s; you have %d of your %s left in %d. Send back to come back earlier.", date, e.gamesWord(games), e.nDays(days), left, e.nDays(allowance), year) + held
}

func (e Words) NotOnVacation() string {
	return e.f("You are not on vacation: your deadlines run as usual.")
}

func (e Words) PlayerBackFromVacation(name string) string {
	return e.f("%s is back from vacation; his deadlines run again.", name)
}

func (e Words) WelcomeBackFromVacation(days int, left int, allowance int, year int, held string) string {
	return e.f("Welcome back: your deadlines run again, each with the time it had when you left (a decision that came while you were away has its full time from now). This vacation counts %s; you have %d of your %s left in %d.", e.nDays(days), left, e.nDays(allowance), year) + held
}
