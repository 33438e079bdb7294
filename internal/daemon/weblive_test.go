package daemon

import (
	"bufio"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/internal/web"
	"github.com/pbem/pbem/internal/webpage"
	"github.com/pbem/pbem/store"
)

// streamReader reads a page's event stream line by line, as sent.
type streamReader struct {
	t     *testing.T
	lines *bufio.Scanner
	got   []string
}

// liveLine is every line a page's stream may send: the retry, a version
// event and its data (16 hex digits), a blank. Nothing else: no comment,
// since the test's streams never recheck on the clock.
var liveLine = regexp.MustCompile(`^(retry: \d+|event: version|data: [0-9a-f]{16}|)$`)

func openStream(t *testing.T, srvURL, token string) *streamReader {
	t.Helper()
	res, err := http.Get(srvURL + "/e/" + token)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Body.Close() })
	if res.StatusCode != 200 {
		t.Fatalf("stream: %d", res.StatusCode)
	}
	return &streamReader{t: t, lines: bufio.NewScanner(res.Body)}
}

// version reads up to the next version the stream announces.
func (s *streamReader) version() string {
	s.t.Helper()
	for s.lines.Scan() {
		l := s.lines.Text()
		s.got = append(s.got, l)
		if !liveLine.MatchString(l) {
			s.t.Fatalf("the stream sends %q:\n%s", l, strings.Join(s.got, "\n"))
		}
		if v, ok := strings.CutPrefix(l, "data: "); ok {
			return v
		}
	}
	s.t.Fatalf("the stream ended: %v", s.lines.Err())
	return ""
}

// TestStreamsHidePrivateMoves: the event streams of every seat's page and
// the spectators' are open while a seat sends a standing pass ahead of
// its turn and takes it back (which its mails tell no one else), then
// the seat the game waits on moves. The streams of the other pages say
// nothing of the private pass, not even a line: the first thing each
// sends after its opening version is the version of the move the whole
// table saw. The sender's own page changes with his pass. What a
// stream sends is only its page's version, and its page's version is
// that page's alone (webpage.Pages.Version).
func TestStreamsHidePrivateMoves(t *testing.T) {
	t.Parallel()
	w := webWorld(t)
	reply, id := w.startGame("felix", gamers...)
	w.send(gamers[0], reply[gamers[0]], "spectators on")
	for p := range gamers {
		w.send(gamers[p], reply[gamers[p]], w.legal(id, p))
	}
	bidder := w.loaded(id).State.Waiting()[0]
	later := (bidder + 2) % len(gamers)
	srv := httptest.NewServer(web.New(w.svc.Pages(), web.WithStreamRecheck(time.Hour), web.WithRate(1000, time.Millisecond),
		web.WithNoPage(func(err error) bool { return err == webpage.ErrNoPage })))
	// Closed after the streams (cleanups run last first): Close waits for
	// every handler, and a stream's ends when its client leaves.
	t.Cleanup(srv.Close)
	streams := map[int]*streamReader{}
	first := map[int]string{}
	for seat := engine.Public; seat < len(gamers); seat++ {
		link := seat
		if seat == engine.Public {
			link = store.PublicLink
		}
		tok := w.pageToken(id, link)
		streams[seat] = openStream(t, srv.URL, tok)
		first[seat] = streams[seat].version()
		if html, _ := w.pageNow(tok); !strings.Contains(html, `data-version="`+first[seat]+`"`) {
			t.Fatalf("seat %d's page does not carry the version its stream announces, %s", seat, first[seat])
		}
	}
	if n := w.svc.changes.Waiting(id); n != len(gamers)+1 {
		t.Fatalf("%d streams wait on the game, want %d", n, len(gamers)+1)
	}
	w.send(gamers[later], reply[gamers[later]], "pass")
	if v := streams[later].version(); v == first[later] {
		t.Fatal("the sender's own stream did not tell of his standing pass")
	}
	w.send(gamers[later], reply[gamers[later]], "undo")
	streams[later].version()
	w.send(gamers[bidder], reply[gamers[bidder]], w.legal(id, bidder))
	for seat, s := range streams {
		if seat == later {
			continue
		}
		v := s.version()
		if v == first[seat] {
			t.Errorf("seat %d's stream announced its old version again", seat)
		}
		if html, _ := w.pageNow(w.pageToken(id, map[bool]int{true: store.PublicLink, false: seat}[seat == engine.Public])); !strings.Contains(html, `data-version="`+v+`"`) {
			t.Errorf("seat %d's stream announced %s, not its page's version", seat, v)
		}
	}
}

// TestPageTellsSinceLastMove: a seat's page at the present point lists,
// under "Since your last move", what the seat's mails told it of the
// moves after its own last move, in order, and leads with it: before
// the options.
func TestPageTellsSinceLastMove(t *testing.T) {
	t.Parallel()
	w := webWorld(t)
	reply, id := w.startGame("felix", gamers...)
	first := w.loaded(id).State.Waiting()[0]
	w.send(gamers[first], reply[gamers[first]], w.legal(id, first))
	var moved []string // the words of the moves after first's, as first's page tells them
	for len(moved) < 2 {
		p := w.loaded(id).State.Waiting()[0]
		if p == first {
			break
		}
		before := w.engineLog(id)
		w.send(gamers[p], reply[gamers[p]], w.legal(id, p))
		for _, e := range w.engineLog(id)[len(before):] {
			if e.VisibleTo(first) {
				moved = append(moved, e.Text)
			}
		}
	}
	html, _ := w.pageNow(w.pageToken(id, first))
	text := html
	at := strings.Index(text, "Since your last move")
	if at < 0 {
		t.Fatalf("the page does not tell what happened since the seat's last move:\n%s", text)
	}
	for _, m := range moved {
		i := strings.Index(text[at:], htmlText(m))
		if i < 0 {
			t.Fatalf("the page does not tell %q since the seat's last move:\n%s", m, text)
		}
		at += i
	}
	if end := strings.Index(text, "The whole game"); at > end {
		t.Errorf("what happened since the seat's last move comes after the whole game")
	}
}
