package program

import (
	"errors"
	"fmt"

	"vortexgfx/ref"
	"vortexgfx/shader"
	"vortexgfx/shader/exec"
	"vortexgfx/shader/glsl"
	"vortexgfx/shader/glsl/ast"
	"vortexgfx/shader/ir"
	"vortexgfx/shader/lower"
)

// ErrNoUniform is returned by SetUniform for a name that names no uniform of
// the program (or an element outside it).
var ErrNoUniform = errors.New("program: no such uniform")

// ErrNoStage is returned by New for a program without a vertex or fragment
// stage: the caller supplies the missing stage itself (fixed function).
var ErrNoStage = errors.New("program: stage missing")

// Config sets the warp widths the executor runs with.
type Config struct {
	// VertexWidth is the vertex warp width (1..64; 0 selects 16).
	VertexWidth int
	// FragmentWidth is the fragment warp width, a multiple of 4 up to 64
	// (0 selects 16: four quads per run).
	FragmentWidth int
}

func (c Config) widths() (int, int, error) {
	vw, fw := c.VertexWidth, c.FragmentWidth
	if vw == 0 {
		vw = 16
	}
	if fw == 0 {
		fw = 16
	}
	if vw < 1 || vw > 64 {
		return 0, 0, fmt.Errorf("program: vertex width %d outside 1..64", vw)
	}
	if fw < 4 || fw > 64 || fw%4 != 0 {
		return 0, 0, fmt.Errorf("program: fragment width %d is not a multiple of 4 in 4..64", fw)
	}
	return vw, fw, nil
}

// Program is a linked, lowered GLSL program together with its uniform values
// and sampler units, ready to run on the reference renderer. It is not safe for
// concurrent modification; draws only read it.
type Program struct {
	Linked *glsl.Program
	IR     *lower.Program
	// Uniforms is the uniform word buffer both stages read (ir.Slot layout of
	// IR.Uniforms), zero-initialised as GL's uniforms are.
	Uniforms []uint32
	// Units is the texture unit of each sampler binding (IR.Samplers): its
	// layout(binding), else 0, until SetUniform changes it.
	Units []int

	cfg      Config
	vw, fw   int
	byName   map[string]uniformRef
	blocks   map[string]string // instanced block name -> instance name
	interp   []ref.Interp      // per vertex output word
	colour   [][2]int          // varying word ranges of the legacy colours without qualifiers
	vsColour [][2]int          // vertex output word ranges of the legacy colours
	twoSide  []ref.TwoSide
	fsFrag   [4]int // gl_FragCoord, gl_FrontFacing, gl_PointCoord, gl_HelperInvocation input words (-1: unused)
	fsPrim   int    // gl_PrimitiveID input word the renderer's primitive counter fills (-1: none)
	fsSample [5]int // gl_SampleID, gl_SamplePosition, gl_SampleMaskIn, gl_NumSamples, lower.SamplePositionTable input words (-1: unused; sample.go)
	fsMask   int    // gl_SampleMask output word, -1 when not written
	fsDepth  int    // gl_FragDepth output word, -1 when not written
	fsSrc1   int    // the layout(location = 0, index = 1) output word, -1 when none
	fsColors int    // render targets written (colour output words / 4)
	vsID     [2]int // gl_VertexID, gl_InstanceID input words
	psize    int    // gl_PointSize output word
	clipDist [2]int // gl_ClipDistance output word and count
	cullDist [2]int // gl_CullDistance output word and count
	clipVert int    // gl_ClipVertex output word
	nvary    int    // varying words (vertex output words, or the FS inputs without a VS)
	// vsVary is the vertex stage's own record size when a geometry stage
	// follows (its varyings are then its whole output record, the GS's input
	// vertices); psize, clipDist, clipVert, vsColour and nvary describe the
	// stage that feeds the rasterizer, the geometry stage when there is one.
	vsVary   int
	ffColour int // gl_FrontColor's varying word for the fixed-function fragment stage (-1: none)
	// mem is the storage of the stages' memory instructions (memory.go).
	mem exec.Memory
}

// New prepares a compiled program (shader.Compile) for the reference renderer:
// it lays out uniforms, samplers and the varying interpolation.
func New(cp *shader.Program, cfg Config) (*Program, error) {
	vw, fw, err := cfg.widths()
	if err != nil {
		return nil, err
	}
	lp, lo := cp.Linked, cp.IR
	p := &Program{Linked: lp, IR: lo, cfg: cfg, vw: vw, fw: fw, Uniforms: make([]uint32, lo.UniformWords),
		Units: make([]int, len(lo.Samplers)), byName: map[string]uniformRef{}, blocks: map[string]string{},
		fsFrag: [4]int{-1, -1, -1, -1}, fsDepth: -1, fsPrim: -1, fsSample: [5]int{-1, -1, -1, -1, -1}, fsMask: -1, fsSrc1: -1, vsID: [2]int{-1, -1}, psize: -1, clipDist: [2]int{-1, 0}, cullDist: [2]int{-1, 0}, clipVert: -1, ffColour: -1}
	p.layoutUniforms()
	p.initUniforms()
	p.layoutVertex()
	p.layoutFragment()
	p.layoutVaryings()
	return p, nil
}

func slotNamed(slots []ir.Slot, name string) (ir.Slot, bool) {
	for _, s := range slots {
		if s.Name == name {
			return s, true
		}
	}
	return ir.Slot{}, false
}

func (p *Program) layoutVertex() {
	vs := p.IR.VS
	if vs == nil {
		return
	}
	p.nvary = vs.OutputWords
	if s, ok := slotNamed(vs.Inputs, "gl_VertexID"); ok {
		p.vsID[0] = s.Word
	}
	if s, ok := slotNamed(vs.Inputs, "gl_InstanceID"); ok {
		p.vsID[1] = s.Word
	}
	if gs := p.IR.GS; gs != nil {
		// The rasterizer's vertices are the geometry stage's.
		p.vsVary = vs.OutputWords
		p.nvary = gs.OutputWords
		vs = gs
	}
	if s, ok := slotNamed(vs.Outputs, "gl_PointSize"); ok {
		p.psize = s.Word
	}
	if s, ok := slotNamed(vs.Outputs, "gl_ClipDistance"); ok {
		p.clipDist = [2]int{s.Word, min(s.Words, ref.MaxClipDistances)}
	}
	if s, ok := slotNamed(vs.Outputs, "gl_CullDistance"); ok {
		p.cullDist = [2]int{s.Word, min(s.Words, ref.MaxClipDistances)}
	}
	if s, ok := slotNamed(vs.Outputs, "gl_ClipVertex"); ok {
		p.clipVert = s.Word
	}
	for _, n := range []string{"gl_FrontColor", "gl_BackColor", "gl_FrontSecondaryColor", "gl_BackSecondaryColor"} {
		if s, ok := slotNamed(vs.Outputs, n); ok {
			p.vsColour = append(p.vsColour, [2]int{s.Word, s.Words})
		}
	}
}

func (p *Program) layoutFragment() {
	fs := p.IR.FS
	if fs == nil {
		return
	}
	for i, n := range []string{"gl_FragCoord", "gl_FrontFacing", "gl_PointCoord", "gl_HelperInvocation"} {
		if s, ok := slotNamed(fs.Inputs, n); ok {
			p.fsFrag[i] = s.Word
		}
	}
	last := p.IR.VS
	if p.IR.GS != nil {
		last = p.IR.GS
	}
	if s, ok := slotNamed(fs.Inputs, "gl_PrimitiveID"); ok {
		if _, written := slotNamed(outputsOf(last), "gl_PrimitiveID"); !written {
			p.fsPrim = s.Word
		}
	}
	p.layoutSample()
	colourWords := fs.OutputWords
	if p.fsMask >= 0 {
		colourWords = p.fsMask
	}
	if s, ok := slotNamed(fs.Outputs, "gl_FragDepth"); ok {
		p.fsDepth = s.Word
		colourWords = s.Word
	}
	// Index-1 outputs (dual-source second colours) follow every index-0
	// colour; the one at location 0 feeds render target 0's blend.
	for _, s := range fs.Outputs {
		if s.Index == 1 {
			colourWords = min(colourWords, s.Word)
			if max(s.Location, 0) == 0 {
				p.fsSrc1 = s.Word
			}
		}
	}
	p.fsColors = min(colourWords/4, ref.MaxRenderTargets)
	// Fragment inputs with no vertex output to read (none, without a vertex
	// program) still get varying words, ahead of the fragment-coordinate
	// built-ins: a fixed-function vertex stage or two-sided colour fills them.
	end := fs.InputWords
	for _, w := range append(append(p.fsFrag[:], p.fsSample[:]...), p.fsPrim) {
		if w >= 0 {
			end = min(end, w)
		}
	}
	for _, s := range p.IR.Fetch {
		end = min(end, s.Word) // the destination words follow every other input
	}
	p.nvary = max(p.nvary, end)
}

// legacyPartner names the vertex outputs a legacy fragment input reads.
var legacyPartner = map[string][2]string{
	"gl_Color":          {"gl_FrontColor", "gl_BackColor"},
	"gl_SecondaryColor": {"gl_FrontSecondaryColor", "gl_BackSecondaryColor"},
	"gl_TexCoord":       {"gl_TexCoord", ""},
	"gl_FogFragCoord":   {"gl_FogFragCoord", ""},
}

// qualifiers returns the interpolation qualifiers of a stage's global inputs or
// outputs (built-in redeclarations included) by name.
func qualifiers(sp *glsl.StageProgram, kind ast.VarKind) map[string]ast.Interp {
	out := map[string]ast.Interp{}
	if sp == nil {
		return out
	}
	for _, u := range sp.Units {
		for _, v := range u.File.Globals {
			if v.Kind == kind && v.Qual.Interp != ast.InterpNone {
				out[v.Name] = v.Qual.Interp
			}
		}
	}
	return out
}

// layoutVaryings gives every varying word its interpolation and finds the
// legacy colours (for the flat shade model and two-sided colour). A fragment
// input's qualifier wins; else its vertex output's applies; integers are flat.
// spec: GLSL 1.30 §4.3.7, GL 3.0 §2.19.6 (flatshading applies to colours
// without an interpolation qualifier).
func (p *Program) layoutVaryings() {
	p.interp = make([]ref.Interp, p.nvary)
	fs := p.IR.FS
	if fs == nil {
		// The fixed-function fragment stage reads the primary colour.
		last := p.IR.VS
		if p.IR.GS != nil {
			last = p.IR.GS
		}
		if f, ok := slotNamed(last.Outputs, "gl_FrontColor"); ok {
			p.colour = append(p.colour, [2]int{f.Word, f.Words})
			p.ffColour = f.Word
			if b, ok := slotNamed(last.Outputs, "gl_BackColor"); ok {
				p.twoSide = append(p.twoSide, ref.TwoSide{Front: f.Word, Back: b.Word, Words: min(f.Words, b.Words)})
			}
		}
		return
	}
	fq := qualifiers(p.Linked.Fragment, ast.VarIn)
	vq := qualifiers(p.Linked.Vertex, ast.VarOut)
	if p.Linked.Geometry != nil {
		vq = qualifiers(p.Linked.Geometry, ast.VarOut)
	}
	outOf := map[string]string{}
	for _, vy := range p.Linked.Varyings {
		if vy.In != nil && vy.Out != nil {
			outOf[vy.In.Name] = vy.Out.Name
		}
	}
	for _, s := range fs.Inputs {
		if s.Word+s.Words > p.nvary {
			continue
		}
		q, ok := fq[s.Name]
		legacy, isLegacy := legacyPartner[s.Name]
		if !ok {
			if o, linked := outOf[s.Name]; linked {
				q, ok = vq[o]
			} else if isLegacy {
				q, ok = vq[legacy[0]]
				if !ok && legacy[1] != "" {
					q, ok = vq[legacy[1]]
				}
			}
		}
		it := ref.Smooth
		switch {
		case s.Flat || q == ast.InterpFlat:
			it = ref.Flat
		case q == ast.InterpNoPerspective:
			it = ref.NoPerspective
		}
		for w := s.Word; w < s.Word+s.Words; w++ {
			p.interp[w] = it
		}
		if b := p.fragmentBlock(s.Name); b != nil {
			p.blockInterp(s, b)
		}
		if !isLegacy || legacy[1] == "" {
			continue
		}
		if !ok {
			p.colour = append(p.colour, [2]int{s.Word, s.Words})
		}
		if p.IR.VS != nil {
			if b, has := slotNamed(p.IR.VS.Outputs, legacy[1]); has {
				p.twoSide = append(p.twoSide, ref.TwoSide{Front: s.Word, Back: b.Word, Words: min(s.Words, b.Words)})
			}
		}
	}
}

// FixedFragment returns GL's fixed-function fragment stage for a program
// without a fragment shader: the fragment colour is the interpolated primary
// colour (gl_FrontColor, or gl_BackColor on back faces with two-sided colour),
// white when the vertex shader writes neither. spec: GL 2.1 §3.8-§3.10 (no
// texturing, no fog enabled).
func (p *Program) FixedFragment() ref.FragmentShader {
	nv, w := p.nvary, p.ffColour
	return ref.FragmentFunc(func(quads []ref.Quad, _ ref.Textures) error {
		for i := range quads {
			q := &quads[i]
			for l := 0; l < 4; l++ {
				c := [4]float32{1, 1, 1, 1}
				if w >= 0 {
					for k := 0; k < 4; k++ {
						c[k] = q.Varying(l, nv, w+k)
					}
				}
				q.SetColor(0, l, c)
			}
		}
		return nil
	})
}

// AttribWords is the number of attribute words per vertex the vertex stage
// reads (ref.VertexInput.Words).
func (p *Program) AttribWords() int {
	if p.IR.VS == nil {
		return 0
	}
	return p.IR.VS.InputWords
}

// Attribute returns the input slot of a vertex attribute (user or legacy
// built-in such as gl_Vertex) by name.
func (p *Program) Attribute(name string) (ir.Slot, bool) {
	if p.IR.VS == nil {
		return ir.Slot{}, false
	}
	return slotNamed(p.IR.VS.Inputs, name)
}

// Varyings is the number of varying words between the stages.
func (p *Program) Varyings() int { return p.nvary }

// FragmentInput returns the fragment input slot of a name (a program without a
// vertex stage is fed by the caller's vertex function through these words).
func (p *Program) FragmentInput(name string) (ir.Slot, bool) {
	if p.IR.FS == nil {
		return ir.Slot{}, false
	}
	return slotNamed(p.IR.FS.Inputs, name)
}

// Interp returns the interpolation of every varying word; with flatShade
// (glShadeModel(GL_FLAT)) the legacy colour varyings are flat.
// spec: GL 4.6 compatibility §13.5 (flatshading).
func (p *Program) Interp(flatShade bool) []ref.Interp {
	out := append([]ref.Interp(nil), p.interp...)
	if flatShade {
		for _, c := range p.colour {
			for w := c[0]; w < c[0]+c[1] && w < len(out); w++ {
				out[w] = ref.Flat
			}
		}
	}
	return out
}

// TwoSide returns the front/back colour varying pairs for two-sided colour
// (GL_VERTEX_PROGRAM_TWO_SIDE); empty when the vertex stage writes no back
// colour.
func (p *Program) TwoSide() []ref.TwoSide { return p.twoSide }

// WritesCullDistance reports how many gl_CullDistance entries the vertex
// stage writes (0: none).
func (p *Program) WritesCullDistance() int { return p.cullDist[1] }

// WritesClipDistance reports how many gl_ClipDistance entries the vertex stage
// writes.
func (p *Program) WritesClipDistance() int {
	if p.clipDist[0] < 0 {
		return 0
	}
	return p.clipDist[1]
}

// outputsOf returns a program's output slots (none for a missing stage).
func outputsOf(p *ir.Program) []ir.Slot {
	if p == nil {
		return nil
	}
	return p.Outputs
}

// fragmentBlock returns the fragment input block whose instance is named
// name (nil when none is).
func (p *Program) fragmentBlock(name string) *ast.InterfaceBlock {
	for _, u := range p.Linked.Fragment.Units {
		for _, v := range u.File.Globals {
			if v.Name == name && v.Block != nil && v == v.Block.InstanceVar {
				return v.Block
			}
		}
	}
	return nil
}

// blockInterp gives the words of a fragment input block instance (or each
// element of an instance array) their members' own interpolation: a member's
// qualifier, else the block's, integers flat. spec: GLSL 1.50 §4.3.7 (members
// may carry interpolation qualifiers)
func (p *Program) blockInterp(s ir.Slot, b *ast.InterfaceBlock) {
	per := 0
	for _, m := range b.Members {
		per += m.Type.Slots()
	}
	if per == 0 {
		return
	}
	for base := s.Word; base+per <= s.Word+s.Words && base+per <= len(p.interp); base += per {
		w := base
		for _, m := range b.Members {
			it := ref.Smooth
			q := m.Qual.Interp
			if q == ast.InterpNone {
				q = b.InstanceVar.Qual.Interp
			}
			switch {
			case q == ast.InterpFlat || containsNonFloat(m.Type):
				it = ref.Flat
			case q == ast.InterpNoPerspective:
				it = ref.NoPerspective
			}
			for k := 0; k < m.Type.Slots(); k++ {
				p.interp[w+k] = it
			}
			w += m.Type.Slots()
		}
	}
}

// containsNonFloat reports whether a type holds an integer or bool word.
func containsNonFloat(t *ast.Type) bool {
	for _, b := range ast.WordBases(t) {
		if b != ast.Float {
			return true
		}
	}
	return false
}
