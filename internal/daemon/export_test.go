package daemon

import (
	"bytes"
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/pbem/pbem/engine/games"
	"github.com/pbem/pbem/engine/transcript"
	"github.com/pbem/pbem/internal/loaded"
)

// TestExportReplays: a game played by mail, exported, replays to the
// service's own state, scores and winners included.
func TestExportReplays(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test"}
	reply, id := w.startGame("gracias", players...)
	w.playOut(id, reply, players, rand.New(rand.NewPCG(8, 9)))
	var buf bytes.Buffer
	if err := loaded.Export(context.Background(), w.st, games.Lookup, id, &buf); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "# time for each decision: 72h") {
		t.Errorf("export does not record the game's deadline:\n%s", buf.String())
	}
	if !strings.Contains(buf.String(), "deck 1 ") || strings.Contains(buf.String(), "seed") {
		t.Fatalf("export lacks the explicit set-up:\n%s", buf.String())
	}
	tr, err := transcript.Read(&buf, games.Lookup)
	if err != nil {
		t.Fatal(err)
	}
	g, _, err := tr.Replay()
	if err != nil {
		t.Fatal(err)
	}
	a, _ := g.MarshalJSON()
	b, _ := w.loaded(id).State.MarshalJSON()
	if !bytes.Equal(a, b) {
		t.Fatal("the export replays to another state")
	}
}
