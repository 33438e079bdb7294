package daemon

import (
	"fmt"
	"slices"
	"time"

	"github.com/pbem/pbem/internal/outgoing"
	"github.com/pbem/pbem/internal/timebank"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/bot"
	"github.com/pbem/pbem/internal/loaded"
	"github.com/pbem/pbem/parser"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// settle saves the game after moves were applied, moves its deadlines and
// mails every seat whose view changed. why is what made the table change;
// actor is the seat whose mail (or deadline) caused it, who always gets an
// answer (-1: none); intro is what to tell him.
func (w *work) settle(lg *loaded.Game, why settleReason, actor int, intro []string) error {
	if err := w.autoplay(lg); err != nil {
		return err
	}
	if err := lg.SaveSnapshot(w.ctx, w.tx); err != nil {
		return err
	}
	res := lg.State.Result()
	if res.Finished && lg.Row.Status != store.StatusFinished {
		if err := w.tx.SetGameStatus(w.ctx, lg.Row.ID, store.StatusFinished); err != nil {
			return err
		}
		lg.Row.Status = store.StatusFinished
		if err := w.rateGame(lg, res); err != nil {
			return err
		}
	}
	if err := w.moveDeadlines(lg); err != nil {
		return err
	}
	kind := templates.MailTurn
	switch {
	case res.Finished:
		kind = templates.MailEnd
	case why == settleStart:
		kind = templates.MailStart
	}
	// The seats (fresh deadlines and threads) and the events are read
	// once for every seat's mail (settleread.go).
	seats, err := w.seatsNow(lg)
	if err != nil {
		return err
	}
	rows, players, err := w.settleReads(lg, seats, kind, actor, intro)
	if err != nil {
		return err
	}
	all := newEventLog(rows, w.phrases)
	for i, before := range lg.Seats {
		if err := w.settleSeat(lg, why, actor, intro, kind, before, seats[i], all, players); err != nil {
			return err
		}
	}
	return nil
}

// settleSeat mails one seat what settle did, if it is for him: before is
// the seat as it was when the table was loaded, st as it is now, all the
// events since the oldest last mail of the seats settle may mail, and
// players the seats' players.
func (w *work) settleSeat(lg *loaded.Game, why settleReason, actor int, intro []string, kind templates.MailKind, before, st store.Seat, all *eventLog, players map[string]store.Player) error {
	end := kind == templates.MailEnd
	if !hearsOf(st, end, actor, intro) {
		return nil
	}
	evs, happened := all.since(st.LastMailedEvent, st.Seat)
	confirmOnly := why == settleConfirm
	if st.Seat == actor && !(confirmOnly && !w.confirmsOf(players, st)) {
		if kind == templates.MailTurn && confirmOnly && !waitsOn(lg, st.Seat) && !hasResult(lg.Rules, st.Seat, happened) {
			// His moves were applied and nothing more is asked of him:
			// a few lines say so, without the table, which his next
			// game mail shows.
			return w.shortAnswer(lg, st, intro, evs, happened)
		}
		return w.mailSeat(lg, st, kind, intro, evs, happened)
	}
	p, err := w.playerOf(players, st.Address)
	if err != nil {
		return err
	}
	reason := mailReason{
		start:    why == settleStart,
		end:      end,
		decision: st.Decision != before.Decision && !st.Deadline.IsZero(),
		result:   hasResult(lg.Rules, st.Seat, happened),
		news:     len(happened) > 0,
	}
	if !wants(notifyFor(p, st), reason) {
		return nil
	}
	if st.Seat != actor {
		intro = nil
	} // else confirm off, and the mail has more to say than the confirmation: it says that too
	return w.mailSeat(lg, st, kind, intro, evs, happened)
}

// waitsOn reports whether the game waits on seat.
func waitsOn(lg *loaded.Game, seat int) bool {
	return lg.Row.Status == store.StatusActive && slices.Contains(lg.State.Waiting(), seat)
}

// shortAnswer answers a player whose moves were applied when nothing more
// is asked of him (issue 25): what was applied, what he may see of what
// happened since his last mail (his moves' consequences, others' moves),
// and whom the game waits for now. Every line is one his game mail would
// hold, so it tells nothing it would not; the events it tells are marked
// mailed, so that his next mail does not tell them twice.
func (w *work) shortAnswer(lg *loaded.Game, st store.Seat, intro []string, evs []store.Event, happened []engine.Event) error {
	if len(evs) > 0 {
		if err := w.tx.SetSeatLastMailedEvent(w.ctx, lg.Row.ID, st.Seat, evs[len(evs)-1].ID); err != nil {
			return err
		}
	}
	lines := append([]string(nil), intro...)
	for _, e := range happened {
		lines = append(lines, "- "+e.Text)
	}
	var waiting []string
	for _, seatNo := range lg.State.Waiting() {
		waiting = append(waiting, lg.Names[seatNo])
	}
	if len(waiting) > 0 {
		lines = append(lines, w.words.NextWaitsFor(waiting))
	}
	if lg.Row.Bank.On() && lg.Row.Status == store.StatusActive {
		// What his move left on his clock: the game mail would say it.
		cur, err := w.tx.Seat(w.ctx, lg.Row.ID, st.Seat)
		if err != nil {
			return err
		}
		c, err := timebank.SeatClock(w.ctx, w.tx, lg.Row, cur, w.now())
		if err != nil {
			return err
		}
		line := w.words.YourClock(w.words.ClockDuration(c.Left), c.Running)
		if c.Autopilot {
			line = w.words.YourClockIsOut()
		}
		lines = append(lines, line)
	}
	return w.seatNotice(st, templates.Notice{Kind: templates.NoticeApplied, Game: lg.Rules.Name(), Title: lg.Rules.Title(),
		GameID: lg.Row.ID, Lines: lines, Waiting: waiting})
}

// mailReason is what a settle did that may concern a seat.
type mailReason struct {
	start    bool // the game has just started
	end      bool // the game is over
	decision bool // the game waits on the seat afresh: a new decision
	result   bool // a round or session was decided, in events the seat may see
	news     bool // anything happened that the seat may see
}

// wants reports whether a player with setting n is mailed for why, when
// the mail is not an answer to his own. docs/playing.md's "Which mails you get"
// says the same in words; TestMailCounts and TestPropertyNoIdleMail
// measure it.
func wants(n store.Notify, why mailReason) bool {
	switch n {
	case store.NotifyAll:
		return why.news || why.start || why.end
	case store.NotifyTurns:
		return why.decision || why.start || why.end
	case store.NotifyDigest:
		return false // the day's digest tells it, the end too (digest.go)
	case store.NotifyOff:
		return why.end
	}
	// store.NotifyNormal, and any value a newer pbem wrote.
	return why.decision || why.result || why.start || why.end
}

// hasResult reports whether one of the events seat may see decides a
// round or a session, or is one of the service's announcements that
// change the game for everyone: an admin's act, a resignation, a seat
// put on autopilot or taken back, a player away on vacation (or back), a
// new name at the table, a move taken back or an undo ended, or pbem's default move for the seat itself when
// its deadline passed. (That pbem moved for another player waits for the
// next mail, and so do the moves autopilot makes: the player is away, and
// each would be a mail.)
func hasResult(r engine.Rules, seat int, happened []engine.Event) bool {
	for _, e := range happened {
		switch EventKind(e.Kind) {
		case EventAdmin, EventResign, EventRename, EventAutopilot, EventAutopilotOff, EventVacation, EventUndone, EventUndoEnded:
			return true
		case EventDefault:
			if e.To == seat {
				return true
			}
			continue
		case EventStart, EventAutoplay:
			continue
		case EventSay, EventPoke, EventUndoAsked:
			continue // table talk and undo questions have their own mail (deliverTalk)
		}
		if engine.IsResult(r, e.Kind) {
			return true
		}
	}
	return false
}

// confirms reports whether the seat's player wants his applied commands
// confirmed (confirm on, the default). A player the store cannot read is
// answered: an answer too many is better than a silent move.
func (w *work) confirms(st store.Seat) bool {
	return w.confirmsOf(nil, st)
}

// confirmsOf is confirms with the seats' players read already (settle).
func (w *work) confirmsOf(players map[string]store.Player, st store.Seat) bool {
	p, err := w.playerOf(players, st.Address)
	return err != nil || p.Confirm
}

// maxAutoplay bounds the moves autoplay makes in one transaction: more
// than any game of pbem's lasts, so that a game whose machine moves never
// end it cannot hold the turn loop.
const maxAutoplay = 10000

// autoplay moves for every seat the game waits on that nobody answers
// for: bot seats (their bot), resigned seats and seats on autopilot (the
// stand-in, standin.go). It does so at once and in the same transaction
// as the move that made the game wait on them, so that nobody waits for a
// bot or a deadline sweep.
func (w *work) autoplay(lg *loaded.Game) error {
	if !anyonePlays(lg) {
		// Everyone resigned: nobody waits for these moves, and playing
		// the rest of the game here, a search for every bot move, would
		// hold this one transaction for seconds. moveDeadlines makes
		// each move due at once instead, and the deadline sweep makes
		// them one transaction each (defaultMove).
		return nil
	}
	for n := 0; lg.Row.Status == store.StatusActive; n++ {
		seat, forced := -1, ""
		for _, p := range lg.State.Waiting() {
			st := lg.Seats[p]
			if cmd, ok := engine.ForcedCommand(lg.State, p); ok {
				// The rules leave the seat one move, and the table
				// knows it: asking would cost its player a mail and
				// everyone a wait, and making it tells nobody anything.
				seat, forced = p, cmd
				break
			}
			if st.Bot != "" || st.State == store.SeatResigned {
				seat = p
				break
			}
			if _, ok := lg.State.Default(p); ok && st.Autopilot {
				// A seat on autopilot without a default move waits
				// for its deadline like any other.
				seat = p
				break
			}
		}
		if seat < 0 {
			return nil
		}
		if n >= maxAutoplay {
			return fmt.Errorf("daemon: game %d: %d moves for bot seats, resigned seats or seats on autopilot and still waiting on one", lg.Row.ID, n)
		}
		st := lg.Seats[seat]
		if forced != "" {
			if err := w.forcedMove(lg, seat, forced); err != nil {
				return err
			}
			continue
		}
		var cmd engine.Command
		var ok bool
		var err error
		if st.Bot != "" {
			cmd, ok, err = w.botMove(lg, seat, bot.Level(st.Bot))
		} else {
			cmd, ok, err = w.standInMove(lg, seat)
		}
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("daemon: game %d waits on seat %d but has no move for it", lg.Row.ID, seat)
		}
		events, err := lg.State.Apply(seat, cmd)
		if err != nil {
			// Never the reason's words: they may name the seat's cards.
			return fmt.Errorf("daemon: game %d: pbem's move %q for seat %d is illegal", lg.Row.ID, cmd.Name, seat)
		}
		var notes []engine.Event
		if st.Autopilot && st.State != store.SeatResigned && st.Bot == "" {
			// The player may come back and read it: he alone learns
			// which move pbem made, as it may be a hidden card.
			notes = []engine.Event{said(seat, EventAutoplay, templates.Say.AutopilotMovedForYou(w.standIn().movedForYou(), cmd.Text),
				templates.Phrases.AutopilotMovedForYou(w.standIn().movedForYouP(), cmd.Text))}
		}
		if err := w.recordMachine(lg, seat, cmd, notes, events); err != nil {
			return err
		}
	}
	return nil
}

// forcedMove makes the one move the rules leave seat, as the table
// knows (engine.Forcing), and records it as the seat's own: the
// transcript holds it as his line, and replaying it checks it like any.
// The seat alone is told which move it was, in its next mail: the others
// read the engine's public words ("bob puts a card face down"), as for
// a move he sent.
func (w *work) forcedMove(lg *loaded.Game, seat int, text string) error {
	cmd, err := engine.ParseCommand(lg.Rules.Specs(), lg.Names, text)
	if err != nil {
		return fmt.Errorf("daemon: game %d: the forced move of seat %d does not read: %w", lg.Row.ID, seat, err)
	}
	events, err := lg.State.Apply(seat, cmd)
	if err != nil {
		// Never the reason's words: they may name the seat's cards.
		return fmt.Errorf("daemon: game %d: the forced move %q of seat %d is illegal", lg.Row.ID, cmd.Name, seat)
	}
	note := said(seat, EventForced, templates.Say.OnlyMoveMadeForYou(cmd.Text), templates.Phrases.OnlyMoveMadeForYou(cmd.Text))
	return w.recordMachine(lg, seat, cmd, []engine.Event{note}, events)
}

// anyonePlays reports whether a person still plays the game: a seat
// that is neither a bot's nor resigned (one on autopilot may come back).
func anyonePlays(lg *loaded.Game) bool {
	for _, st := range lg.Seats {
		if st.Bot == "" && st.State != store.SeatResigned {
			return true
		}
	}
	return false
}

// moveDeadlines gives every seat the game now waits on a deadline (a
// fresh one if it just acted) and clears the others'.
func (w *work) moveDeadlines(lg *loaded.Game) error {
	if lg.Row.Status == store.StatusPaused {
		return nil // deadlines stand still; resume gives fresh ones
	}
	waiting := map[int]bool{}
	if lg.Row.Status == store.StatusActive {
		for _, p := range lg.State.Waiting() {
			waiting[p] = true
		}
	}
	// Each seat's deadline work writes its own row alone: one read of
	// the seats serves them all.
	seats, err := w.seatsNow(lg)
	if err != nil {
		return err
	}
	for i, st := range lg.Seats {
		cur := seats[i]
		if lg.Acted[st.Seat] || !waiting[st.Seat] {
			// The seat's decision, if it had one, ends now.
			if cur, err = w.endDecision(lg, cur); err != nil {
				return err
			}
		}
		switch {
		case waiting[st.Seat] && (cur.State == store.SeatResigned || cur.Autopilot || cur.Bot != ""):
			// Nobody will answer for the seat: its default move is due
			// now. (autoplay makes it at once; this is for a game that
			// waits on a resigned seat or one on autopilot for another
			// reason, such as a resume.)
			if cur.Deadline.IsZero() || cur.Deadline.After(w.now()) {
				if err := w.tx.SetDeadline(w.ctx, lg.Row.ID, st.Seat, w.now().Truncate(time.Second)); err != nil {
					return err
				}
			}
		case waiting[st.Seat] && (cur.Deadline.IsZero() || lg.Acted[st.Seat]):
			// The game waits on the seat afresh: a new decision, which
			// makes replies to the seat's earlier mails stale.
			if err := w.startDecision(lg.Row, st.Seat); err != nil {
				return err
			}
		case !waiting[st.Seat] && !cur.Deadline.IsZero():
			if err := w.tx.ClearDeadline(w.ctx, lg.Row.ID, st.Seat); err != nil {
				return err
			}
		}
	}
	return nil
}

// gameMail mails a seat its personal summary: what happened since its last
// mail, the table as it may see it, and what it can do. always mails even
// when nothing happened (a reply to the seat's own mail).
func (w *work) gameMail(lg *loaded.Game, st store.Seat, kind templates.MailKind, intro []string, always bool) error {
	evs, err := w.tx.Events(w.ctx, lg.Row.ID, st.LastMailedEvent)
	if err != nil {
		return err
	}
	happened := visible(evs, st.Seat)
	if len(happened) == 0 && !always {
		return nil
	}
	return w.mailSeat(lg, st, kind, intro, evs, happened)
}

// mailSeat mails a seat its summary of evs, the events since its last
// mail (happened: those it may see), and marks them mailed.
func (w *work) mailSeat(lg *loaded.Game, st store.Seat, kind templates.MailKind, intro []string, evs []store.Event, happened []engine.Event) error {
	if len(evs) > 0 {
		if err := w.tx.SetSeatLastMailedEvent(w.ctx, lg.Row.ID, st.Seat, evs[len(evs)-1].ID); err != nil {
			return err
		}
	}
	return w.renderGameMail(lg, st, kind, intro, happened, false)
}

// renderGameMail renders and queues one game mail to a seat.
// whole says that happened is the whole game so far, not what happened
// since the seat's last mail.
func (w *work) renderGameMail(lg *loaded.Game, st store.Seat, kind templates.MailKind, intro []string, happened []engine.Event, whole bool) error {
	p, err := w.tx.Player(w.ctx, st.Address)
	if err != nil {
		return err
	}
	loc, err := time.LoadLocation(p.TimeZone)
	if err != nil {
		loc = time.UTC
	}
	th, err := w.thread(lg.Row.ID)
	if err != nil {
		return err
	}
	say := templates.For(p.Language)
	intro = append(w.firstAnswerNote(st.Address), intro...)
	if kind == templates.MailStart {
		happened = startFirst(happened)
		intro = append(intro, w.timeSentence(lg.Row, say), quietSentence(p))
		if line, err := w.askZone(p); err != nil {
			return err
		} else if line != "" {
			intro = append(intro, line)
		}
		if line := botsSentence(lg, say); line != "" {
			intro = append(intro, line)
		}
	}
	if line, err := w.deadlineNote(lg.Row, st, say); err != nil {
		return err
	} else if line != "" {
		intro = append(intro, line)
	}
	if lg.Row.Status == store.StatusInviting && kind != templates.MailEnd {
		intro = append(intro, notActive(lg, st.Seat, say))
	}
	// The mail's id is known now, as enqueue will derive it (the next
	// of the turn's mails), so that its one-tap links can name it.
	id := w.post.NextID(w.unit())
	m := templates.GameMail{
		Language: p.Language, Service: w.cfg.Name, Marker: parser.ReplyMarker, GameID: lg.Row.ID, Game: lg.Rules.Name(), Title: lg.Rules.Title(),
		Reader: st.Name, Intro: intro, Happened: happened, View: lg.State.View(st.Seat),
		Deadline: st.Deadline, Location: loc, Kind: kind, WholeHistory: whole, ThreadSubject: th.Subject,
		ReplyAddress: w.post.SeatAddress(st.Token), MessageID: id, RefLine: parser.RefLine(outgoing.RefOf(id)),
		SharedMailbox: w.sharedMailboxFor(lg, st, kind),
	}
	if m.PageURL, err = w.seatPageURL(st); err != nil {
		return err
	}
	if m.CalendarURL, err = w.calendarURL(lg.Row.Status, st); err != nil {
		return err
	}
	if lg.Row.Status == store.StatusActive {
		m.Options = lg.State.Options(st.Seat)
	}
	var now []store.Seat // this turn's decisions: since when the game waits on each
	if lg.Row.Status != store.StatusInviting {
		if now, err = w.tx.Seats(w.ctx, lg.Row.ID); err != nil {
			return err
		}
	}
	lg.Standing().Mail(&m, now, w.standIn().in(say).playsForThem())
	if m.Clocks, err = timebank.Clocks(w.ctx, w.tx, lg.Row, now, w.now()); err != nil {
		return err
	}
	if c, ok := lg.RatingChanges[st.Seat]; ok && kind == templates.MailEnd {
		m.Rating = &c
	}
	mail, err := w.render.Game(m)
	if err != nil {
		// The template's error may quote the view: it stays out of the text.
		return loaded.CannotGoOn(lg.Row.ID, err, "%s", templates.Say.MailDoesNotRender(string(kind), st.Seat))
	}
	w.out.Add(outgoing.Mail{ID: id, To: st.Address, Token: st.Token, GameID: lg.Row.ID, Seat: st.Seat, Mail: mail,
		GameMail: true, SeenBefore: st.LastMailedEvent})
	return nil
}

// visible keeps the events seat may see, in engine form. Whether a seat
// may see an event depends on its recipient alone, so an event it may
// not see is not decoded.
func visible(evs []store.Event, seat int) []engine.Event {
	var out []engine.Event
	for _, e := range evs {
		if sees(e, seat) {
			out = append(out, loaded.EngineEvent(e))
		}
	}
	return out
}

// sees reports whether seat may see the stored event e: that depends on
// its recipient alone, so that it is known before e is decoded.
func sees(e store.Event, seat int) bool { return engine.Event{To: e.To}.VisibleTo(seat) }

// botsSentence tells the table which seats pbem's bots play: "bea is
// pbem's bot (Bot Bea (strong)): it moves as soon as the game waits on
// it, and reads no mail." It is "" in a game without bots.
func botsSentence(lg *loaded.Game, say templates.Words) string { return seatedBots(lg.Seats, say) }

// seatedBots is botsSentence over seats, in the words say.
func seatedBots(seats []store.Seat, say templates.Words) string {
	var titles, names []string
	for _, st := range seats {
		if st.Bot != "" {
			names = append(names, st.Name)
			titles = append(titles, bot.Title(st.Name, bot.Level(st.Bot)))
		}
	}
	switch len(names) {
	case 0:
		return ""
	case 1:
		return say.BotSeated(names[0], titles[0])
	}
	return say.BotsSeated(names, titles)
}

// startFirst puts "Everyone has joined" first among a start mail's
// events: it is recorded when the last player joins, after the opening
// the game wrote when it was made, but it is what happened first.
func startFirst(evs []engine.Event) []engine.Event {
	out := make([]engine.Event, 0, len(evs))
	for _, e := range evs {
		if e.Kind == string(EventStart) {
			out = append(out, e)
		}
	}
	for _, e := range evs {
		if e.Kind != string(EventStart) {
			out = append(out, e)
		}
	}
	return out
}
