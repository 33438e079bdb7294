package outgoing

import (
	"crypto/sha256"
	"encoding/base32"
	"fmt"
	"strings"

	"github.com/pbem/pbem/internal/intake"
)

// pbem's addresses and what it writes into them: its bare address, a
// seat's reply address (local+token@domain), the tokens those carry, and
// the Message-IDs and short references of the mails it writes.

// An admin token guards every game: it must be long, and random enough
// that it is not a word. What "random" means cannot be checked, but a
// token of few different characters (aaaa…, abababab…) is surely not. It
// is lower-case because mail systems do not keep the case of an address
// reliably (pbem reads addresses lower-case): upper-case letters would
// only seem to add strength. 20 characters of 36 are over 100 bits.
const (
	MinTokenLen      = 20
	MinTokenDistinct = 8
)

// StrongToken reports whether tok may guard games as the admin token.
func StrongToken(tok string) bool {
	if len(tok) < MinTokenLen {
		return false
	}
	seen := map[rune]bool{}
	for _, r := range tok {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
			return false
		}
		seen[r] = true
	}
	return len(seen) >= MinTokenDistinct
}

// domain is the service's mail domain.
func (p *Post) domain() string {
	_, d, _ := strings.Cut(p.cfg.Address, "@")
	return d
}

// SeatAddress is the reply address of a seat: local+token@domain.
func (p *Post) SeatAddress(token string) string {
	local, domain, _ := strings.Cut(p.cfg.Address, "@")
	return local + p.cfg.Separator + token + "@" + domain
}

// Accepts says whether rcpt is one of pbem's addresses: its own, or its
// own with a detail (local+token@domain), whatever the token (mail to a
// token that is no one's is answered like any other, so that a stranger
// learns nothing of which are valid). The LMTP server refuses others.
func (p *Post) Accepts(rcpt string) bool {
	local, domain, _ := strings.Cut(p.cfg.Address, "@")
	l, d, ok := strings.Cut(strings.TrimSpace(rcpt), "@")
	if !ok || !strings.EqualFold(d, domain) {
		return false
	}
	if strings.EqualFold(l, local) {
		return true
	}
	prefix := local + p.cfg.Separator
	return len(l) > len(prefix) && strings.EqualFold(l[:len(prefix)], prefix)
}

// TokenOf finds the token in one of the addresses a mail was sent to, as
// written: seat tokens are matched lower-case by the store, the admin
// token exactly.
func (p *Post) TokenOf(addrs ...string) string {
	// The rule is intake's, which reads it off every inbound mail.
	return intake.Config{Address: p.cfg.Address, Separator: p.cfg.Separator}.Token(addrs...)
}

// MessageID makes a deterministic Message-ID from what caused the mail,
// so that a mail written again after a crash carries the same id.
func (p *Post) MessageID(parts ...any) string {
	h := sha256.New()
	for _, part := range parts {
		fmt.Fprintf(h, "%v\x00", part)
	}
	sum := h.Sum(nil)
	return idPrefix + strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(sum[:15])) + "@" + p.domain()
}

// NextID is the Message-ID Enqueue will give the next mail u gathers:
// a mail that names itself (its one-tap links) is rendered with it.
func (p *Post) NextID(u Unit) string { return p.MessageID(u.Key, u.Out.Len()) }

// idPrefix starts the local part of every Message-ID pbem makes.
const idPrefix = "pbem."

// RefOf is the short reference to a mail that its one-tap links carry
// (parser.RefLine): the unique part of its Message-ID, 24 letters and
// digits. It is no secret: the mail's headers show the whole id.
func RefOf(id string) string {
	local, _, _ := strings.Cut(id, "@")
	return strings.TrimPrefix(local, idPrefix)
}

// RefID is the Message-ID a reference names (see RefOf).
func (p *Post) RefID(ref string) string { return idPrefix + ref + "@" + p.domain() }

// MailboxOf is the mailbox addr reaches (internal/mailbox): the key of
// every limit that protects an inbox. pbem still delivers to addr as
// written.
func (p *Post) MailboxOf(addr string) string { return p.cfg.Mailbox.Key(addr) }
