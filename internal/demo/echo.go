package demo

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	mrand "math/rand/v2"
	"net/mail"
	"slices"
	"strings"
	"time"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/mailer"
)

// The echo baseline (issue 15): the least a play-by-email host can do
// with the same mail system, to compare pbem with. The echo service reads
// its mailbox over IMAP (IDLE) and answers each mail with one plain reply
// to each player the mail names; it reads no command, keeps no game and
// no database. Its players take turns like a game's (GameTurns): the
// players whose turn it is mail the echo, wait for their replies, and the
// next ones go. pbem's loadtest plays the turns of the same game, at the
// same concurrency, on the same stack, and reports pbem's figures as
// ratios to the echo's.

// echoPlayers starts the line of a mail to the echo that names the
// players to answer; a mail without one is answered to its sender only.
const echoPlayers = "players:"

// EchoConfig is where the echo service reads and sends.
type EchoConfig struct {
	IMAPAddr, SMTPAddr string
	Address, Password  string // the echo's mailbox and its login
	Log                *slog.Logger
}

// RunEcho answers the echo's mail until ctx is done. Like pbem it has one
// IMAP session (mailer.Inbox, with IDLE) and one sender that keeps its
// SMTP session between mails, working through a queue the reader fills:
// a mail counts as handled once its replies are queued.
func RunEcho(ctx context.Context, cfg EchoConfig) error {
	log := cfg.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	in, err := mailer.NewInbox(mailer.InboxConfig{
		Addr: cfg.IMAPAddr, Username: cfg.Address, Password: cfg.Password, Security: mailer.SecurityNone,
		PollInterval: 200 * time.Millisecond, Logger: log,
	}, nil)
	if err != nil {
		return err
	}
	out, err := mailer.NewSender(mailer.SenderConfig{Addr: cfg.SMTPAddr, Security: mailer.SecurityNone})
	if err != nil {
		return err
	}
	defer out.Close()

	type reply struct {
		to  string
		raw []byte
	}
	queue := make(chan reply, 4096)
	sent := make(chan error, 1)
	go func() {
		for r := range queue {
			if err := out.Send(context.WithoutCancel(ctx), cfg.Address, []string{r.to}, r.raw); err != nil {
				// A lost reply stalls one game; the loadtest's timeout
				// says so. Keep serving the others.
				log.Error("echo: send", "to", r.to, "error", err)
			}
		}
		sent <- nil
	}()
	err = in.Run(ctx, func(ctx context.Context, m mailer.Message) error {
		msg, err := mail.ReadMessage(bytes.NewReader(m.Raw))
		if err != nil {
			log.Warn("echo: unreadable mail", "uid", m.UID, "error", err)
			return nil
		}
		to := echoRecipients(msg)
		for _, p := range to {
			select {
			case queue <- reply{p, echoReply(cfg.Address, p, msg)}:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		return nil
	})
	close(queue)
	<-sent
	if errors.Is(err, context.Canceled) || ctx.Err() != nil {
		return nil
	}
	return err
}

// echoRecipients are the players a mail names on its "players:" line, or
// its sender.
func echoRecipients(msg *mail.Message) []string {
	sc := bufio.NewScanner(msg.Body)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), echoPlayers); ok {
			return strings.Fields(rest)
		}
	}
	if from, err := mail.ParseAddress(msg.Header.Get("From")); err == nil {
		return []string{from.Address}
	}
	return nil
}

// echoReply is the one plain reply to a player: the mail's Subject with
// "Re: ", and the echo as Reply-To, as pbem's mails have a seat's.
func echoReply(from, to string, msg *mail.Message) []byte {
	var id [12]byte
	rand.Read(id[:])
	_, domain, _ := strings.Cut(from, "@")
	var b strings.Builder
	fmt.Fprintf(&b, "From: %s\r\nTo: %s\r\nReply-To: %s\r\nSubject: Re: %s\r\n", from, to, from, msg.Header.Get("Subject"))
	fmt.Fprintf(&b, "Message-ID: <echo.%s@%s>\r\nDate: %s\r\n", hex.EncodeToString(id[:]), domain, time.Now().UTC().Format(time.RFC1123Z))
	if in := msg.Header.Get("Message-ID"); in != "" {
		fmt.Fprintf(&b, "In-Reply-To: %s\r\n", in)
	}
	b.WriteString("MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nEcho.\r\n")
	return []byte(b.String())
}

// SequentialTurns is an echo game's schedule of n turns in which the
// players, in seat order, mail one at a time.
func SequentialTurns(n, players int) [][]int {
	out := make([][]int, n)
	for t := range out {
		out[t] = []int{t % players}
	}
	return out
}

// GameTurns is an echo game's schedule with the shape of a game of rules
// among players: its creation (seat 0), the others' joins (all at once,
// as pbem's invitations go out together), and then, for each decision of
// a game played at random from seed, the seats the game waits on at once
// (all of Felix's players when they place their cards, one bidder at a
// time in an auction). Each seat of a step mails the echo; the next step
// begins once they all have their replies, as a game goes on once every
// seat it waited on has moved. So the echo carries as many commands at
// once as pbem does with the same game, and its latencies are comparable.
func GameTurns(rules engine.Rules, players int, seed uint64) ([][]int, error) {
	names := make([]string, players)
	for i := range names {
		names[i] = fmt.Sprintf("p%d", i)
	}
	g, _, err := rules.New(engine.Setup{Players: names, Seed: seed})
	if err != nil {
		return nil, fmt.Errorf("demo: set up %s for the echo's turns: %w", rules.Name(), err)
	}
	joins := make([]int, 0, players-1)
	for i := 1; i < players; i++ {
		joins = append(joins, i)
	}
	out := [][]int{{0}}
	if len(joins) > 0 {
		out = append(out, joins)
	}
	rng := mrand.New(mrand.NewPCG(seed, 15))
	for steps := 0; !g.Result().Finished; steps++ {
		if steps > 10000 {
			return nil, fmt.Errorf("demo: a random %s game did not end", rules.Name())
		}
		waiting := slices.Clone(g.Waiting())
		out = append(out, waiting)
		for _, seat := range waiting {
			var cmds []string
			for _, o := range g.Options(seat) {
				cmds = append(cmds, o.Commands...)
			}
			if len(cmds) == 0 {
				return nil, fmt.Errorf("demo: %s waits on seat %d and offers it nothing", rules.Name(), seat)
			}
			c, err := engine.ParseCommand(rules.Specs(), names, cmds[rng.IntN(len(cmds))])
			if err != nil {
				return nil, fmt.Errorf("demo: %s offers a command it cannot read: %w", rules.Name(), err)
			}
			if _, err := g.Apply(seat, c); err != nil {
				return nil, fmt.Errorf("demo: %s offers a command it refuses: %w", rules.Name(), err)
			}
		}
	}
	return out, nil
}

// PlayEcho plays one echo game by schedule: at each step the seats it
// names each mail the echo at service, and the next step begins once
// every one of them has his reply, while all the players read their mail
// as in Play. A command's latency is from the start of its SMTP
// submission to its last reply (one per player) found in a mailbox; each
// reply names its command in its Subject, so no attribution by time is
// needed.
func (w *World) PlayEcho(ctx context.Context, service string, players []string, schedule [][]int, timeout time.Duration) (Game, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	before := map[string]int{}
	look := newLooker()
	for _, p := range players {
		m, err := look.wait(ctx, w, p)
		if err != nil {
			return Game{}, err
		}
		before[p] = len(m)
	}
	commands := 0
	for _, step := range schedule {
		commands += len(step)
	}
	subject := func(cmd int) string { return fmt.Sprintf("echo %s turn %d", players[0], cmd) }
	started := make([]time.Time, commands) // when each command's mail went
	last := make([]time.Time, commands)    // when its last reply was found
	sender := make([]string, commands)     // who sent it
	seen := map[string]int{}               // mails found, by player
	mails := map[string][]Mail{}
	landed, sentCmds, step := 0, 0, 0 // replies found; commands sent; the next step
	stepFrom := 0                     // the first command of the step last sent
	for landed < commands*len(players) {
		if ctx.Err() != nil {
			return Game{}, fmt.Errorf("demo: echo game of %s: %d of %d replies after %s", players[0], landed, commands*len(players), timeout)
		}
		progress := false
		for _, p := range players {
			all, err := look.inbox(ctx, w, p)
			if err != nil {
				return Game{}, err
			}
			if all == nil {
				continue // the server turned him away; he looks again next pass
			}
			now := time.Now()
			for _, m := range all[before[p]+seen[p]:] {
				seen[p]++
				mails[p] = append(mails[p], m)
				for c := range sentCmds {
					if m.Subject == "Re: "+subject(c) {
						last[c] = now
						landed++
					}
				}
			}
		}
		// The next step goes once every sender of the last one has the
		// reply to his own mail (the first step needs none).
		ready := step < len(schedule)
		for c := stepFrom; ready && c < sentCmds; c++ {
			ready = hasReply(mails[sender[c]], "Re: "+subject(c))
		}
		if ready {
			stepFrom = sentCmds
			for _, seat := range schedule[step] {
				p := players[seat]
				c := sentCmds
				started[c], sender[c] = time.Now(), p
				sentCmds++
				if err := w.Send(ctx, p, service, subject(c), "", echoPlayers+" "+strings.Join(players, " ")); err != nil {
					return Game{}, err
				}
			}
			step++
			progress = true
		}
		if !progress {
			select {
			case <-ctx.Done():
			case <-time.After(50 * time.Millisecond):
			}
		}
	}
	g := Game{Kind: "echo", Players: players, Mails: mails, Commands: commands}
	for c := range commands {
		g.CommandLatencies = append(g.CommandLatencies, last[c].Sub(started[c]))
	}
	return g, nil
}

// hasReply tells whether mails hold one with the subject.
func hasReply(mails []Mail, subject string) bool {
	for _, m := range mails {
		if m.Subject == subject {
			return true
		}
	}
	return false
}

// Probe mails "help" from a probe player to service and waits for any
// answer: the service is up and reading. pbem answers help; the echo
// answers anything.
func (w *World) Probe(ctx context.Context, service string) error {
	p := w.Player("probe")
	had, err := w.Inbox(ctx, p)
	if err != nil {
		return err
	}
	if err := w.Send(ctx, p, service, "help", "", "help"); err != nil {
		return err
	}
	for {
		got, err := w.Inbox(ctx, p)
		if err != nil {
			return err
		}
		if len(got) > len(had) {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("demo: %s did not answer: %w", service, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}
