package store

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pbem/pbem/store/storetest"
)

// The crash test re-runs the test binary as a child that handles "inbound
// messages" in a loop of transactions, each recording the message, appending
// a move, enqueuing two mails and advancing the cursor, and SIGKILLs it
// partway. After each kill the database must hold every transaction the
// child saw committed, each of them whole, and nothing of any other.
const (
	crashEnvDB    = "PBEM_STORE_CRASH_DB"    // the child's database; set only in the child
	crashEnvGame  = "PBEM_STORE_CRASH_GAME"  // the game the child appends to
	crashEnvBlock = "PBEM_STORE_CRASH_BLOCK" // the message inside whose transaction the child stops; 0 for none
)

func TestCrashSafety(t *testing.T) {
	if path := os.Getenv(crashEnvDB); path != "" {
		crashChild(t, path)
		return
	}
	ctx := context.Background()
	// On PostgreSQL the child is killed in the middle of its
	// transactions as well: the server must roll them back.
	path := storetest.Database(t)
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	game := newGame(t, s, "ann@example.org", "bob@example.org")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	// The first round stops inside a transaction and is killed there for
	// sure; the others are killed at a random moment of the loop, which
	// may be inside a statement, a commit or between transactions.
	var last uint32
	for round := range 4 {
		block := uint32(0)
		if round == 0 {
			block = 12
		}
		committed := runCrashChild(t, path, game, block, last)
		s, err := Open(ctx, path)
		if err != nil {
			t.Fatalf("round %d: reopen after kill: %v", round, err)
		}
		last = checkCrashState(t, s, game)
		s.Close()
		if last < committed {
			t.Fatalf("round %d: the child committed message %d, the database has %d", round, committed, last)
		}
		if block > 0 && last != block-1 {
			t.Fatalf("round %d: killed inside the transaction of message %d, the database has up to %d", round, block, last)
		}
		t.Logf("round %d: %d messages committed", round, last)
	}
}

// runCrashChild starts the child, kills it and returns the last message it
// reported committed.
func runCrashChild(t *testing.T, path string, game int64, block, start uint32) uint32 {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashSafety$", "-test.count=1")
	cmd.Env = append(os.Environ(),
		crashEnvDB+"="+path,
		crashEnvGame+"="+strconv.FormatInt(game, 10),
		crashEnvBlock+"="+strconv.FormatUint(uint64(block), 10))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	killAfter := start + 5 + uint32(rand.IntN(10))
	var committed uint32
	killed := false
	var other []string // the child's test output, if it fails
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 2 || (f[0] != "committed" && f[0] != "inside") {
			other = append(other, sc.Text())
			continue
		}
		n, _ := strconv.ParseUint(f[1], 10, 32)
		switch f[0] {
		case "committed":
			committed = uint32(n)
			if block == 0 && committed >= killAfter && !killed {
				// Let the child run on for a moment that may end anywhere.
				time.Sleep(time.Duration(rand.IntN(3000)) * time.Microsecond)
				cmd.Process.Signal(syscall.SIGKILL)
				killed = true
			}
		case "inside":
			if uint32(n) == block && !killed {
				cmd.Process.Signal(syscall.SIGKILL)
				killed = true
			}
		}
	}
	err = cmd.Wait()
	if !killed {
		t.Fatalf("the child ended by itself (%v):\n%s\n%s", err, strings.Join(other, "\n"), stderr.String())
	}
	return committed
}

// crashChild runs in the child process until it is killed, at most a
// minute.
func crashChild(t *testing.T, path string) {
	ctx := context.Background()
	game, _ := strconv.ParseInt(os.Getenv(crashEnvGame), 10, 64)
	block, _ := strconv.ParseUint(os.Getenv(crashEnvBlock), 10, 32)
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	_, last, err := s.Cursor(ctx, "INBOX")
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(time.Minute)
	for uid := last + 1; time.Now().Before(deadline); uid++ {
		err := s.Tx(ctx, func(tx *Tx) error {
			in, err := tx.RecordInbound(ctx, Inbound{MessageID: fmt.Sprintf("<in-%d@x>", uid), Mailbox: "INBOX",
				UIDValidity: 1, UID: uid, From: "ann@example.org", GameID: game, Outcome: "applied", ReceivedAt: t0})
			if err != nil {
				return err
			}
			if _, err := tx.AppendMove(ctx, game, Move{Seat: int(uid % 2), Command: fmt.Sprintf("bid %d", uid),
				Source: SourceMail, InboundID: in, At: t0}); err != nil {
				return err
			}
			if uint64(uid) == block {
				fmt.Printf("inside %d\n", uid)
				time.Sleep(time.Minute) // until killed
			}
			for r := range 2 {
				if _, _, err := tx.Enqueue(ctx, Outgoing{MessageID: fmt.Sprintf("<out-%d-%d@x>", uid, r), GameID: game,
					To: "bob@example.org", Raw: []byte(strings.Repeat("x", 2000)), NotBefore: t0}); err != nil {
					return err
				}
			}
			return tx.SetCursor(ctx, "INBOX", 1, uid)
		})
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("committed %d\n", uid)
	}
	t.Fatal("the child was not killed within a minute")
}

// checkCrashState checks that messages 1..n are each whole and that
// nothing else is there, and returns n.
func checkCrashState(t *testing.T, s *Store, game int64) uint32 {
	t.Helper()
	ctx := context.Background()
	_, n, err := s.Cursor(ctx, "INBOX")
	if err != nil {
		t.Fatal(err)
	}
	moves, err := s.Moves(ctx, game, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(moves) != int(n) {
		t.Fatalf("cursor at %d, %d moves", n, len(moves))
	}
	if c := count(t, s, "inbound"); c != int(n) {
		t.Fatalf("cursor at %d, %d inbound records", n, c)
	}
	if c := count(t, s, "outbox"); c != 2*int(n) {
		t.Fatalf("cursor at %d, %d outgoing mails", n, c)
	}
	for i, m := range moves {
		uid := uint32(i + 1)
		in, err := s.InboundByMessageID(ctx, fmt.Sprintf("<in-%d@x>", uid))
		if err != nil {
			t.Fatalf("message %d: %v", uid, err)
		}
		if m.Seq != int64(uid) || m.Command != fmt.Sprintf("bid %d", uid) || m.InboundID != in.ID || in.UID != uid {
			t.Fatalf("message %d: move %+v, inbound %+v", uid, m, in)
		}
		for r := range 2 {
			var raw []byte
			err := s.q.QueryRowContext(ctx, `SELECT raw FROM outbox JOIN outbox_messages USING (id) WHERE message_id = ?`, fmt.Sprintf("<out-%d-%d@x>", uid, r)).Scan(&raw)
			if err == nil {
				raw, err = unpackMessage(raw)
			}
			if err != nil || !bytes.Equal(raw, []byte(strings.Repeat("x", 2000))) {
				t.Fatalf("message %d: mail %d: %d bytes, %v", uid, r, len(raw), err)
			}
		}
	}
	if s.Engine() == SQLite {
		var check string
		if err := s.r.QueryRow(`PRAGMA integrity_check`).Scan(&check); err != nil || check != "ok" {
			t.Fatalf("integrity_check = %q, %v", check, err)
		}
	}
	return n
}
