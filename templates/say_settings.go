// The sentences of internal/daemon/settings.go.

package templates

import (
	"time"
)

func (e Words) ConfirmIsOn() string {
	return e.f("From now on every mail of yours whose commands pbem applies is answered.")
}

func (e Words) ConfirmIsOff() string {
	return e.f("From now on a mail of yours whose commands pbem applies is answered only when there is more to say: your next decision, a result, or a command that was not applied. Errors are always answered.")
}

func (e Words) UnknownTimeZone(arg string) string {
	return e.f("%q is not a time zone pbem knows. Use a name such as Europe/Berlin, America/New_York, Asia/Tokyo or UTC.", arg)
}

func (e Words) TimeZoneSet(loc *time.Location, date string) string {
	return e.f("Your deadlines are now shown in %s (it is %s there now).", loc, date)
}

func (e Words) ClockLayout() string {
	return e.f("Mon 2 Jan 15:04 MST")
}

func (e Words) NotifyNormalSet() string {
	return e.f("From now on you get a mail when you must decide, when a round or a session is decided, when a game starts and ends, and an answer to each of your mails.")
}

func (e Words) NotifyAllSet() string {
	return e.f("From now on you get a mail whenever something happens in your games.")
}

func (e Words) NotifyTurnsSet() string {
	return e.f("From now on you get a mail only when you must decide, when a game starts and ends, and an answer to each of your mails.")
}

func (e Words) NotifyDigestSet(hour int, loc *time.Location, date string) string {
	return e.f("From now on you get at most one mail a day about your games, at %02d:00 %s (the first on %s), and the last reminder before a deadline. Answers to your own mail still come at once.", hour, loc, date)
}

func (e Words) DayLayout() string {
	return e.f("Mon 2 Jan")
}

func (e Words) NotifyOffSet() string {
	return e.f("From now on you get mail only in answer to your own mail, the last reminder before a deadline, pokes from the other players, and the end of a game. Send `status` to see a game.")
}

// GameNotifySet answers `notify SETTING here`: what the player gets about
// this game from now on (wants and notifyFor in internal/daemon: the
// start is named only while it is to come), and that his other games keep
// his own setting, yours.
func (e Words) GameNotifySet(setting string, beforeStart bool, yours string) string {
	switch {
	case setting == "all":
		return e.f("From now on you get a mail whenever something happens in this game. Your other games keep your own setting, `notify %s`.", yours)
	case setting == "off":
		return e.f("From now on you get mail about this game only in answer to your own mail, the last reminder before a deadline, pokes from the other players, and when it ends. Your other games keep your own setting, `notify %s`.", yours)
	case setting == "turns" && beforeStart:
		return e.f("From now on you get mail about this game only when you must decide, when it starts and when it ends, and an answer to each of your mails. Your other games keep your own setting, `notify %s`.", yours)
	case setting == "turns":
		return e.f("From now on you get mail about this game only when you must decide, when it ends, and an answer to each of your mails. Your other games keep your own setting, `notify %s`.", yours)
	case beforeStart: // normal
		return e.f("From now on you get mail about this game when you must decide, when a round or a session is decided, when it starts and when it ends, and an answer to each of your mails. Your other games keep your own setting, `notify %s`.", yours)
	}
	return e.f("From now on you get mail about this game when you must decide, when a round or a session is decided, when it ends, and an answer to each of your mails. Your other games keep your own setting, `notify %s`.", yours)
}

// NotifyHereNeedsGameThread answers `notify SETTING here` at pbem's own
// address, which is no game's.
func (e Words) NotifyHereNeedsGameThread(text string) string {
	return e.f("Not done: %s: here means the game of the thread you reply in. Send it in reply to a mail of that game, or without here for all your games.", text)
}

func (e Words) RematchAlreadyStarted() string {
	return e.f("Not done: rematch: each player starts at most one rematch of a game, and you have started one of this game already.")
}

// QuietSet answers `quiet FROM-TO`; movesFor is what happens when a
// deadline passes ("pbem's bot moves for you").
func (e Words) QuietSet(start, end int, loc *time.Location, movesFor string) string {
	return e.f("Your quiet hours are now %02d:00 to %02d:00, %s time. No deadline of yours ends inside them: one that would ends at %02d:00. pbem sends you no reminder inside them (a reminder due then comes before they start), and when your time runs out, %s only outside them.",
		start, end, loc, end, movesFor)
}

// QuietOff answers `quiet off`.
func (e Words) QuietOff() string {
	return e.f("Your quiet hours are off: your deadlines end when your time runs out, at any hour, and reminders come at any hour.")
}

// DeadlinesMovedOutOfQuiet follows the answer to `quiet` or `timezone`
// when the new hours held some of the player's deadlines.
func (e Words) DeadlinesMovedOutOfQuiet(n int) string {
	switch n {
	case 0:
		return e.f("")
	case 1:
		return e.f(" One of your deadlines fell inside your quiet hours (or on a weekend its game takes off): it now ends when they end.")
	}
	return e.f(" %d of your deadlines fell inside your quiet hours (or on a weekend their game takes off): each now ends when they end.", n)
}

// YourQuietHours is said in a player's first mail of each game.
func (e Words) YourQuietHours(start, end int, loc *time.Location) string {
	return e.f("Your quiet hours are %02d:00 to %02d:00, %s time: no deadline of yours ends inside them, and pbem sends you no reminder and makes no move for you inside them. Change them with quiet 23-7, or turn them off with quiet off.", start, end, loc)
}

// YourQuietHoursOff is YourQuietHours for a player who turned them off.
func (e Words) YourQuietHoursOff() string {
	return e.f("Your quiet hours are off: your deadlines may end at any hour. Turn them on with quiet 22-8.")
}

// DeadlineAfterQuiet explains a deadline at the end of the reader's quiet
// hours; at is its time of day.
func (e Words) DeadlineAfterQuiet(at string) string {
	return e.f("Your deadline is at %s, when your quiet hours end: a deadline of yours that would end inside them ends then.", at)
}

// DeadlineAfterWeekend explains a deadline when the weekend ends, in a
// game with weekends off; at is its time of day.
func (e Words) DeadlineAfterWeekend(at string) string {
	return e.f("Your deadline is at %s, when your weekend ends: this game's clocks stop on Saturday and Sunday.", at)
}

// TimeOfDayLayout writes a time of day: "08:00".
func (e Words) TimeOfDayLayout() string {
	return e.f("15:04")
}

// AskTimeZone asks, once, a player whose deadlines are shown in UTC
// whether he lives elsewhere; guess is the zone his mail's Date suggests,
// or "".
func (e Words) AskTimeZone(guess string) string {
	if guess != "" {
		return e.f("Your deadlines and quiet hours are in UTC. If you live elsewhere, send timezone and your zone: your mail's clock suggests timezone %s.", guess)
	}
	return e.f("Your deadlines and quiet hours are in UTC. If you live elsewhere, send timezone and your zone, such as timezone Europe/Berlin.")
}
