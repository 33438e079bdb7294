package mailer

import (
	"fmt"
	"math/rand/v2"
	"time"
)

// Security says how a connection to a mail server is protected.
type Security string

const (
	// SecurityNone is a plain TCP connection. Use it only on loopback or a
	// network you trust.
	SecurityNone Security = "none"
	// SecurityStartTLS starts in plain text and upgrades with STARTTLS,
	// failing if the server does not offer it.
	SecurityStartTLS Security = "starttls"
	// SecurityTLS is implicit TLS from the first byte (IMAPS on 993,
	// SMTPS/submissions on 465).
	SecurityTLS Security = "tls"
)

// ParseSecurity parses "none", "starttls" or "tls"; the empty string means
// SecurityNone.
func ParseSecurity(s string) (Security, error) {
	switch Security(s) {
	case "", SecurityNone:
		return SecurityNone, nil
	case SecurityStartTLS, SecurityTLS:
		return Security(s), nil
	}
	return "", fmt.Errorf("mailer: unknown security %q (want none, starttls or tls)", s)
}

// backoff computes reconnection delays: exponential from min to max, with
// jitter so that many clients kept apart by one outage do not come back in
// step.
type backoff struct {
	min, max time.Duration
	n        int
}

func (b *backoff) next() time.Duration {
	d := b.min << b.n
	if d <= 0 || d > b.max {
		d = b.max
	} else {
		b.n++
	}
	// Full jitter on the upper half: a delay in [d/2, d).
	half := d / 2
	if half <= 0 {
		return d
	}
	return half + rand.N(half)
}

func (b *backoff) reset() { b.n = 0 }

// sleep waits for d or until ctx is done, and reports whether the full
// delay passed.
func sleep(ctx interface{ Done() <-chan struct{} }, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
