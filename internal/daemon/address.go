package daemon

import (
	"crypto/sha256"
	"encoding/base32"
	"fmt"
	"strings"
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
	minTokenLen      = 20
	minTokenDistinct = 8
)

func strongToken(tok string) bool {
	if len(tok) < minTokenLen {
		return false
	}
	seen := map[rune]bool{}
	for _, r := range tok {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
			return false
		}
		seen[r] = true
	}
	return len(seen) >= minTokenDistinct
}

// domain is the service's mail domain.
func (s *Service) domain() string {
	_, d, _ := strings.Cut(s.cfg.Address, "@")
	return d
}

// seatAddress is the reply address of a seat: local+token@domain.
func (s *Service) seatAddress(token string) string {
	local, domain, _ := strings.Cut(s.cfg.Address, "@")
	return local + s.cfg.Separator + token + "@" + domain
}

// Accepts says whether rcpt is one of pbem's addresses: its own, or its
// own with a detail (local+token@domain), whatever the token (mail to a
// token that is no one's is answered like any other, so that a stranger
// learns nothing of which are valid). The LMTP server refuses others.
func (s *Service) Accepts(rcpt string) bool {
	local, domain, _ := strings.Cut(s.cfg.Address, "@")
	l, d, ok := strings.Cut(strings.TrimSpace(rcpt), "@")
	if !ok || !strings.EqualFold(d, domain) {
		return false
	}
	if strings.EqualFold(l, local) {
		return true
	}
	prefix := local + s.cfg.Separator
	return len(l) > len(prefix) && strings.EqualFold(l[:len(prefix)], prefix)
}

// tokenOf finds the token in one of the addresses a mail was sent to, as
// written (intake.Config.Token): seat tokens are matched lower-case by
// the store, the admin token exactly.
func (s *Service) tokenOf(addrs ...string) string {
	return s.intakeConfig().Token(addrs...)
}

// messageID makes a deterministic Message-ID from what caused the mail,
// so that a mail written again after a crash carries the same id.
func (s *Service) messageID(parts ...any) string {
	h := sha256.New()
	for _, p := range parts {
		fmt.Fprintf(h, "%v\x00", p)
	}
	sum := h.Sum(nil)
	return idPrefix + strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(sum[:15])) + "@" + s.domain()
}

// idPrefix starts the local part of every Message-ID pbem makes.
const idPrefix = "pbem."

// refOf is the short reference to a mail that its one-tap links carry
// (parser.RefLine): the unique part of its Message-ID, 24 letters and
// digits. It is no secret: the mail's headers show the whole id.
func refOf(id string) string {
	local, _, _ := strings.Cut(id, "@")
	return strings.TrimPrefix(local, idPrefix)
}

// refID is the Message-ID a reference names (see refOf).
func (s *Service) refID(ref string) string { return idPrefix + ref + "@" + s.domain() }

// mailboxOf is the mailbox addr reaches (internal/mailbox): the key of
// every limit that protects an inbox. pbem still delivers to addr as
// written.
func (s *Service) mailboxOf(addr string) string { return s.cfg.Limits.Mailbox.Key(addr) }
