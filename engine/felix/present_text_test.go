package felix

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"text/template"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/transcript"
)

// oldTableText is felix.text.tmpl's game.table as it was before it was
// Go (tableText): what the Go must write.
const oldTableText = `{{define "game.table"}}{{$v := .View}}{{with .View}}
{{T "Round %d of %d" .Round .Rounds}} · {{T "start player %s" .Start}} · {{T "bank %s" (mice .Bank)}}{{if .DummyLeft}} · {{T "dummy pile %d" .DummyLeft}}{{end}}
{{if $.Aborted}}{{else if eq .Phase "placing"}}{{T "Everyone puts a card face down into the row."}}
{{else if eq .Phase "bidding"}}{{$who := T "%s to bid" .Turn}}{{if eq .Turn $.Reader}}{{$who = T "your turn to bid"}}{{end}}
{{- $high := T "no stake yet"}}{{if .HighStake}}{{$high = T "highest stake %d, held by %s" .HighStake (highHolders $.View)}}{{end}}
{{- T "Auction: %s; %s." $who $high}}
{{else if eq .Phase "buying"}}{{if eq .Turn $.Reader}}{{T "Nobody bid: you may buy the row for 1 mouse, or pass."}}{{else}}{{T "Nobody bid: %s may buy the row for 1 mouse, or pass." .Turn}}{{end}}
{{end}}{{T "Row:"}} {{range $i, $c := .Row}}{{if $i}} · {{end}}{{owner $c.Owner}} {{rowCardShort $.Reader $c}}{{end}}
{{T "Mouse cards: %s" (mouseCards .MouseCards)}}
{{range .Players}}- {{.Name}}{{if eq .Name $.Reader}} {{T "(you)"}}{{end}}{{if .StartPlayer}}, {{T "start"}}{{end}}: {{T "%d cards" .HandCount}}
{{- if .Stake}}, {{T "stake %d" .Stake}}{{end}}
{{- if .Passed}}, {{T "passed"}}{{end}}
{{- if ne .Name $.Reader}}{{with .Money}}, {{T "money %d" (deref .)}}{{end}}{{end}}
{{- if and (eq .Name $v.Turn) (ne $v.Phase "placing")}}, {{if eq $v.Phase "buying"}}{{T "to buy or pass"}}{{else}}{{T "to bid"}}{{end}}{{end}}
{{- if .Won}}; {{T "won %s (cats %d)" (cards .Won) .Cats}}{{end}}
{{end}}
{{- if .You}}
{{T "Hand: %s" (cards .Hand)}}
{{T "Money: %s" (ownMoney $.View)}}
{{if or (eq $.Kind "start") (eq $.Kind "status")}}{{with .SetAside}}{{T "Set aside at the start: %s (only you know it)" (card .)}}
{{end}}{{end}}{{with .CannotRaise}}{{T "Only pass is left: a bid must be at least %d, and you own %s." .Next (mice .Owned)}}
{{end}}
{{- end}}
{{end}}{{end}}`

// TestTableTextIsTheTemplate writes the text table with tableText and
// with the template it replaced, at every position of every transcript
// of testdata, for every seat and a spectator, in a mail that shows the
// set-aside card and one that does not, and in a game the host ended:
// the same text each time.
func TestTableTextIsTheTemplate(t *testing.T) {
	funcs := Rules{}.Funcs(engine.English)
	funcs["T"] = engine.English
	funcs["deref"] = func(p *int) int { return *p }
	old := template.Must(template.New("felix").Funcs(funcs).Parse(oldTableText))
	files, err := filepath.Glob("testdata/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no transcripts: %v", err)
	}
	compared := 0
	for _, file := range files {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := transcript.Read(f, func(name string) (engine.Rules, bool) { return Rules{}, name == "felix" })
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		ng, _, err := Rules{}.New(tr.Setup)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		g := ng.(*Game)
		for n := 0; ; n++ {
			for seat := engine.Public; seat < len(g.Players()); seat++ {
				if seat < 0 && seat != engine.Public {
					continue
				}
				v := g.View(seat).(View)
				for _, kind := range []string{"turn", "status"} {
					for _, aborted := range []bool{false, true} {
						var want strings.Builder
						data := struct {
							View    any
							Reader  string
							Aborted bool
							Kind    string
						}{v, v.You, aborted, kind}
						if err := old.ExecuteTemplate(&want, "game.table", data); err != nil {
							t.Fatal(err)
						}
						got := tableText(engine.English, v, v.You, aborted, kind == "status")
						if got != want.String() {
							t.Fatalf("%s after %d moves, seat %d, %s mail, aborted %v:\n got %q\nwant %q", file, n, seat, kind, aborted, got, want.String())
						}
						compared++
					}
				}
			}
			if n == len(tr.Moves) {
				break
			}
			m := tr.Moves[n]
			cmd, err := engine.ParseCommand(Rules{}.Specs(), g.names, m.Command)
			if err != nil {
				continue // a transcript may hold a command that is refused
			}
			if _, err := g.Apply(engine.Seat(g, m.Player), cmd); err != nil {
				continue
			}
		}
	}
	t.Logf("%d tables compared", compared)
}
