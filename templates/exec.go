package templates

import (
	"bytes"
	"fmt"
	htmltemplate "html/template"
	"strings"
	"sync"
	"text/template"
)

// scratch lends the buffers the templates are executed into, so that a
// mail's parts are not grown byte by byte in a fresh buffer each time
// (issue 40: growing them was a fifth of the bytes a mail allocated).
// What a part renders is copied out of the buffer before the buffer goes
// back, so nothing of one mail stays where another's can read it. A nil
// *scratch lends a new buffer each time.
type scratch struct{ pool sync.Pool }

// maxScratch is the largest buffer kept for the next mail: a part larger
// than any mail's (a long history) is left to the garbage collector, so
// that the pool holds at most a few mails' worth.
const maxScratch = 256 << 10

// buffer is an empty buffer to execute a template into.
func (s *scratch) buffer() *bytes.Buffer {
	if s != nil {
		if b, ok := s.pool.Get().(*bytes.Buffer); ok {
			b.Reset()
			return b
		}
	}
	return new(bytes.Buffer)
}

// release gives a buffer back once what it held has been copied out.
func (s *scratch) release(b *bytes.Buffer) {
	if s != nil && b.Cap() <= maxScratch {
		s.pool.Put(b)
	}
}

// text executes the text template name.
func (s *scratch) text(t *template.Template, name string, data any) (string, error) {
	b := s.buffer()
	defer s.release(b)
	if err := t.ExecuteTemplate(b, name, data); err != nil {
		return "", fmt.Errorf("templates: %w", err)
	}
	return b.String(), nil
}

// html executes the HTML template name, tidied (tidyHTML).
func (s *scratch) html(h *htmltemplate.Template, name string, data any) (string, error) {
	b := s.buffer()
	defer s.release(b)
	if err := h.ExecuteTemplate(b, name, data); err != nil {
		return "", fmt.Errorf("templates: %w", err)
	}
	return tidyHTML(b.Bytes()), nil
}

// gameHTML renders a game mail's HTML part (gameData.gameHTML), tidied.
func (r *Renderer) gameHTML(d *gameData) (string, error) {
	b := r.buf.buffer()
	defer r.buf.release(b)
	if err := d.gameHTML(b); err != nil {
		return "", fmt.Errorf("templates: %w", err)
	}
	return tidyHTML(b.Bytes()), nil
}

// gameText renders a game mail's text part (gameData.gameText), before
// tidyBody.
func (r *Renderer) gameText(d *gameData) (string, error) {
	b := r.buf.buffer()
	defer r.buf.release(b)
	if err := d.gameText(b); err != nil {
		return "", fmt.Errorf("templates: %w", err)
	}
	return b.String(), nil
}

func execHTML(h *htmltemplate.Template, name string, data any) (string, error) {
	return (*scratch)(nil).html(h, name, data)
}

func execText(t *template.Template, name string, data any) (string, error) {
	return (*scratch)(nil).text(t, name, data)
}

// tidyHTML drops the blank lines and indentation the templates leave.
// It writes the tidied part in one allocation: its lines are copied
// from the buffer the template was executed into, never split first.
func tidyHTML(s []byte) string {
	var b strings.Builder
	b.Grow(len(s))
	for len(s) > 0 {
		line := s
		if i := bytes.IndexByte(s, '\n'); i >= 0 {
			line, s = s[:i], s[i+1:]
		} else {
			s = nil
		}
		line = bytes.TrimSpace(line)
		if len(line) > 0 {
			b.Write(line)
			b.WriteByte('\n')
		}
	}
	return b.String()
}
