package templates

import (
	"strings"
	"testing"

	"github.com/pbem/pbem/engine"
)

// TestHelpNamesAGameItHosts: help's examples name a game the renderer was
// given ("rules toy"), never one it does not host.
func TestHelpNamesAGameItHosts(t *testing.T) {
	t.Parallel()
	r, err := New(map[string]engine.Rules{"toy": toy{files: toyFiles()}})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []Notice{
		{Kind: NoticeHelp, Usages: []string{"help", "rules [GAME]", "new GAME with ADDRESS... [and N bots] [deadline 48h] [weekends off]"}},
		{Kind: NoticeHelp},
		{Kind: NoticeGames},
	} {
		n.Service, n.Marker, n.To = "pbem", "-- pbem --", "alice@example.org"
		m, err := r.Notice(n)
		if err != nil {
			t.Fatal(err)
		}
		for _, part := range []string{m.Text, m.HTML} {
			if strings.Contains(part, "felix") {
				t.Errorf("a %s notice of a pbem that hosts only toy names felix:\n%s", n.Kind, part)
			}
		}
		if !strings.Contains(m.Text, "toy") {
			t.Errorf("a %s notice names no game it hosts:\n%s", n.Kind, m.Text)
		}
	}
}
