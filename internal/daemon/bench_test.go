package daemon

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/pbem/pbem/internal/mailer"
)

// BenchmarkCommandMail measures one player's command mail through the
// whole turn loop: extract the text, read the command, load the game from
// its snapshot, apply it, record it, render and compose every player's
// mail (text and HTML) and queue them, in one durable transaction. Sending
// is not included: the mail system's own rate is the ceiling there.
func BenchmarkCommandMail(b *testing.B) {
	w := newWorld(b)
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test", "dave@x.test"}
	rng := rand.New(rand.NewPCG(1, 2))
	reply, id := w.startGame("felix", players...)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		tb := w.table(id)
		if tb.game.Result().Finished {
			reply, id = w.startGame("felix", players...)
			tb = w.table(id)
		}
		p := tb.game.Waiting()[0]
		var cmds []string
		for _, o := range tb.game.Options(p) {
			cmds = append(cmds, o.Commands...)
		}
		w.uid++
		raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: Re: Felix\r\nMessage-ID: <b%d@x.test>\r\n\r\n%s\r\n\r\n> quoted mail\r\n", players[p], reply[players[p]], w.uid, cmds[rng.IntN(len(cmds))])
		b.StartTimer()
		if err := w.svc.HandleMail(context.Background(), mailer.Message{Mailbox: "INBOX", UIDValidity: 1, UID: w.uid, Raw: []byte(raw)}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "commands/s")
}
