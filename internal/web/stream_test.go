package web

import (
	"bufio"
	"context"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// livePages is fakePages that follows its game: its version is set by
// the test, and changed tells the streams of the token's game.
type livePages struct {
	fakePages
	mu      sync.Mutex
	version string
	waiting chan struct{} // one receive per stream that watches
	stopped chan struct{} // one receive per stream that stopped watching
	subs    []chan struct{}
}

func newLivePages() *livePages {
	return &livePages{version: "0000000000000001", waiting: make(chan struct{}, 100), stopped: make(chan struct{}, 100)}
}

func (f *livePages) Version(_ context.Context, token string) (string, error) {
	if token != goodToken {
		return "", ErrNoPage
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.version, nil
}

func (f *livePages) Watch(_ context.Context, token string) (<-chan struct{}, func(), error) {
	if token != goodToken {
		return nil, nil, ErrNoPage
	}
	ch := make(chan struct{}, 1)
	f.mu.Lock()
	f.subs = append(f.subs, ch)
	f.mu.Unlock()
	f.waiting <- struct{}{}
	return ch, func() { f.stopped <- struct{}{} }, nil
}

// change sets the page's version and tells the streams.
func (f *livePages) change(v string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.version = v
	for _, ch := range f.subs {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

// eventLine is every line a stream may send: the retry, a version event
// and its data (the page's version, 16 hex digits), a comment, a blank.
var eventLine = regexp.MustCompile(`^(retry: \d+|event: version|data: [0-9a-f]{16}|)$`)

// TestStreamSaysOnlyVersions opens the event stream of a page, changes
// the page twice, and reads the stream as sent, byte for byte: it
// carries the page's versions, each once, and nothing else, so it tells
// no more than the page it belongs to.
func TestStreamSaysOnlyVersions(t *testing.T) {
	f := newLivePages()
	// Rechecks on the clock would only add comments; an hour keeps
	// them out of the lines read.
	srv := httptest.NewServer(New(f, WithRate(1000, time.Millisecond), WithStreamRecheck(time.Hour)))
	defer srv.Close()
	res, err := http.Get(srv.URL + "/e/" + goodToken)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("stream: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	checkHeaders(t, res)
	<-f.waiting
	lines := bufio.NewScanner(res.Body)
	var got []string
	// read returns the data of the next version event, checking every line on the way.
	read := func() string {
		for lines.Scan() {
			l := lines.Text()
			got = append(got, l)
			if !eventLine.MatchString(l) {
				t.Fatalf("the stream sends %q:\n%s", l, strings.Join(got, "\n"))
			}
			if v, ok := strings.CutPrefix(l, "data: "); ok {
				return v
			}
		}
		t.Fatalf("the stream ended: %v\n%s", lines.Err(), strings.Join(got, "\n"))
		return ""
	}
	if v := read(); v != "0000000000000001" {
		t.Fatalf("first version %q", v)
	}
	f.change("00000000000000ff")
	if v := read(); v != "00000000000000ff" {
		t.Fatalf("second version %q", v)
	}
	f.change("00000000000000ff") // a change of the game that does not change this page
	f.change("0000000000000abc")
	if v := read(); v != "0000000000000abc" {
		t.Fatalf("third version %q: the stream told of a change its page did not show", v)
	}
}

// TestStreamBounds: an address opens at most its share of streams, and
// the streams in all are bounded; one past a bound is refused with 503
// and Retry-After, and once a stream ends its place is free again. An
// unknown token's stream is the one 404; the script is served.
func TestStreamBounds(t *testing.T) {
	f := newLivePages()
	s := New(f, WithRate(1000, time.Millisecond), WithConnLimits(16, 8))
	if s.streams.perClient != 2 || s.streams.total != 4 {
		t.Fatalf("stream bounds %d per client, %d in all; want 2 and 4", s.streams.perClient, s.streams.total)
	}
	srv := httptest.NewServer(s)
	defer srv.Close()
	open := func() (*http.Response, context.CancelFunc) {
		ctx, cancel := context.WithCancel(context.Background())
		req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+"/e/"+goodToken, nil)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return res, cancel
	}
	// httptest's clients all come from 127.0.0.1: the per-client bound.
	var cancels []context.CancelFunc
	for range 2 {
		res, cancel := open()
		if res.StatusCode != 200 {
			t.Fatalf("stream: %d", res.StatusCode)
		}
		<-f.waiting
		cancels = append(cancels, cancel)
	}
	res, cancel := open()
	cancel()
	if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") == "" {
		t.Fatalf("a third stream from one address: %d", res.StatusCode)
	}
	checkHeaders(t, res)
	cancels[0]()
	<-f.stopped // the ended stream's handler returned, its place given back
	if n := s.streamsOf("127.0.0.1"); n != 1 {
		t.Fatalf("%d streams counted open, want 1", n)
	}
	res, cancel = open()
	defer cancel()
	if res.StatusCode != 200 {
		t.Fatalf("a stream after one ended: %d", res.StatusCode)
	}
	cancels[1]()
	// The total, by the counter itself: four addresses fill it.
	c := streamLimits(16, 8)
	for i, key := range []string{"a", "a", "b", "b"} {
		if !c.take(key) {
			t.Fatalf("stream %d refused", i)
		}
	}
	if c.take("c") {
		t.Fatal("a fifth stream in all was let in")
	}
	c.give("a")
	if !c.take("c") {
		t.Fatal("a freed place was not taken")
	}
	if res := get(t, s, "GET", "/e/"+strings.Repeat("a", 26), ""); res.StatusCode != 404 {
		t.Errorf("an unknown token's stream: %d", res.StatusCode)
	}
	res = get(t, s, "GET", "/live.js", "")
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/javascript") || !strings.Contains(body(t, res), "EventSource") {
		t.Errorf("/live.js: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
}
