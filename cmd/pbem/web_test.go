package main

import (
	"context"
	"io"
	"net/http"
	"net/smtp"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pbem/pbem/internal/demo"
	"github.com/pbem/pbem/internal/testlib"
	"github.com/pbem/pbem/mailer"
)

// TestServeWebPage is the black-box run of issue 28: the pbem binary,
// `pbem serve` with its embedded mail servers, mails the players a game
// whose mails link each seat's page. It is the quick start's setting
// (issue 35, finding 9): nothing of [web] is set, and the embedded
// default serves the pages on loopback (embedded.web_addr, here a free
// port rather than 8080) and links them as http://ADDR; the page
// loads (200) with the seat's own name and table, a changed token gets
// 404, the mails' one-click unsubscribe address is served (issue 37),
// and the log holds no link token.
func TestServeWebPage(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the pbem binary")
	}
	deadline := time.Now().Add(2 * time.Minute) // a failure guard only
	bin := filepath.Join(t.TempDir(), "pbem")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	dir := t.TempDir()
	p := &serveProc{t: t, bin: bin, log: filepath.Join(dir, "pbem.log"), imap: testlib.FreeAddr(t), smtp: testlib.FreeAddr(t)}
	webAddr := testlib.FreeAddr(t)
	base := "http://" + webAddr
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PBEM_") {
			p.env = append(p.env, kv)
		}
	}
	p.env = append(p.env,
		"PBEM_STORE_DATABASE="+filepath.Join(dir, "pbem.db"),
		"PBEM_EMBEDDED_IMAP_ADDR="+p.imap,
		"PBEM_EMBEDDED_SMTP_ADDR="+p.smtp,
		"PBEM_EMBEDDED_PASSWORD=pw",
		"PBEM_EMBEDDED_WEB_ADDR="+webAddr,
	)
	t.Cleanup(p.kill)
	p.start()
	defer p.stop()
	const pbem, alice, bob, carol = "pbem@pbem.test", "alice@pbem.test", "bob@pbem.test", "carol@pbem.test"
	send := func(from, to, text, inReplyTo string) {
		t.Helper()
		raw := "From: " + from + "\r\nTo: " + to + "\r\nSubject: " + text + "\r\nMessage-ID: <" + from + time.Now().Format("150405.000000000") + ">\r\nDate: " + time.Now().Format(time.RFC1123Z) + "\r\n"
		if inReplyTo != "" {
			raw += "In-Reply-To: <" + inReplyTo + ">\r\n"
		}
		raw += "\r\n" + text + "\r\n"
		if err := smtp.SendMail(p.smtp, nil, from, []string{to}, []byte(raw)); err != nil {
			t.Fatalf("send %q: %v", text, err)
		}
	}
	// mails reads a player's INBOX until one of its mails matches.
	mails := func(user string, match func(demo.Mail) bool) demo.Mail {
		t.Helper()
		for {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			msgs, err := mailer.ReadAll(ctx, mailer.InboxConfig{Addr: p.imap, Username: user, Password: "pw", Security: mailer.SecurityNone}, user)
			cancel()
			if err != nil {
				t.Fatalf("read %s: %v", user, err)
			}
			for _, m := range msgs {
				if dm := demo.ReadMail(m.Raw); match(dm) {
					return dm
				}
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: no such mail; log:\n%s", user, p.logTail())
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	send(alice, pbem, "new felix with "+bob+" "+carol, "")
	for _, u := range []string{bob, carol} {
		inv := mails(u, func(m demo.Mail) bool { return strings.Contains(m.Text, "join") })
		send(u, inv.ReplyTo, "join", inv.MessageID)
	}
	link := regexp.MustCompile(regexp.QuoteMeta(base) + `/s/([a-z2-7]{26})`)
	m := mails(carol, func(m demo.Mail) bool { return link.MatchString(m.Text) })
	url := link.FindString(m.Text)
	get := func(url string) (int, string) {
		t.Helper()
		res, err := http.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	code, page := get(url)
	if code != 200 || !strings.Contains(page, "The table as carol sees it") || !strings.Contains(page, "The row") || !strings.Contains(page, "Hand:") {
		t.Fatalf("carol's page: %d\n%s", code, page)
	}
	changed := url[:len(url)-1] + "a"
	if strings.HasSuffix(url, "a") {
		changed = url[:len(url)-1] + "b"
	}
	if code, _ := get(changed); code != 404 {
		t.Errorf("a changed token: %d, want 404", code)
	}
	checkOneClick(t, p.imap, carol, base)
	if code, _ := get(base + "/healthz"); code != 404 {
		t.Errorf("/healthz on the web address: %d, want 404 (it stays on metrics.addr)", code)
	}
	p.stop()
	if log := p.logTail(); strings.Contains(log, link.FindStringSubmatch(m.Text)[1]) || !strings.Contains(log, "web pages listening") {
		t.Errorf("the log holds the link token, or does not say the pages listen:\n%s", log)
	}
}
