package lower

import (
	"vortexgfx/shader/glsl/ast"
	"vortexgfx/shader/ir"
)

// Framebuffer fetch (EXT_shader_framebuffer_fetch and its non-coherent
// form): a fragment output declared inout starts with the colour already in
// its render target at the fragment's pixel (sample, on a multisampled
// target), and GLSL ES 1.00's gl_LastFragData[i] is that colour of target i.
// Those colours are fragment input words the renderer fills per lane, laid
// out after every other input (the system inputs included): the inout
// outputs in output order, each location's components (its type's words: 4
// for a vec4, the element's for arrays) one after the other, then
// gl_LastFragData's 4 words per draw buffer. Program.Fetch lists them, one
// slot per target: Location is the render target, Word the first input word,
// Words the components read (from .x on), Type how the words read (F32 for
// float and normalized targets, I32/U32 for integer targets, as the colour
// outputs are written). An inout output's registers are loaded from its
// words before main runs, so a component main never writes keeps the
// stored value. spec: EXT_shader_framebuffer_fetch §4.3.6, §7.2 (the value
// read is the one in the framebuffer "prior to the execution of the
// fragment shader"), EXT_shader_framebuffer_fetch_non_coherent.

// fetchLast reports whether v is gl_LastFragData, which layoutFragment lays
// out with the fetched outputs rather than with the varyings.
func fetchLast(v *ast.Var) bool { return v.Kind == ast.VarIn && v.Fetch }

// layoutFetch appends the fetched words to the fragment inputs (after the
// system inputs) and records them in l.fetch; called by layoutFragment once
// the outputs have their words.
func (l *lowerer) layoutFetch(last []*ast.Var) {
	p := l.p
	for _, v := range l.outVars {
		if !v.Fetch || l.hasFetchWord(v) {
			continue
		}
		w := p.InputWords
		l.fetchWord[v] = w
		n := v.Type.Slots()
		t := slotType(v.Type)
		p.Inputs = append(p.Inputs, ir.Slot{Name: v.Name, Word: w, Words: n, Type: t, Location: -1, Flat: true})
		p.InputWords += n
		per, count := n, 1
		if v.Type.IsArray() {
			per, count = v.Type.Elem.Slots(), v.Type.Len
		}
		for e := range count {
			loc := l.outputs[v]/4 + e*((per+3)/4)
			l.fetch = append(l.fetch, ir.Slot{Name: v.Name, Word: w + e*per, Words: min(per, 4), Type: t, Location: loc})
		}
	}
	for _, v := range last {
		n := v.Type.Slots()
		w := p.InputWords
		l.inputs[v] = w
		l.inVars = append(l.inVars, v)
		p.Inputs = append(p.Inputs, ir.Slot{Name: v.Name, Word: w, Words: n, Type: ir.F32, Location: -1, Flat: true})
		p.InputWords += n
		for e := range v.Type.Len {
			l.fetch = append(l.fetch, ir.Slot{Name: v.Name, Word: w + 4*e, Words: 4, Type: ir.F32, Location: e})
		}
	}
}

// hasFetchWord reports whether v (an output declared in several units) was
// already given its fetched words.
func (l *lowerer) hasFetchWord(v *ast.Var) bool {
	_, ok := l.fetchWord[v]
	return ok
}

// loadFetched loads each inout output's registers from its fetched words.
func (l *lowerer) loadFetched() {
	for _, v := range l.outVars {
		w, ok := l.fetchWord[v]
		if !ok {
			continue
		}
		st := l.storageOf(v)
		for k := range ast.WordBases(v.Type) {
			l.b.Imm(ir.LoadInput, st.base+ir.Reg(k), uint32(w+k))
		}
	}
}
