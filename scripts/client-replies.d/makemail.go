//go:build ignore

// Command makemail gets real pbem mails to reply to. It talks to a
// running `pbem serve` (embedded IMAP and SMTP servers) as the players
// alice, bob and carol: it starts a Felix and a Gracias game, joins them,
// and saves, exactly as the reader's IMAP mailbox holds them:
//
//	felix-place.eml    a Felix mail asking its reader to place a card
//	felix-bid.eml      a Felix mail asking its reader to bid
//	gracias-take.eml   a Gracias mail asking its reader to take a triplet
//
// Beside each NAME.eml it writes NAME.reader (the reader's address) and
// NAME.cmds (the concrete commands the mail offers, one a line).
//
// Run by scripts/client-replies: go run scripts/client-replies.d/makemail.go -out DIR ...
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/pbem/pbem/internal/demo"
	"github.com/pbem/pbem/mailer"
)

var (
	imapAddr = flag.String("imap", "127.0.0.1:21143", "the embedded IMAP server")
	smtpAddr = flag.String("smtp", "127.0.0.1:21025", "the embedded SMTP server")
	password = flag.String("password", "pw", "every user's IMAP password")
	domain   = flag.String("domain", "pbem.example", "the players' domain")
	service  = flag.String("service", "game@pbem.example", "pbem's address")
	out      = flag.String("out", ".", "where the mails go")
)

type mail struct {
	demo.Mail
	raw []byte
}

// seen is the highest UID read of each player's mailbox.
var seen = map[string]uint32{}

// next waits for the next mail to player whose headline contains want.
func next(ctx context.Context, player, want string) mail {
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		msgs, err := mailer.ReadSince(ctx, mailer.InboxConfig{Addr: *imapAddr, Username: player, Password: *password, Security: mailer.SecurityNone}, player, seen[player])
		if err != nil {
			log.Fatal(err)
		}
		for _, m := range msgs {
			seen[player] = m.UID
			d := demo.ReadMail(m.Raw)
			if strings.Contains(d.Headline, want) {
				return mail{d, m.Raw}
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	log.Fatalf("%s got no mail about %q", player, want)
	return mail{}
}

// nextAny waits until one of players gets a mail whose headline contains
// want.
func nextAny(ctx context.Context, players []string, want string) (string, mail) {
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		for _, p := range players {
			msgs, err := mailer.ReadSince(ctx, mailer.InboxConfig{Addr: *imapAddr, Username: p, Password: *password, Security: mailer.SecurityNone}, p, seen[p])
			if err != nil {
				log.Fatal(err)
			}
			for _, m := range msgs {
				seen[p] = m.UID
				if d := demo.ReadMail(m.Raw); strings.Contains(d.Headline, want) {
					return p, mail{d, m.Raw}
				}
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	log.Fatalf("nobody got a mail about %q", want)
	return "", mail{}
}

func send(ctx context.Context, from, to, subject, inReplyTo, text string) {
	id := fmt.Sprintf("%d.%s", time.Now().UnixNano(), from)
	var b strings.Builder
	fmt.Fprintf(&b, "From: %s\r\nTo: %s\r\nSubject: %s\r\nMessage-ID: <%s>\r\nDate: %s\r\n", from, to, subject, id, time.Now().UTC().Format(time.RFC1123Z))
	if inReplyTo != "" {
		fmt.Fprintf(&b, "In-Reply-To: <%s>\r\n", inReplyTo)
	}
	b.WriteString("MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" + text + "\r\n")
	s, err := mailer.NewSender(mailer.SenderConfig{Addr: *smtpAddr, Security: mailer.SecurityNone})
	if err != nil {
		log.Fatal(err)
	}
	if err := s.Send(ctx, from, []string{to}, []byte(b.String())); err != nil {
		log.Fatal(err)
	}
}

func answer(ctx context.Context, player string, m mail, text string) {
	send(ctx, player, m.ReplyTo, "Re: "+m.Subject, m.MessageID, text)
}

func save(name, reader string, m mail) {
	write := func(ext, data string) {
		if err := os.WriteFile(filepath.Join(*out, name+ext), []byte(data), 0o644); err != nil {
			log.Fatal(err)
		}
	}
	write(".eml", string(m.raw))
	write(".reader", reader+"\n")
	write(".cmds", strings.Join(demo.Offered(m.Text), "\n")+"\n")
	log.Printf("%s: %q to %s", name, m.Subject, reader)
}

// start creates a game of kind among alice, bob and carol and returns each
// player's first mail of the running game.
func start(ctx context.Context, kind string, players []string) map[string]mail {
	send(ctx, players[0], *service, "new game", "", "new "+kind+" with "+strings.Join(players[1:], " "))
	for _, p := range players[1:] {
		answer(ctx, p, next(ctx, p, "invites you"), "join")
	}
	first := map[string]mail{}
	for _, p := range players {
		first[p] = next(ctx, p, "(")
		for strings.Contains(first[p].Headline, "is created") || strings.Contains(first[p].Headline, "to join") {
			first[p] = next(ctx, p, "(")
		}
	}
	return first
}

func main() {
	flag.Parse()
	ctx := context.Background()
	var players []string
	for _, n := range []string{"alice", "bob", "carol"} {
		players = append(players, n+"@"+*domain)
	}
	for _, p := range players { // only mail from now on counts
		msgs, err := mailer.ReadAll(ctx, mailer.InboxConfig{Addr: *imapAddr, Username: p, Password: *password, Security: mailer.SecurityNone}, p)
		if err != nil {
			log.Fatal(err)
		}
		for _, m := range msgs {
			seen[p] = max(seen[p], m.UID)
		}
	}

	// Felix: everyone places a card at once; bob's mail is kept. Then
	// someone is asked to bid.
	felix := start(ctx, "felix", players)
	save("felix-place", players[1], felix[players[1]])
	for _, p := range players {
		cmds := demo.Offered(felix[p].Text)
		if len(cmds) == 0 {
			log.Fatalf("%s's mail %q offers nothing", p, felix[p].Subject)
		}
		answer(ctx, p, felix[p], cmds[0])
	}
	who, m := nextAny(ctx, players, "your turn to bid")
	save("felix-bid", who, m)

	// Gracias: one player is asked to take a triplet.
	gracias := start(ctx, "gracias", players)
	for _, p := range players {
		if strings.Contains(gracias[p].Headline, "your turn") {
			save("gracias-take", p, gracias[p])
			return
		}
	}
	log.Fatal("nobody's turn in Gracias")
}
