package main

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pbem/pbem/mailer"
)

// checkOneClick checks that `pbem serve` serves the one-click unsubscribe
// address of user's game mails (issue 37): the latest mail's
// List-Unsubscribe names it under the web pages' base, a GET shows the
// button, and RFC 8058's POST answers that the mail is off.
func checkOneClick(t *testing.T, imapAddr, user, base string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	msgs, err := mailer.ReadAll(ctx, mailer.InboxConfig{Addr: imapAddr, Username: user, Password: "pw", Security: mailer.SecurityNone}, user)
	if err != nil || len(msgs) == 0 {
		t.Fatalf("read %s: %d mails, %v", user, len(msgs), err)
	}
	raw := string(msgs[len(msgs)-1].Raw)
	field := regexp.MustCompile(`(?m)^List-Unsubscribe: <(` + regexp.QuoteMeta(base) + `/u/[0-9a-z-]+)>,\s+<mailto:`).FindStringSubmatch(raw)
	if field == nil || !strings.Contains(raw, "\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n") {
		t.Fatalf("%s's mail has no one-click unsubscribe:\n%s", user, raw)
	}
	res, err := http.Get(field[1])
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(page), `<form method="post">`) {
		t.Fatalf("GET of the one-click address: %d\n%s", res.StatusCode, page)
	}
	res, err = http.PostForm(field[1], url.Values{"List-Unsubscribe": {"One-Click"}})
	if err != nil {
		t.Fatal(err)
	}
	page, _ = io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(page), "is off") {
		t.Fatalf("one-click POST: %d\n%s", res.StatusCode, page)
	}
}
