package program

import "vortexgfx/ref"

// ReadsPrimitiveCounter reports whether the fragment stage reads
// gl_PrimitiveID with no geometry stage writing it: the renderer's count of
// the draw's primitives fills it. spec: GLSL 1.50 §7.1.
func (p *Program) ReadsPrimitiveCounter() bool { return p.fsPrim >= 0 }

// BlockInterpolation names the first fragment input block instance whose
// members interpolate otherwise than its IR slot as a whole says (ir.Slot's
// Flat and NoPerspective): members with interpolation qualifiers of their
// own, which Interp honours word by word. It returns "" when there is none.
// A renderer that interpolates by slot (the device's, gfx/shaderdev) cannot
// take such a program. spec: GLSL 1.50 §4.3.7.
func (p *Program) BlockInterpolation() string {
	if p.IR.FS == nil || p.Linked.Fragment == nil {
		return ""
	}
	for _, s := range p.IR.FS.Inputs {
		if p.fragmentBlock(s.Name) == nil {
			continue
		}
		want := ref.Smooth
		switch {
		case s.Flat:
			want = ref.Flat
		case s.NoPerspective:
			want = ref.NoPerspective
		}
		for w := s.Word; w < s.Word+s.Words && w < len(p.interp); w++ {
			if p.interp[w] != want {
				return s.Name
			}
		}
	}
	return ""
}
