package embedded

import (
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
)

// TestSearchKeys: each search key the embedded server knows selects the
// messages it should, alone and under NOT and OR, and a message's text
// is read only when a key needs it.
func TestSearchKeys(t *testing.T) {
	t.Parallel()
	raw := "From: alice@x.test\r\nSubject: Play Rabbit\r\nDate: Mon, 02 Jan 2006 15:04:05 +0000\r\n\r\nplay rabbit\r\n"
	day := func(d int) time.Time { return time.Date(2006, 1, d, 0, 0, 0, 0, time.UTC) }
	uids := func(lo, hi imap.UID) imap.UIDSet { return imap.UIDSet{imap.UIDRange{Start: lo, Stop: hi}} }
	seqs := func(lo, hi uint32) imap.SeqSet { return imap.SeqSet{imap.SeqRange{Start: lo, Stop: hi}} }
	cases := []struct {
		name string
		k    imap.SearchCriteria
		want bool
	}{
		{"all", imap.SearchCriteria{}, true},
		{"seq in", imap.SearchCriteria{SeqNum: []imap.SeqSet{seqs(1, 3)}}, true},
		{"seq out", imap.SearchCriteria{SeqNum: []imap.SeqSet{seqs(4, 5)}}, false},
		{"uid in", imap.SearchCriteria{UID: []imap.UIDSet{uids(7, 7)}}, true},
		{"uid out", imap.SearchCriteria{UID: []imap.UIDSet{uids(8, 9)}}, false},
		{"since", imap.SearchCriteria{Since: day(3)}, true},
		{"since later", imap.SearchCriteria{Since: day(4)}, false},
		{"before", imap.SearchCriteria{Before: day(3)}, false},
		{"flag", imap.SearchCriteria{Flag: []imap.Flag{imap.FlagSeen}}, true},
		{"flag missing", imap.SearchCriteria{Flag: []imap.Flag{imap.FlagDeleted}}, false},
		{"not flag", imap.SearchCriteria{NotFlag: []imap.Flag{imap.FlagSeen}}, false},
		{"larger", imap.SearchCriteria{Larger: 10}, true},
		{"larger than it", imap.SearchCriteria{Larger: int64(len(raw))}, false},
		{"smaller", imap.SearchCriteria{Smaller: int64(len(raw))}, false},
		{"header", imap.SearchCriteria{Header: []imap.SearchCriteriaHeaderField{{Key: "Subject", Value: "rabbit"}}}, true},
		{"header any value", imap.SearchCriteria{Header: []imap.SearchCriteriaHeaderField{{Key: "From"}}}, true},
		{"header absent", imap.SearchCriteria{Header: []imap.SearchCriteriaHeaderField{{Key: "Cc"}}}, false},
		{"header other value", imap.SearchCriteria{Header: []imap.SearchCriteriaHeaderField{{Key: "Subject", Value: "bid"}}}, false},
		{"sent since", imap.SearchCriteria{SentSince: day(2)}, true},
		{"sent before", imap.SearchCriteria{SentBefore: day(2)}, false},
		{"body", imap.SearchCriteria{Body: []string{"RABBIT"}}, true},
		{"body not header", imap.SearchCriteria{Body: []string{"alice"}}, false},
		{"text", imap.SearchCriteria{Text: []string{"alice"}}, true},
		{"text missing", imap.SearchCriteria{Text: []string{"bob"}}, false},
		{"not", imap.SearchCriteria{Not: []imap.SearchCriteria{{Body: []string{"bob"}}}}, true},
		{"not matching", imap.SearchCriteria{Not: []imap.SearchCriteria{{Body: []string{"rabbit"}}}}, false},
		{"or", imap.SearchCriteria{Or: [][2]imap.SearchCriteria{{{Body: []string{"bob"}}, {Larger: 10}}}}, true},
		{"or neither", imap.SearchCriteria{Or: [][2]imap.SearchCriteria{{{Body: []string{"bob"}}, {Smaller: 10}}}}, false},
	}
	for _, tc := range cases {
		c := &candidate{m: &message{uid: 7, date: day(3).Add(5 * time.Hour), size: int64(len(raw)), flags: []imap.Flag{imap.FlagSeen}, buf: []byte(raw)}, seq: 2}
		if got := c.matches(&tc.k); got != tc.want {
			t.Errorf("%s: matches = %v, want %v", tc.name, got, tc.want)
		}
		textKey := len(tc.k.Header)+len(tc.k.Body)+len(tc.k.Text)+len(tc.k.Not)+len(tc.k.Or) > 0 || !tc.k.SentSince.IsZero() || !tc.k.SentBefore.IsZero()
		if c.loaded && !textKey {
			t.Errorf("%s: the text was read for keys that need none", tc.name)
		}
	}
}
