package parser

import (
	"net/mail"
	"testing"
	"time"
)

// dateSeeds are Date fields mail programs write, and some they should
// not.
var dateSeeds = []string{
	"Mon, 30 Nov 2026 19:15:25 +0000",
	"Mon, 2 Nov 2026 19:15:25 +0100",
	" Tue, 01 Dec 2026 08:00:00 -0500 ",
	"\tWed, 9 Dec 2026 23:59:59 +1345",
	"Thu, 10 Dec 2026 10:00:00 -0000 (UTC)",
	"Fri, 11 Dec 2026 10:00 +0200",
	"11 Dec 2026 10:00:00 +0200",
	"Sat, 12 Dec 26 10:00:00 GMT",
	"Sun, 13 Dec 2026 10:00:00 EST",
	"Mon, 14 Dec 2026 10:00:00 +0000\r\n",
	"Mon, 14 Dec 2026 10:00:00 +0000\r",
	"Mon, 14 Dec 2026 10:00:00 +00",
	"Mon, 14 Dec 2026 10:00:00 +0000 extra",
	"Mon, 31 Feb 2026 10:00:00 +0000",
	"Fri, 30 Nov 2026 19:15:25 +0000",
	"Mon, 30 Nov 2026 19:15:25 +2400",
	"Mon,  30 Nov 2026 19:15:25 +0000",
	"",
	"yesterday",
}

// checkDateAsNetMail fails when parseDate and net/mail.ParseDate read
// v differently.
func checkDateAsNetMail(t *testing.T, v string) {
	t.Helper()
	got, gotErr := parseDate(v)
	want, wantErr := mail.ParseDate(v)
	if (gotErr == nil) != (wantErr == nil) || !got.Equal(want) || got.Location().String() != want.Location().String() {
		t.Errorf("parseDate(%q) = %v, %v; net/mail: %v, %v", v, got, gotErr, want, wantErr)
	}
	if gotErr == nil {
		_, off := got.Zone()
		_, wantOff := want.Zone()
		if off != wantOff {
			t.Errorf("parseDate(%q): offset %d, net/mail %d", v, off, wantOff)
		}
	}
}

func TestParseDateAsNetMail(t *testing.T) {
	for _, v := range dateSeeds {
		checkDateAsNetMail(t, v)
	}
	// Every day of the year, at every quarter hour's zone.
	day := time.Date(2026, 1, 1, 7, 5, 9, 0, time.UTC)
	for i := 0; i < 366; i++ {
		d := day.AddDate(0, 0, i).In(time.FixedZone("", (i%105-52)*15*60))
		checkDateAsNetMail(t, d.Format(commonDateLayout))
		checkDateAsNetMail(t, d.Format(time.RFC1123Z))
	}
}

func FuzzParseDate(f *testing.F) {
	for _, v := range dateSeeds {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v string) {
		checkDateAsNetMail(t, v)
	})
}
