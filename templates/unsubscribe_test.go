package templates

import (
	"strings"
	"testing"
)

// TestUnsubscribePage: before the button, the page says what it does
// (for a game's mail, `notify off here`; for an invitation, `never`) and
// shows a form that POSTs RFC 8058's one-click field to the page itself;
// after, it says it is done and has no button. None runs a script,
// loads anything or names a game or an address.
func TestUnsubscribePage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		page       UnsubscribePage
		ask, done  []string
		notAskDone string
	}{
		{UnsubscribePage{}, []string{"Turn this game&#39;s mail off</button>", "`notify off here`", "Your other games keep your own setting"},
			[]string{"Done: pbem&#39;s mail about that game"}, "never"},
		{UnsubscribePage{Invitation: true}, []string{"Decline and stop invitations</button>", "`never`"},
			[]string{"Done: pbem will not invite"}, "notify off"},
	} {
		ask, err := tc.page.Render()
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range append(tc.ask, `<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">`, "changed nothing") {
			if !strings.Contains(ask, want) {
				t.Errorf("the page before the button lacks %q:\n%s", want, ask)
			}
		}
		done := tc.page
		done.Done = true
		after, err := done.Render()
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range tc.done {
			if !strings.Contains(after, want) || strings.Contains(after, "<form") || strings.Contains(after, "changed nothing") {
				t.Errorf("the page after the button (want %q):\n%s", want, after)
			}
		}
		for _, page := range []string{ask, after} {
			if strings.Contains(page, tc.notAskDone) {
				t.Errorf("the page holds the other act's %q:\n%s", tc.notAskDone, page)
			}
			for _, never := range []string{"<script", "action=", "src=", "href=", "@", " #"} {
				if strings.Contains(page, never) {
					t.Errorf("the page holds %q:\n%s", never, page)
				}
			}
		}
	}
}
