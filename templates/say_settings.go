// The sentences of internal/daemon/settings.go.

package templates

import (
	"fmt"
	"time"
)

func (English) ConfirmIsOn() string {
	return "From now on every mail of yours whose commands pbem applies is answered."
}

func (English) ConfirmIsOff() string {
	return "From now on a mail of yours whose commands pbem applies is answered only when there is more to say: your next decision, a result, or a command that was not applied. Errors are always answered."
}

func (English) UnknownTimeZone(arg string) string {
	return fmt.Sprintf("%q is not a time zone pbem knows. Use a name such as Europe/Berlin, America/New_York, Asia/Tokyo or UTC.", arg)
}

func (English) TimeZoneSet(loc *time.Location, date string) string {
	return fmt.Sprintf("Your deadlines are now shown in %s (it is %s there now).", loc, date)
}

func (English) ClockLayout() string {
	return "Mon 2 Jan 15:04 MST"
}

func (English) NotifyNormalSet() string {
	return "From now on you get a mail when you must decide, when a round or a session is decided, when a game starts and ends, and an answer to each of your mails."
}

func (English) NotifyAllSet() string {
	return "From now on you get a mail whenever something happens in your games."
}

func (English) NotifyTurnsSet() string {
	return "From now on you get a mail only when you must decide, when a game starts and ends, and an answer to each of your mails."
}

func (English) NotifyDigestSet(hour int, loc *time.Location, date string) string {
	return fmt.Sprintf("From now on you get at most one mail a day about your games, at %02d:00 %s (the first on %s), and the last reminder before a deadline. Answers to your own mail still come at once.", hour, loc, date)
}

func (English) DayLayout() string {
	return "Mon 2 Jan"
}

func (English) NotifyOffSet() string {
	return "From now on you get mail only in answer to your own mail, the last reminder before a deadline, pokes from the other players, and the end of a game. Send `status` to see a game."
}

func (English) RematchAlreadyStarted() string {
	return "Not done: rematch: each player starts at most one rematch of a game, and you have started one of this game already."
}
