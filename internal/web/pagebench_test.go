package web_test

import (
	"context"
	"errors"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/pbem/pbem/internal/web"
	"github.com/pbem/pbem/internal/webpage"
	"github.com/pbem/pbem/internal/webpage/webpagetest"
)

// benchPlayers sit at the benchmarks' Felix tables.
var benchPlayers = []string{"alice@x.test", "bob@y.test", "carol@z.test", "dave@x.test"}

// benchSeed plays a Felix game of 85 moves, about the 89 issue 40 measured.
const benchSeed = 9

// BenchmarkPage serves a seat's page through the real handler, as a
// browser asks for it, beside the same bytes from http.FileServer (the
// floor issue 40 measures the pages against): the page of a finished
// Felix game of about 89 moves now, at its first point and at a middle
// one; a new game's page; and the 304 of a page asked for again with
// its ETag. cpu-ms/op is the process's CPU time (getrusage) per
// request, which is what a busy server runs out of.
func BenchmarkPage(b *testing.B) {
	w := webpagetest.Open(b)
	done := w.Start("felix", benchPlayers...)
	w.PlayOut(done, rand.New(rand.NewPCG(benchSeed, 40)))
	fresh := w.Start("felix", benchPlayers...)
	moves, err := w.Store.Moves(context.Background(), done.ID, 0)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("the finished game has %d moves", len(moves))
	srv := web.New(w.Svc.Pages(), web.WithRate(1<<30, time.Nanosecond), web.WithLogger(slog.New(slog.DiscardHandler)),
		web.WithNoPage(func(err error) bool { return errors.Is(err, webpage.ErrNoPage) }))
	seat := w.Token(done.ID, 1)
	page := get(b, srv, "/s/"+seat, "")
	points := 0
	for at := 0; ; at++ {
		if rec := serve(srv, "/s/"+seat+"?at="+strconv.Itoa(at), ""); rec.Code != http.StatusOK {
			break
		}
		points++
	}
	dir := b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "page.html"), page.Body.Bytes(), 0o600); err != nil {
		b.Fatal(err)
	}
	files := http.FileServer(http.Dir(dir))
	for _, c := range []struct {
		name    string
		handler http.Handler
		path    string
		etag    string
		want    int
	}{
		{"finished/now", srv, "/s/" + seat, "", http.StatusOK},
		{"finished/at=0", srv, "/s/" + seat + "?at=0", "", http.StatusOK},
		{"finished/at=middle", srv, "/s/" + seat + "?at=" + strconv.Itoa(points/2), "", http.StatusOK},
		{"new", srv, "/s/" + w.Token(fresh.ID, 1), "", http.StatusOK},
		{"finished/if-none-match", srv, "/s/" + seat, page.Header().Get("ETag"), http.StatusNotModified},
		{"fileserver", files, "/page.html", "", http.StatusOK},
	} {
		b.Run(c.name, func(b *testing.B) {
			if c.etag == "" && c.want == http.StatusNotModified {
				b.Skip("the page has no ETag")
			}
			bytes := 0
			var cpu time.Duration
			for i := 0; i < b.N; i++ {
				before := processCPU(b)
				rec := serve(c.handler, c.path, c.etag)
				cpu += processCPU(b) - before
				if rec.Code != c.want {
					b.Fatalf("%s: %d, want %d", c.path, rec.Code, c.want)
				}
				bytes = rec.Body.Len()
			}
			b.ReportMetric(float64(cpu)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
			b.ReportMetric(float64(bytes), "body-bytes")
		})
	}
}

// serve answers one GET of path, with If-None-Match: etag unless etag
// is "".
func serve(h http.Handler, path, etag string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodGet, path, nil)
	if etag != "" {
		req.Header.Set("If-None-Match", etag)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// get is serve of a page that must be there.
func get(tb testing.TB, h http.Handler, path, etag string) *httptest.ResponseRecorder {
	tb.Helper()
	rec := serve(h, path, etag)
	if rec.Code != http.StatusOK {
		tb.Fatalf("GET %s: %d\n%s", path, rec.Code, rec.Body)
	}
	return rec
}

// processCPU is the CPU time the process has used so far, user and
// system, in all its threads (as internal/daemon's benchmarks measure).
func processCPU(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatalf("getrusage: %v", err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
