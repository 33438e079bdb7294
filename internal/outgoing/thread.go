package outgoing

import (
	"context"
	"net/url"
	"strings"

	"github.com/pbem/pbem/parser"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// One thread per game in every client (docs/mail.md, "Threads"). Every
// mail of one game to one seat — the invitation or the creator's notice,
// which is the thread's root, then joined and declined notices, game
// mails, reminders, and the answers to whatever the player sends to the
// seat's address — has the game's one Subject, and In-Reply-To and
// References naming the root alone: a flat thread of depth one, which
// clients that thread by References (JWZ) and those that group by
// Subject both show as one conversation. What each mail is about is its
// headline, its first line. Replies to older mails are still told from
// replies to the current one by their own In-Reply-To (the daemon's
// stale.go).

// GameThread is what a game's mails share: their Subject and the
// reference every headline starts with ("Felix #12").
type GameThread struct {
	Subject, Ref string
	Game, Title  string // the game's name and title, for notices
}

// Thread returns the thread of game id. Its subject is the one stored
// when the game was made; a game made before subjects were stored gets
// one now, of the names its seats have now, and keeps it from then on
// (store.SetThreadSubject).
func (p *Post) Thread(ctx context.Context, tx *store.Tx, id int64) (GameThread, error) {
	row, err := tx.Game(ctx, id)
	if err != nil {
		return GameThread{}, err
	}
	th := GameThread{Subject: row.ThreadSubject, Game: row.Kind, Title: row.Kind}
	if r, ok := p.games(row.Kind); ok {
		th.Title = r.Title()
	}
	th.Ref = templates.ThreadRef(th.Game, th.Title, id)
	if th.Subject != "" {
		return th, nil
	}
	th.Subject, err = tx.SetThreadSubject(ctx, id, templates.ThreadSubject(th.Game, th.Title, id))
	return th, err
}

// unsubscribeURI is the List-Unsubscribe of seat st's mails (RFC 2369):
// a mail to the seat's own address whose Subject is the command
// UnsubscribeCommand(st), which pbem reads from the Subject of a mail
// with no command in its text (parser.ReadMessage), so that a client's
// one-click "unsubscribe" does what the typed command does.
func (p *Post) unsubscribeURI(st store.Seat) string {
	return "mailto:" + url.PathEscape(p.SeatAddress(st.Token)) + "?subject=" + url.PathEscape(UnsubscribeCommand(st))
}

// Invitation reports whether seat st is an invitation: not yet answered,
// or declined (its mails are the invitation and the decline).
func Invitation(st store.Seat) bool {
	return st.State == store.SeatInvited || st.State == store.SeatDeclined
}

// UnsubscribeCommand is what a client's "unsubscribe" of seat st's mails
// sends, and what their one-click address does (the daemon's
// Service.Unsubscribe): while st is an invitation not yet answered,
// `never`, which declines it and stops every invitation to come (issue
// 37: "stops all invitations"); once its player has joined, `notify off
// here`, which turns that game's mail off and no other's.
func UnsubscribeCommand(st store.Seat) string {
	if Invitation(st) {
		return parser.KindNever.String()
	}
	return strings.Join([]string{parser.KindNotify.String(), string(store.NotifyOff), parser.HereWord}, " ")
}

// OwnMarkers are the starts of the first lines of pbem's mails in a
// game's thread, its headlines: the hosted games' references ("Felix #")
// and reminders'. A reply that copies pbem's mail below its own text
// without quoting it is cut there (parser.ExtractOptions.OwnMarkers), as
// it is at the marker line below the headline. Tools that read a mail as
// pbem does use them too.
func OwnMarkers(names []string, games Lookup) []string {
	// A reminder's headline starts with its prefix in each language.
	markers := templates.ReminderPrefixes()
	for _, name := range names {
		title := name
		if r, ok := games(name); ok {
			title = r.Title()
		}
		markers = append(markers, templates.ShortName(name, title)+" #")
	}
	return markers
}

// ReminderPrefix starts a reminder's headline (templates.Renderer.Game).
const ReminderPrefix = "Reminder:"

// threadedTo reports whether a seat is the one a mail to addr may be
// threaded under: a mail is threaded only to the seat's own player.
func threadedTo(st store.Seat, addr string) bool {
	return strings.EqualFold(st.Address, addr)
}
