package types

import "vortexgfx/shader/glsl/ast"

// Explicit offsets and alignments in uniform blocks (storage blocks:
// bufferBlock). spec: GLSL 4.40 §4.4.5 (offset and align), OpenGL 4.5
// §7.6.2.2 (std140), ARB_enhanced_layouts

// uniformBlock lays out a uniform block's members by the std140 rules
// (every packing of a uniform block is std140 here), honouring each
// member's layout(offset) and layout(align) and the block's layout(align).
func (c *checker) uniformBlock(d *ast.BlockDecl, b *ast.InterfaceBlock) {
	c.explicitLayoutPacking(d, b)
	off := 0
	for _, m := range b.Members {
		s, a := Std140Layout(m.Type, m.RowMajor)
		if a == 0 {
			a = 4
		}
		base := a
		if al := c.memberAlign(d, m); al >= 0 {
			if al == 0 || al&(al-1) != 0 {
				c.errorf(m.DeclPos, "layout(align = %d) is not a power of two", al)
			} else {
				a = max(a, al)
			}
		}
		if o := c.memberLayout(m, "offset"); o >= 0 {
			// The offset is a multiple of the member's base alignment and
			// does not reach back into an earlier member; align then rounds
			// it up.
			if o%base != 0 {
				c.errorf(m.DeclPos, "layout(offset = %d) of '%s' is not a multiple of its alignment %d", o, m.Name, base)
			} else if o < off {
				c.errorf(m.DeclPos, "layout(offset = %d) of '%s' overlaps the previous member", o, m.Name)
			} else {
				off = o
			}
		}
		off = roundUp(off, a)
		m.Offset = off
		off += s
	}
	b.Size = roundUp(off, 16)
}

// memberAlign is a block member's layout(align), else its block's (which
// applies to every member), else -1.
func (c *checker) memberAlign(d *ast.BlockDecl, m *ast.Var) int {
	if al := c.memberLayout(m, "align"); al >= 0 {
		return al
	}
	for _, l := range d.Qual.Layout {
		if l.Name == "align" {
			return c.layoutInt(l)
		}
	}
	return -1
}

// explicitLayoutPacking: offset and align need a packing whose layout is
// defined, std140 or std430, not shared or packed. spec: GLSL 4.40 §4.4.5
func (c *checker) explicitLayoutPacking(d *ast.BlockDecl, b *ast.InterfaceBlock) {
	if b.Layout == "std140" || b.Layout == "std430" {
		return
	}
	report := func(ls []ast.LayoutQual) {
		for _, l := range ls {
			if l.Name == "offset" || l.Name == "align" {
				c.errorf(l.NamePos, "layout(%s) requires a std140 or std430 block, not %s", l.Name, b.Layout)
			}
		}
	}
	report(d.Qual.Layout)
	for _, m := range b.Members {
		report(m.Qual.Layout)
	}
}
