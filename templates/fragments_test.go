package templates

import (
	"fmt"
	htmltemplate "html/template"
	"strings"
	"testing"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/games"
)

// TestFragmentsKeyedByData: a kept fragment is given back only for the
// very data it was rendered from. Two readers' hands are different
// tiles, so neither can be given the other's; and what the cache gives
// is what the template renders.
func TestFragmentsKeyedByData(t *testing.T) {
	t.Parallel()
	r, err := New(games.All())
	if err != nil {
		t.Fatal(err)
	}
	f := r.set("").games["felix"].frag
	mine := engine.Tile{Label: "large dog", Bg: "#000000", Fg: "#ffffff", Border: "#111111"}
	yours := mine
	yours.Label = "small cat"
	for range 2 { // the second round is served from the cache
		a, err := f.render("tile.fresh", mine)
		if err != nil {
			t.Fatal(err)
		}
		b, err := f.render("tile.fresh", yours)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(a), "large dog") || strings.Contains(string(a), "small cat") {
			t.Errorf("tile of the large dog renders %s", a)
		}
		if !strings.Contains(string(b), "small cat") || strings.Contains(string(b), "large dog") {
			t.Errorf("tile of the small cat renders %s", b)
		}
	}
	// An escaped label stays escaped when it comes from the cache.
	hostile := mine
	hostile.Label = "<b>x</b>"
	for range 2 {
		h, err := f.render("tile.fresh", hostile)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(h), "<b>") {
			t.Errorf("a label's markup reaches the tile: %s", h)
		}
	}
}

// TestFragmentsBounded: past maxFragments the cache keeps nothing more,
// and still renders every fragment.
func TestFragmentsBounded(t *testing.T) {
	t.Parallel()
	r, err := New(games.All())
	if err != nil {
		t.Fatal(err)
	}
	f := r.set("").games["felix"].frag
	for i := range maxFragments + 10 {
		label := fmt.Sprintf("card %d", i)
		out, err := f.render("tile.fresh", engine.Tile{Label: label})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(out), label) {
			t.Fatalf("tile %q renders %s", label, out)
		}
	}
	if n := len(f.m); n > maxFragments {
		t.Errorf("the cache holds %d fragments, more than %d", n, maxFragments)
	}
	// Data that cannot be a map key is rendered, not kept: a game's
	// fragment's, as tiles are always keys.
	h, err := htmltemplate.New("pbem").Funcs(htmlFuncs(Say)).ParseFS(files, "html/*.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Parse(`{{define "list.fresh"}}{{range .}}{{.}} {{end}}{{end}}`); err != nil {
		t.Fatal(err)
	}
	if f, err = newFragments(h); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		out, err := f.render("list.fresh", []string{"x", "y"})
		if err != nil || out != "x y " {
			t.Errorf("a list renders %q, %v", out, err)
		}
	}
	if n := len(f.m); n != 0 {
		t.Errorf("the cache keeps %d fragments of data that is no key", n)
	}
	// A tile is drawn from a tile only.
	if out, err := f.render("chip.fresh", struct{ Label string }{"x"}); err == nil {
		t.Errorf("a chip of no tile renders %q", out)
	}
}
