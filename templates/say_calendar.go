// The sentences of the calendar feed (internal/daemon/calendar.go) and
// of `link new`, which renews it with the seat's page.

package templates

// CalendarName is the name calendar programs show for a player's feed.
func (e Words) CalendarName(service string) string {
	return e.f("%s: your deadlines", service)
}

// CalendarDecisionDue is an event's title: ref is the game's reference
// ("Felix #12", ThreadRef).
func (e Words) CalendarDecisionDue(ref string) string {
	return e.f("%s: your decision is due", ref)
}

// CalendarEventText is an event's description: the event ends at the
// deadline; pageURL is the seat's page, "" when it has none yet.
func (e Words) CalendarEventText(ref, pageURL string) string {
	if pageURL == "" {
		return e.f("Your decision in %s is due when this event ends. The game's latest mail says what it is.", ref)
	}
	return e.f("Your decision in %s is due when this event ends. Your table on the web, with the whole game: %s", ref, pageURL)
}

// TableAndCalendarLinksRenewed answers `link new`: the seat's page and
// the player's calendar feed, which is one for all his games, have new
// addresses.
func (e Words) TableAndCalendarLinksRenewed() string {
	return e.f("Your table's web page and your calendar feed, which has the deadlines of all your games, have new addresses, below; the old links no longer work, so subscribe your calendar to the new feed.")
}
