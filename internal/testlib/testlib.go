// Package testlib holds what pbem's tests share: waits for an event
// rather than for a time, loopback addresses free to listen on, and
// checks of a mail's text.
//
// A wait polls its condition, at first often and then every 100 ms, until
// the condition holds or the patience runs out; the patience is a guard
// against a hang, never a timing the test relies on, so it is generous
// and ends early enough before the test binary's own deadline (-timeout)
// that the failure names what was awaited.
package testlib

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"
)

// Patience is how long WaitFor waits before it fails the test.
const Patience = time.Minute

// Poll calls cond until it returns true, and returns nil then; or returns
// ctx's error when ctx ends first.
func Poll(ctx context.Context, cond func() bool) error {
	interval := time.Millisecond
	for !cond() {
		t := time.NewTimer(interval)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
		interval = min(2*interval, 100*time.Millisecond)
	}
	return nil
}

// WaitFor waits until cond holds, and fails the test naming what it
// awaited if it does not within Patience.
func WaitFor(t testing.TB, cond func() bool, what string) {
	t.Helper()
	WaitWithin(t, Patience, what, cond)
}

// WaitWithin is WaitFor with a patience of its own, for a wait that
// includes slow work (a whole game by mail through real servers). Its
// condition comes last, as WaitForNil's check does, since it is often a
// closure of several lines.
func WaitWithin(t testing.TB, patience time.Duration, what string, cond func() bool) {
	t.Helper()
	patience = bound(t, patience)
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	if err := Poll(ctx, cond); err != nil {
		t.Fatalf("waited %v in vain for %s", patience, what)
	}
}

// WaitForNil waits until check returns nil. check says, with its error,
// what is still missing; if it is still missing after patience, the test
// fails with what it awaited and check's last error.
func WaitForNil(t testing.TB, patience time.Duration, what string, check func() error) {
	t.Helper()
	var last error
	patience = bound(t, patience)
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	if err := Poll(ctx, func() bool { last = check(); return last == nil }); err != nil {
		t.Fatalf("waited %v in vain for %s: %v", patience, what, last)
	}
}

// Receive waits for a value on ch, or for ch to be closed (the zero
// value then), as `<-ch` does; if neither comes within Patience, the
// test fails naming what it awaited, rather than hanging until the test
// binary's deadline.
func Receive[V any](t testing.TB, ch <-chan V, what string) V {
	t.Helper()
	timer := time.NewTimer(bound(t, Patience))
	defer timer.Stop()
	select {
	case v := <-ch:
		return v
	case <-timer.C:
		t.Fatalf("waited %v in vain for %s", bound(t, Patience), what)
	}
	panic("unreachable")
}

// bound shortens patience so that it ends before the test binary's
// deadline, with a little time left to report.
func bound(t testing.TB, patience time.Duration) time.Duration {
	type deadliner interface{ Deadline() (time.Time, bool) }
	if d, ok := t.(deadliner); ok {
		if end, ok := d.Deadline(); ok {
			if left := time.Until(end) - 5*time.Second; left < patience {
				return max(left, time.Second)
			}
		}
	}
	return patience
}

// FreeAddr is a loopback address ("127.0.0.1:PORT") whose port was free
// when it was asked for, for a server a test starts in another process
// or by a configuration that names its address.
func FreeAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("finding a free port: %v", err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// ContainsAll fails the test for each of wants that text lacks, naming
// what the text is.
func ContainsAll(t testing.TB, what, text string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(text, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, text)
		}
	}
}

// ContainsNone fails the test for each of unwanted that text holds,
// naming what the text is.
func ContainsNone(t testing.TB, what, text string, unwanted ...string) {
	t.Helper()
	for _, u := range unwanted {
		if strings.Contains(text, u) {
			t.Errorf("%s holds %q:\n%s", what, u, text)
		}
	}
}
