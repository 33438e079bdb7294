// The sentences of the calendar feed (internal/daemon/calendar.go) and
// of `link new`, which renews it with the seat's page.

package templates

import "fmt"

// CalendarName is the name calendar programs show for a player's feed.
func (English) CalendarName(service string) string {
	return service + ": your deadlines"
}

// CalendarDecisionDue is an event's title: ref is the game's reference
// ("Felix #12", ThreadRef).
func (English) CalendarDecisionDue(ref string) string {
	return ref + ": your decision is due"
}

// CalendarEventText is an event's description: the event ends at the
// deadline; pageURL is the seat's page, "" when it has none yet.
func (English) CalendarEventText(ref, pageURL string) string {
	if pageURL == "" {
		return fmt.Sprintf("Your decision in %s is due when this event ends. The game's latest mail says what it is.", ref)
	}
	return fmt.Sprintf("Your decision in %s is due when this event ends. Your table on the web, with the whole game: %s", ref, pageURL)
}

// TableAndCalendarLinksRenewed answers `link new`: the seat's page and
// the player's calendar feed, which is one for all his games, have new
// addresses.
func (English) TableAndCalendarLinksRenewed() string {
	return "Your table's web page and your calendar feed, which has the deadlines of all your games, have new addresses, below; the old links no longer work, so subscribe your calendar to the new feed."
}
