package tries

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"testing"
)

var errDiskFull = errors.New("disk full")

func newCounter(log *bytes.Buffer) *Counter {
	return NewCounter(slog.New(slog.NewTextHandler(log, nil)), func(err error) bool { return errors.Is(err, errDiskFull) })
}

func TestCounter(t *testing.T) {
	c := newCounter(new(bytes.Buffer))
	if c.Fail("a") != 1 || c.Fail("a") != 2 || c.Fail("b") != 1 {
		t.Fatal("Fail does not count by key")
	}
	c.Forget("a")
	if n := c.Fail("a"); n != 1 {
		t.Fatalf("after Forget, Fail = %d, want 1", n)
	}
}

// caught runs f in a function that defers Catch, as the loop's do.
func caught(f func() error) (err error) {
	defer Catch(&err)
	return f()
}

func TestCatch(t *testing.T) {
	want := errors.New("plain")
	if err := caught(func() error { return want }); err != want {
		t.Fatalf("Catch changed a plain error: %v", err)
	}
	if err := caught(func() error { return nil }); err != nil {
		t.Fatalf("Catch made an error of none: %v", err)
	}
	var p *PanicError
	if err := caught(func() error { panic("boom") }); !errors.As(err, &p) || p.Value != "boom" || p.Stack == "" {
		t.Fatalf("a panic came back as %v", err)
	}
	beyond := 3
	if err := caught(func() error { _ = []int{1}[beyond]; return nil }); !errors.As(err, &p) {
		t.Fatalf("a runtime panic came back as %v", err)
	}
}

// Failed sets a piece of work aside at its Max-th counted failure, never
// counts one that is no fault of the work, and logs each with what it
// was, a panic with its stack.
func TestFailed(t *testing.T) {
	var log bytes.Buffer
	c := newCounter(&log)
	for i := 1; i < Max; i++ {
		if c.Failed("k", "handling a mail", errors.New("boom")) {
			t.Fatalf("set aside after %d failures, want %d", i, Max)
		}
		if c.Failed("k", "handling a mail", errDiskFull) {
			t.Fatal("a failure of the database was counted")
		}
	}
	if !c.Failed("k", "handling a mail", &PanicError{Value: "x", Stack: "the stack"}) {
		t.Fatalf("not set aside after %d failures", Max)
	}
	for _, want := range []string{"handling a mail failed", "attempt=1 of=3", "the database cannot take it now", "stack=\"the stack\""} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("the log lacks %q:\n%s", want, log.String())
		}
	}
	if c.Failed("other", "handling a mail", errors.New("boom")) {
		t.Error("another key shares the count")
	}
}
