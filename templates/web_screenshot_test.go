//go:build screenshots

package templates

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// pageWidth is the phone the web page is checked at: 375 CSS pixels.
const pageWidth = 375

// TestPageScreenshots loads the web page of the seat to move in the
// middle of a game of Felix and of Gracias (six players, names as long
// as names go: webCases) in headless Chromium at 375 pixels, light and
// dark: the page fills the phone's width and no more, follows the colour
// scheme, draws the one-tap links as buttons, and matches the reference
// pictures in testdata/screenshots (-update rewrites them: look at
// them). The browser tests (-tags browser) measure every page's layout.
func TestPageScreenshots(t *testing.T) {
	bin := chromium(t)
	r := newRenderer(t)
	for _, c := range webCases {
		if c.mid() {
			pageScreenshots(t, bin, webCasePage(t, r, c), "web-"+strings.TrimSuffix(c.name, "-mid"))
		}
	}
}

// pageScreenshots shoots html as name (and name-dark) and checks it.
func pageScreenshots(t *testing.T, bin, html, base string) {
	for _, dark := range []bool{false, true} {
		name := base
		if dark {
			name += "-dark"
		}
		t.Run(name, func(t *testing.T) {
			b := shootAt(t, bin, html, dark, pageWidth, 2400)
			p := readPicture(t, b)
			if got := p.img.Bounds().Size(); got != image.Pt(pageWidth, 2400) {
				t.Errorf("the screenshot is %v", got)
			}
			button := "#e6f0fb"
			if dark {
				button = "#1b3452"
			}
			if n := p.has(button); n < 1500 {
				t.Errorf("the one-tap links' buttons (%s) are hardly to be seen: %d pixels", button, n)
			}
			if !dark && p.luminance < 0.7 {
				t.Errorf("the light page is dark: mean luminance %.2f", p.luminance)
			}
			if dark && p.luminance > 0.3 {
				t.Errorf("the dark-mode page is light: mean luminance %.2f", p.luminance)
			}
			ref := filepath.Join("testdata", "screenshots", name+".png")
			if *update {
				if err := os.WriteFile(ref, b, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(ref)
			if err != nil {
				t.Fatalf("no reference screenshot: %v (run with -update, then look at it)", err)
			}
			if d := readPicture(t, want).luminance - p.luminance; d > 0.05 || d < -0.05 {
				t.Errorf("the screenshot's mean luminance is far from the reference's: look at both (-update rewrites %s)", ref)
			}
		})
	}
	// No wider than the phone: Chromium prints the page's scroll width.
	dir := t.TempDir()
	wrapper := fmt.Sprintf("<!DOCTYPE html><html><body style=\"margin:0\"><iframe style=\"width:%dpx;height:2000px;border:0\" srcdoc=\"%s\"></iframe><script>window.addEventListener(\"load\",function(){var d=document.querySelector(\"iframe\").contentDocument;var p=document.createElement(\"pre\");p.id=\"w\";p.textContent=d.documentElement.scrollWidth;document.body.appendChild(p);});</script></body></html>",
		pageWidth, strings.NewReplacer("&", "&amp;", `"`, "&quot;").Replace(html))
	path := filepath.Join(dir, "w.html")
	if err := os.WriteFile(path, []byte(wrapper), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--user-data-dir="+filepath.Join(dir, "profile"), "--virtual-time-budget=10000", "--dump-dom", "file://"+path).Output()
	if err != nil {
		t.Fatal(err)
	}
	dom := string(out)
	i, j := strings.Index(dom, `<pre id="w">`), strings.Index(dom, "</pre>")
	if i < 0 || j < i {
		t.Fatalf("chromium measured nothing")
	}
	var width int
	fmt.Sscan(dom[i+len(`<pre id="w">`):j], &width)
	if width == 0 || width > pageWidth {
		t.Errorf("the page is %dpx wide on a %dpx phone", width, pageWidth)
	}
}

// shootAt is screenshot at another size.
func shootAt(t *testing.T, bin, html string, dark bool, width, height int) []byte {
	t.Helper()
	dir := t.TempDir()
	page := filepath.Join(dir, "page.html")
	if err := os.WriteFile(page, []byte(html), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "shot.png")
	args := []string{"--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run", "--disable-extensions",
		"--user-data-dir=" + filepath.Join(dir, "profile"), fmt.Sprintf("--window-size=%d,%d", width, height), "--screenshot=" + out}
	if dark {
		args = append(args, "--blink-settings=preferredColorScheme=0", "--force-dark-mode")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, append(args, "file://"+page)...)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%s", bin, err, stderr.String())
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("chromium wrote no screenshot: %v\n%s", err, stderr.String())
	}
	return b
}
