package demo

import (
	"slices"
	"strings"
	"time"
)

// How a scripted player finds the mail to answer (docs/mail.md,
// "Scripted players: which mail is the latest").
//
// pbem's mails say nothing of their order but their Date: a game's
// thread is flat (In-Reply-To and References name its root alone,
// docs/mail.md "Threads"), and a Message-ID is a hash of what caused the
// mail. The order in which they reach a mailbox, and so their IMAP UIDs,
// need not be the order pbem wrote them in: a mail system that delivers
// in parallel (Postfix to Dovecot over LMTP) may give a later mail a
// lower UID. So a player never takes the mail he read last, or the one
// with the highest UID, for the latest. His rule:
//
//   - A thread is the mails whose Reply-To is one seat's address.
//   - Mails are ordered by the Date pbem wrote, then by arrival.
//   - He acts on the newest mail of a thread that asks something of him
//     (offers commands to copy, or invites him to join) and that he has
//     not settled. A mail that asks nothing ("waiting for carol") never
//     hides an older-looking one that does: it may have been written
//     first and delivered last.
//   - Answering a mail settles it, every mail of its thread he had read
//     by then, and every mail of the thread written before it (by Date),
//     however late it arrives: all those are behind him. He never answers
//     a mail twice.
//   - The game is over for him when any mail of it says "game over",
//     whatever came after it.
//
// Date has whole seconds, so a mail written in the same second as the
// one he answered, and delivered after his answer, may still be answered
// once. If it asked for the decision he already made, pbem's own rule for
// replies to old mails (docs/commands.md, "Replies to old mails") does
// not apply it and answers with the table as it is now: nothing is
// applied twice, and the game goes on.

// follower is what one scripted player remembers of his game threads.
type follower struct {
	settled    map[string]bool      // Message-IDs of mails behind him
	answeredAt map[string]time.Time // by thread (Reply-To): the Date of the newest mail he answered
}

func newFollower() *follower {
	return &follower{settled: map[string]bool{}, answeredAt: map[string]time.Time{}}
}

// byDate orders mails as a player reads a thread: by Date, then by
// arrival (their order in mails), without changing mails.
func byDate(mails []Mail) []Mail {
	out := slices.Clone(mails)
	slices.SortStableFunc(out, func(a, b Mail) int { return a.Date.Compare(b.Date) })
	return out
}

// asks reports whether a mail asks something of its reader: commands to
// copy, or an invitation to join.
func asks(m Mail) bool {
	return invitation(m) || len(Offered(m.Text)) > 0
}

// invitation reports whether a mail invites its reader to join a game.
func invitation(m Mail) bool {
	return strings.Contains(m.Text, "Reply `join`") || strings.Contains(m.Text, "Reply 'join'")
}

// gameOver reports whether a mail tells the end of its game.
func gameOver(m Mail) bool { return strings.Contains(m.Headline, "game over") }

// next finds the mail to act on among mails (in the order they were
// read): the newest, by Date then arrival, that is in a game thread,
// asks something and is not settled.
func (f *follower) next(mails []Mail) (Mail, bool) {
	ordered := byDate(mails)
	for i := len(ordered) - 1; i >= 0; i-- {
		m := ordered[i]
		if m.ReplyTo == "" || f.settled[m.MessageID] || !asks(m) {
			continue
		}
		if at := f.answeredAt[m.ReplyTo]; !at.IsZero() && !m.Date.IsZero() && m.Date.Before(at) {
			continue // written before a mail he answered: behind him
		}
		return m, true
	}
	return Mail{}, false
}

// answer records that the player answered m, having read mails.
func (f *follower) answer(m Mail, mails []Mail) {
	for _, x := range mails {
		if x.ReplyTo == m.ReplyTo {
			f.settled[x.MessageID] = true
		}
	}
	f.settled[m.MessageID] = true
	if m.Date.After(f.answeredAt[m.ReplyTo]) {
		f.answeredAt[m.ReplyTo] = m.Date
	}
}

// Current is the newest of a player's mails that asks something of him,
// by the scripted players' rule but remembering no answer of his: tests
// that play by hand use it instead of the last mail read.
func Current(mails []Mail) (Mail, bool) { return newFollower().next(mails) }
