package outgoing

import (
	"errors"
	"fmt"
	"time"

	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// The loop breaker stops a mail loop with a program that answers pbem's
// mails by itself and marks its mail in no way parser.Automatic knows:
// pbem answers, the program answers that, and so on. It limits what pbem
// sends, never what it reads: every mail is read and acted on, and a
// seat's moves are always played. What it counts, for each address and
// each of its threads apart (pbem's own address, and each seat's game
// address), is the mails from it that pbem read there and answers there:
//
//   - at pbem's own address, every such mail;
//   - at a seat's address, from the seat's player, those that changed
//     nothing in the game (outcome answered): a move, a join, an undo or
//     a say is the game going on, and never counts nor is held.
//
// Mail pbem does not read never counts: automatic mail, mail refused
// unread (a hostile shape, a sender not authenticated when
// trust_authentication_results is set, a From that is not one address,
// a token that is not the sender's), so that nobody can open another's
// breaker by forging his address. Only the sender's own answers in the
// thread are held; mail to the other players is the game's.
//
// When more than LoopPerMinute mails were counted in a thread within a
// minute, the answers to the mail just read are held (not written), and
// the sender is told so once a minute at most, with when pbem answers
// again; the admins are told once an hour. The held mails count too, so
// that the breaker stays open while the flood goes on and closes a
// minute after it stops. A loop ends there: a program that answers mail
// gets none.

// LoopThread is where the breaker counts a mail: pbem's own address, or
// one seat's game thread.
type LoopThread struct {
	seat *store.Seat // nil at pbem's own address
}

// suffix names the thread in the budget table's bucket.
func (th LoopThread) suffix() string {
	if th.seat == nil {
		return ""
	}
	return fmt.Sprintf(":%d:%d", th.seat.GameID, th.seat.Seat)
}

// holds reports whether om answers u's sender in this thread: what the
// breaker holds back while it is open.
func (th LoopThread) holds(u Unit, om Mail) bool {
	if om.To != u.From || om.Admin || om.Digest {
		return false
	}
	if om.Seat < 0 {
		return true // from pbem's own address
	}
	return th.seat != nil && om.GameID == th.seat.GameID && om.Seat == th.seat.Seat
}

// loopThreadOf is the breaker's thread of a mail from u's sender to
// token: its seat's, when it came to a seat's address from the seat's
// player.
func loopThreadOf(u Unit, token string) (LoopThread, error) {
	if token == "" {
		return LoopThread{}, nil
	}
	seat, err := u.Tx.SeatByToken(u.Ctx, token)
	if errors.Is(err, store.ErrNotFound) || (err == nil && seat.Address != u.From) {
		return LoopThread{}, nil // the admins', or refused as not the sender's
	}
	if err != nil {
		return LoopThread{}, err
	}
	return LoopThread{seat: &seat}, nil
}

// BreakLoop counts a mail from u's sender to token, once it is handled
// and before its answers are queued, and holds the answers to its sender
// while the breaker of its thread is open (see above). read says pbem
// read the mail (only a mail read counts), applied that it changed
// something.
func (p *Post) BreakLoop(u Unit, token string, read, applied bool) error {
	u.Out.loop = LoopThread{}
	if u.From == "" || !read {
		return nil // not read: never counted
	}
	th, err := loopThreadOf(u, token)
	if err != nil {
		return err
	}
	u.Out.loop = th
	if th.seat != nil && applied {
		return nil // the game went on: never counted, never held
	}
	var answers []int
	for i, om := range u.Out.list {
		if th.holds(u, om) {
			answers = append(answers, i)
		}
	}
	if len(answers) == 0 {
		return nil // nothing sent back: no loop through this mail
	}
	limit := p.cfg.LoopPerMinute
	// Counted for the sender's mailbox: a responder that writes from
	// many spellings of one address is one loop.
	box := p.MailboxOf(u.From)
	n, err := u.Tx.Note(u.Ctx, box, bucketExchange+th.suffix(), p.now(), exchangeWindow)
	if err != nil || n <= limit {
		return err
	}
	if err := p.hold(u, answers); err != nil {
		return err
	}
	told, err := u.Tx.Spend(u.Ctx, box, bucketHeldTold+th.suffix(), p.now(), exchangeWindow, 1)
	if err != nil {
		return err
	}
	if told {
		if err := p.heldNotice(u, th); err != nil {
			return err
		}
	}
	return p.tellAdminsOfLoop(u, th)
}

// hold marks the unit's mails at the places given as held. A held game
// mail told its seat nothing: the events it would have told are set back
// as not mailed, so that the seat's next mail tells them.
func (p *Post) hold(u Unit, places []int) error {
	type seatKey struct {
		game int64
		seat int
	}
	seen := map[seatKey]int64{} // the earliest SeenBefore of each seat's held game mails
	for _, i := range places {
		om := &u.Out.list[i]
		om.held = true
		u.Out.held++
		if !om.GameMail {
			continue
		}
		k := seatKey{om.GameID, om.Seat}
		if before, ok := seen[k]; !ok || om.SeenBefore < before {
			seen[k] = om.SeenBefore
		}
	}
	for k, before := range seen {
		if err := u.Tx.SetSeatLastMailedEvent(u.Ctx, k.game, k.seat, before); err != nil {
			return err
		}
	}
	return nil
}

// heldNotice tells u's sender that pbem holds its answers to his mails
// in th, and when it answers again if he sends nothing more.
func (p *Post) heldNotice(u Unit, th LoopThread) error {
	limit := p.cfg.LoopPerMinute
	// The next mail is answered once fewer than limit are counted.
	at, err := u.Tx.FreeAt(u.Ctx, p.MailboxOf(u.From), bucketExchange+th.suffix(), p.now(), exchangeWindow, limit)
	if err != nil {
		return err
	}
	say, err := wordsOf(u, u.From)
	if err != nil {
		return err
	}
	wait := max(1, int(at.Sub(p.now()).Round(time.Second)/time.Second))
	seconds := say.Seconds(wait)
	loop := say.LooksLikeAutoResponder()
	if th.seat == nil {
		return p.Notice(u, u.From, "", templates.Notice{Kind: templates.NoticeHeld,
			Reason: say.AnswersHeld(p.cfg.Name, seconds),
			Lines: []string{
				say.TooManyMailsToOwnAddress(p.cfg.Name, limit, p.cfg.Address, loop, seconds),
				say.StillActsOnYourMail(p.cfg.Name, p.cfg.Address),
			}})
	}
	return p.SeatNotice(u, *th.seat, templates.Notice{Kind: templates.NoticeHeld,
		Reason: say.GameAnswersHeld(p.cfg.Name, seconds),
		Lines: []string{
			say.TooManyIdleMailsToGame(p.cfg.Name, limit, loop, seconds),
			say.MovesStillCount(p.cfg.Name),
		}})
}

// tellAdminsOfLoop tells the admins that the breaker holds the answers
// to u's sender, at most once an hour per address.
func (p *Post) tellAdminsOfLoop(u Unit, th LoopThread) error {
	ok, err := u.Tx.Spend(u.Ctx, p.MailboxOf(u.From), bucketBreakerTold, p.now(), breakerTellOnce, 1)
	if err != nil || !ok {
		return err
	}
	limit := p.cfg.LoopPerMinute
	where := templates.Say.ToOwnAddress()
	if th.seat != nil {
		where = templates.Say.ToGame(th.seat.GameID)
	}
	p.log.Warn("loop breaker tripped: pbem holds its answers to an address", "address", u.From, "game", u.GameID, "per_minute", limit)
	for _, admin := range p.cfg.Admins {
		line := templates.Say.AnswersHeldForAddress(limit, u.From, where)
		// Addressed to the admin, not the sender: admin mail is not
		// limited (the admins are configured, not the internet).
		if err := p.AdminNotice(u, admin, templates.Say.MailLoopStopped(), line); err != nil {
			return err
		}
	}
	return nil
}
