package intake

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/pbem/pbem/mailer"
	"github.com/pbem/pbem/parser"
)

// CauseKey is what identifies an inbound mail in the Message-IDs of the
// mail it causes (Mail.Key); prefix says what caused them ("in",
// "failed"). IMAP mail is named by its UID; LMTP mail, which has none, by
// its digest, so that two LMTP mails never share an id.
func CauseKey(prefix string, m mailer.Message, mailbox, messageID string) string {
	if m.UID == 0 && m.ID != "" {
		return fmt.Sprintf("%s:%s:%s:%s", prefix, mailbox, m.ID, messageID)
	}
	return fmt.Sprintf("%s:%s:%d:%d:%s", prefix, mailbox, m.UIDValidity, m.UID, messageID)
}

// Digest is the digest of a mail's bytes (Mail.Digest): for mail
// delivered by LMTP the digest of the bytes its client sent
// (mailer.Message.ID); for mail read from IMAP that of the bytes in the
// mailbox, and its size when only its header was fetched (too large). A
// mail the LMTP client delivers again, or one mailbox copy read twice,
// has one digest; two copies the mailbox got by two deliveries (each
// with its delivery agent's Received field), or a mail both in the
// mailbox and delivered by LMTP, have two, which its Message-ID, sender
// and address join (sameMail).
func Digest(m mailer.Message) string {
	if m.ID != "" {
		return m.ID
	}
	if len(m.Raw) == 0 {
		return ""
	}
	h := sha256.New()
	if m.TooLarge {
		fmt.Fprintf(h, "header of %d bytes\x00", m.Size)
	}
	h.Write(m.Raw)
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// sameMail is the key that makes a mail pbem reads known when it comes
// again with its Message-ID (issue 33, docs/exactly-once.md): the
// Message-ID with its sender and the address of pbem's it was sent to
// (sentTo). Read makes it only for a mail it acts on: a Message-ID is
// the writer's choice, and a stranger's mail, or a forgery pbem refused
// before reading, must never make a player's mail seen. Its bytes count
// whatever it is (Digest): the mail server hands the same mail over in
// the same bytes.
func (c Config) sameMail(msg parser.Message, from string) string {
	return c.SentAs(msg.MessageID, from, c.sentTo(msg))
}

// sentTo is the address of pbem's a mail was sent to, as the key of a
// mail seen before compares it: the seat token its To or Cc names, or,
// when they name none (a Bcc), the one it was delivered to; "" for
// pbem's bare address. The fields the sender wrote come first, so that
// the copies of one mail to two seats (one delivered for each, each with
// its own Delivered-To) are one mail, applied once, as LMTP hands over
// such a mail once. A stranger who does not know a player's seat address
// cannot name it.
func (c Config) sentTo(msg parser.Message) string {
	return strings.ToLower(c.Token(append(append(append([]string(nil), msg.To...), msg.Cc...), msg.DeliveredTo)...))
}

// Token finds the token in the first of addrs that is one of pbem's
// addresses with a token (local+token@domain), as written: seat tokens
// are matched lower-case by the store, the admin token exactly. "" when
// none is.
func (c Config) Token(addrs ...string) string {
	local, domain, _ := strings.Cut(strings.ToLower(c.Address), "@")
	prefix := local + strings.ToLower(c.Separator)
	for _, a := range addrs {
		l, d, ok := strings.Cut(strings.TrimSpace(a), "@")
		if !ok || !strings.EqualFold(d, domain) || len(l) <= len(prefix) || !strings.EqualFold(l[:len(prefix)], prefix) {
			continue
		}
		return l[len(prefix):]
	}
	return ""
}
