// The sentences of internal/daemon/vacation.go.

package templates

import (
	"fmt"
	"time"
)

func (English) VacationDateInPast(date string, now string, loc *time.Location) string {
	return fmt.Sprintf("Not done: %s is in the past (it is %s in %s now).", date, now, loc)
}

func (English) DateLayout() string {
	return "Mon 2 Jan 2006"
}

func (English) NoVacationsAllowed() string {
	return "Not done: this pbem allows no vacations. Ask the other players for patience, or the host to extend a deadline."
}

func (English) VacationCannotShorten(date string) string {
	return fmt.Sprintf("Not done: you are already away until %s. A vacation can be made longer, not shorter: to come back earlier, send back.", date)
}

func (English) VacationExtensionOverAllowance(days int, left int, allowance int, year int) string {
	return fmt.Sprintf("Not done: that would add %s to your vacation, and you have %d of your %s left in %d.", nDays(days), left, nDays(allowance), year)
}

func (English) VacationOverAllowance(days int, left int, allowance int, year int) string {
	return fmt.Sprintf("Not done: that vacation would count %s, and you have %d of your %s left in %d.", nDays(days), left, nDays(allowance), year)
}

func (English) PlayerAway(name string, date string) string {
	return fmt.Sprintf("%s is away until %s; his deadlines wait for him.", name, date)
}

func (English) YouAreAwayUntil(date string, games int, days int, left int, allowance int, year int, held string) string {
	return fmt.Sprintf("You are away until %s. %s: each will have the time it had left, and a decision that comes while you are away gets its full time from your return. This vacation counts %s; you have %d of your %s left in %d. Send back to come back earlier.", date, gamesWord(games), nDays(days), left, nDays(allowance), year) + held
}

func (English) NotOnVacation() string {
	return "You are not on vacation: your deadlines run as usual."
}

func (English) PlayerBackFromVacation(name string) string {
	return fmt.Sprintf("%s is back from vacation; his deadlines run again.", name)
}

func (English) WelcomeBackFromVacation(days int, left int, allowance int, year int, held string) string {
	return fmt.Sprintf("Welcome back: your deadlines run again, each with the time it had when you left (a decision that came while you were away has its full time from now). This vacation counts %s; you have %d of your %s left in %d.", nDays(days), left, nDays(allowance), year) + held
}
