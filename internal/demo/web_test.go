package demo

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pbem/pbem/internal/web"
	"github.com/pbem/pbem/internal/webpage"
)

// TestPageFromMail is the web page end to end, over the embedded mail
// servers and a real HTTP server: a player finds his page's link in a
// game mail, loads it (200) and sees his own name and table; a changed
// token gets 404; after another player's move by mail, the page shows it.
func TestPageFromMail(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a failure guard only
	defer cancel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	w, err := Start(ctx, Options{webURL: base})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	wctx, stop := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() {
		served <- web.New(w.Service.Pages(), web.WithNoPage(func(err error) bool { return errors.Is(err, webpage.ErrNoPage) })).Serve(wctx, ln)
	}()
	defer func() {
		stop()
		if err := <-served; err != nil {
			t.Errorf("Serve: %v", err)
		}
	}()

	alice, bob, carol := w.Player("alice"), w.Player("bob"), w.Player("carol")
	if err := w.Send(ctx, alice, w.Address, "new game", "", "new felix with "+bob+" "+carol); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{bob, carol} {
		inv := waitFor(t, ctx, w, p, func(m Mail) bool { return strings.Contains(m.Text, "join") })
		if err := w.Send(ctx, p, inv.ReplyTo, "Re: "+inv.Subject, inv.MessageID, "join"); err != nil {
			t.Fatal(err)
		}
	}
	link := regexp.MustCompile(regexp.QuoteMeta(base) + `/s/[a-z2-7]{26}`)
	start := waitFor(t, ctx, w, bob, func(m Mail) bool { return link.MatchString(m.Text) })
	url := link.FindString(start.Text)
	code, page := fetch(t, url)
	if code != 200 || !strings.Contains(page, "The table as bob sees it") || !strings.Contains(page, "Hand:") || !strings.Contains(page, "The row") {
		t.Fatalf("bob's page: %d\n%s", code, page)
	}
	changed := url[:len(url)-1] + "a"
	if strings.HasSuffix(url, "a") {
		changed = url[:len(url)-1] + "b"
	}
	if code, _ := fetch(t, changed); code != 404 {
		t.Fatalf("a changed token: %d, want 404", code)
	}

	// The player the game waits on moves by mail; bob's page follows.
	before := page
	for _, p := range []string{alice, bob, carol} {
		var last Mail
		for _, m := range inboxOf(t, ctx, w, p) {
			if link.MatchString(m.Text) {
				last = m
			}
		}
		opts := Offered(last.Text)
		if len(opts) == 0 {
			continue
		}
		if err := w.Send(ctx, p, last.ReplyTo, "Re: "+last.Subject, last.MessageID, opts[0]); err != nil {
			t.Fatal(err)
		}
		break
	}
	for {
		if _, now := fetch(t, url); points(now) > points(before) {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatal("bob's page did not change after a move")
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// points counts the moments in a page's list of the whole game.
func points(page string) int {
	_, list, _ := strings.Cut(page, "The whole game")
	return strings.Count(list, "<li")
}

func fetch(t *testing.T, url string) (int, string) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	if res.Header.Get("Referrer-Policy") != "no-referrer" {
		t.Errorf("%d without Referrer-Policy", res.StatusCode)
	}
	return res.StatusCode, string(b)
}

func inboxOf(t *testing.T, ctx context.Context, w *World, p string) []Mail {
	t.Helper()
	all, err := w.Inbox(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	return all
}

// waitFor reads p's mailbox until a mail matches. A read that fails is
// tried again until ctx ends: the integration tests of several packages
// share one Dovecot, and mailer's restart it (restart-imap) while these
// run.
func waitFor(t *testing.T, ctx context.Context, w *World, p string, match func(Mail) bool) Mail {
	t.Helper()
	var readErr error
	for {
		all, err := w.Inbox(ctx, p)
		if err != nil {
			readErr = err
		}
		for _, m := range all {
			if match(m) {
				return m
			}
		}
		select {
		case <-ctx.Done():
			t.Fatalf("%s got no such mail (last read error: %v)", p, readErr)
		case <-time.After(50 * time.Millisecond):
		}
	}
}
