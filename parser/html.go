package parser

import (
	"strings"

	"github.com/inbucket/html2text"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// htmlToText converts an HTML body to text for reading. Before the
// conversion it removes what web mail marks as quoted or as not the
// person's text: blockquotes, Gmail's quote and signature blocks,
// Thunderbird's citation prefix, and everything from Outlook's or Yahoo's
// reply header onwards. Text cutting then handles what is left, such as
// an attribution line a client wrote without markup.
//
// A body with more nodes or deeper nesting than the limits allow, or
// one the HTML parser refuses, is not built into a tree (the converter
// walks it recursively, and a hostile body can nest a million deep): its
// text is read from the token stream instead, without the pruning.
func htmlToText(src string, lim limits, w *work) string {
	if nodes, depth := htmlShape(src); nodes > lim.htmlNodes || depth > lim.htmlDepth {
		w.htmlFlat = true
		return flatHTMLText(src)
	}
	doc, err := html.Parse(strings.NewReader(src))
	if err != nil {
		// html.Parse fails on a read error, which a string has not, and
		// on more open elements than it accepts (htmlParserDepth),
		// which a body under the depth limit can still have: cells of
		// nested tables. Its text is still the player's.
		w.htmlFlat = true
		return flatHTMLText(src)
	}
	// The parser adds the elements it implies; the converter's work
	// follows the tree it built.
	w.htmlNodes = countNodes(doc)
	prune(doc)
	text, err := html2text.FromHTMLNode(doc, html2text.Options{OmitLinks: true})
	if err != nil {
		return ""
	}
	return text
}

// htmlShape counts the tokens of an HTML text and how deeply its
// elements nest, in one pass of the tokenizer. Elements whose end tag
// may be left out (p, li, td...) and void ones (br, img...) do not count
// for the depth: HTML that leaves their end tags out is common and does
// not nest.
func htmlShape(src string) (nodes, maxDepth int) {
	z := html.NewTokenizer(strings.NewReader(src))
	depth := 0
	for {
		switch z.Next() {
		case html.ErrorToken:
			return nodes, maxDepth
		case html.StartTagToken:
			nodes++
			name, _ := z.TagName()
			if !flatElement(atom.Lookup(name)) {
				depth++
				maxDepth = max(maxDepth, depth)
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			if !flatElement(atom.Lookup(name)) && depth > 0 {
				depth--
			}
		default:
			nodes++
		}
	}
}

func flatElement(a atom.Atom) bool {
	switch a {
	case atom.Area, atom.Base, atom.Br, atom.Col, atom.Embed, atom.Hr, atom.Img, atom.Input,
		atom.Link, atom.Meta, atom.Param, atom.Source, atom.Track, atom.Wbr,
		atom.P, atom.Li, atom.Dt, atom.Dd, atom.Tr, atom.Td, atom.Th, atom.Option, atom.Optgroup,
		atom.Tbody, atom.Thead, atom.Tfoot, atom.Colgroup, atom.Rt, atom.Rp,
		atom.Html, atom.Head, atom.Body:
		return true
	}
	return false
}

// flatHTMLText reads the text of an HTML body from its tokens: text as
// it comes, a line break for each block element, nothing of scripts and
// styles. It is linear in the body's size whatever its shape.
func flatHTMLText(src string) string {
	z := html.NewTokenizer(strings.NewReader(src))
	var b strings.Builder
	skip := 0 // inside <script> or <style>
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return b.String()
		case html.TextToken:
			if skip == 0 {
				b.WriteString(strings.Join(strings.Fields(string(z.Text())), " "))
			}
		case html.StartTagToken, html.EndTagToken, html.SelfClosingTagToken:
			name, _ := z.TagName()
			switch a := atom.Lookup(name); a {
			case atom.Script, atom.Style:
				if tt == html.StartTagToken {
					skip++
				} else if tt == html.EndTagToken && skip > 0 {
					skip--
				}
			case atom.Br, atom.P, atom.Div, atom.Tr, atom.Li, atom.H1, atom.H2, atom.H3, atom.H4,
				atom.H5, atom.H6, atom.Blockquote, atom.Pre, atom.Table, atom.Ul, atom.Ol, atom.Hr:
				b.WriteByte('\n')
			default:
				if b.Len() > 0 {
					b.WriteByte(' ')
				}
			}
		}
	}
}

// countNodes counts a tree's nodes without recursion.
func countNodes(doc *html.Node) int {
	n := 0
	for c := doc; c != nil; c = nextInOrder(c) {
		n++
	}
	return n
}

// prune removes quoted and foreign parts from an HTML document. It walks
// the tree iteratively (a hostile message may nest deeply) and returns
// once it has cut the rest of the document at a reply header.
func prune(doc *html.Node) {
	n := doc
	for n != nil {
		if n.Type == html.ElementNode {
			switch {
			case cutsRest(n):
				removeFrom(n)
				return
			case dropped(n):
				next := nextSkippingChildren(n)
				if isQuote(n) {
					// A line ">" stands for the quote, so that cutting
					// knows the attribution above it for one and reads
					// on below it (SOGo, Roundcube: the reply under the
					// <blockquote>).
					n.Parent.InsertBefore(quoteMark(), n)
				}
				n.Parent.RemoveChild(n)
				n = next
				continue
			}
		}
		n = nextInOrder(n)
	}
}

// dropped reports whether an element is quoted text or a signature.
func dropped(n *html.Node) bool {
	if n.Parent == nil {
		return false
	}
	if n.DataAtom == atom.Blockquote {
		return true
	}
	for _, c := range []string{"gmail_quote", "gmail_signature", "moz-cite-prefix", "moz-signature", "protonmail_quote", "protonmail_signature_block", "yahoo_quoted"} {
		if hasClass(n, c) {
			return true
		}
	}
	return attr(n, "data-smartmail") == "gmail_signature" || attr(n, "id") == "Signature" || attr(n, "name") == "quote"
}

// isQuote reports whether a dropped element is quoted text, not a
// signature.
func isQuote(n *html.Node) bool {
	if n.DataAtom == atom.Blockquote || attr(n, "name") == "quote" {
		return true
	}
	for _, c := range []string{"gmail_quote", "protonmail_quote", "yahoo_quoted"} {
		if hasClass(n, c) {
			return true
		}
	}
	return false
}

// quoteMark is a block holding only ">": a quoted line of text.
func quoteMark() *html.Node {
	div := &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div}
	div.AppendChild(&html.Node{Type: html.TextNode, Data: ">"})
	return div
}

// cutsRest reports whether an element starts the quoted original in
// clients that do not nest the quote inside one element: Outlook's
// reply header (after which the original follows as siblings) and
// Yahoo's.
func cutsRest(n *html.Node) bool {
	id := attr(n, "id")
	switch {
	case id == "divRplyFwdMsg", id == "appendonsend", id == "x_divRplyFwdMsg", strings.HasPrefix(id, "yahoo_quoted"):
		return true
	case hasClass(n, "OutlookMessageHeader"):
		return true
	}
	return false
}

// removeFrom removes n and everything after it in document order.
func removeFrom(n *html.Node) {
	for cur := n; cur != nil && cur.Parent != nil; cur = cur.Parent {
		for s := cur.NextSibling; s != nil; {
			next := s.NextSibling
			cur.Parent.RemoveChild(s)
			s = next
		}
	}
	n.Parent.RemoveChild(n)
}

func nextInOrder(n *html.Node) *html.Node {
	if n.FirstChild != nil {
		return n.FirstChild
	}
	return nextSkippingChildren(n)
}

func nextSkippingChildren(n *html.Node) *html.Node {
	for ; n != nil; n = n.Parent {
		if n.NextSibling != nil {
			return n.NextSibling
		}
	}
	return nil
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func hasClass(n *html.Node, class string) bool {
	for _, c := range strings.Fields(attr(n, "class")) {
		if c == class {
			return true
		}
	}
	return false
}
