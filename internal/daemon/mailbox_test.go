package daemon

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pbem/pbem/internal/mailbox"
)

// Tests of "One mailbox, one limit" (issue 33, docs/security.md): what
// a stranger who knows one address can make pbem send to its mailbox,
// through every spelling of it.

// mailboxWorld is a world with `pbem serve`'s default limits and mailbox
// rule (answers_per_day 30, invitations_per_week 3, "+" sub-addresses).
func mailboxWorld(t *testing.T) *world {
	return newWorldConfig(t, func(c *Config) { c.Admins, c.AdminToken = "boss@ops.test", "k7qpz2xw9mr4tb8vn3cj" })
}

// mailsTo are the mails w delivered to every spelling of addr's mailbox.
func (w *world) mailsTo(addr string) []received {
	w.mu.Lock()
	defer w.mu.Unlock()
	rule := mailbox.Default()
	var out []received
	for to, box := range w.inbox {
		if rule.Same(to, addr) {
			out = append(out, box...)
		}
	}
	return out
}

// isInvitation tells an invitation to a game among the mails.
func isInvitation(m received) bool {
	return strings.Contains(m.Text, "`join` to play")
}

// invitationsTo counts the invitations w delivered to addr's mailbox.
func (w *world) invitationsTo(addr string) int {
	n := 0
	for _, m := range w.mailsTo(addr) {
		if isInvitation(m) {
			n++
		}
	}
	return n
}

// said is the text of addr's last mail on one line.
func (w *world) lastText(addr string) string {
	return strings.Join(strings.Fields(w.last(addr).Text), " ")
}

// Fifty forged mails from ten spellings of the victim's address, each
// inviting five other spellings (the audit's attack: 300 mails), or each
// starting a game with bots that the forged creator "plays", bring the
// victim's mailbox at most a day's answers, and at most the week's
// invitations.
func TestForgedSpellingsReachOneMailbox(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, body string }{
		{"invitations to +tags", "new gracias with victim+a@x.test victim+b@x.test victim+c@x.test victim+d@x.test victim+e@x.test"},
		{"invitations to case and tags", "new gracias with Victim+a@x.test VICTIM@X.TEST victim+c@x.test"},
		{"games with bots", "new felix with 3 bots"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := mailboxWorld(t)
			for i := range 50 {
				// Three minutes apart: the loop breaker (20 a minute)
				// never trips, so the answer budget alone must hold.
				w.clock = w.clock.Add(3 * time.Minute)
				w.send(fmt.Sprintf("victim+f%d@x.test", i%10), "pbem@example.test", tc.body)
			}
			if n := len(w.mailsTo("victim@x.test")); n > 30 {
				t.Errorf("the victim's mailbox got %d mails from 50 forged ones, want at most answers_per_day (30)", n)
			}
			if n := w.invitationsTo("victim@x.test"); n > 3 {
				t.Errorf("the victim's mailbox got %d invitations in a day, want at most invitations_per_week (3)", n)
			}
		})
	}
}

// A mailbox that never answered gets at most three invitations a week
// from all inviters together, whatever spelling each names; the fourth
// inviter is told why, and nothing more. Once the mailbox has answered
// (joined one game), invitations come again.
func TestNewMailboxInvitationsPerWeek(t *testing.T) {
	t.Parallel()
	w := mailboxWorld(t)
	spellings := []string{"victim+1@x.test", "Victim@x.test", "victim+2@x.test", "victim+3@x.test", "VICTIM+4@X.TEST"}
	for i, v := range spellings {
		w.clock = w.clock.Add(time.Hour)
		w.send(fmt.Sprintf("inviter%d@evil.test", i), "pbem@example.test", "new felix with "+v+" bystander"+fmt.Sprint(i)+"@y.test")
	}
	if n := w.invitationsTo("victim@x.test"); n != 3 {
		t.Fatalf("the mailbox got %d invitations from five inviters in a day, want 3", n)
	}
	want := "has not answered pbem yet, and pbem sends such an address at most 3 invitations a week, from all inviters together"
	for _, inviter := range []string{"inviter3@evil.test", "inviter4@evil.test"} {
		if got := w.lastText(inviter); !strings.Contains(got, want) {
			t.Errorf("%s was not told why:\n%s", inviter, got)
		}
	}
	// The victim joins the first game: the mailbox has answered.
	w.send("victim+1@x.test", w.inbox["victim+1@x.test"][0].ReplyTo, "join")
	w.send("inviter9@evil.test", "pbem@example.test", "new felix with victim+9@x.test bystander9@y.test")
	if n := w.invitationsTo("victim@x.test"); n != 4 {
		t.Errorf("after the mailbox answered, an invitation did not come: %d", n)
	}
}

// `never` from one spelling covers every spelling of the mailbox.
func TestNeverCoversEverySpelling(t *testing.T) {
	t.Parallel()
	for _, invited := range []string{"victim4+2@x.test", "Victim4@x.test", "VICTIM4+games@X.test"} {
		t.Run(invited, func(t *testing.T) {
			t.Parallel()
			w := mailboxWorld(t)
			w.send("victim4@x.test", "pbem@example.test", "never")
			before := len(w.mailsTo("victim4@x.test"))
			w.send("carol@z.test", "pbem@example.test", "new felix with "+invited+" dave@z.test")
			if n := len(w.mailsTo("victim4@x.test")); n != before {
				t.Errorf("%s was invited after never from victim4@x.test (%d mails, had %d)", invited, n, before)
			}
			if got := w.lastText("carol@z.test"); !strings.Contains(got, "has asked pbem never to invite it") {
				t.Errorf("the inviter was not told:\n%s", got)
			}
		})
	}
}

// Invitations to mailboxes that never answered have a daily cap for each
// inviter (10 by default), counted for his mailbox whatever spelling he
// writes from, and one for the whole service (200 by default).
func TestNewInvitationCaps(t *testing.T) {
	t.Parallel()
	t.Run("per inviter", func(t *testing.T) {
		t.Parallel()
		w := mailboxWorld(t)
		for i := range 4 {
			w.clock = w.clock.Add(time.Hour)
			from := fmt.Sprintf("mallory+%d@evil.test", i)
			w.send(from, "pbem@example.test", fmt.Sprintf("new gracias with n%da@x.test n%db@x.test n%dc@x.test n%dd@x.test", i, i, i, i))
		}
		invited := 0
		for i := range 4 {
			for _, c := range "abcd" {
				invited += w.invitationsTo(fmt.Sprintf("n%d%c@x.test", i, c))
			}
		}
		if invited != 8 {
			t.Errorf("one inviter's mailbox sent %d invitations to new addresses in a day in games of 4, want 8 (10 a day)", invited)
		}
		if got := w.lastText("mallory+3@evil.test"); !strings.Contains(got, "pbem sends at most 10 invitations a day from one address to addresses that have not answered it yet") {
			t.Errorf("the inviter was not told:\n%s", got)
		}
		w.clock = w.clock.Add(24 * time.Hour)
		w.send("mallory@evil.test", "pbem@example.test", "new felix with n9a@x.test n9b@x.test")
		if n := w.invitationsTo("n9a@x.test"); n != 1 {
			t.Errorf("the next day's invitation did not come: %d", n)
		}
	})
	t.Run("whole service", func(t *testing.T) {
		t.Parallel()
		w := mailboxWorld(t)
		sent := 0
		for i := range 45 {
			w.clock = w.clock.Add(10 * time.Minute)
			var addrs []string
			for j := range 5 {
				addrs = append(addrs, fmt.Sprintf("p%d-%d@x.test", i, j))
			}
			w.send(fmt.Sprintf("inviter%d@evil.test", i), "pbem@example.test", "new gracias with "+strings.Join(addrs, " "))
			for _, a := range addrs {
				sent += w.invitationsTo(a)
			}
		}
		if sent != 200 {
			t.Errorf("the service sent %d invitations to new addresses in a day, want new_invitations_per_day (200)", sent)
		}
		if got := w.lastText("inviter44@evil.test"); !strings.Contains(got, "pbem has sent today all the invitations it sends in a day to addresses that have not answered it yet") {
			t.Errorf("the inviter was not told:\n%s", got)
		}
	})
}

// An invitation is the one mail a mailbox that never answered gets of
// that game: when another invited player declines, it is not told.
func TestOneMailPerInvitation(t *testing.T) {
	t.Parallel()
	w := mailboxWorld(t)
	w.send("alice@x.test", "pbem@example.test", "new felix with bob@y.test carol@z.test")
	w.send("bob@y.test", w.last("bob@y.test").ReplyTo, "decline")
	if n := len(w.mailsTo("carol@z.test")); n != 1 {
		t.Errorf("carol, who never answered, got %d mails of the game, want the invitation alone", n)
	}
	if got := w.last("alice@x.test"); !strings.Contains(got.Headline, "will not start") {
		t.Errorf("the creator was not told of the decline: %q", got.Headline)
	}
}

// An invitation shows nothing its inviter chose but his address: not his
// text in the Subject, not the other addresses he invited, not the names
// his address makes.
func TestInvitationShowsOnlyTheInviter(t *testing.T) {
	t.Parallel()
	w := mailboxWorld(t)
	spammer := "www.spam-shop.example/deal-70-off@spam.test"
	w.send(spammer, "pbem@example.test", "new felix with carol@z.test buy.pills.example/now@spam.test")
	inv := w.last("carol@z.test")
	if !isInvitation(inv) {
		t.Fatalf("carol got no invitation:\n%s", inv.Text)
	}
	for _, ad := range []string{"spam", "deal", "www", "70", "pills", "buy"} {
		if strings.Contains(strings.ToLower(inv.Subject), ad) {
			t.Errorf("the invitation's Subject carries the inviter's text %q: %q", ad, inv.Subject)
		}
	}
	for _, part := range []string{inv.Text, inv.HTML} {
		if strings.Contains(part, "buy.pills.example") || strings.Contains(part, "now@spam.test") {
			t.Errorf("the invitation shows another address the inviter chose:\n%s", part)
		}
		if strings.Contains(part, "www-spam") || strings.Contains(part, "pills-example") {
			t.Errorf("the invitation shows a name made of an address the inviter chose:\n%s", part)
		}
	}
	if !strings.Contains(inv.Text, spammer) {
		t.Errorf("the invitation does not say who invites:\n%s", inv.Text)
	}
}

// A forged `new` in the name of a mailbox that asked `never` does not
// take `never` back: only a mailbox that answered pbem does, by starting
// a game itself.
func TestForgedNewKeepsNever(t *testing.T) {
	t.Parallel()
	w := mailboxWorld(t)
	w.send("victim5@x.test", "pbem@example.test", "never")
	// A stranger writes `new` with the victim's address (a spelling of
	// it) in From, to lift his `never`.
	w.send("victim5+x@x.test", "pbem@example.test", "new felix with bob@z.test carol@z.test")
	before := len(w.mailsTo("victim5@x.test"))
	w.send("mallory@evil.test", "pbem@example.test", "new felix with victim5@x.test dave@z.test")
	if n := len(w.mailsTo("victim5@x.test")); n != before {
		t.Errorf("a forged new lifted never: the mailbox got %d mails more", n-before)
	}
	if got := w.lastText("mallory@evil.test"); !strings.Contains(got, "has asked pbem never to invite it") {
		t.Errorf("the inviter was not told:\n%s", got)
	}

	// A player whose mailbox answered (he joined a game) takes his
	// `never` back by starting a game himself.
	w.send("erin@z.test", "pbem@example.test", "new felix with frank@z.test gina@z.test")
	w.send("frank@z.test", w.inbox["frank@z.test"][0].ReplyTo, "join")
	w.send("frank@z.test", "pbem@example.test", "never")
	w.send("frank@z.test", "pbem@example.test", "new felix with hal@z.test ivy@z.test")
	w.send("erin@z.test", "pbem@example.test", "new felix with frank@z.test hal2@z.test")
	if got := w.lastText("erin@z.test"); strings.Contains(got, "has asked pbem never to invite it") {
		t.Errorf("a player's own new did not take his never back:\n%s", got)
	}
}
