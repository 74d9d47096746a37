package pipe

import (
	"slices"

	"vortexgfx/gfx/shaderdev"
)

// The legacy colours' shading state (RasterizerState.Flatshade and
// LightTwoSide): the reference renderer runs both; the device runs
// two-sided colour over the pairs its program packs, and the flat shade
// model as a variant of the program whose legacy colour inputs are flat
// (linked.flatVariants: the planes are fixed when a program is made).
// spec: GL 2.1 §2.14.1, §2.14.7; vortexpipe-driver.md §1.5.1

// flatshade reports whether the bound rasterizer asks for GL_FLAT.
func (st *BoundState) flatshade() bool { return st.Rast != nil && st.Rast.State.Flatshade }

// twoSided reports whether a draw of l has two-sided colour: the bound
// rasterizer asks for it and the vertex stage writes a back colour.
func (st *BoundState) twoSided(l *linked) bool {
	return st.Rast != nil && st.Rast.State.LightTwoSide && len(l.prog.TwoSide()) > 0
}

// legacyColourGates returns why the device program sp cannot shade a draw
// of l with st's legacy colour state: GL_FLAT on a colour the fragment stage
// interpolates when sp is not the flat variant (flatVariant), two-sided colour on a pair sp does not pack or with
// clockwise front faces (the device's back faces are the counter-clockwise
// convention's).
func legacyColourGates(st *BoundState, l *linked, sp *shaderdev.Program, flatVariant bool) []Reason {
	var gates []Reason
	if st.flatshade() && !flatVariant && !slices.Equal(l.prog.Interp(true), l.prog.Interp(false)) {
		gates = append(gates, Reason{GateFlatShade, ""})
	}
	if st.twoSided(l) {
		switch {
		case !st.Rast.State.FrontCCW:
			gates = append(gates, Reason{GateTwoSide, "clockwise front faces"})
		case !packsTwoSide(sp, deviceTwoSide(st, l)):
			gates = append(gates, Reason{GateTwoSide, ""})
		}
	}
	return gates
}

// deviceTwoSide is a draw's two-sided colour pairs in the device's form (nil
// without two-sided colour).
func deviceTwoSide(st *BoundState, l *linked) []shaderdev.TwoSide {
	if !st.twoSided(l) {
		return nil
	}
	var out []shaderdev.TwoSide
	for _, r := range l.prog.TwoSide() {
		out = append(out, shaderdev.TwoSide{Front: r.Front, Back: r.Back, Words: r.Words})
	}
	return out
}

// packsTwoSide reports whether sp packs every pair (shaderdev.Program.TwoSidePairs).
func packsTwoSide(sp *shaderdev.Program, pairs []shaderdev.TwoSide) bool {
	for _, q := range pairs {
		if !slices.Contains(sp.TwoSidePairs(), q) {
			return false
		}
	}
	return true
}
