package daemon

import (
	"context"
	"errors"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/pbem/pbem/internal/calendar"
	"github.com/pbem/pbem/internal/playclock"
	"github.com/pbem/pbem/internal/webpage"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// A player's calendar feed (issue 38, part 4): when pbem serves pages,
// each player has one, /c/TOKEN.ics, with the deadlines of the
// decisions he owes in all his games (store.CalendarFeed). His game
// mails link it; `link new` renews its token with the seat's page. It
// is read from the store at each request, so it follows every deadline
// that moves: a move, a vacation, an admin's extend, quiet hours. It
// shows only what his own mails' headlines and deadlines show, and his
// seats' page links: no card, no hand, no money.

// calendarPath and calendarExt make a feed's address: WEBURL/c/TOKEN.ics
// (internal/web serves it).
const (
	calendarPath = "/c/"
	calendarExt  = ".ics"
)

// Calendar is the calendar feed of a feed token, as an iCalendar
// document. A token that is no player's, or a pbem that serves no
// pages, is webpage.ErrNoPage, which the web server answers as any
// unknown address.
func (s *Service) Calendar(ctx context.Context, token string) ([]byte, error) {
	if s.cfg.WebURL == "" {
		return nil, webpage.ErrNoPage
	}
	feed, err := s.store.CalendarFeed(ctx, token)
	if errors.Is(err, store.ErrNotFound) {
		return nil, webpage.ErrNoPage
	}
	if err != nil {
		return nil, err
	}
	host := ""
	if u, err := url.Parse(s.cfg.WebURL); err == nil {
		host = u.Hostname()
	}
	p, err := s.store.Player(ctx, feed.Address)
	if err != nil {
		return nil, err
	}
	// The feed is in its player's language, as his mails.
	w := &work{Service: s, ctx: ctx, words: templates.For(p.Language)}
	events := make([]calendar.Event, 0, len(feed.Decisions))
	for _, d := range feed.Decisions {
		events = append(events, w.calendarEvent(host, playerClock(p, false), d))
	}
	return calendar.Write(calendar.Feed{Name: w.words.CalendarName(s.cfg.Name), Written: s.now(), Events: events})
}

// calendarEvent is the event of one decision the player owes: its
// game's reference, its deadline, the decision's reminder steps as
// alarms, each when its mail is sent (out of his quiet hours, on clock:
// reminderAt), and the seat's page.
func (w *work) calendarEvent(host string, clock playclock.Clock, d store.OwedDecision) calendar.Event {
	ref := templates.ThreadRef(d.Kind, w.gameTitle(d.Kind), d.GameID)
	page := w.pageURL(d.PageToken)
	due := w.words.CalendarDecisionDue(ref)
	return calendar.Event{
		UID:         calendar.UID(host, d.GameID, d.Seat, d.Decision),
		Summary:     due,
		Deadline:    d.Deadline,
		Description: w.words.CalendarEventText(ref, page),
		URL:         page,
		Alarms:      w.alarmLeads(clock, d),
		AlarmText:   due,
	}
}

// calendarURL is the address of the seat's player's calendar feed, for
// the mails of a game in status, making his feed the first time; ""
// when pbem serves no pages, for a bot's seat or one not (or no longer)
// playing, and in a game not going on (inviting, or over), whose mails
// have no deadline of his to follow.
func (w *work) calendarURL(status store.Status, st store.Seat) (string, error) {
	if w.cfg.WebURL == "" || st.Bot != "" || st.State != store.SeatJoined ||
		(status != store.StatusActive && status != store.StatusPaused) {
		return "", nil
	}
	tok, err := w.tx.EnsureCalendarFeed(w.ctx, st.Address)
	if err != nil {
		return "", err
	}
	return feedURL(w.cfg.WebURL, tok), nil
}

// feedURL is the address of the feed of token under the web server's
// base URL.
func feedURL(webURL, token string) string {
	return strings.TrimRight(webURL, "/") + calendarPath + token + calendarExt
}

// alarmLeads are how long before the decision's deadline its reminder
// steps are sent (reminderAt), earliest first, each once: the span of a
// decision in a game with a bank is the bank it began with.
func (w *work) alarmLeads(clock playclock.Clock, d store.OwedDecision) []time.Duration {
	span := w.turnTime(store.Game{TurnTime: d.TurnTime})
	if d.Bank > 0 {
		span = d.Bank
	}
	var out []time.Duration
	for _, l := range w.reminderLeads(span) {
		if lead := d.Deadline.Sub(reminderAt(clock, d.Deadline, l)); !slices.Contains(out, lead) {
			out = append(out, lead)
		}
	}
	return out
}
