package mailer

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base32"
	"strconv"
	"strings"
)

// BounceTag starts the token of a bounce address: LOCAL+b-ID-MAC@DOMAIN
// (VERP through plus addressing). Seat tokens are base32 and never hold
// a hyphen, so no seat token is a bounce token.
const BounceTag = "b-"

// bounceMACBytes is the length of a bounce token's MAC: 80 bits, as a
// seat token's, beyond any stranger's guessing.
const bounceMACBytes = 10

var bounceEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// BounceToken is the token of the bounce address of outgoing mail id to
// rcpt: the id, and a MAC over id and rcpt under key, so that a bounce
// names its mail and its recipient, and no one who did not receive the
// mail can make one up.
func BounceToken(key []byte, id int64, rcpt string) string {
	return BounceTag + strconv.FormatInt(id, 36) + "-" + bounceMAC(key, id, rcpt)
}

// bounceMAC is the MAC of a bounce token.
func bounceMAC(key []byte, id int64, rcpt string) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte("pbem bounce\x00" + strconv.FormatInt(id, 10) + "\x00" + strings.ToLower(rcpt)))
	return bounceEncoding.EncodeToString(m.Sum(nil)[:bounceMACBytes])
}

// BounceAddress is the envelope sender of outgoing mail id to rcpt, from
// the service address addr ("pbem@example.test") with sep between its
// local part and the token.
func BounceAddress(addr, sep string, key []byte, id int64, rcpt string) string {
	local, domain, ok := strings.Cut(addr, "@")
	if !ok {
		return addr
	}
	return local + sep + BounceToken(key, id, rcpt) + "@" + domain
}

// IsBounceToken says whether a token of one of pbem's addresses is a
// bounce address's (whether or not it is valid).
func IsBounceToken(token string) bool {
	return len(token) > len(BounceTag) && strings.EqualFold(token[:len(BounceTag)], BounceTag)
}

// BounceTokenID is the outgoing mail a bounce token names; ok is false
// for a token not shaped as one.
func BounceTokenID(token string) (id int64, ok bool) {
	if !IsBounceToken(token) {
		return 0, false
	}
	idText, _, found := strings.Cut(token[len(BounceTag):], "-")
	if !found {
		return 0, false
	}
	id, err := strconv.ParseInt(strings.ToLower(idText), 36, 64)
	return id, err == nil && id > 0
}

// ValidBounceToken says whether token is the bounce token of outgoing
// mail id to rcpt under key, compared in constant time. Mail servers may
// change the case of a local part: the comparison ignores it.
func ValidBounceToken(key []byte, token string, id int64, rcpt string) bool {
	want := BounceToken(key, id, rcpt)
	return hmac.Equal([]byte(strings.ToLower(token)), []byte(want))
}
