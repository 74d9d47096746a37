package trace

import (
	"encoding/xml"
	"errors"
	"io"
	"strings"
)

// node is one element of the archive: its name, its character data and its
// element children. Boost archives carry no mixed content we need beyond that.
type node struct {
	Name string
	Text string
	Kids []*node
}

func (n *node) child(name string) *node {
	for _, k := range n.Kids {
		if k.Name == name {
			return k
		}
	}
	return nil
}

// maxDepth bounds element nesting; a boost CGLTrace nests eight deep.
const maxDepth = 64

// parseXML reads the whole document into a tree. Truncated or malformed XML
// returns an error naming the open element path and the byte offset.
func parseXML(r io.Reader) (*node, error) {
	d := xml.NewDecoder(r)
	d.Strict = true
	var stack []*node
	var text [][]byte
	var root *node
	path := func() string {
		var b strings.Builder
		for _, n := range stack {
			b.WriteByte('/')
			b.WriteString(n.Name)
		}
		if b.Len() == 0 {
			return "/"
		}
		return b.String()
	}
	for {
		tok, err := d.Token()
		if err == io.EOF {
			if len(stack) != 0 {
				return nil, badf("%s: truncated document (element not closed at byte %d)", path(), d.InputOffset())
			}
			if root == nil {
				return nil, badf("/: empty document")
			}
			return root, nil
		}
		if err != nil {
			var se *xml.SyntaxError
			if errors.As(err, &se) {
				if se.Msg == "unexpected EOF" {
					return nil, badf("%s: truncated document: unexpected EOF at line %d", path(), se.Line)
				}
				return nil, badf("%s: XML syntax error at line %d: %s", path(), se.Line, se.Msg)
			}
			return nil, badf("%s: %v", path(), err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if len(stack) >= maxDepth {
				return nil, badf("%s: elements nest deeper than %d", path(), maxDepth)
			}
			n := &node{Name: t.Name.Local}
			if len(stack) == 0 {
				if root != nil {
					return nil, badf("/%s: second root element", n.Name)
				}
				root = n
			} else {
				p := stack[len(stack)-1]
				p.Kids = append(p.Kids, n)
			}
			stack = append(stack, n)
			text = append(text, nil)
		case xml.EndElement:
			n := stack[len(stack)-1]
			n.Text = string(text[len(text)-1])
			stack = stack[:len(stack)-1]
			text = text[:len(text)-1]
		case xml.CharData:
			if len(text) > 0 {
				text[len(text)-1] = append(text[len(text)-1], t...)
			}
		}
	}
}
