// Package demo plays whole games through pbem's real mail loop: embedded
// IMAP and SMTP servers, the daemon, and scripted players who read their
// mail over IMAP and answer over SMTP with one of the commands their last
// mail offers, exactly as a person would copy one.
package demo

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"mime"
	"net/mail"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/pbem/pbem/daemon"
	"github.com/pbem/pbem/engine/games"
	"github.com/pbem/pbem/mailer"
	"github.com/pbem/pbem/mailer/embedded"
	"github.com/pbem/pbem/parser"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// Options tunes a demo run.
type Options struct {
	Seed    uint64        // decides the players' choices
	Timeout time.Duration // for each game; default 5 minutes
	Log     *slog.Logger  // the service's log; nil discards it
	Dir     string        // where the database goes; empty: a temporary folder
}

// Game is the outcome of one demo game.
type Game struct {
	ID         int64
	Kind       string
	Players    []string       // addresses, in seat order
	Scores     map[string]int // by address
	Winners    []string       // addresses
	Transcript string         // the exported transcript
	Mails      map[string][]Mail
}

// Mail is one mail a player received.
type Mail struct {
	MessageID, Subject, ReplyTo, Text string
}

// World is a running service with its embedded mail servers.
type World struct {
	Servers *embedded.Servers
	Store   *store.Store
	Service *daemon.Service
	Address string
	rng     *rand.Rand
	stop    func()
	done    chan error
	tmp     string
}

// Start starts embedded servers on free loopback ports and the service.
func Start(ctx context.Context, opts Options) (*World, error) {
	log := opts.Log
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	dir, tmp := opts.Dir, ""
	if dir == "" {
		var err error
		if dir, err = os.MkdirTemp("", "pbem-demo-"); err != nil {
			return nil, err
		}
		tmp = dir
	}
	srv, err := embedded.Start(ctx, embedded.Config{IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0", Domain: "pbem.test", Logger: log})
	if err != nil {
		return nil, err
	}
	st, err := store.Open(ctx, filepath.Join(dir, "pbem.db"))
	if err != nil {
		srv.Close()
		return nil, err
	}
	r, err := templates.New()
	if err != nil {
		return nil, err
	}
	w := &World{Servers: srv, Store: st, Address: srv.Address("pbem"), rng: rand.New(rand.NewPCG(opts.Seed, 77)), tmp: tmp, done: make(chan error, 1)}
	w.Service, err = daemon.New(daemon.Config{Address: w.Address}, st, r, games.Lookup, games.Names(), daemon.WithLogger(log))
	if err != nil {
		return nil, err
	}
	inbox, err := mailer.NewInbox(mailer.InboxConfig{
		Addr: srv.IMAPAddr(), Username: w.Address, Password: srv.Password(), Security: mailer.SecurityNone,
		PollInterval: 200 * time.Millisecond, IdleRefresh: 2 * time.Second, Logger: log,
	}, w.Service)
	if err != nil {
		return nil, err
	}
	sender, err := mailer.NewSender(mailer.SenderConfig{Addr: srv.SMTPAddr(), Security: mailer.SecurityNone})
	if err != nil {
		return nil, err
	}
	runCtx, cancel := context.WithCancel(ctx)
	w.stop = cancel
	go func() {
		w.done <- w.Service.Run(runCtx, inbox, sender.Send, daemon.OutboxConfig{Poll: 200 * time.Millisecond, Permanent: mailer.IsPermanent}, "@every 1m")
	}()
	return w, nil
}

// Close stops the service and the servers and removes temporary files.
func (w *World) Close() error {
	w.stop()
	err := <-w.done
	w.Store.Close()
	w.Servers.Close()
	if w.tmp != "" {
		os.RemoveAll(w.tmp)
	}
	return err
}

// Send mails text from a player to an address, as a mail client would.
func (w *World) Send(ctx context.Context, from, to, subject, inReplyTo, text string) error {
	s, err := mailer.NewSender(mailer.SenderConfig{Addr: w.Servers.SMTPAddr(), Security: mailer.SecurityNone})
	if err != nil {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "From: %s\r\nTo: %s\r\nSubject: %s\r\n", from, to, encodeHeader(subject))
	fmt.Fprintf(&b, "Message-ID: <%d.%s>\r\nDate: %s\r\n", w.rng.Uint64(), from, time.Now().UTC().Format(time.RFC1123Z))
	if inReplyTo != "" {
		fmt.Fprintf(&b, "In-Reply-To: <%s>\r\nReferences: <%s>\r\n", inReplyTo, inReplyTo)
	}
	b.WriteString("MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n")
	b.WriteString(strings.ReplaceAll(text, "\n", "\r\n") + "\r\n")
	return s.Send(ctx, from, []string{to}, []byte(b.String()))
}

// encodeHeader writes a header value that may hold non-ASCII text.
func encodeHeader(s string) string { return mime.QEncoding.Encode("utf-8", s) }

// Inbox reads every mail of a player.
func (w *World) Inbox(ctx context.Context, addr string) ([]Mail, error) {
	msgs, err := mailer.ReadAll(ctx, mailer.InboxConfig{Addr: w.Servers.IMAPAddr(), Username: addr, Password: w.Servers.Password(), Security: mailer.SecurityNone}, addr)
	if err != nil {
		return nil, err
	}
	var out []Mail
	for _, m := range msgs {
		out = append(out, readMail(m.Raw))
	}
	return out, nil
}

// commandLine finds the commands a mail offers: the indented lines of its
// "What you can do now" part, several to a line.
var commandSplit = regexp.MustCompile(`\s{2,}`)

// Offered lists the commands a mail offers to copy.
func Offered(text string) []string {
	_, rest, ok := strings.Cut(text, "What you can do now")
	if !ok {
		return nil
	}
	if i := strings.Index(rest, "\n--\n"); i >= 0 {
		rest = rest[:i]
	}
	var cmds []string
	for _, line := range strings.Split(rest, "\n") {
		if !strings.HasPrefix(line, "    ") {
			continue
		}
		for _, c := range commandSplit.Split(strings.TrimSpace(line), -1) {
			if c != "" {
				cmds = append(cmds, c)
			}
		}
	}
	return cmds
}

// Play plays one game of kind among the players by mail: the first creates
// it, the others join, and everyone answers each mail that offers commands
// with one of them, chosen at random, until the game is over.
func (w *World) Play(ctx context.Context, kind string, players []string, timeout time.Duration) (Game, error) {
	if timeout <= 0 {
		timeout = 5 * time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	before := map[string]int{}
	for _, p := range players {
		m, err := w.Inbox(ctx, p)
		if err != nil {
			return Game{}, err
		}
		before[p] = len(m)
	}
	if err := w.Send(ctx, players[0], w.Address, "new game", "", "new "+kind+" with "+strings.Join(players[1:], " ")); err != nil {
		return Game{}, err
	}
	answered := map[string]bool{} // Message-IDs a player answered
	over := map[string]bool{}
	mails := map[string][]Mail{}
	for len(over) < len(players) {
		if ctx.Err() != nil {
			return Game{}, fmt.Errorf("demo: %s did not finish in %s (finished: %d of %d players)", kind, timeout, len(over), len(players))
		}
		progress := false
		for _, p := range players {
			all, err := w.Inbox(ctx, p)
			if err != nil {
				return Game{}, err
			}
			mails[p] = all[before[p]:]
			if len(mails[p]) == 0 {
				continue
			}
			last := mails[p][len(mails[p])-1]
			if strings.Contains(last.Subject, "game over") {
				over[p] = true
				continue
			}
			if answered[last.MessageID] || last.ReplyTo == "" {
				continue
			}
			answer := ""
			switch {
			case strings.Contains(last.Text, "Reply `join`") || strings.Contains(last.Text, "Reply 'join'"):
				answer = "join"
			default:
				if cmds := Offered(last.Text); len(cmds) > 0 {
					answer = cmds[w.rng.IntN(len(cmds))]
				}
			}
			if answer == "" {
				continue
			}
			answered[last.MessageID] = true
			progress = true
			if err := w.Send(ctx, p, last.ReplyTo, "Re: "+last.Subject, last.MessageID, answer+"\n\n> "+strings.ReplaceAll(last.Text, "\n", "\n> ")); err != nil {
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
	return w.result(ctx, players, mails)
}

// result reads the finished game back from the store.
func (w *World) result(ctx context.Context, players []string, mails map[string][]Mail) (Game, error) {
	games, err := w.Store.GamesOf(ctx, players[0])
	if err != nil || len(games) == 0 {
		return Game{}, fmt.Errorf("demo: no game found: %v", err)
	}
	g := games[0]
	for _, x := range games {
		if x.ID > g.ID {
			g = x
		}
	}
	out := Game{ID: g.ID, Kind: g.Kind, Players: players, Scores: map[string]int{}, Mails: mails}
	var buf strings.Builder
	if err := daemon.Export(ctx, w.Store, g.ID, &buf); err != nil {
		return out, err
	}
	out.Transcript = buf.String()
	res, err := w.Service.Standing(ctx, g.ID)
	if err != nil {
		return out, err
	}
	seats, err := w.Store.Seats(ctx, g.ID)
	if err != nil {
		return out, err
	}
	for i, st := range seats {
		out.Scores[st.Address] = res.Scores[i]
	}
	for _, win := range res.Winners {
		out.Winners = append(out.Winners, seats[win].Address)
	}
	return out, nil
}

// readMail decodes a mail the way pbem's own parser does, keeping the
// whole body.
func readMail(raw []byte) Mail {
	m, err := parser.Extract(bytes.NewReader(raw), parser.ExtractOptions{})
	if err != nil {
		return Mail{Text: string(raw)}
	}
	out := Mail{MessageID: m.MessageID, Subject: m.Subject, Text: m.Body}
	if h, err := mail.ReadMessage(bytes.NewReader(raw)); err == nil {
		if rt, err := mail.ParseAddress(h.Header.Get("Reply-To")); err == nil {
			out.ReplyTo = rt.Address
		}
	}
	return out
}
