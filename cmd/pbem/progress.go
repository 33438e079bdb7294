package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync/atomic"
	"time"
)

// progress draws a bar on standard error while a loadtest runs, when
// standard error is a terminal: games finished, commands sent, time
// passed. Into a file or a pipe it writes nothing, so logs stay clean.
type progress struct {
	w     io.Writer // nil: not a terminal
	games int
	done  atomic.Int64
	start time.Time
}

func newProgress(w io.Writer, games int) *progress {
	p := &progress{games: games, start: time.Now()}
	if f, ok := w.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			p.w = w
		}
	}
	return p
}

func (p *progress) gameDone() { p.done.Add(1) }

// run redraws the bar until ctx is done, then clears its line. commands
// counts the commands sent so far.
func (p *progress) run(ctx context.Context, commands func() int) {
	if p.w == nil {
		return
	}
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			fmt.Fprint(p.w, "\r\033[K")
			return
		case <-tick.C:
			fmt.Fprint(p.w, "\r"+p.line(int(p.done.Load()), commands(), time.Since(p.start)))
		}
	}
}

// line is the bar: [#####-----] 12/32 games  1234 commands (45.6/s)  27s
func (p *progress) line(done, commands int, elapsed time.Duration) string {
	const width = 30
	n := width * done / max(1, p.games)
	rate := float64(commands) / max(elapsed.Seconds(), 0.001)
	return fmt.Sprintf("[%s%s] %d/%d games  %d commands (%.1f/s)  %s\033[K",
		strings.Repeat("#", n), strings.Repeat("-", width-n), done, p.games, commands, rate, elapsed.Round(time.Second))
}
