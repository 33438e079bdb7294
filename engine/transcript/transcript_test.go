package transcript_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/games"
	"github.com/pbem/pbem/engine/transcript"
)

const example = `# comment line
game felix   # trailing comment
players alice bob carol dave
seed 7
start bob

alice: play 15
bob: play rabbit
`

func TestRead(t *testing.T) {
	t.Parallel()
	tr, err := transcript.Read(strings.NewReader(example), games.Lookup)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Rules.Name() != "felix" || len(tr.Setup.Players) != 4 || tr.Setup.Seed != 7 || !tr.Seeded || tr.Setup.Start != "bob" {
		t.Fatalf("set-up %+v", tr.Setup)
	}
	if len(tr.Moves) != 2 || tr.Moves[1] != (transcript.Move{Line: 8, Player: "bob", Command: "play rabbit"}) {
		t.Fatalf("moves %+v", tr.Moves)
	}
	g, _, err := tr.Replay()
	if err != nil {
		t.Fatal(err)
	}
	if w := g.Waiting(); len(w) != 2 {
		t.Fatalf("waiting %v", w)
	}
}

func TestReadErrors(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"", "empty transcript"},
		{"players a b c\n", "line 1: the first line must say which game"},
		{"game felix\n", "no players line"},
		{"game felix\ngame felix\n", "line 2: game is given twice"},
		{"game felix\nplayers a b c\nseed x\n", `line 3: seed "x" is not a whole number`},
		{"game felix\nalice: pass\n", "line 2: a command before the players line"},
		{"game felix\nplayers a b c\na:\n", "line 3: a: no command after the colon"},
		{"game felix\nstart a\n", "line 2: start must come after the players line"},
		{"game felix\nplayers a b c\nstart z\n", "line 3: start: z is not a player"},
		{"game felix\nplayers a b c\n" + strings.Repeat("x", 70000) + "\n", "line 3: line longer than"},
	}
	for _, tt := range tests {
		_, err := transcript.Read(strings.NewReader(tt.in), games.Lookup)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: error %v, want %q", tt.in, err, tt.want)
		}
	}
	var le *transcript.LineError
	_, err := transcript.Read(strings.NewReader("game x\n"), games.Lookup)
	if !errors.As(err, &le) || le.Line != 1 {
		t.Errorf("not a LineError at line 1: %v", err)
	}
}

func TestWriteReadsBack(t *testing.T) {
	t.Parallel()
	tr, err := transcript.Read(strings.NewReader(example), games.Lookup)
	if err != nil {
		t.Fatal(err)
	}
	g, _, err := tr.Replay()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := transcript.Write(&buf, "felix", g.Setup(), nil, tr.Moves); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"game felix\n", "players alice bob carol dave\n", "start bob\n", "removed alice=", "alice: play 15\n"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("export lacks %q:\n%s", want, buf.String())
		}
	}
	tr2, err := transcript.Read(&buf, games.Lookup)
	if err != nil {
		t.Fatal(err)
	}
	g2, _, err := tr2.Replay()
	if err != nil {
		t.Fatal(err)
	}
	a, _ := g.MarshalJSON()
	b, _ := g2.MarshalJSON()
	if !bytes.Equal(a, b) {
		t.Fatalf("states differ:\n%s\n%s", a, b)
	}
}

// FuzzTranscript: reading and replaying any text never panics; a failure
// is an error, and a replay failure names its line.
func FuzzTranscript(f *testing.F) {
	f.Add(example)
	f.Add("game felix\nplayers a b c\ndummy 11 -5 3 rabbit small-dog 8 large-dog -8 5\na: play 3\nb: play 5\nc: play 8\na: bid 2\nb: pass\nc: pass\n")
	f.Add("game felix\nplayers a b c d e\nremoved a=rabbit\nstart e\n")
	f.Add("game felix\nplayers a bot b=bot:easy\nremoved bea=rabbit\nstart b\nbea: play 3\nb: undo\n")
	f.Fuzz(func(t *testing.T, in string) {
		defer timeLimited(t)()
		tr, err := transcript.Read(strings.NewReader(in), games.Lookup)
		if err != nil {
			return
		}
		_, _, err = tr.Replay()
		var le *transcript.LineError
		if err != nil && !errors.As(err, &le) && !strings.HasPrefix(err.Error(), "set-up:") {
			t.Fatalf("replay error without a line: %v", err)
		}
	})
}

// TestReplayLogForASpectator: Replay's log holds every event, Others
// events included; read as a spectator reads it (VisibleTo(Public), as
// `pbem replay` must print it), each placement appears once and no
// placed card is named.
func TestReplayLogForASpectator(t *testing.T) {
	t.Parallel()
	tr, err := transcript.Read(strings.NewReader(example), games.Lookup)
	if err != nil {
		t.Fatal(err)
	}
	_, log, err := tr.Replay()
	if err != nil {
		t.Fatal(err)
	}
	var public []string
	for _, e := range log {
		if e.VisibleTo(engine.Public) {
			public = append(public, e.Text)
		}
	}
	text := strings.Join(public, "\n")
	for _, want := range []string{
		"alice puts a card face down into the row (position 4).",
		"bob puts a card face down into the row (position 1).",
	} {
		if strings.Count(text, want) != 1 {
			t.Errorf("the spectator's log has %q %d times, want once:\n%s", want, strings.Count(text, want), text)
		}
	}
	if strings.Contains(text, "You put your") || strings.Contains(text, "rabbit") {
		t.Errorf("the spectator's log names a placed card:\n%s", text)
	}
}

// inputTimeLimit bounds the time of one fuzz input: far above what any
// input takes (milliseconds), so that it cannot fail on a loaded machine,
// and far below the minutes a hostile input once cost. Work counts, where
// a target has them, are the exact bound; this is the backstop.
const inputTimeLimit = 5 * time.Second

// timeLimited fails t if the input it was called for took longer than
// inputTimeLimit: defer timeLimited(t)().
func timeLimited(t *testing.T) func() {
	start := time.Now()
	return func() {
		if d := time.Since(start); d > inputTimeLimit {
			t.Fatalf("one input took %s, over the limit of %s", d.Round(time.Millisecond), inputTimeLimit)
		}
	}
}
