package daemon

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/pbem/pbem/internal/intake"
	"github.com/pbem/pbem/internal/loaded"
	"github.com/pbem/pbem/internal/outgoing"
	"github.com/pbem/pbem/internal/tries"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// setMailAside sets aside an inbound mail that failed tries.Max times: it
// is recorded as failed, so that it is never offered again; when a game is
// at fault the game is set aside as broken and its players told; otherwise
// the sender is told that nothing was applied. The admins are told either
// way. Everything is written in words that need no game: the game may be
// what fails.
func (s *Service) setMailAside(ctx context.Context, r *readInbound, cause error) error {
	m, msg, mailbox, from := r.Received, r.Message, r.Mailbox, r.From
	key := fmt.Sprintf("failed:%s:%d:%d", mailbox, m.UIDValidity, m.UID)
	where := templates.Say.SetAsideIMAP(mailbox, m.UIDValidity, m.UID)
	kept := templates.Say.MailStaysInInbox()
	if m.UID == 0 && m.ID != "" {
		// LMTP mail: no UID, and no mailbox keeps it.
		key = intake.CauseKey("failed", m, mailbox, "")
		where = templates.Say.SetAsideLMTP(m.ID)
		kept = templates.Say.LMTPMailNotKept()
	}
	t := &work{Service: s, msg: msg, from: from, key: key}
	detail := "failed: " + cause.Error()
	var ge *loaded.Error
	isGame := errors.As(cause, &ge)
	err := s.store.Tx(ctx, func(tx *store.Tx) error {
		t.in(ctx, tx)
		// Known again by its UID or its bytes only: a mail set aside was
		// not read, so its Message-ID makes no other mail seen
		// (sameMail).
		in := store.Inbound{
			MessageID: msg.MessageID, Mailbox: mailbox, UIDValidity: m.UIDValidity, UID: m.UID,
			From: from, Outcome: string(OutcomeFailed), Detail: detail, ReceivedAt: s.now(),
			Digest: r.Digest,
		}
		_, err := tx.RecordInbound(ctx, in)
		if errors.Is(err, store.ErrDuplicate) {
			// Its bytes were recorded under another UID: record the
			// UID alone.
			in.Digest = ""
			_, err = tx.RecordInbound(ctx, in)
		}
		if err != nil {
			return err
		}
		if isGame {
			t.gameID = ge.GameID
			if err := t.setGameAside(ge.GameID, ge.What, from); err != nil {
				return err
			}
		} else if err := t.post.TellFailed(t.unit(), msg); err != nil {
			return err
		}
		t.post.TellAdmins(t.unit(), templates.Say.MailSetAside(),
			templates.Say.MailSetAsideAfterTries(tries.Max),
			templates.Say.SetAsideFrom(orNone(from)),
			templates.Say.SetAsideMessageID(orNone(msg.MessageID)),
			where,
			templates.Say.SetAsideError(cause.Error()),
			kept)
		if err := t.enqueue(); err != nil {
			return err
		}
		if m.UID > 0 {
			return tx.SetCursor(ctx, mailbox, m.UIDValidity, m.UID)
		}
		return nil
	})
	if err != nil {
		return err
	}
	s.log.Error("mail set aside", "uid", m.UID, "from", from, "err", cause)
	s.obs.Inbound(OutcomeFailed)
	s.obs.SetAside(AsideMail)
	t.committed()
	return nil
}

// committed does what follows a committed turn: the observer hears of a
// broken game, the sender loop of new mail, and the game's open pages
// that it may have changed.
func (w *work) committed() {
	if w.gameID != 0 {
		w.changes.Publish(w.gameID)
	}
	if w.gameAside {
		w.obs.GameSetAside()
	}
	if w.out.Len() > 0 {
		w.wakeOutbox()
	}
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// setGameAside sets game id aside, saying why, and — the first
// time only — tells its players and the admins. sender, when not empty,
// is a player whose mail was not applied because of it.
func (w *work) setGameAside(id int64, why, sender string) error {
	healthy, err := w.tx.SetGameAside(w.ctx, id, why, w.now())
	if err != nil || !healthy {
		return err
	}
	w.gameAside = true
	w.log.Error("game set aside as broken", "game", id, "why", why)
	row, err := w.tx.Game(w.ctx, id)
	if err != nil {
		return err
	}
	seats, err := w.tx.Seats(w.ctx, id)
	if err != nil {
		return err
	}
	for _, st := range seats {
		if st.State == store.SeatDeclined || st.State == store.SeatResigned {
			continue
		}
		say, err := w.wordsOf(st.Address)
		if err != nil {
			return err
		}
		lines := []string{say.GameSetAsideForRepair()}
		if st.Address == sender {
			lines = append(lines, say.LastMailNotApplied())
		}
		if err := w.repairNotice(row, st, lines...); err != nil {
			return err
		}
	}
	w.post.TellAdmins(w.unit(), templates.Say.GameSetAsideAsBroken(id),
		templates.Say.GameSetAsideBecause(id, row.Kind, why),
		templates.Say.WhatSetAsideMeans(),
		"",
		templates.Say.HowToSeeTheFailure(fmt.Sprint(id)),
		templates.Say.HowToRetryAfterRepair(fmt.Sprint(id)),
		templates.Say.HowToEndTheGame(fmt.Sprint(id)))
	return nil
}

// repairLine answers mail to a game that is set aside: English, for
// the tests that look for it (each player reads GameBeingRepaired in his
// language).
var repairLine = templates.Say.GameBeingRepaired()

// repairNotice mails one seat of a broken game, threaded in the game's
// thread, in words that need nothing of the game but its name. Should the
// notice not render, it goes as plain text.
func (w *work) repairNotice(row store.Game, st store.Seat, lines ...string) error {
	// The thread needs the store alone: an error there is the store's,
	// and no plain mail would do better.
	th, err := w.thread(row.ID)
	if err != nil {
		return err
	}
	n := templates.Notice{Kind: templates.NoticeRepair, GameID: row.ID, Game: th.Game, Title: th.Title, Lines: lines}
	before := w.out.Len()
	if err := w.seatNotice(st, n); err == nil {
		return nil
	}
	// Its headline first, as in every mail of the thread; enqueue gives
	// it the thread's Subject.
	say, err := w.wordsOf(st.Address)
	if err != nil {
		return err
	}
	headline := say.BeingRepaired(th.Ref)
	w.out.Truncate(before)
	w.out.Add(outgoing.Mail{To: st.Address, Token: st.Token, GameID: row.ID, Seat: st.Seat, Mail: templates.Mail{
		Subject: headline, Headline: headline,
		Text: headline + "\n\n" + strings.Join(lines, "\n\n") + "\n",
	}})
	return nil
}

// setGameAsideAlone sets a game aside in a transaction of its own: for work
// that is not a mail (a deadline, a reminder).
func (s *Service) setGameAsideAlone(ctx context.Context, id int64, why string) error {
	t := &work{Service: s, key: fmt.Sprintf("broken:%d:%d", id, s.now().Unix()), gameID: id}
	err := s.store.Tx(ctx, func(tx *store.Tx) error {
		t.in(ctx, tx)
		if err := t.setGameAside(id, why, ""); err != nil {
			return err
		}
		return t.enqueue()
	})
	if err == nil {
		t.committed()
	}
	return err
}
