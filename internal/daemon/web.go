package daemon

import (
	"strings"

	"github.com/pbem/pbem/internal/loaded"
	"github.com/pbem/pbem/internal/webpage"
	"github.com/pbem/pbem/store"
)

// Pages are the game pages internal/web serves, drawn from the
// service's store (internal/webpage).
func (s *Service) Pages() *webpage.Pages {
	cfg := webpage.Config{Service: s.cfg.Name, Authenticated: s.cfg.TrustAuthServID != "", UndoneKind: string(EventUndone), Changes: s.changes, Now: s.now}
	return webpage.New(cfg, s.store, s.render, s.games, s.post, s.gameTitle)
}

// pageURL is the address of the page of a web link token, "" when pbem
// serves no pages.
func (s *Service) pageURL(token string) string {
	if s.cfg.WebURL == "" || token == "" {
		return ""
	}
	return strings.TrimRight(s.cfg.WebURL, "/") + "/s/" + token
}

// seatPageURL is the seat's page address for its mails, making the seat's
// link the first time; "" when pbem serves no pages or the seat is a
// bot's.
func (w *work) seatPageURL(st store.Seat) (string, error) {
	if w.cfg.WebURL == "" || st.Bot != "" {
		return "", nil
	}
	tok, err := w.tx.EnsureLink(w.ctx, st.GameID, st.Seat)
	if err != nil {
		return "", err
	}
	return w.pageURL(tok), nil
}

// newLink gives the seat's page a new address (`link new`), and the
// player's calendar feed too (calendar.go), which lists the page's link:
// the old links, which may have been passed on, lead nowhere from now
// on. It returns the sentence that tells the player; the mail that
// carries it shows both new links.
func (w *work) newLink(lg *loaded.Game, seat store.Seat) (string, error) {
	if w.cfg.WebURL == "" {
		return w.words.NoWebPagesToRenew(), nil
	}
	if _, err := w.tx.NewLink(w.ctx, lg.Row.ID, seat.Seat); err != nil {
		return "", err
	}
	if url, err := w.calendarURL(lg.Row.Status, seat); err != nil || url == "" {
		// No feed for this seat's mails (calendarURL): only the page.
		return w.words.TableLinkRenewed(), err
	}
	if _, err := w.tx.NewCalendarFeed(w.ctx, seat.Address); err != nil {
		return "", err
	}
	return w.words.TableAndCalendarLinksRenewed(), nil
}

// spectators opens the game's public page (on) or closes it: only the
// game's creator may. The public page shows what the whole table sees.
func (w *work) spectators(lg *loaded.Game, seat store.Seat, on bool) (string, error) {
	switch {
	case w.cfg.WebURL == "":
		return w.words.NoWebPagesForSpectators(), nil
	case store.NormalizeAddress(seat.Address) != store.NormalizeAddress(lg.Row.Creator):
		return w.words.OnlyStarterSetsSpectators(), nil
	case !on:
		if err := w.tx.DropLink(w.ctx, lg.Row.ID, store.PublicLink); err != nil {
			return "", err
		}
		return w.words.ClosedToSpectators(), nil
	}
	tok, err := w.tx.EnsureLink(w.ctx, lg.Row.ID, store.PublicLink)
	if err != nil {
		return "", err
	}
	return w.words.OpenToSpectators(w.pageURL(tok)), nil
}
