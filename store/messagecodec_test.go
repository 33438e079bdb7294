package store

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/s2"
	"github.com/pbem/pbem/store/storetest"
	"pgregory.net/rapid"
)

// mailLike is a message shaped like pbem's: headers, a text part, and an
// HTML part whose styles repeat.
func mailLike(moves int) []byte {
	var b strings.Builder
	b.WriteString("Content-Type: multipart/alternative; boundary=b\r\nSubject: Felix #4\r\n\r\n--b\r\n")
	for i := range moves {
		b.WriteString("- g20p0 bids " + strings.Repeat("1", i%7+1) + ".\r\n")
	}
	b.WriteString("--b\r\nContent-Type: text/html\r\n\r\n")
	for range moves {
		b.WriteString(`<tr><td style="padding:4px 8px;color:#1d2024;border-bottom:1px solid #30353b">cat</td></tr>` + "\r\n")
	}
	return []byte(b.String())
}

// TestPackMessage pins what is stored for a message, and that every
// stored value reads back as the message: a mail is packed when that
// makes it smaller, a message beginning with NUL always (so that the
// prefix alone says which is which), and a value without the prefix (a
// row written before migration 34) reads as it is.
func TestPackMessage(t *testing.T) {
	t.Parallel()
	p := new(messagePacker)
	for _, c := range []struct {
		name   string
		raw    []byte
		packed bool
	}{
		{"a mail", mailLike(200), true},
		{"a short mail", []byte("Subject: x\r\n\r\nhi\r\n"), false},
		{"nothing", []byte{}, false},
		{"a NUL first, short", []byte("\x00"), true},
		{"the prefix itself", []byte(packedPrefix), true},
		{"incompressible", incompressible(4096), false},
		{"incompressible, NUL first", append([]byte{0}, incompressible(4096)...), true},
	} {
		stored := p.packMessage(c.raw)
		if got := bytes.HasPrefix(stored, []byte(packedPrefix)); got != c.packed {
			t.Errorf("%s: packed %v, want %v", c.name, got, c.packed)
		}
		if c.packed && c.raw[0] != 0 && len(stored) >= len(c.raw) {
			t.Errorf("%s: packed into %d bytes from %d", c.name, len(stored), len(c.raw))
		}
		got, err := unpackMessage(stored)
		if err != nil || !bytes.Equal(got, c.raw) {
			t.Errorf("%s: read back %q, %v", c.name, messageStart(got), err)
		}
	}
	if stored := p.packMessage(mailLike(200)); len(stored)*2 > len(mailLike(200)) {
		t.Errorf("a mail of %d bytes packed into %d, want under half", len(mailLike(200)), len(stored))
	}
}

// TestUnpackDamaged checks that a damaged packed value is an error that
// says so, and allocates no more than it could hold.
func TestUnpackDamaged(t *testing.T) {
	t.Parallel()
	good := new(messagePacker).packMessage(mailLike(50))
	// A block begins with its length, a varint: this one claims 2 GB.
	huge := append(binary.AppendUvarint([]byte(packedPrefix), 1<<31), s2.Encode(nil, make([]byte, 1000))[2:]...)
	for name, stored := range map[string][]byte{
		"cut short":       good[:len(good)/2],
		"prefix alone":    []byte(packedPrefix),
		"claims 2 GB":     huge,
		"bytes changed":   append(append([]byte{}, good[:len(good)-4]...), 0xff, 0xff, 0xff, 0xff),
		"not S2 at all":   append([]byte(packedPrefix), "Subject: x"...),
		"length, no data": append([]byte(packedPrefix), 0x10),
	} {
		if got, err := unpackMessage(stored); !errors.Is(err, errBadPacked) {
			t.Errorf("%s: read %d bytes, %v; want errBadPacked", name, len(got), err)
		}
	}
}

// TestPackMessageRoundTrips: any message reads back whole, however it
// was stored, from a packer that lends its buffers or from none.
func TestPackMessageRoundTrips(t *testing.T) {
	t.Parallel()
	p := new(messagePacker)
	rapid.Check(t, func(t *rapid.T) {
		raw := rapid.SliceOf(rapid.Byte()).Draw(t, "raw")
		if rapid.Bool().Draw(t, "repeat") {
			raw = bytes.Repeat(raw, rapid.IntRange(1, 300).Draw(t, "times"))
		}
		for _, packer := range []*messagePacker{p, nil} {
			stored := packer.packMessage(raw)
			if len(raw) > 0 && raw[0] == 0 && !bytes.HasPrefix(stored, []byte(packedPrefix)) {
				t.Fatalf("a message beginning with NUL stored unpacked")
			}
			got, err := unpackMessage(stored)
			if err != nil || !bytes.Equal(got, raw) {
				t.Fatalf("%d bytes read back as %d, %v", len(raw), len(got), err)
			}
		}
	})
}

// FuzzUnpackMessage: no stored value, however damaged, makes reading it
// panic or allocate past maxUnpacked; and every message packs and reads
// back whole.
func FuzzUnpackMessage(f *testing.F) {
	f.Add(new(messagePacker).packMessage(mailLike(20)))
	f.Add([]byte(packedPrefix))
	f.Add([]byte("Subject: x\r\n\r\nhi"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, err := unpackMessage(b); err == nil && len(got) > maxUnpacked {
			t.Fatalf("read %d bytes", len(got))
		}
		got, err := unpackMessage(new(messagePacker).packMessage(b))
		if err != nil || !bytes.Equal(got, b) {
			t.Fatalf("%d bytes read back as %d, %v", len(b), len(got), err)
		}
	})
}

// TestMessagesStoredPacked checks, on the engine the tests run on, that
// a queued mail's message is stored packed, and that every way the
// store reads it gives the message: its row (OutgoingByMessageID), and a
// claim by a process that did not queue it, which reads it from the
// database rather than from memory (queued.go). Enqueue and Post both.
func TestMessagesStoredPacked(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, where := newStore(t)
	raw := mailLike(300)
	mustTx(t, s, func(tx *Tx) error {
		if _, _, err := tx.Enqueue(ctx, Outgoing{MessageID: "<enqueued@p>", To: "bob@x.org", Raw: raw, NotBefore: t0}); err != nil {
			return err
		}
		return tx.Post(ctx, Outgoing{MessageID: "<posted@p>", To: "ann@x.org", Raw: raw, NotBefore: t0})
	})
	var sizes []int
	mustTx(t, s, func(tx *Tx) error {
		rows, err := tx.q.QueryContext(ctx, `SELECT raw FROM outbox_messages ORDER BY id`)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var stored []byte
			if err := rows.Scan(&stored); err != nil {
				return err
			}
			if !bytes.HasPrefix(stored, []byte(packedPrefix)) {
				t.Errorf("a message stored unpacked: %q", messageStart(stored))
			}
			sizes = append(sizes, len(stored))
		}
		return rows.Err()
	})
	if len(sizes) != 2 || sizes[0]*2 > len(raw) || sizes[1]*2 > len(raw) {
		t.Errorf("stored %v bytes for two messages of %d, want under half each", sizes, len(raw))
	}
	for _, mid := range []string{"<enqueued@p>", "<posted@p>"} {
		if o, err := s.OutgoingByMessageID(ctx, mid); err != nil || !bytes.Equal(o.Raw, raw) {
			t.Errorf("%s: read %d bytes, %v; want the message's %d", mid, len(o.Raw), err, len(raw))
		}
	}

	other, err := Open(ctx, where) // another process: nothing in memory
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	var claimed []Outgoing
	mustTx(t, other, func(tx *Tx) (err error) {
		claimed, err = tx.ClaimOutgoing(ctx, "n2", t0, t0.Add(time.Minute), 10)
		return err
	})
	if len(claimed) != 2 {
		t.Fatalf("claimed %d mails, want 2", len(claimed))
	}
	for _, o := range claimed {
		if !bytes.Equal(o.Raw, raw) {
			t.Errorf("%s claimed with %q, want the message", o.MessageID, messageStart(o.Raw))
		}
	}
}

// TestPackedMessagesRefuseDown: going below migration 34 would leave
// packed messages to a pbem that cannot read them, and would have it
// mail them as they are. Its Down refuses while one is stored, on both
// engines, and goes down once none is.
func TestPackedMessagesRefuseDown(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	mustTx(t, s, func(tx *Tx) error {
		return tx.Post(ctx, Outgoing{MessageID: "<posted@p>", To: "ann@x.org", Raw: mailLike(100), NotBefore: t0})
	})
	p, err := newProvider(s.be, s.w)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.DownTo(ctx, 33); err == nil {
		t.Fatal("went below migration 34 with a packed message stored")
	}
	if o, err := s.OutgoingByMessageID(ctx, "<posted@p>"); err != nil || !bytes.Equal(o.Raw, mailLike(100)) {
		t.Errorf("after the refusal the mail reads %d bytes, %v", len(o.Raw), err)
	}
	mustTx(t, s, func(tx *Tx) error {
		_, err := tx.exec(ctx, `DELETE FROM outbox`)
		return err
	})
	if _, err := p.DownTo(ctx, 33); err != nil {
		t.Fatalf("with no packed message stored: %v", err)
	}
}

// incompressible is n bytes that S2 cannot pack smaller, none of them
// NUL.
func incompressible(n int) []byte {
	b := make([]byte, n)
	x := uint32(2463534242)
	for i := range b {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		b[i] = byte(x%255) + 1
	}
	return b
}

// letters is n letters that S2 cannot pack smaller.
func letters(n int) []byte {
	b := incompressible(n)
	for i := range b {
		b[i] = 'a' + b[i]%26
	}
	return b
}

// messageStart is the start of b, for messages.
func messageStart(b []byte) []byte {
	return b[:min(len(b), 40)]
}

// TestPackedMessageInRow checks, on PostgreSQL, that a packed message is
// kept in its row (migration 34): neither compressed again nor cut into
// chunks of the table's TOAST table.
func TestPackedMessageInRow(t *testing.T) {
	t.Parallel()
	if !storetest.OnPostgres() {
		t.Skip("about PostgreSQL's TOAST")
	}
	ctx := context.Background()
	s, _ := newStore(t)
	// A mail of 30 kB, whose letters S2 packs to about 5 kB.
	raw := append(mailLike(200), letters(5000)...)
	mustTx(t, s, func(tx *Tx) error {
		return tx.Post(ctx, Outgoing{MessageID: "<posted@p>", To: "ann@x.org", Raw: raw, NotBefore: t0})
	})
	var stored, kept, toasted int
	mustTx(t, s, func(tx *Tx) error {
		return tx.q.QueryRowContext(ctx, `SELECT length(raw), pg_column_size(raw),
			(SELECT pg_relation_size(reltoastrelid) FROM pg_class WHERE oid = 'outbox_messages'::regclass)
			FROM outbox_messages`).Scan(&stored, &kept, &toasted)
	})
	if stored < 2100 || stored*2 > len(raw) {
		t.Fatalf("a mail of %d bytes stored as %d: the test wants one packed past 2 kB, where TOAST began", len(raw), stored)
	}
	if toasted != 0 || kept < stored {
		t.Errorf("a packed message of %d bytes kept as %d, its table's TOAST %d bytes; want it whole in its row", stored, kept, toasted)
	}
}

// BenchmarkPackMessage packs and unpacks a mail of the load's
// (testdata/mail.eml: a mail of a game of Felix, queued by pbem
// loadtest).
func BenchmarkPackMessage(b *testing.B) {
	raw, err := os.ReadFile("testdata/mail.eml")
	if err != nil {
		b.Fatal(err)
	}
	p := new(messagePacker)
	b.Run("pack", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		b.ReportAllocs()
		for b.Loop() {
			p.packMessage(raw)
		}
		b.ReportMetric(float64(len(p.packMessage(raw))), "stored-bytes")
	})
	stored := p.packMessage(raw)
	b.Run("unpack", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := unpackMessage(stored); err != nil {
				b.Fatal(err)
			}
		}
	})
}
