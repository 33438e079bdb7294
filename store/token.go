package store

import (
	"crypto/rand"
	"encoding/base32"
)

// tokenEncoding is lower-case base32 without padding: letters and the
// digits 2-7 only, which survive plus-addressing, case-folding mail
// systems and being read aloud.
var tokenEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// NewToken returns a new secret seat token: 80 random bits from
// crypto/rand as 16 lower-case base32 characters.
func NewToken() string {
	var b [10]byte
	rand.Read(b[:]) // never fails; see crypto/rand.Read
	return tokenEncoding.EncodeToString(b[:])
}
