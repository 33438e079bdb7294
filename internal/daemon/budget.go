package daemon

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// Buckets of the store's budget table. An invitation's bucket names the
// inviter, so that one inviter's invitations do not use up another's.
const (
	bucketAnswers     = "answers"      // mails about no running game of the address
	bucketLobby       = "lobby"        // lobby commands read from a sender
	bucketBreakerTold = "breaker-told" // admins told that the breaker tripped
	bucketInvitePfx   = "invite:"      // + inviter's mailbox: invitations to a mailbox that never answered
	bucketInvited     = "invited"      // invitations to a mailbox that never answered, from everyone
	bucketNewInvites  = "new-invites"  // invitations sent to mailboxes that never answered
	// The loop breaker's buckets, one for each of an address's
	// threads (breakerThread): its mails answered there, and the
	// notices that pbem holds its answers there.
	bucketExchange = "exchange"     // + breakerThread.suffix
	bucketHeldTold = "breaker-held" // + breakerThread.suffix
)

// Windows of the limits.
const (
	answersWindow   = 24 * time.Hour
	lobbyWindow     = time.Hour
	exchangeWindow  = time.Minute
	breakerTellOnce = time.Hour
	inviteWindow    = 24 * time.Hour
	inviteWeek      = 7 * 24 * time.Hour
)

// serviceKey is the budget key of a limit of the whole service: no
// mailbox's key, which always holds an @.
const serviceKey = "(service)"

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

// breakerThread is where the breaker counts a mail: pbem's own address,
// or one seat's game thread.
type breakerThread struct {
	seat *store.Seat // nil at pbem's own address
}

// suffix names the thread in the budget table's bucket.
func (th breakerThread) suffix() string {
	if th.seat == nil {
		return ""
	}
	return fmt.Sprintf(":%d:%d", th.seat.GameID, th.seat.Seat)
}

// holds reports whether om answers t's sender in this thread: what the
// breaker holds back while it is open.
func (th breakerThread) holds(t *work, om outMail) bool {
	if om.to != t.from || om.admin || om.digest {
		return false
	}
	if om.seat < 0 {
		return true // from pbem's own address
	}
	return th.seat != nil && om.gameID == th.seat.GameID && om.seat == th.seat.Seat
}

// threadOf is the breaker's thread of t's mail: its seat's, when it came
// to a seat's address from the seat's player.
func (w *work) threadOf() (breakerThread, error) {
	if w.token == "" {
		return breakerThread{}, nil
	}
	seat, err := w.tx.SeatByToken(w.ctx, w.token)
	if errors.Is(err, store.ErrNotFound) || (err == nil && seat.Address != w.from) {
		return breakerThread{}, nil // the admins', or refused as not the sender's
	}
	if err != nil {
		return breakerThread{}, err
	}
	return breakerThread{seat: &seat}, nil
}

// loopBreaker counts a mail that was read, once it is handled and before
// its answers are queued, and holds the answers to its sender while the
// breaker of its thread is open (see above).
func (w *work) loopBreaker() error {
	w.loopThread = breakerThread{}
	if w.from == "" || (w.outcome != OutcomeAnswered && w.outcome != OutcomeApplied) {
		return nil // not read: never counted
	}
	th, err := w.threadOf()
	if err != nil {
		return err
	}
	w.loopThread = th
	if th.seat != nil && w.outcome == OutcomeApplied {
		return nil // the game went on: never counted, never held
	}
	var answers []int
	for i, om := range w.mails {
		if th.holds(w, om) {
			answers = append(answers, i)
		}
	}
	if len(answers) == 0 {
		return nil // nothing sent back: no loop through this mail
	}
	limit := w.cfg.Limits.LoopPerMinute
	// Counted for the sender's mailbox: a responder that writes from
	// many spellings of one address is one loop.
	box := w.mailboxOf(w.from)
	n, err := w.tx.Note(w.ctx, box, bucketExchange+th.suffix(), w.now(), exchangeWindow)
	if err != nil || n <= limit {
		return err
	}
	if err := w.hold(answers); err != nil {
		return err
	}
	told, err := w.tx.Spend(w.ctx, box, bucketHeldTold+th.suffix(), w.now(), exchangeWindow, 1)
	if err != nil {
		return err
	}
	if told {
		if err := w.heldNotice(th); err != nil {
			return err
		}
	}
	return w.tellAdminsOfLoop(th)
}

// hold marks the mails of t at the places given as held. A held game
// mail told its seat nothing: the events it would have told are set back
// as not mailed, so that the seat's next mail tells them.
func (w *work) hold(places []int) error {
	type seatKey struct {
		game int64
		seat int
	}
	seen := map[seatKey]int64{} // the earliest seenBefore of each seat's held game mails
	for _, i := range places {
		om := &w.mails[i]
		om.held = true
		w.held++
		if !om.gameMail {
			continue
		}
		k := seatKey{om.gameID, om.seat}
		if before, ok := seen[k]; !ok || om.seenBefore < before {
			seen[k] = om.seenBefore
		}
	}
	for k, before := range seen {
		if err := w.tx.SetSeatLastMailedEvent(w.ctx, k.game, k.seat, before); err != nil {
			return err
		}
	}
	return nil
}

// heldNotice tells t's sender that pbem holds its answers to his mails in
// th, and when it answers again if he sends nothing more.
func (w *work) heldNotice(th breakerThread) error {
	limit := w.cfg.Limits.LoopPerMinute
	// The next mail is answered once fewer than limit are counted.
	at, err := w.tx.FreeAt(w.ctx, w.mailboxOf(w.from), bucketExchange+th.suffix(), w.now(), exchangeWindow, limit)
	if err != nil {
		return err
	}
	wait := max(1, int(at.Sub(w.now()).Round(time.Second)/time.Second))
	seconds := templates.Say.Seconds(wait)
	loop := templates.Say.WhatMailProgramAnswers()
	if th.seat == nil {
		return w.notice(w.from, "", templates.Notice{Kind: templates.NoticeHeld,
			Reason: templates.Say.HoldingAnswersYouAbout(w.cfg.Name, seconds),
			Lines: []string{
				templates.Say.HadAnswerMoreThan(w.cfg.Name, limit, w.cfg.Address, loop, seconds),
				templates.Say.UntilThenStillReads(w.cfg.Name, w.cfg.Address),
			}})
	}
	return w.seatNotice(*th.seat, templates.Notice{Kind: templates.NoticeHeld,
		Reason: templates.Say.HoldingAnswersYouGame(w.cfg.Name, seconds),
		Lines: []string{
			templates.Say.HadAnswerMoreThanMails(w.cfg.Name, limit, loop, seconds),
			templates.Say.MovesStillCountReads(w.cfg.Name),
		}})
}

// tellAdminsOfLoop tells the admins that the breaker holds the answers to
// t's sender, at most once an hour per address.
func (w *work) tellAdminsOfLoop(th breakerThread) error {
	ok, err := w.tx.Spend(w.ctx, w.mailboxOf(w.from), bucketBreakerTold, w.now(), breakerTellOnce, 1)
	if err != nil || !ok {
		return err
	}
	limit := w.cfg.Limits.LoopPerMinute
	where := templates.Say.PbemOwnAddress()
	if th.seat != nil {
		where = templates.Say.ToGame(th.seat.GameID)
	}
	w.log.Warn("loop breaker tripped: pbem holds its answers to an address", "address", w.from, "game", w.gameID, "per_minute", w.cfg.Limits.LoopPerMinute)
	for _, admin := range strings.Split(w.cfg.Admins, ",") {
		admin = store.NormalizeAddress(admin)
		if admin == "" {
			continue
		}
		line := templates.Say.MoreThanMailsFrom(limit, w.from, where)
		// Addressed to the admin, not the sender: admin mail is not
		// budgeted (the admins are configured, not the internet).
		if err := w.adminNotice(admin, templates.Say.MailLoopStopped(), line); err != nil {
			return err
		}
	}
	return nil
}

// allowOut decides whether a mail of this turn may go to om.to, spending
// from the budget of the mailbox it reaches (mailboxOf), whatever
// spelling of it the mail names. To a mailbox that answered pbem
// (answeredBy), a game mail to a seat of a game that runs (or has just
// ended) costs nothing: the player asked for it by playing; nor does a
// digest, which gathers such mails. The answer to a seat's own mail in
// its game's thread costs nothing, whatever the game's state. Everything
// else — answers, help, rules, refusals, invitations, and every mail to
// a mailbox that never answered — comes from the mailbox's daily budget;
// and such a mailbox gets nothing more of a game it was invited to than
// the invitation (unaskedFollowUp). (The loop breaker has held what it
// holds before: loopBreaker.)
func (w *work) allowOut(om outMail) (bool, error) {
	if om.admin {
		return true, nil
	}
	if own := w.loopThread.seat; own != nil && om.to == w.from && om.gameID == own.GameID && om.seat == own.Seat {
		// The answer to a seat's own mail, in its game's thread: only
		// the seat's player, who holds its secret address, can ask for
		// it, so it is not taken from his daily budget, which anyone
		// who writes his address in From can spend. The loop breaker
		// bounds it.
		return true, nil
	}
	box := w.mailboxOf(om.to)
	_, answered, err := w.tx.InviteStatus(w.ctx, box)
	if err != nil {
		return false, err
	}
	switch {
	case answered && om.digest:
		// A digest is the game mails of a player's running games (and
		// of those that ended since his last mail), gathered into one:
		// it costs nothing, like each of them would. It is at most one
		// a day, to a player who asked for it.
		return true, nil
	case answered && om.gameID > 0 && om.seat >= 0:
		g, err := w.tx.Game(w.ctx, om.gameID)
		if err != nil {
			return false, err
		}
		switch g.Status {
		case store.StatusActive, store.StatusPaused, store.StatusFinished:
			return true, nil
		}
	case !answered && !om.invitation && om.gameID > 0 && om.seat >= 0:
		unasked, err := unaskedFollowUp(w.ctx, w.tx, om)
		if err != nil || unasked {
			return false, err
		}
	}
	return w.tx.Spend(w.ctx, box, bucketAnswers, w.now(), answersWindow, w.cfg.Limits.AnswersPerDay)
}

// unaskedFollowUp reports whether om, to a mailbox that never answered,
// is about a game it was invited to and has not joined, other than the
// invitation itself (a decline, an abort): one invitation is one mail.
func unaskedFollowUp(ctx context.Context, tx *store.Tx, om outMail) (bool, error) {
	seat, err := tx.Seat(ctx, om.gameID, om.seat)
	if err != nil {
		return false, err
	}
	return seat.State != store.SeatJoined && seat.State != store.SeatResigned, nil
}

// answeredBy marks t's sender's mailbox as answered when its mail is one
// only the mailbox's owner could have sent: from a seat's own address to
// that seat's reply address (whose token was mailed to that address
// alone), or authenticated by the receiving server when
// trust_authentication_results is set. A forged From proves nothing: a
// mail to pbem's bare address, or a `new` that seats its From as a
// game's creator, does not mark it.
func (w *work) answeredBy(seat *store.Seat) error {
	if seat == nil && w.cfg.TrustAuthServID == "" {
		return nil
	}
	return w.tx.MarkAnswered(w.ctx, w.mailboxOf(w.from), w.now())
}
