package lower

import (
	"fmt"

	"vortexgfx/shader/glsl/ast"
	"vortexgfx/shader/glsl/types"
	"vortexgfx/shader/ir"
)

// Image and atomic counter uniforms, and arrays (of arrays) of them: their
// bindings in the program (image.go lowers the functions on them).

// opaqueVar is an image or atomic counter uniform, or an array (of arrays) of
// them, whose elements are numbered in row-major order.
type opaqueVar struct {
	image   int    // index into Program.Images of element 0, -1 for a counter
	bind    uint32 // counter binding
	off     uint32 // counter byte offset
	count   int    // elements (1 for one)
	dims    []int  // the array's dimensions, outermost first (none for one)
	counter bool
}

// opaqueDims returns the element type of an array (of arrays) of opaque values,
// its dimensions (outermost first) and its element count.
func opaqueDims(t *ast.Type) (*ast.Type, []int, int) {
	var dims []int
	n := 1
	for t.IsArray() {
		dims = append(dims, t.Len)
		n *= t.Len
		t = t.Elem
	}
	return t, dims, n
}

// elementName is the name of element k (row-major) of an array of dims named
// name: "tex[1][0]".
func elementName(name string, dims []int, k int) string {
	idx := make([]int, len(dims))
	for d := len(dims) - 1; d >= 0; d-- {
		idx[d], k = k%dims[d], k/dims[d]
	}
	for _, i := range idx {
		name += fmt.Sprintf("[%d]", i)
	}
	return name
}

// isMemOpaque reports image and atomic counter types (and arrays of them).
func isMemOpaque(t *ast.Type) bool {
	for t.IsArray() {
		t = t.Elem
	}
	return t.IsSampler() && (t.Sampler.Image || t.Sampler.Atomic)
}

// opaqueUniform records an image or atomic counter uniform.
func (l *lowerer) opaqueUniform(v *ast.Var, counterNext map[uint32]uint32) {
	for ov, o := range l.opaque {
		if ov.Name == v.Name {
			l.opaque[v] = o // declared in several units
			return
		}
	}
	p := l.p
	et, dims, count := opaqueDims(v.Type)
	if et.Sampler.Atomic {
		bind := uint32(max(v.Binding, 0))
		off := counterNext[bind]
		if o := layoutInt(&v.Qual, "offset"); o >= 0 {
			off = uint32(o)
		}
		counterNext[bind] = off + 4*uint32(count)
		p.Counters = append(p.Counters, ir.CounterBinding{Name: v.Name, Binding: bind, Offset: off, Count: uint32(count)})
		l.opaque[v] = &opaqueVar{image: -1, counter: true, bind: bind, off: off, count: count, dims: dims}
		return
	}
	// An array of images takes consecutive bindings, one per element, named
	// by element ("tex[1][0]") as the API names them. spec: GLSL 4.50 §4.4.7
	// ("the binding ... of the first element; subsequent elements take the
	// next consecutive units").
	s := et.Sampler
	f, ok := ir.FormatByName(types.ImageFormat(v))
	switch {
	case !ok && v.Qual.WriteOnlyMem && types.ImageFormat(v) == "":
		f = ir.FormatUnknown // converted to the bound image's format at run time
	case !ok:
		l.errorf(v.DeclPos, "image '%s' has no supported format", v.Name)
	}
	first := len(p.Images)
	base := uint32(len(p.Images))
	if v.Binding >= 0 {
		base = uint32(v.Binding)
	}
	for k := 0; k < count; k++ {
		name := v.Name
		if len(dims) > 0 {
			name = elementName(v.Name, dims, k)
		}
		ib := ir.ImageBinding{Name: name, Binding: base + uint32(k), ReadOnly: v.Qual.ReadOnlyMem, WriteOnly: v.Qual.WriteOnlyMem, Format: f}
		switch {
		case s.Dim == ast.Dim3D:
			ib.Dim = ir.Image3D
		case s.Array:
			ib.Dim = ir.Image2DArray
		}
		for _, x := range p.Images {
			if x.Binding == ib.Binding {
				l.errorf(v.DeclPos, "images '%s' and '%s' share binding %d", x.Name, name, ib.Binding)
			}
		}
		p.Images = append(p.Images, ib)
	}
	l.opaque[v] = &opaqueVar{image: first, count: count, dims: dims}
}

func layoutInt(q *ast.Qualifiers, name string) int {
	for _, lq := range q.Layout {
		if lq.Name == name && lq.Value != nil && lq.Value.Value() != nil {
			return int(lq.Value.Value().Int(0))
		}
	}
	return -1
}
