package templates

import (
	"strings"
	"testing"
)

// TestUnsubscribePage: before the button, the page says what it does and
// shows a form that POSTs RFC 8058's one-click field to the page itself;
// after, it says it is done and has no button. Neither runs a script,
// loads anything or names a game or an address.
func TestUnsubscribePage(t *testing.T) {
	t.Parallel()
	ask, err := UnsubscribePage{}.Render()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Turn game mail off</button></form>`,
		"notify off", "changed nothing", "in all of its games",
	} {
		if !strings.Contains(ask, want) {
			t.Errorf("the page before the button lacks %q:\n%s", want, ask)
		}
	}
	done, err := UnsubscribePage{Done: true}.Render()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(done, "Done: pbem&#39;s game mail") || strings.Contains(done, "<form") || strings.Contains(done, "changed nothing") {
		t.Errorf("the page after the button:\n%s", done)
	}
	for _, page := range []string{ask, done} {
		for _, never := range []string{"<script", "action=", "src=", "href=", "@", " #"} {
			if strings.Contains(page, never) {
				t.Errorf("the page holds %q:\n%s", never, page)
			}
		}
	}
}
