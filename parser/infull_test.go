package parser

import (
	"slices"
	"strings"
	"testing"
)

// TestWrittenInFullIsWhatTheReaderRefuses checks the list help gives of
// the commands written in full against the reader itself: each listed
// command, cut by a letter, is refused with "write it in full", and no
// other lobby command is refused so.
func TestWrittenInFullIsWhatTheReaderRefuses(t *testing.T) {
	t.Parallel()
	inFull := WrittenInFull()
	if len(inFull) == 0 {
		t.Fatal("WrittenInFull lists nothing")
	}
	for _, lc := range LobbyCommands() {
		if len(lc.Name) < 3 {
			continue
		}
		cut := lc.Name[:len(lc.Name)-1]
		if germanFillerWords[cut] {
			// "und" is German filler ("and"), not undo cut short: cut
			// one letter more.
			cut = cut[:len(cut)-1]
		}
		_, prob := Read(cut, lobbyLang())
		refused := prob != nil && strings.Contains(prob.Reason, "in full")
		if listed := slices.Contains(inFull, lc.Name); listed != refused {
			t.Errorf("%q read as %+v: listed as written in full %v, refused as a prefix %v", cut, prob, listed, refused)
		}
	}
}
