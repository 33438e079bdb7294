package templates

import (
	"bytes"
	htmltemplate "html/template"
	"testing"

	"pgregory.net/rapid"

	"github.com/pbem/pbem/engine"
)

// tileTemplates are the templates tiles_html.go replaced, as page.tmpl
// had them.
const tileTemplates = `
{{define "tile.fresh"}}<span style="display:inline-block;vertical-align:middle;min-width:30px;margin:2px 1px;padding:4px 7px;border-radius:6px;text-align:center;font-size:15px;font-weight:bold;line-height:1.2;white-space:nowrap;border:2px {{if .Dashed}}dashed{{else}}solid{{end}} {{.Border}};background-color:{{.Bg}};{{if .Hatched}}background-image:repeating-linear-gradient(135deg,rgba(255,255,255,0.13) 0,rgba(255,255,255,0.13) 4px,rgba(0,0,0,0) 4px,rgba(0,0,0,0) 9px);{{end}}color:{{.Fg}};"{{if .Dashed}} class="pb-empty"{{end}}>{{.Label}}{{with .Sub}} <span style="display:block;font-size:10px;font-weight:normal;line-height:1.2;">{{.}}</span>{{end}}</span>{{end}}
{{define "chip.fresh"}}<span style="display:inline-block;vertical-align:middle;margin:1px 0;padding:1px 5px;border-radius:4px;font-size:12px;font-weight:bold;line-height:1.35;white-space:nowrap;border:1px solid {{.Border}};background-color:{{.Bg}};color:{{.Fg}};">{{.Label}}</span>{{end}}
`

// TestTilesAreTheTemplates draws tiles and chips from any labels and
// colours, hostile or not, CSS escapes included, both with the Go of
// tiles_html.go (directly, and as the renderer's fragments) and with
// the templates it replaced, and finds the same bytes.
func TestTilesAreTheTemplates(t *testing.T) {
	old := htmltemplate.Must(htmltemplate.New("old").Parse(tileTemplates))
	frag := newRenderer(t).set("").games["felix"].frag
	render := func(t *rapid.T, name string, tile engine.Tile) string {
		var b bytes.Buffer
		if err := old.ExecuteTemplate(&b, name, tile); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return b.String()
	}
	// Colours as games write them, and what html/template's CSS filter
	// decodes, refuses or lets through: escapes of one to six hex
	// digits and what follows them, quotes, brackets, "--", the words
	// it refuses however written, NUL, non-ASCII and broken UTF-8.
	colour := rapid.OneOf(
		rapid.SampledFrom([]string{"", "#b3201c", "transparent", "#FFF", "red", "rgb(1,2,3)", "expression(x)", "-moz-binding", "Ex\\70 ression", "a--b", "\\", "\\41 B", "\\41\r\nB", "\\110000", "\\d800", "\\FFFFFFF", "url(x)"}),
		rapid.StringOf(rapid.SampledFrom([]rune("#09afAFxz \\\t\n\r\f-_;:\"'()/@[]`{}<>&+%,.!\x00é€\uFFFD"))),
		rapid.String(),
	)
	text := rapid.OneOf(rapid.String(), rapid.StringOf(rapid.SampledFrom([]rune("ab <>&\"'+\x00é"))))
	rapid.Check(t, func(t *rapid.T) {
		tile := engine.Tile{Label: text.Draw(t, "label"), Sub: rapid.OneOf(rapid.Just(""), text).Draw(t, "sub"),
			Bg: colour.Draw(t, "bg"), Fg: colour.Draw(t, "fg"), Border: colour.Draw(t, "border"),
			Hatched: rapid.Bool().Draw(t, "hatched"), Dashed: rapid.Bool().Draw(t, "dashed")}
		for name, got := range map[string]htmltemplate.HTML{"tile.fresh": tileHTML(tile), "chip.fresh": chipHTML(tile)} {
			want := render(t, name, tile)
			if string(got) != want {
				t.Fatalf("%s of %+v:\n got %s\nwant %s", name, tile, got, want)
			}
			kept, err := frag.render(name, tile)
			if err != nil || string(kept) != want {
				t.Fatalf("the fragment %s of %+v: %v\n got %s\nwant %s", name, tile, err, kept, want)
			}
		}
	})
}
