//go:build integration

package demo

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pbem/pbem/parser/hostile"
)

// TestRealMailHostile sends the hostile-mail corpus (parser/hostile) and
// its 1 MB shapes through Postfix into Dovecot, where pbem reads them like
// any mail, then a person's mail. Every hostile mail that Postfix accepts
// is recorded; shapes no client writes are refused and automatic mail is
// ignored, neither answered; a forged From moves nothing; and the
// person's mail behind them all is answered: one mail does not block the
// inbox.
func TestRealMailHostile(t *testing.T) {
	ctx := context.Background()
	w, err := Start(ctx, Options{Seed: 7, Mail: mailSystem(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	idRe := regexp.MustCompile(`(?i)Message-ID: <[^>\r\n]*>`)
	type sent struct {
		m  hostile.Mail
		id string
	}
	var mails []sent
	all := hostile.Corpus()
	all = append(all, hostile.Big(1_000_000)...) // under the 1 MiB limit, as in the audit
	for i, m := range all {
		id := fmt.Sprintf("hostile%d.%s@evil.test", i, w.Suffix)
		raw := idRe.ReplaceAll(m.Raw, []byte("Message-ID: <"+id+">"))
		if !idRe.Match(raw) {
			raw = append([]byte("Message-ID: <"+id+">\r\n"), raw...)
		}
		envelope := w.Player("hostile")
		if bytes.Contains(raw, []byte("Return-Path: <>")) {
			envelope = "" // Dovecot writes the envelope's Return-Path
		}
		if err := w.SendRaw(ctx, envelope, w.Address, raw); err != nil {
			// Postfix may refuse a shape itself (its own MIME limits):
			// then pbem never sees it, which is fine.
			t.Logf("%s: Postfix refused it: %v", m.Name, err)
			continue
		}
		mails = append(mails, sent{m, id})
	}
	person := w.Player("person")
	if err := w.Send(ctx, person, w.Address, "help please", "", "help"); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(3 * time.Minute)
	for {
		got, err := w.Inbox(ctx, person)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the person's mail behind the hostile ones was not answered within 3 minutes")
		}
		time.Sleep(200 * time.Millisecond)
	}
	// Postfix delivers in parallel, so a big mail may land after the
	// person's: wait until every delivered mail is on record (by UID at
	// least: a mail refused before its header was read has no Message-ID
	// on record).
	for {
		in, err := w.Store.AllInbound(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(in) >= len(mails)+1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d mails on record, %d delivered", len(in), len(mails)+1)
		}
		time.Sleep(200 * time.Millisecond)
	}
	recorded := 0
	for _, s := range mails {
		in, err := w.Store.InboundByMessageID(ctx, s.id)
		if err != nil {
			if s.m.Want == hostile.Refused {
				continue // refused before its header was read: no Message-ID on record
			}
			t.Errorf("%s: not on record: %v", s.m.Name, err)
			continue
		}
		recorded++
		switch {
		case s.m.Want == hostile.Automatic && in.Outcome != "ignored":
			t.Errorf("%s: outcome %s (%s), want ignored", s.m.Name, in.Outcome, in.Detail)
		case s.m.Want == hostile.Refused && in.Outcome != "refused":
			t.Errorf("%s: outcome %s (%s), want refused", s.m.Name, in.Outcome, in.Detail)
		case s.m.Want == hostile.FromProblem && in.Outcome == "applied":
			t.Errorf("%s: a forged From was acted on", s.m.Name)
		}
	}
	t.Logf("%d hostile mails delivered, %d on record by Message-ID", len(mails), recorded)
	out, err := w.Store.AllOutgoing(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range out {
		for _, s := range mails {
			if s.m.Want == hostile.Automatic && bytes.Contains(o.Raw, []byte(s.id)) {
				t.Errorf("pbem answered the automatic mail %s", s.m.Name)
			}
			if s.m.Want == hostile.Refused && bytes.Contains(o.Raw, []byte(s.id)) {
				t.Errorf("pbem answered the hostile shape %s", s.m.Name)
			}
		}
		if strings.ContainsAny(o.To, "\r\n\u202e") {
			t.Errorf("pbem wrote to %q", o.To)
		}
	}
}
