package embedded

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/smtp"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// startDir starts servers keeping mail in dir. The test closes them itself
// to start again on the same dir; Cleanup closes them if it did not.
func startDir(t *testing.T, dir string) *Servers {
	t.Helper()
	s, err := Start(context.Background(), Config{
		IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0", Domain: "example.test", Password: "pw",
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Dir: dir,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func login(t *testing.T, s *Servers, user string) *imapclient.Client {
	t.Helper()
	c, err := imapclient.DialInsecure(s.IMAPAddr(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if err := c.Login(user, "pw").Wait(); err != nil {
		t.Fatal(err)
	}
	return c
}

type msgState struct {
	UID   imap.UID
	Flags string
	Date  int64
	Body  string
}

type boxState struct {
	Validity   uint32
	UIDNext    imap.UID
	Subscribed bool
	Msgs       []msgState
}

// snapshot is everything a client can see of a user's mail.
func snapshot(t *testing.T, s *Servers, user string) map[string]boxState {
	t.Helper()
	c := login(t, s, user)
	defer c.Logout()
	list, err := c.List("", "*", nil).Collect()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]boxState{}
	for _, l := range list {
		data, err := c.Select(l.Mailbox, &imap.SelectOptions{ReadOnly: true}).Wait()
		if err != nil {
			t.Fatalf("select %s: %v", l.Mailbox, err)
		}
		b := boxState{Validity: data.UIDValidity, UIDNext: data.UIDNext, Subscribed: slices.Contains(l.Attrs, imap.MailboxAttrSubscribed)}
		if data.NumMessages > 0 {
			section := &imap.FetchItemBodySection{Peek: true}
			msgs, err := c.Fetch(imap.SeqSet{{Start: 1, Stop: data.NumMessages}}, &imap.FetchOptions{
				UID: true, Flags: true, InternalDate: true, BodySection: []*imap.FetchItemBodySection{section},
			}).Collect()
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range msgs {
				var flags []string
				for _, f := range m.Flags {
					flags = append(flags, strings.ToLower(string(f)))
				}
				slices.Sort(flags)
				b.Msgs = append(b.Msgs, msgState{UID: m.UID, Flags: strings.Join(flags, " "), Date: m.InternalDate.Unix(), Body: string(m.FindBodySection(section))})
			}
		}
		out[l.Mailbox] = b
	}
	return out
}

func deliver(t *testing.T, s *Servers, to, subject string) {
	t.Helper()
	if err := s.Deliver("x@elsewhere.test", []string{to}, []byte("Subject: "+subject+"\r\n\r\nbody of "+subject+"\r\n")); err != nil {
		t.Fatal(err)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestDiskKeepsEverythingAcrossRestart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := startDir(t, dir)
	for i := 1; i <= 5; i++ {
		deliver(t, s, "bob@example.test", fmt.Sprint("m", i))
	}
	c := login(t, s, "bob@example.test")
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	must(t, c.Store(imap.UIDSetNum(1), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{"$PbemDone", imap.FlagSeen}}, nil).Close())
	must(t, c.Store(imap.UIDSetNum(2, 5), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagDeleted}}, nil).Close())
	// UID 5 is the last: its expunge must not let UIDNEXT fall back.
	must(t, c.UIDExpunge(imap.UIDSetNum(2, 5)).Close())
	must(t, c.Create("Processed", nil).Wait())
	must(t, c.Subscribe("Processed").Wait())
	if _, err := c.Move(imap.UIDSetNum(3), "Processed").Wait(); err != nil {
		t.Fatal(err)
	}
	must(t, c.Create("Old", nil).Wait())
	must(t, c.Rename("Old", "Archive/2024", nil).Wait())
	must(t, c.Create("Gone", nil).Wait())
	must(t, c.Delete("Gone").Wait())
	app := c.Append("Archive/2024", 10, &imap.AppendOptions{Flags: []imap.Flag{imap.FlagFlagged}, Time: time.Unix(1700000000, 0)})
	app.Write([]byte("Subject: a"))
	must(t, app.Close())
	if _, err := app.Wait(); err != nil {
		t.Fatal(err)
	}
	c.Logout()

	before := snapshot(t, s, "bob@example.test")
	if got := len(before); got != 3 {
		t.Fatalf("mailboxes before restart: %v", before)
	}
	if in := before["INBOX"]; len(in.Msgs) != 2 || in.Msgs[0].Flags != "$pbemdone \\seen" || in.Msgs[1].UID != 4 || in.UIDNext != 6 {
		t.Fatalf("INBOX before restart: %+v", in)
	}
	must(t, s.Close())

	s = startDir(t, dir)
	after := snapshot(t, s, "bob@example.test")
	if !reflect.DeepEqual(before, after) {
		t.Fatalf("after restart\n%+v\nwant\n%+v", after, before)
	}
	// New mail continues the UIDs.
	deliver(t, s, "bob@example.test", "m6")
	if in := snapshot(t, s, "bob@example.test")["INBOX"]; in.Msgs[len(in.Msgs)-1].UID != 6 || in.Validity != before["INBOX"].Validity {
		t.Fatalf("after new mail: %+v", in)
	}
}

func TestUIDValidityIsNeverReused(t *testing.T) {
	t.Parallel()
	start := uint32(time.Now().Unix())
	dir := t.TempDir()
	s := startDir(t, dir)
	deliver(t, s, "bob@example.test", "one")
	v1 := snapshot(t, s, "bob@example.test")["INBOX"].Validity
	// Time-based: above anything an earlier life handed out in an earlier
	// second, and far above the small counters of go-imap's memory server.
	if v1 < start {
		t.Fatalf("UIDVALIDITY %d is below the start time %d", v1, start)
	}
	must(t, s.ResetMailbox("bob@example.test", "INBOX"))
	v2 := snapshot(t, s, "bob@example.test")["INBOX"].Validity
	if v2 <= v1 {
		t.Fatalf("UIDVALIDITY after reset %d, before %d", v2, v1)
	}
	must(t, s.Close())

	// A mailbox deleted by hand while the servers were down, and a new
	// user's: both above every value the directory has handed out.
	must(t, os.RemoveAll(filepath.Join(dir, "bob@example.test", "INBOX")))
	s = startDir(t, dir)
	deliver(t, s, "carol@example.test", "hi")
	v3 := snapshot(t, s, "bob@example.test")["INBOX"].Validity
	v4 := snapshot(t, s, "carol@example.test")["INBOX"].Validity
	if v3 <= v2 || v4 <= v2 || v3 == v4 {
		t.Fatalf("UIDVALIDITY sequence %d %d %d %d is not increasing", v1, v2, v3, v4)
	}
	must(t, s.Close())

	// A fresh directory starts at the clock, never below an earlier run.
	s = startDir(t, t.TempDir())
	if v := snapshot(t, s, "bob@example.test")["INBOX"].Validity; v < v1 {
		t.Fatalf("fresh directory UIDVALIDITY %d, earlier run %d", v, v1)
	}
}

// dropMail puts a message into a maildir new/ folder the way an MDA does:
// written in a temporary place, then renamed in.
func dropMail(t *testing.T, newDir, name, body string) {
	t.Helper()
	must(t, os.MkdirAll(newDir, 0o700))
	tmp := filepath.Join(t.TempDir(), name)
	must(t, os.WriteFile(tmp, []byte(body), 0o600))
	must(t, os.Rename(tmp, filepath.Join(newDir, name)))
}

func TestMailDroppedWhileDownIsDeliveredAtStart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := startDir(t, dir)
	deliver(t, s, "alice@example.test", "first")
	before := snapshot(t, s, "alice@example.test")["INBOX"]
	must(t, s.Close())

	dropMail(t, filepath.Join(dir, "alice@example.test", "INBOX", "new"), "1.dropped", "Subject: dropped\r\n\r\nhello\r\n")
	// A user who never had mail: its folders made by hand.
	dropMail(t, filepath.Join(dir, "dave@example.test", "INBOX", "new"), "2.dropped", "Subject: for dave\r\n\r\nhi\r\n")

	s = startDir(t, dir)
	in := snapshot(t, s, "alice@example.test")["INBOX"]
	if len(in.Msgs) != 2 || in.Msgs[1].UID != 2 || in.Msgs[1].Body != "Subject: dropped\r\n\r\nhello\r\n" || in.Validity != before.Validity {
		t.Fatalf("alice's INBOX: %+v (before %+v)", in, before)
	}
	if d := snapshot(t, s, "dave@example.test")["INBOX"]; len(d.Msgs) != 1 || d.Msgs[0].UID != 1 {
		t.Fatalf("dave's INBOX: %+v", d)
	}
	if left, _ := os.ReadDir(filepath.Join(dir, "alice@example.test", "INBOX", "new")); len(left) != 0 {
		t.Fatalf("new/ still holds %d files", len(left))
	}
	// Delivered once: a second start does not deliver it again.
	must(t, s.Close())
	s = startDir(t, dir)
	if again := snapshot(t, s, "alice@example.test")["INBOX"]; !reflect.DeepEqual(again, in) {
		t.Fatalf("after a second start %+v, want %+v", again, in)
	}
}

func TestCrashLeftoversLoseNothingAcknowledged(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := startDir(t, dir)
	for i := 1; i <= 3; i++ {
		deliver(t, s, "bob@example.test", fmt.Sprint("m", i))
	}
	c := login(t, s, "bob@example.test")
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	must(t, c.Store(imap.UIDSetNum(1), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{"$PbemDone"}}, nil).Close())
	c.Logout()
	before := snapshot(t, s, "bob@example.test")["INBOX"]
	if len(before.Msgs) != 3 {
		t.Fatalf("before the crash: %+v", before)
	}
	must(t, s.Close())

	// What a crash at various points can leave behind.
	box := filepath.Join(dir, "bob@example.test", "INBOX")
	must(t, os.WriteFile(filepath.Join(box, "tmp", "123.half"), []byte("Subject: half writ"), 0o600))
	must(t, os.WriteFile(filepath.Join(box, "journal.tmp-1"), []byte("pbem-mail"), 0o600))
	must(t, os.MkdirAll(filepath.Join(dir, "bob@example.test", ".new-1", "cur"), 0o700))
	j, err := os.OpenFile(filepath.Join(box, "journal"), os.O_WRONLY|os.O_APPEND, 0)
	must(t, err)
	// UID 3's expunge was journalled but its file not yet removed; then a
	// flag change was cut off mid-line, never answered.
	_, err = j.WriteString("expunge 3\nflags 2 \\Fla")
	must(t, err)
	must(t, j.Close())

	s = startDir(t, dir)
	after := snapshot(t, s, "bob@example.test")
	want := before
	want.Msgs = want.Msgs[:2]
	if !reflect.DeepEqual(after["INBOX"], want) || len(after) != 1 {
		t.Fatalf("after the crash %+v, want %+v", after, want)
	}
	for _, p := range []string{filepath.Join(box, "tmp", "123.half"), filepath.Join(box, "journal.tmp-1"), filepath.Join(box, "cur", "3"), filepath.Join(dir, "bob@example.test", ".new-1")} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s was not cleaned up", p)
		}
	}
	// The journal is whole again: a flag set now survives the next start.
	c = login(t, s, "bob@example.test")
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	must(t, c.Store(imap.UIDSetNum(2), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagFlagged}}, nil).Close())
	c.Logout()
	must(t, s.Close())
	s = startDir(t, dir)
	if m := snapshot(t, s, "bob@example.test")["INBOX"].Msgs; len(m) != 2 || m[1].Flags != "\\flagged" || m[1].UID != 2 {
		t.Fatalf("after another start: %+v", m)
	}
}

func TestSMTPAnswersAfterTheMailIsOnDisk(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := startDir(t, dir)
	c, err := smtp.Dial(s.SMTPAddr())
	must(t, err)
	must(t, c.Mail("x@elsewhere.test"))
	must(t, c.Rcpt("game+tok@example.test"))
	w, err := c.Data()
	must(t, err)
	fmt.Fprint(w, "Subject: durable\r\n\r\nx\r\n")
	must(t, w.Close()) // returns once the server said 250
	files, err := os.ReadDir(filepath.Join(dir, "game@example.test", "INBOX", "cur"))
	if err != nil || len(files) != 1 || files[0].Name() != "1" {
		t.Fatalf("cur/ after 250: %v %v", files, err)
	}
	c.Quit()
}

// UIDVALIDITY is the same wherever a client meets it: SELECT, STATUS,
// APPENDUID, COPYUID and MOVE's COPYUID.
func TestUIDValidityReportedEverywhere(t *testing.T) {
	t.Parallel()
	s := startDir(t, t.TempDir())
	deliver(t, s, "bob@example.test", "one")
	deliver(t, s, "bob@example.test", "two")
	c := login(t, s, "bob@example.test")
	must(t, c.Create("Kept", nil).Wait())
	kept, err := c.Status("Kept", &imap.StatusOptions{UIDValidity: true}).Wait()
	must(t, err)
	app := c.Append("Kept", 10, nil)
	app.Write([]byte("Subject: a"))
	must(t, app.Close())
	appended, err := app.Wait()
	must(t, err)
	sel, err := c.Select("INBOX", nil).Wait()
	must(t, err)
	copied, err := c.Copy(imap.UIDSetNum(1), "Kept").Wait()
	must(t, err)
	moved, err := c.Move(imap.UIDSetNum(2), "Kept").Wait()
	must(t, err)
	inbox, err := c.Status("INBOX", &imap.StatusOptions{UIDValidity: true, NumMessages: true}).Wait()
	must(t, err)
	v := kept.UIDValidity
	if appended.UIDValidity != v || copied.UIDValidity != v || moved.UIDValidity != v || inbox.UIDValidity != sel.UIDValidity || v == sel.UIDValidity {
		t.Fatalf("Kept %d: append %d copy %d move %d; INBOX select %d status %d", v, appended.UIDValidity, copied.UIDValidity, moved.UIDValidity, sel.UIDValidity, inbox.UIDValidity)
	}
	if appended.UID != 1 || copied.DestUIDs.String() != "2" || moved.DestUIDs.String() != "3" || *inbox.NumMessages != 1 {
		t.Fatalf("append uid %d, copy %v, move %v, INBOX now %d", appended.UID, copied.DestUIDs, moved.DestUIDs, *inbox.NumMessages)
	}
}
