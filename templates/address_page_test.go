package templates

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestAddressConfirmPage: before the button, the page names the two
// addresses, says what the button does and that opening it changed
// nothing, and shows a form that POSTs to the page itself; after, it
// says it is done, or why not, and has no button. None runs a script,
// loads anything or links anywhere. The goldens pin each page whole.
func TestAddressConfirmPage(t *testing.T) {
	t.Parallel()
	const from, to = "alice@example.org", "alice@work.example"
	form := `<form method="post"><input type="hidden" name="change" value="confirmed"><button type="submit">Confirm</button></form>`
	for _, tc := range []struct {
		name     string
		page     AddressConfirmPage
		want     []string
		wantForm bool
	}{
		{"ask-move", AddressConfirmPage{From: from, To: to, Until: "Sun 2 Mar 2025 12:00"},
			[]string{from, to, "move to", "changed nothing", "until Sun 2 Mar 2025 12:00 (UTC)"}, true},
		{"ask-add", AddressConfirmPage{From: from, To: to, Add: true, Until: "Sun 2 Mar 2025 12:00"},
			[]string{from, to, "be read as his", "changed nothing"}, true},
		{"moved", AddressConfirmPage{From: from, To: to, Done: true},
			[]string{"Done: the pbem games", "have moved to " + to}, false},
		{"added", AddressConfirmPage{From: from, To: to, Add: true, Done: true},
			[]string{"Done: mail from " + to, "still goes to " + from}, false},
		{"expired", AddressConfirmPage{From: from, To: to, Refused: Say.AddressConfirmExpired()},
			[]string{"more than 24 hours old"}, false},
	} {
		got, err := tc.page.Render()
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: the page lacks %q:\n%s", tc.name, w, got)
			}
		}
		if strings.Contains(got, form) != tc.wantForm {
			t.Errorf("%s: form shown %v, want %v:\n%s", tc.name, !tc.wantForm, tc.wantForm, got)
		}
		if !tc.wantForm && strings.Contains(got, "changed nothing") {
			t.Errorf("%s: the page after the button says opening it changed nothing:\n%s", tc.name, got)
		}
		for _, never := range []string{"<script", "action=", "src=", "href=", " #", "game "} {
			if strings.Contains(got, never) {
				t.Errorf("%s: the page holds %q:\n%s", tc.name, never, got)
			}
		}
		compareGolden(t, filepath.Join(goldenDir, "page-address-"+tc.name+".html"), got)
	}
}
