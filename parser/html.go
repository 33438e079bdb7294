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
func htmlToText(src string) string {
	doc, err := html.Parse(strings.NewReader(src))
	if err != nil {
		// html.Parse only fails on a read error, which a string has not.
		return ""
	}
	prune(doc)
	text, err := html2text.FromHTMLNode(doc, html2text.Options{OmitLinks: true})
	if err != nil {
		return ""
	}
	return text
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
