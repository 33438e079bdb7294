//go:build screenshots

// The screenshot test renders HTML parts in headless Chromium at a
// phone's width, in light and dark mode, and checks the pictures. It
// needs Chromium (Debian's chromium package), so it is built only with
// the tag: PBEM_SCREENSHOTS=1 go test -tags screenshots -run Screenshot
// ./templates/ (scripts/test installs Chromium and runs it). With -update
// it rewrites the reference pictures in testdata/screenshots, to look at.

package templates

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/felix"
	"github.com/pbem/pbem/engine/gracias"
)

const (
	shotWidth  = 375 // a phone held upright (an iPhone SE, 8, 12 mini)
	shotHeight = 2000
	narrowest  = 360 // the narrowest phone the mails must fit
	minTap     = 44  // the least height of a one-tap link, in CSS pixels
)

// chromium finds Chromium on PATH, or fails the test saying what to do.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Fatalf("the screenshot test (PBEM_SCREENSHOTS=%q, -tags screenshots) needs Chromium, and neither chromium nor chromium-browser is on PATH: install it with apt-get install chromium (scripts/test does)", os.Getenv("PBEM_SCREENSHOTS"))
	return ""
}

// screenshot renders an HTML document in headless Chromium and returns
// the PNG.
func screenshot(t *testing.T, bin, html string, dark bool) []byte {
	t.Helper()
	dir := t.TempDir()
	page := filepath.Join(dir, "mail.html")
	if err := os.WriteFile(page, []byte(html), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "shot.png")
	args := []string{
		"--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
		"--no-first-run", "--disable-extensions", "--user-data-dir=" + filepath.Join(dir, "profile"),
		fmt.Sprintf("--window-size=%d,%d", shotWidth, shotHeight),
		"--screenshot=" + out,
	}
	if dark {
		// prefers-color-scheme: dark (Blink's preferredColorScheme 0 is dark).
		args = append(args, "--blink-settings=preferredColorScheme=0", "--force-dark-mode")
	}
	args = append(args, "file://"+page)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
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

// picture is what the checks need to know of a screenshot.
type picture struct {
	img       image.Image
	colours   map[color.RGBA]int // pixels of each colour
	luminance float64            // mean, 0 (black) to 1 (white)
}

func readPicture(t *testing.T, b []byte) picture {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("the screenshot is no PNG: %v", err)
	}
	p := picture{img: img, colours: map[color.RGBA]int{}}
	r := img.Bounds()
	var sum float64
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c := color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)
			c.A = 255
			p.colours[c]++
			sum += (0.2126*float64(c.R) + 0.7152*float64(c.G) + 0.0722*float64(c.B)) / 255
		}
	}
	p.luminance = sum / float64(r.Dx()*r.Dy())
	return p
}

// has counts the pixels within 3 of colour hex ("#1f5f99").
func (p picture) has(hex string) int {
	var want color.RGBA
	fmt.Sscanf(hex, "#%02x%02x%02x", &want.R, &want.G, &want.B)
	near := func(a, b uint8) bool { return a-b <= 3 || b-a <= 3 }
	n := 0
	for c, k := range p.colours {
		if near(c.R, want.R) && near(c.G, want.G) && near(c.B, want.B) {
			n += k
		}
	}
	return n
}

// background is the most frequent colour.
func (p picture) background() (color.RGBA, int) {
	var bg color.RGBA
	most := 0
	for c, k := range p.colours {
		if k > most {
			bg, most = c, k
		}
	}
	return bg, most
}

func TestScreenshots(t *testing.T) {
	bin := chromium(t)
	r := newRenderer(t)

	g, opening, steps := play(t, "engine/felix/testdata/basics-4p.txt", -1)
	bob := engine.Seat(g, "bob")
	felixMail := render(t, r, mailFor(t, g, bob, "turn", sinceLastMove(bob, opening, steps)))
	if !strings.Contains(felixMail.Headline, "your turn to bid") {
		t.Fatalf("the Felix mail is not a bid: %s", felixMail.Headline)
	}
	g, opening, steps = play(t, "engine/gracias/testdata/scoring-3p.txt", 2)
	bob = engine.Seat(g, "bob")
	graciasMail := render(t, r, mailFor(t, g, bob, "status", sinceLastMove(bob, opening, steps)))
	if !strings.Contains(graciasMail.Headline, "keep one card, give the other") {
		t.Fatalf("the Gracias mail is not keep/give: %s", graciasMail.Headline)
	}

	// The tiles each mail must show, by their background colour.
	felixColours := felix.Rules{}.Tiles()
	felixTiles := map[string]string{
		"-8": felixColours["-8"].Bg, "-5": felixColours["-5"].Bg, "3": felixColours["3"].Bg,
		"15": felixColours["15"].Bg, "small dog": felixColours["small-dog"].Bg,
		"face down": engine.FaceDownTile("", "", "").Bg,
	}
	graciasTiles := map[string]string{}
	for name, t := range (gracias.Rules{}).Tiles() {
		graciasTiles[name] = t.Bg
	}
	cases := []struct {
		name  string
		mail  Mail
		tiles map[string]string
	}{
		{"felix-bid", felixMail, felixTiles},
		{"gracias-keep-give", graciasMail, graciasTiles},
	}
	for _, c := range cases {
		for _, dark := range []bool{false, true} {
			name := c.name
			if dark {
				name += "-dark"
			}
			t.Run(name, func(t *testing.T) {
				b := screenshot(t, bin, c.mail.HTML, dark)
				p := readPicture(t, b)
				if got := p.img.Bounds().Size(); got != image.Pt(shotWidth, shotHeight) {
					t.Errorf("the screenshot is %v, want %dx%d", got, shotWidth, shotHeight)
				}
				if n := len(p.colours); n < 200 {
					t.Errorf("the screenshot has only %d colours: blank?", n)
				}
				bg, most := p.background()
				if total := shotWidth * shotHeight; most > total*92/100 {
					t.Errorf("%d%% of the screenshot is %v: next to nothing is drawn", most*100/total, bg)
				}
				// The one-tap links are drawn as buttons, in the
				// colours of the scheme shown.
				button := "#e6f0fb"
				if dark {
					button = "#1b3452"
				}
				if n := p.has(button); n < 2000 {
					t.Errorf("the one-tap links' buttons (%s) are hardly to be seen: %d pixels", button, n)
				}
				for label, hex := range c.tiles {
					if n := p.has(hex); n < 80 {
						t.Errorf("no %s tile (%s) to be seen: %d pixels", label, hex, n)
					}
				}
				// The page follows the reader's colour scheme: light
				// on light, dark in dark mode (no white page at night).
				if !dark && p.luminance < 0.7 {
					t.Errorf("the light page is dark: mean luminance %.2f", p.luminance)
				}
				if dark && p.luminance > 0.3 {
					t.Errorf("the dark-mode page is light: mean luminance %.2f", p.luminance)
				}
				// The top left corner is the mail's own background.
				corner := color.RGBAModel.Convert(p.img.At(3, 3)).(color.RGBA)
				if light := int(corner.R)+int(corner.G)+int(corner.B) > 3*128; light == dark {
					t.Errorf("the background %v does not suit dark=%v", corner, dark)
				}
				ref := filepath.Join("testdata", "screenshots", name+".png")
				if *update {
					if err := os.MkdirAll(filepath.Dir(ref), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(ref, b, 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(ref)
				if err != nil {
					t.Fatalf("no reference screenshot: %v (run with -update, then look at it)", err)
				}
				wp := readPicture(t, want)
				if wp.img.Bounds() != p.img.Bounds() {
					t.Errorf("the reference %s is %v, the screenshot %v", ref, wp.img.Bounds(), p.img.Bounds())
				}
				// Fonts differ between machines; the picture as a whole
				// must not.
				if d := wp.luminance - p.luminance; d > 0.05 || d < -0.05 {
					t.Errorf("the screenshot's mean luminance %.3f is far from the reference's %.3f: look at both (-update rewrites %s)", p.luminance, wp.luminance, ref)
				}
			})
		}
	}
}

// widthsDocument is the document TestScreenshotWidths loads for the
// golden HTML file f: a mail's part joined with the page and its footer,
// or, for a web page's golden (page-*.html: the address confirmation's),
// the page as it is served.
func widthsDocument(f string) (string, error) {
	if base := filepath.Base(f); strings.HasPrefix(base, webPagePrefix) || strings.HasPrefix(base, germanPrefix) {
		b, err := os.ReadFile(f)
		return string(b), err
	}
	_, html, err := assembleMail(strings.TrimSuffix(filepath.Base(f), ".html"), func(name string) (string, error) {
		b, err := os.ReadFile(filepath.Join(goldenDir, name))
		return string(b), err
	})
	return html, err
}

// webPagePrefix begins the goldens of whole web pages, which have no
// text part.
const webPagePrefix = "page-"

// germanPrefix begins the German goldens, each a whole mail's or page's
// HTML (german_test.go): they are loaded as they are, and must fit the
// narrowest phone too, German words being longer.
const germanPrefix = "de-"

// TestScreenshotWidths loads every golden HTML part (joined with the
// page and its footer) at the narrowest
// phone's width in Chromium and checks that none is wider than the screen: a long command
// or a wide table would push the text off to the right. (The script is
// the test's own page around the mails, never part of a mail.)
func TestScreenshotWidths(t *testing.T) {
	bin := chromium(t)
	// The goldens hold each mail's own part: join each with the page
	// and its footer (see splitMail).
	all, err := filepath.Glob(filepath.Join(goldenDir, "*.html"))
	var files []string
	for _, f := range all {
		if base := filepath.Base(f); base != pageGolden && !strings.HasPrefix(base, "footer-") {
			files = append(files, f)
		}
	}
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden HTML parts: %v", err)
	}
	var page strings.Builder
	page.WriteString("<!DOCTYPE html><html><body style=\"margin:0\">\n")
	for _, f := range files {
		html, err := widthsDocument(f)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&page, "<iframe data-name=%q style=\"width:%dpx;height:600px;border:0;display:block\" srcdoc=\"%s\"></iframe>\n",
			filepath.Base(f), narrowest, strings.NewReplacer("&", "&amp;", `"`, "&quot;").Replace(html))
	}
	page.WriteString(`<script>
window.addEventListener("load", function () {
  var out = [];
  document.querySelectorAll("iframe").forEach(function (f) {
    var tap = -1; // the lowest one-tap link, -1 for none
    f.contentDocument.querySelectorAll("a.pb-tap").forEach(function (a) {
      var h = a.getBoundingClientRect().height;
      if (tap < 0 || h < tap) { tap = Math.floor(h); }
    });
    out.push(f.dataset.name + "=" + f.contentDocument.documentElement.scrollWidth + " " + tap);
  });
  var p = document.createElement("pre");
  p.id = "widths";
  p.textContent = out.join("\n");
  document.body.appendChild(p);
});
</script></body></html>`)
	dir := t.TempDir()
	path := filepath.Join(dir, "widths.html")
	if err := os.WriteFile(path, []byte(page.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--user-data-dir="+filepath.Join(dir, "profile"), "--virtual-time-budget=10000",
		fmt.Sprintf("--window-size=%d,2000", shotWidth), "--dump-dom", "file://"+path)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\n%s", bin, err, stderr.String())
	}
	dom := string(out)
	i := strings.Index(dom, `<pre id="widths">`)
	j := strings.Index(dom, "</pre>")
	if i < 0 || j < i {
		t.Fatalf("chromium measured nothing:\n%.2000s\n%s", dom, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(dom[i+len(`<pre id="widths">`):j]), "\n")
	if len(lines) != len(files) {
		t.Fatalf("measured %d mails, want %d", len(lines), len(files))
	}
	taps := 0
	for _, l := range lines {
		name, w, _ := strings.Cut(l, "=")
		var width, tap int
		if _, err := fmt.Sscan(w, &width, &tap); err != nil || width == 0 {
			t.Errorf("%s: no width measured (%q)", name, w)
			continue
		}
		if width > narrowest {
			t.Errorf("%s is %dpx wide on a %dpx screen: something does not wrap", name, width, narrowest)
		}
		// A one-tap link is a finger's size: 44px, Apple's smallest
		// touch target.
		if tap >= 0 && tap < minTap {
			t.Errorf("%s has a one-tap link %dpx high, less than %dpx", name, tap, minTap)
		}
		if tap >= 0 {
			taps++
		}
	}
	if taps == 0 {
		t.Errorf("no mail has one-tap links to measure")
	}
}
