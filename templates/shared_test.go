package templates

import "testing"

// TestSharedRenderingIsTheReadersOwn renders the mails of every seat at
// several positions of a Felix and a Gracias game with one renderer, as
// the daemon does after each command, and checks each against the same
// mail rendered by a renderer that has rendered nothing else: what the
// readers share (fragments, kept sentences) never gives one reader
// anything rendered from another's data (issue 40).
func TestSharedRenderingIsTheReadersOwn(t *testing.T) {
	t.Parallel()
	warm := newRenderer(t)
	for _, c := range []struct {
		file, lang string
		from       int
	}{
		{"engine/felix/testdata/basics-4p.txt", "", 4},
		{"engine/felix/testdata/basics-4p.txt", "de", 4},
		{"engine/felix/testdata/basics-4p.txt", "", 12},
		{"examples/gracias-3p.txt", "", 1},
	} {
		// Every position's mails first, each seat's in turn, so that the
		// later ones find what the earlier ones left; then the check.
		mails := benchMails(t, c.file, c.lang, c.from)
		got := make([]Mail, len(mails))
		for i, m := range mails {
			got[i] = render(t, warm, m)
		}
		for i, m := range mails {
			cold := render(t, newRenderer(t), m)
			if got[i] != cold {
				t.Errorf("%s %s, mail %d to %s: rendered after the others' mails, it differs from its own rendering:\n%s\n----\n%s",
					c.file, c.lang, i, m.Reader, got[i].HTML, cold.HTML)
			}
		}
	}
}
