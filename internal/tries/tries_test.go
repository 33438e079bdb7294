package tries

import (
	"errors"
	"testing"
)

func TestCounter(t *testing.T) {
	c := NewCounter()
	if c.Fail("a") != 1 || c.Fail("a") != 2 || c.Fail("b") != 1 {
		t.Fatal("Fail does not count by key")
	}
	c.Forget("a")
	if n := c.Fail("a"); n != 1 {
		t.Fatalf("after Forget, Fail = %d, want 1", n)
	}
}

func TestSafely(t *testing.T) {
	want := errors.New("plain")
	if err := Safely(func() error { return want }); err != want {
		t.Fatalf("Safely changed a plain error: %v", err)
	}
	var p *PanicError
	if err := Safely(func() error { panic("boom") }); !errors.As(err, &p) || p.Value != "boom" || p.Stack == "" {
		t.Fatalf("a panic came back as %v", err)
	}
}
