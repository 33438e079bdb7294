//go:build browser

package templates

import (
	"testing"

	"github.com/chromedp/chromedp"
)

func TestBrowserBefore(t *testing.T) {
	ctx := browser(t)
	for _, f := range []string{"gm-long", "ge-long", "gracias-mid", "felix-mid"} {
		if err := chromedp.Do(ctx, phone(false), chromedp.Navigate("file:///tmp/pages/"+f+".html")); err != nil {
			t.Fatal(err)
		}
		l, err := chromedp.Run(ctx, chromedp.Evaluate[layout](measure))
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %+v", f, l)
	}
}
