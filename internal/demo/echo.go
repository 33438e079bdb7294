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
	"net/mail"
	"strings"
	"time"

	"github.com/pbem/pbem/internal/mailer"
)

// The echo baseline (issue 15): the least a play-by-email host can do
// with the same mail system, to compare pbem with. The echo service reads
// its mailbox over IMAP (IDLE) and answers each mail with one plain reply
// to each player the mail names; it reads no command, keeps no game and
// no database. Its players take turns like a game's: the player whose
// turn it is mails the echo, waits for his reply, and the next one goes.
// pbem's loadtest plays the same number of turns per game, at the same
// concurrency, on the same stack, and reports pbem's figures as ratios to
// the echo's.

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

// PlayEcho plays one echo game: turns turns, the players in seat order,
// each mailing the echo at service and waiting for his reply before the
// next player goes, while all of them read their mail as in Play. A
// turn's latency is from the start of its SMTP submission to its last
// reply (one per player) found in a mailbox; each reply names its turn in
// its Subject, so no attribution by time is needed.
func (w *World) PlayEcho(ctx context.Context, service string, players []string, turns int, timeout time.Duration) (Game, error) {
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
	subject := func(turn int) string { return fmt.Sprintf("echo %s turn %d", players[0], turn) }
	started := make([]time.Time, turns) // when each turn's mail went
	last := make([]time.Time, turns)    // when its last reply was found
	got := make([]int, turns)           // replies found
	seen := map[string]int{}            // mails found, by player
	mails := map[string][]Mail{}
	landed, next := 0, 0 // replies found; the next turn to play
	for landed < turns*len(players) {
		if ctx.Err() != nil {
			return Game{}, fmt.Errorf("demo: echo game of %s: %d of %d replies after %s", players[0], landed, turns*len(players), timeout)
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
				for t := range next {
					if m.Subject == "Re: "+subject(t) {
						got[t]++
						last[t] = now
						landed++
					}
				}
			}
		}
		// The player whose turn it is goes once the last turn's player
		// has his reply (the first turn needs none).
		if next < turns && (next == 0 || hasReply(mails[players[(next-1)%len(players)]], "Re: "+subject(next-1))) {
			p := players[next%len(players)]
			started[next] = time.Now()
			next++
			progress = true
			if err := w.Send(ctx, p, service, subject(next-1), "", echoPlayers+" "+strings.Join(players, " ")); err != nil {
				return Game{}, err
			}
		}
		if !progress {
			select {
			case <-ctx.Done():
			case <-time.After(50 * time.Millisecond):
			}
		}
	}
	g := Game{Kind: "echo", Players: players, Mails: mails, Commands: turns}
	for t := range turns {
		g.CommandLatencies = append(g.CommandLatencies, last[t].Sub(started[t]))
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
