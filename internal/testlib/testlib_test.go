package testlib

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// fakeT records what a wait or check reports; Fatalf ends the goroutine
// as testing.T's does.
type fakeT struct {
	testing.TB
	fatal, errs []string
}

func (f *fakeT) Helper() {}
func (f *fakeT) Fatalf(format string, args ...any) {
	f.fatal = append(f.fatal, fmt.Sprintf(format, args...))
	runtime.Goexit()
}
func (f *fakeT) Errorf(format string, args ...any) {
	f.errs = append(f.errs, fmt.Sprintf(format, args...))
}

// run calls fn with f in a goroutine of its own, as a test runs.
func (f *fakeT) run(fn func(testing.TB)) {
	done := make(chan struct{})
	go func() { defer close(done); fn(f) }()
	<-done
}

func TestWaitForReturnsOnceTheConditionHolds(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	WaitFor(t, func() bool { return calls.Add(1) >= 5 }, "the fifth call")
	if n := calls.Load(); n != 5 {
		t.Errorf("cond was called %d times, not 5", n)
	}
}

func TestWaitWithinNamesWhatItAwaited(t *testing.T) {
	t.Parallel()
	f := &fakeT{}
	f.run(func(tb testing.TB) { WaitWithin(tb, 20*time.Millisecond, "the moon", func() bool { return false }) })
	if len(f.fatal) != 1 || !strings.Contains(f.fatal[0], "in vain for the moon") {
		t.Errorf("reported %q", f.fatal)
	}
}

func TestWaitForNilReportsTheLastError(t *testing.T) {
	t.Parallel()
	f := &fakeT{}
	n := 0
	f.run(func(tb testing.TB) {
		WaitForNil(tb, 20*time.Millisecond, "three mails", func() error {
			n++
			return fmt.Errorf("check %d: 2 of 3 mails", n)
		})
	})
	// However few checks the patience allowed, the last one's error is
	// the one reported.
	if want := fmt.Sprintf("in vain for three mails: check %d: 2 of 3 mails", n); len(f.fatal) != 1 || !strings.Contains(f.fatal[0], want) {
		t.Errorf("reported %q, want %q", f.fatal, want)
	}
	f = &fakeT{}
	f.run(func(tb testing.TB) { WaitForNil(tb, time.Minute, "nothing", func() error { return nil }) })
	if len(f.fatal) != 0 {
		t.Errorf("reported %q for a check that passed", f.fatal)
	}
}

func TestPollEndsWithItsContext(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Poll(ctx, func() bool { return false }); !errors.Is(err, context.Canceled) {
		t.Errorf("Poll = %v, want context.Canceled", err)
	}
}

func TestFreeAddrIsLoopback(t *testing.T) {
	t.Parallel()
	if a := FreeAddr(t); !strings.HasPrefix(a, "127.0.0.1:") || a == "127.0.0.1:0" {
		t.Errorf("FreeAddr = %q", a)
	}
}

func TestContains(t *testing.T) {
	t.Parallel()
	f := &fakeT{}
	ContainsAll(f, "the mail", "play rabbit", "rabbit", "bid")
	ContainsNone(f, "the mail", "play rabbit", "play", "secret")
	want := []string{"the mail lacks \"bid\":\nplay rabbit", "the mail holds \"play\":\nplay rabbit"}
	if strings.Join(f.errs, "|") != strings.Join(want, "|") {
		t.Errorf("reported %q", f.errs)
	}
}

func TestReceiveReturnsTheValue(t *testing.T) {
	t.Parallel()
	ch := make(chan int, 1)
	ch <- 7
	if got := Receive(t, ch, "a seven"); got != 7 {
		t.Errorf("Receive returned %d, want 7", got)
	}
}

func TestReceiveTakesAClosedChannel(t *testing.T) {
	t.Parallel()
	closed := make(chan struct{})
	close(closed)
	Receive(t, closed, "the close")
}

// soonT is a fakeT whose test binary's deadline is near, so that a wait's
// patience is bound to its least, a second.
type soonT struct{ *fakeT }

func (soonT) Deadline() (time.Time, bool) { return time.Now(), true }

func TestReceiveNamesWhatItAwaited(t *testing.T) {
	t.Parallel()
	f := &fakeT{}
	f.run(func(tb testing.TB) { Receive(soonT{f}, make(chan int), "a seven") })
	if len(f.fatal) != 1 || !strings.Contains(f.fatal[0], "in vain for a seven") {
		t.Errorf("reported %q", f.fatal)
	}
}
