// The sentences of internal/daemon/vacation.go.

package templates

import "time"

func (e English) VacationDateInPast(date string, now string, loc *time.Location) string {
	return e.f("Not done: %s is in the past (it is %s in %s now).", date, now, loc)
}

func (e English) DateLayout() string {
	return e.f("Mon 2 Jan 2006")
}

func (e English) NoVacationsAllowed() string {
	return e.f("Not done: this pbem allows no vacations. Ask the other players for patience, or the host to extend a deadline.")
}

func (e English) VacationCannotShorten(date string) string {
	return e.f("Not done: you are already away until %s. A vacation can be made longer, not shorter: to come back earlier, send back.", date)
}

func (e English) VacationExtensionOverAllowance(days int, left int, allowance int, year int) string {
	return e.f("Not done: that would add %s to your vacation, and you have %d of your %s left in %d.", e.nDays(days), left, e.nDays(allowance), year)
}

func (e English) VacationOverAllowance(days int, left int, allowance int, year int) string {
	return e.f("Not done: that vacation would count %s, and you have %d of your %s left in %d.", e.nDays(days), left, e.nDays(allowance), year)
}

func (e English) PlayerAway(name string, date string) string {
	return e.f("%s is away until %s; his deadlines wait for him.", name, date)
}

func (e English) YouAreAwayUntil(date string, games int, days int, left int, allowance int, year int, held string) string {
	return e.f("You are away until %s. %s: each will have the time it had left, and a decision that comes while you are away gets its full time from your return. This vacation counts %s; you have %d of your %s left in %d. Send back to come back earlier.", date, e.gamesWord(games), e.nDays(days), left, e.nDays(allowance), year) + held
}

func (e English) NotOnVacation() string {
	return e.f("You are not on vacation: your deadlines run as usual.")
}

func (e English) PlayerBackFromVacation(name string) string {
	return e.f("%s is back from vacation; his deadlines run again.", name)
}

func (e English) WelcomeBackFromVacation(days int, left int, allowance int, year int, held string) string {
	return e.f("Welcome back: your deadlines run again, each with the time it had when you left (a decision that came while you were away has its full time from now). This vacation counts %s; you have %d of your %s left in %d.", e.nDays(days), left, e.nDays(allowance), year) + held
}
