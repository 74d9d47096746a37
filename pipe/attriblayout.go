package pipe

import (
	"fmt"

	"vortexgfx/shader/ir"
)

// AttributeSlot is one vertex attribute of the bound program and the vertex
// elements that feed it: Columns consecutive elements from Element, each of up
// to four of the attribute's Words of Type (a mat2's four words are one
// element).
type AttributeSlot struct {
	Name    string
	Type    ir.Type
	Words   int
	Element int
	Columns int
}

// AttributeLayout returns the vertex attributes the bound program reads, in
// the linker's order, each with the element DrawVBO feeds it from on both
// paths: an attribute with layout(location = L) reads element L, any other the
// element at its index in this list. The fixed-function vertex stage (no
// vertex shader) reads gl_Vertex, gl_Color and gl_MultiTexCoord0 from elements
// 0, 1 and 2, the last two only when bound. A front end translating another
// API's attribute bindings builds its VertexElements from it.
//
// The index rule is not GL's linker, which gives an attribute without a
// location free ones: an implicit attribute whose index is another's explicit
// location (or a matrix's further column) reads that attribute's element, so
// AttributeLayout fails naming both rather than describe a binding that feeds
// two attributes from one element. spec: vortexpipe §2.3.2 (load_input reads
// the per-attribute table)
func (c *Context) AttributeLayout() ([]AttributeSlot, error) {
	l, err := c.boundProgram()
	if err != nil {
		return nil, err
	}
	slots := l.attrs
	if l.vs == nil {
		slots = fixedSlots
	}
	out := make([]AttributeSlot, len(slots))
	owner := map[int]string{}
	for i, s := range slots {
		el := s.Location
		if el < 0 {
			el = i
		}
		a := AttributeSlot{Name: s.Name, Type: s.Type, Words: s.Words, Element: el, Columns: (s.Words + 3) / 4}
		for e := el; e < el+a.Columns; e++ {
			if o, ok := owner[e]; ok {
				return nil, fmt.Errorf("pipe: AttributeLayout: attributes %s and %s both read vertex element %d", o, s.Name, e)
			}
			owner[e] = s.Name
		}
		out[i] = a
	}
	return out, nil
}
