package templates

import (
	"bytes"
	"errors"
	"fmt"
	htmltemplate "html/template"
	"io"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/pbem/pbem/engine"
)

// fragments renders the small pieces of HTML that every mail repeats
// many times, with the same data for every reader — a card's tile (Go,
// goFragments), a line of a game's table (a game's template) — once, and
// keeps what they rendered (issue 15: running the templates was a
// quarter of the CPU a command costs).
//
// A fragment's output is a function of its template and its data alone,
// and is kept under both: a reader is given only what the same template
// renders from the very value his own mail passes it. So nothing private
// to one reader can reach another's mail through the cache, and a
// fragment may show private data (the reader's own cards are tiles too).
// A fragment template must therefore read nothing but its data and
// functions without state; the templates that call "fragment" say so.
// Its data is a comparable value that holds what it shows and nothing
// more (engine.Tile, gracias.AreaLine), so that the readers whose mails
// show the same thing share one rendering of it (issue 40), and no two
// show different things from the same data.
type fragments struct {
	h  *htmltemplate.Template // the set the fragments are executed in
	mu sync.Mutex
	m  map[fragmentKey]htmltemplate.HTML
}

type fragmentKey struct {
	name string
	data any
}

// maxFragments bounds the cache. The tiles of a game are few, but a game
// may label tiles with any text, and a table's lines (a game's *.fresh
// templates: gracias.area.fresh) change with every move; at the bound
// the cache starts again, empty.
const maxFragments = 4096

// render is the templates' "fragment NAME DATA": what template NAME
// renders from data, as HTML to insert as is. The fragment is executed
// on its own, in the context of HTML text; it must be called there,
// between elements, where its output means the same.
func (f *fragments) render(name string, data any) (htmltemplate.HTML, error) {
	// A key must be comparable; data that is not is rendered each time.
	keep := data == nil || reflect.TypeOf(data).Comparable()
	key := fragmentKey{name, data}
	if keep {
		f.mu.Lock()
		out, ok := f.m[key]
		f.mu.Unlock()
		if ok {
			return out, nil
		}
	}
	out, err := f.fresh(name, data)
	if err != nil {
		return "", err
	}
	if keep {
		f.mu.Lock()
		if len(f.m) >= maxFragments {
			// Start again rather than stop keeping: the lines of today's
			// tables are kept, not those of the first few thousand.
			f.m = make(map[fragmentKey]htmltemplate.HTML, len(goFragments))
		}
		f.m[key] = out
		f.mu.Unlock()
	}
	return out, nil
}

// fresh renders the fragment name from data, not kept: in Go for one of
// goFragments, else by executing its template.
func (f *fragments) fresh(name string, data any) (htmltemplate.HTML, error) {
	if write, ok := goFragments[name]; ok {
		t, ok := data.(engine.Tile)
		if !ok {
			return "", fmt.Errorf("fragment %s: the data is a %T, not an engine.Tile", name, data)
		}
		return write(t), nil
	}
	var b bytes.Buffer
	if err := f.h.ExecuteTemplate(&b, name, data); err != nil {
		return "", fmt.Errorf("fragment %s: %w", name, err)
	}
	return htmltemplate.HTML(b.String()), nil // escaped by html/template itself
}

// goFragments are the fragments every set has, which are Go rather than
// templates (tiles_html.go), by name: a card's tile and its chip, from
// an engine.Tile. A game may have fragments of its own: every template
// whose name ends in freshSuffix is one (newFragments), and like these
// it must read its data and nothing else.
var goFragments = map[string]func(engine.Tile) htmltemplate.HTML{
	"tile.fresh": tileHTML,
	"chip.fresh": chipHTML,
}

// freshSuffix ends the name of every fragment template.
const freshSuffix = ".fresh"

// snippets are the functions that render a small template of the set as
// HTML, for a message's argument ({{T "Reply %s for the list." (codeList
// .Commands)}}: a template's output cannot be an argument), by the
// template each renders. Unlike a fragment's, their output is not kept.
// The commands and buttons, which every mail draws many times, are Go
// (buttons.go).
var snippets = map[string]string{
	"codeList":    "code.list",      // commands to copy, with commas
	"addressLink": "digest.address", // a seat's address, a mailto: link
	"urlLink":     "a.url",          // an address of the web, written out as its link
}

// anchorTemplate renders anchor's link: {{anchor URL TEXT}}, TEXT a
// message.
const anchorTemplate = "a"

// anchorData is what anchorTemplate renders.
type anchorData struct {
	URL  string
	Text any
}

// snippet renders the template name from data, as HTML to insert as is,
// each time.
func (f *fragments) snippet(name string, data any) (htmltemplate.HTML, error) {
	var b bytes.Buffer
	if err := f.h.ExecuteTemplate(&b, name, data); err != nil {
		return "", fmt.Errorf("snippet %s: %w", name, err)
	}
	return htmltemplate.HTML(b.String()), nil // escaped by html/template itself
}

// newFragments makes the fragment cache of a template set and adds its
// "fragment" function to the set. It must be called before the set is
// first executed (html/template allows no new functions after), and it
// escapes the fragment templates at once: html/template escapes a
// template the first time it is executed, and escaping changes the set,
// which must not happen while other mails are being rendered from it.
func newFragments(h *htmltemplate.Template) (*fragments, error) {
	f := &fragments{h: h, m: map[fragmentKey]htmltemplate.HTML{}}
	fm := htmltemplate.FuncMap{"fragment": f.render}
	for fn, name := range snippets {
		fm[fn] = func(data any) (htmltemplate.HTML, error) { return f.snippet(name, data) }
	}
	fm["anchor"] = func(url string, text any) (htmltemplate.HTML, error) {
		return f.snippet(anchorTemplate, anchorData{URL: url, Text: text})
	}
	h.Funcs(fm)
	names := []string{anchorTemplate}
	for _, name := range snippets {
		names = append(names, name)
	}
	for _, t := range h.Templates() {
		if name := t.Name(); strings.HasSuffix(name, freshSuffix) && !slices.Contains(names, name) {
			names = append(names, name) // a game's own
		}
	}
	for _, name := range names {
		if h.Lookup(name) == nil {
			return nil, fmt.Errorf("templates: no fragment template %q", name)
		}
		// The zero data may not render; the escaping is done regardless,
		// and only an escaping error matters here.
		err := h.ExecuteTemplate(io.Discard, name, nil)
		var e *htmltemplate.Error
		if err != nil && errors.As(err, &e) {
			return nil, fmt.Errorf("templates: %s: %w", name, err)
		}
	}
	return f, nil
}
