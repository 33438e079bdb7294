package templates

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/internal/testlib"
)

// toy is a game the renderer has never heard of: it renders through
// engine.Presenter alone.
type toy struct {
	engine.Rules // only what the renderer calls is defined below
	files        fstest.MapFS
}

type toyView struct {
	Coins int
	Hand  []string
}

func (toy) Name() string                { return "toy" }
func (toy) Title() string               { return "Toy: A Test" }
func (toy) Specs() []engine.Spec        { return nil }
func (t toy) Templates() fs.FS          { return t.files }
func (toy) Examples() map[string]string { return nil }
func (toy) Funcs(engine.Say) map[string]any {
	return map[string]any{"coins": func(n int) string { return engine.Plural(n, "coin", "coins") }}
}
func (toy) Tiles() map[string]engine.Tile {
	return map[string]engine.Tile{"gem": {Label: "shiny gem", Bg: "#123456", Fg: "#ffffff", Border: "#000000"}}
}

func toyFiles() fstest.MapFS {
	return fstest.MapFS{
		"toy.text.tmpl": {Data: []byte(`{{define "game.headline"}}{{.Name}} #{{.GameID}}: {{if .YourTurn}}your turn{{else}}waiting{{end}}{{end}}
{{define "game.table"}}You have {{coins .View.Coins}}.{{end}}
{{define "game.end"}}{{.WinnersText}}.{{end}}`)},
		"toy-rules.tmpl": {Data: []byte(`{{define "game.rules"}}{{underline "Toy, in short"}}
Collect coins.{{end}}
{{define "game.teach"}}How to win: collect the most coins.{{end}}`)},
		"toy.html.tmpl": {Data: []byte(`{{define "game.table"}}<p>You have {{coins .View.Coins}}: {{template "tiles" (tiles .View.Hand)}}</p>{{end}}
{{define "game.end"}}<p>{{.WinnersText}}.</p>{{end}}`)},
	}
}

// TestUnknownGame renders a game that templates knows nothing of: its
// templates, functions and tiles come from the game.
func TestUnknownGame(t *testing.T) {
	t.Parallel()
	r, err := New(map[string]engine.Rules{"toy": toy{files: toyFiles()}})
	if err != nil {
		t.Fatal(err)
	}
	m, err := r.Game(GameMail{Service: "pbem", GameID: 3, Game: "toy", Title: "Toy: A Test", Reader: "alice",
		View: toyView{Coins: 2, Hand: []string{"gem", "stone"}}, Kind: "turn", Waiting: []string{"bob"}})
	if err != nil {
		t.Fatal(err)
	}
	checkShape(t, m)
	if m.Subject != "Toy #3: waiting" || !strings.Contains(m.Text, "You have 2 coins.") {
		t.Errorf("toy mail:\n%s\n%s", m.Subject, m.Text)
	}
	testlib.ContainsAll(t, "the HTML part", m.HTML, "shiny gem", "background-color:#123456", ">stone")
	n, err := r.Notice(Notice{Service: "pbem", Kind: "rules", Game: "toy", Title: "Toy: A Test"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(n.Text, "Toy, in short\n-------------\nCollect coins.") {
		t.Errorf("toy rules:\n%s", n.Text)
	}
	if _, err := r.Game(GameMail{Game: "felix", Reader: "alice", View: toyView{}}); err == nil {
		t.Error("a renderer given only toy rendered felix")
	}
}

// TestNewChecksGames refuses a game that does not present itself, or
// whose templates lack a part.
func TestNewChecksGames(t *testing.T) {
	t.Parallel()
	type bare struct{ engine.Rules }
	if _, err := New(map[string]engine.Rules{"bare": bare{}}); err == nil || !strings.Contains(err.Error(), "engine.Presenter") {
		t.Errorf("a game without engine.Presenter: %v", err)
	}
	files := toyFiles()
	delete(files, "toy-rules.tmpl")
	if _, err := New(map[string]engine.Rules{"toy": toy{files: files}}); err == nil {
		t.Error("a game without its rules template was accepted")
	}
	files = toyFiles()
	files["toy.html.tmpl"] = &fstest.MapFile{Data: []byte(`{{define "game.table"}}{{end}}`)}
	if _, err := New(map[string]engine.Rules{"toy": toy{files: files}}); err == nil || !strings.Contains(err.Error(), `"game.end"`) {
		t.Errorf("a game without game.end in HTML: %v", err)
	}
}
