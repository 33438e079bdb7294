package parser

import (
	"net/mail"
	"strings"
	"time"
)

// commonDateLayout is the Date header nearly every mail program writes
// (RFC 5322's preferred form, a one- or two-digit day).
const commonDateLayout = "Mon, 2 Jan 2006 15:04:05 -0700"

// parseDate reads a Date header as net/mail.ParseDate does, trying
// the common form first. ParseDate tries 24 layouts without a day of
// the week before the first with one, and each failure allocates an
// error: issue 40's profile of a command found it at 4 kB of every
// mail read. When the common form parses the whole field, ParseDate
// would have returned the same time: that layout is the first of its
// own that can read a field starting with a day's name, and such a
// field has no '+' or '-' before its zone, where ParseDate cuts it
// (TestParseDateAsNetMail, FuzzParseDate).
func parseDate(v string) (time.Time, error) {
	if t, err := time.Parse(commonDateLayout, strings.Trim(v, " \t")); err == nil {
		return t, nil
	}
	return mail.ParseDate(v)
}
