package templates

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The German goldens (issue 39): a representative set of the mails,
// notices and pages, written to a German reader (Language "de"), each
// whole in testdata/golden/de-NAME.txt ("Subject: ...", a blank line,
// the text) and de-NAME.html. The game's own parts (its table, rules,
// headline, events) are the games' to translate; the rest is this
// package's catalogs.

// germanGameCases are the game mails of the German goldens: a turn with
// options to tap, one that waits on others (autopilot, clocks), the
// first mail, a reminder, and the end with a rating.
var germanGameCases = []gameCase{
	{name: "felix-bid", file: "engine/felix/testdata/basics-4p.txt", reader: "bob", kind: "turn", web: true},
	{name: "felix-clocks-out", file: "engine/felix/testdata/basics-4p.txt", reader: "carol", kind: "turn", clocks: testClocks},
	{name: "gracias-start", file: "examples/gracias-3p.txt", upTo: moves(0), reader: "bob", kind: "start"},
	{name: "felix-reminder", file: "engine/felix/testdata/basics-4p.txt", reader: "bob", kind: MailReminder},
	{name: "felix-end-tie-break", file: "engine/felix/testdata/tie-break-4p.txt", reader: "alice", kind: "end",
		rating: &RatingChange{Before: 4.8, After: 6.2, Place: 2, Of: 5}},
}

// germanNoticeCases are the notices of the German goldens, by their
// names in noticeCases.
var germanNoticeCases = []string{
	"help-felix", "help-lobby", "error", "error-seat", "invite", "joined", "declined", "games", "digest",
	"standings-detail", "unknown", "toolarge", "created", "applied", "rules-felix",
}

func TestGoldenGerman(t *testing.T) {
	t.Parallel()
	r := newRenderer(t)
	for _, c := range germanGameCases {
		t.Run(c.name, func(t *testing.T) {
			m := germanGameMail(t, c)
			mail := render(t, r, m)
			compareWhole(t, "de-"+c.name, mail)
		})
	}
	cases := noticeCases()
	for _, name := range germanNoticeCases {
		t.Run(name, func(t *testing.T) {
			n, ok := cases[name]
			if !ok {
				t.Fatalf("no notice case %s", name)
			}
			n.Language = "de"
			m, err := r.Notice(n)
			if err != nil {
				t.Fatal(err)
			}
			checkShape(t, m)
			compareWhole(t, "de-notice-"+name, m)
		})
	}
	t.Run("page", func(t *testing.T) {
		page := webCasePageWith(t, r, webCases[0], func(m *GameMail) { m.Language = "de" })
		compareGolden(t, filepath.Join(goldenDir, "de-page-felix-mid.html"), page)
	})
	t.Run("page-past", func(t *testing.T) {
		c := webCases[1]
		page := webCasePageWith(t, r, c, func(m *GameMail) { m.Language = "de" })
		if !strings.Contains(page, `<html lang="de">`) {
			t.Errorf("the page is not marked German")
		}
		compareGolden(t, filepath.Join(goldenDir, "de-page-felix-end.html"), page)
	})
	t.Run("address-page", func(t *testing.T) {
		got, err := AddressConfirmPage{From: "alice@example.org", To: "alice@work.example", Until: "Sun 2 Mar 2025 12:00", Language: "de"}.Render()
		if err != nil {
			t.Fatal(err)
		}
		compareGolden(t, filepath.Join(goldenDir, "de-page-address-ask-move.html"), got)
	})
	t.Run("unsubscribe-page", func(t *testing.T) {
		got, err := UnsubscribePage{Invitation: true, Language: "de"}.Render()
		if err != nil {
			t.Fatal(err)
		}
		compareGolden(t, filepath.Join(goldenDir, "de-page-unsubscribe-invitation.html"), got)
	})
}

// germanGameMail is the mail of a German golden's case, as
// TestGoldenGameMails builds it, to a German reader.
func germanGameMail(t *testing.T, c gameCase) GameMail {
	t.Helper()
	m := goldenGameMail(t, c)
	m.Language = "de"
	return m
}

// compareWhole compares a whole mail with its goldens: NAME.txt, the
// subject and the text, and NAME.html, the HTML part.
func compareWhole(t *testing.T, name string, m Mail) {
	t.Helper()
	compareGolden(t, filepath.Join(goldenDir, name+".txt"), "Subject: "+m.Subject+"\n\n"+m.Text)
	compareGolden(t, filepath.Join(goldenDir, name+".html"), m.HTML)
}

// TestGermanDates: a German date names its weekday and month in German,
// with one full stop after an abbreviation, whatever the layout puts
// after it; English's are Go's.
func TestGermanDates(t *testing.T) {
	de := For("de")
	berlin := mustZone("Europe/Berlin")
	for _, c := range []struct {
		t      time.Time
		layout string
		want   string
	}{
		{time.Date(2026, 12, 1, 19, 36, 0, 0, berlin), de.ClockLayout(), "Di., 1. Dez., 19:36 CET"},
		{time.Date(2026, 12, 1, 19, 36, 0, 0, berlin), de.DateLayout(), "Di., 1. Dez. 2026"},
		{time.Date(2026, 12, 1, 19, 36, 0, 0, berlin), de.DayLayout(), "Di., 1. Dez."},
		{time.Date(2026, 5, 1, 8, 0, 0, 0, berlin), de.ClockLayout(), "Fr., 1. Mai, 08:00 CEST"},
		{time.Date(2026, 3, 15, 8, 0, 0, 0, berlin), de.DateLayout(), "So., 15. März 2026"},
		{time.Date(2026, 6, 3, 8, 0, 0, 0, berlin), de.DayLayout(), "Mi., 3. Juni"},
		{time.Date(2026, 9, 10, 8, 0, 0, 0, berlin), de.DayLayout(), "Do., 10. Sept."},
		// a layout that puts its own full stop after a name
		{time.Date(2026, 12, 1, 19, 36, 0, 0, berlin), "Mon. 2. Jan. 2006", "Di. 1. Dez. 2026"},
		{time.Date(2026, 7, 4, 19, 36, 0, 0, berlin), "Mon. 2. Jan. 2006", "Sa. 4. Juli. 2026"},
		{time.Date(2026, 12, 1, 19, 36, 0, 0, berlin), "Monday, 2. January 2006", "Dienstag, 1. Dezember 2026"},
		{time.Date(2026, 12, 1, 19, 36, 0, 0, berlin), Say.ClockLayout(), "Di. 1 Dez. 19:36 CET"},
	} {
		if got := de.Date(c.t, c.layout); got != c.want {
			t.Errorf("Date(%s, %q) = %q, want %q", c.t, c.layout, got, c.want)
		}
		if strings.Contains(de.Date(c.t, c.layout), "..") {
			t.Errorf("Date(%s, %q): two full stops", c.t, c.layout)
		}
	}
	at := time.Date(2026, 12, 1, 19, 36, 0, 0, berlin)
	for _, layout := range []string{Say.ClockLayout(), Say.DateLayout(), Say.DayLayout(), "Monday, 2 January 2006 15:04 MST"} {
		if got, want := Say.Date(at, layout), at.Format(layout); got != want {
			t.Errorf("Say.Date(%q) = %q, want Go's %q", layout, got, want)
		}
		if got, want := In(Say.language()).Date(at, layout), at.Format(layout); got != want {
			t.Errorf("English Date(%q) = %q, want Go's %q", layout, got, want)
		}
	}
	if got, want := Say.deadlineText(at, time.UTC), "Tue 1 Dec 18:36 UTC"; got != want {
		t.Errorf("deadlineText = %q, want %q", got, want)
	}
}

// TestReminderPrefixes: a reminder's headline starts, in each language,
// with what ReminderPrefixes names for it.
func TestReminderPrefixes(t *testing.T) {
	got := ReminderPrefixes()
	if len(got) < 2 || got[0] != "Reminder:" || got[1] != "Erinnerung:" {
		t.Errorf("ReminderPrefixes() = %q", got)
	}
}
