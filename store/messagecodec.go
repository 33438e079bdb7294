package store

import (
	"bytes"
	"errors"
	"fmt"
	"sync"

	"github.com/klauspost/compress/s2"
)

// A queued mail's message is stored compressed (issue 40). Every mail
// pbem writes is a 20-30 kB message whose HTML part repeats its styles,
// and every byte of it was copied twice by pgx as it was sent (its
// parameter and its Bind message, each a buffer grown afresh), crossed
// the socket, and was compressed again by PostgreSQL (LZ4) and cut into
// TOAST chunks; on SQLite it filled six or seven pages of the WAL. S2
// packs such a message to under a third, in less time than pgx took to
// copy it (testdata/mail.eml, BenchmarkPackMessage: 22.6 kB to 6.6 kB
// in 18 µs, and back in 11-14 µs).
//
// The stored value is the message itself, or packedPrefix and the S2
// block of the message. A message pbem composes begins with a header
// field, never with a NUL byte; any message that does is packed however
// large that makes it, so that a stored value begins with packedPrefix
// exactly when it is packed, and messages stored as they are (those of
// rows written before migration 34) read back unchanged.
const packedPrefix = "\x00s2"

// maxUnpacked bounds what unpacking a stored value may allocate: a
// damaged value that claims more is an error, not an allocation of its
// claim. No mail pbem sends comes near it.
const maxUnpacked = 64 << 20

// messagePacker packs messages (packMessage) into buffers it lends
// itself: each is as large as a message, and would otherwise be garbage
// at once. A nil *messagePacker packs into a new buffer each time.
type messagePacker struct{ scratch sync.Pool }

// maxPackScratch is the largest buffer kept for the next message: that
// of a message larger than any mail's is left to the garbage collector.
const maxPackScratch = 1 << 20

// packMessage returns the value that stores raw: packed when that is
// smaller, or when raw begins with a NUL byte.
func (p *messagePacker) packMessage(raw []byte) []byte {
	if len(raw) == 0 {
		return raw
	}
	var scratch []byte
	if p != nil {
		if b, ok := p.scratch.Get().(*[]byte); ok {
			scratch = *b
		}
	}
	n := s2.MaxEncodedLen(len(raw))
	if n < 0 {
		return raw // past S2's 4 GB, which no mail comes near
	}
	if cap(scratch) < n {
		scratch = make([]byte, n)
	}
	block := s2.Encode(scratch[:cap(scratch)], raw)
	defer func() {
		if p != nil && cap(scratch) <= maxPackScratch {
			p.scratch.Put(&scratch)
		}
	}()
	if len(packedPrefix)+len(block) >= len(raw) && raw[0] != 0 {
		return raw
	}
	// A value of its own, just its size: the statement that writes it
	// may wait for the transaction's next round trip (Tx.later), and
	// the scratch buffer goes back at once.
	return append(append(make([]byte, 0, len(packedPrefix)+len(block)), packedPrefix...), block...)
}

// errBadPacked is a stored message that does not unpack.
var errBadPacked = errors.New("store: a stored message does not unpack")

// unpackMessage returns the message a stored value holds.
func unpackMessage(stored []byte) ([]byte, error) {
	block, ok := bytes.CutPrefix(stored, []byte(packedPrefix))
	if !ok {
		return stored, nil
	}
	n, err := s2.DecodedLen(block)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errBadPacked, err)
	}
	if n > maxUnpacked {
		return nil, fmt.Errorf("%w: it claims %d bytes", errBadPacked, n)
	}
	raw, err := s2.Decode(make([]byte, n), block)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errBadPacked, err)
	}
	return raw, nil
}
