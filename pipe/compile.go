package pipe

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"vortexgfx/gfx/shaderdev"
	"vortexgfx/ref/program"
	"vortexgfx/shader"
	"vortexgfx/shader/glsl"
	"vortexgfx/shader/ir"
)

// compiledStage is a shader CSO's sources (GLSL, then its Parts), which
// compiled, and the IR of their own lowering (whose interface the routing
// gates read). The link compiles the pair's sources together through the
// same door.
type compiledStage struct {
	srcs []shader.Source
	ir   *ir.Program
}

// compileStage compiles one stage and derives its ShaderInfo from the compiler's
// output, never from the caller: varyings, colour outputs, gl_FragDepth, discard
// and the texture operations. spec: vortexpipe §2.3.2 (translation decides what
// a stage uses), §3.1 (eligibility)
func compileStage(d ShaderDesc) (*compiledStage, ShaderInfo, error) {
	stage, what := glsl.Vertex, "vertex"
	switch d.Stage {
	case StageFragment:
		stage, what = glsl.Fragment, "fragment"
	case StageGeometry:
		stage, what = glsl.Geometry, "geometry"
	}
	name := d.Name
	if name == "" {
		name = what + ".glsl"
	}
	srcs := []shader.Source{{Name: name, Stage: stage, Text: d.GLSL, Options: d.Options}}
	for i, t := range d.Parts {
		srcs = append(srcs, shader.Source{Name: fmt.Sprintf("%s#%d", name, i+1), Stage: stage, Text: t, Options: d.Options})
	}
	cp, err := shader.Compile(srcs...)
	if err != nil {
		step := "lower" // the link of one stage on its own, or its lowering
		if e, ok := err.(*shader.Error); ok && e.Phase == shader.PhaseCompile {
			step = "compile"
		}
		return nil, ShaderInfo{}, fmt.Errorf("pipe: %s shader %s: %s: %w", what, name, step, unwrap(err))
	}
	p := cp.Stage(stage)
	var info ShaderInfo
	info.Compiled = true
	info.Storage = storageInfo(p)
	if d.Stage == StageVertex || d.Stage == StageGeometry {
		words := 0
		for _, s := range p.Outputs {
			switch s.Name {
			case "gl_Position", "gl_PointSize", "gl_ClipDistance", "gl_ClipVertex":
				continue
			}
			if s.NoPerspective {
				info.NoPerspective = true
			}
			if !s.Flat {
				words += s.Words
			} else {
				info.FlatWords += s.Words
			}
		}
		info.VaryingVec4s = (words + 3) / 4
	} else {
		for _, s := range p.Outputs {
			switch {
			case s.Name == "gl_FragDepth":
				info.WritesDepth = true
			case s.Index == 1:
				info.DualSource = true
			case s.Location >= 0:
				info.ColorOutputs = max(info.ColorOutputs, s.Location+(s.Words+3)/4)
			default:
				info.ColorOutputs = max(info.ColorOutputs, (s.Word+s.Words+3)/4)
			}
		}
		for _, s := range p.Inputs {
			if s.NoPerspective {
				info.NoPerspective = true
			}
		}
		info.Discards = usesDiscard(p)
		info.FramebufferFetch = len(cp.IR.Fetch) > 0
		info.TexOps = texOps(p)
		info.Samplers = len(p.Samplers)
	}
	return &compiledStage{srcs: srcs, ir: p}, info, nil
}

// usesDiscard reports whether any code of p discards or demotes.
func usesDiscard(p *ir.Program) bool {
	return p.AnyInst(func(in *ir.Inst) bool { return in.Op == ir.Discard || in.Op == ir.Demote })
}

// texOps classifies a fragment program's samplers and texture instructions.
// spec: vortexpipe §2.3.2, §3.6
func texOps(p *ir.Program) TexOps {
	var ops TexOps
	for _, s := range p.Samplers {
		switch s.Kind {
		case ir.Sampler3D:
			ops |= TexOp3D
		case ir.SamplerCube:
			ops |= TexOpCube
		case ir.Sampler2DArray:
			ops |= TexOpArray
		case ir.Sampler2DShadow, ir.Sampler1DShadow:
			ops |= TexOpShadow
		case ir.SamplerCubeShadow:
			ops |= TexOpShadow | TexOpCube
		case ir.Sampler2DArrayShadow:
			ops |= TexOpShadow | TexOpArray
		case ir.Sampler1DArray:
			ops |= TexOp1DArray
		case ir.Sampler1DArrayShadow:
			ops |= TexOpShadow | TexOp1DArray
		case ir.SamplerCubeArray:
			ops |= TexOpCube | TexOpArray
		case ir.SamplerCubeArrayShadow:
			ops |= TexOpShadow | TexOpCube | TexOpArray
		case ir.Sampler2DMS:
			ops |= TexOpFetchMS
		}
	}
	for _, t := range p.Tex {
		kind := ir.Sampler2D
		if t.Sampler >= 0 && t.Sampler < len(p.Samplers) {
			kind = p.Samplers[t.Sampler].Kind
		}
		switch t.Op {
		case ir.TexFetch:
			ops |= TexOpFetch
		case ir.TexSize:
			ops |= TexOpSize
		case ir.TexGather:
			ops |= TexOpGather
			if kind == ir.SamplerCube || kind == ir.SamplerCubeShadow {
				ops |= TexOpGatherCube
			}
		case ir.TexQueryLevels:
			ops |= TexOpQueryLevels
		case ir.TexQueryLod:
			ops |= TexOpQueryLod
		}
	}
	return ops
}

// linked is one (VS, FS) pair linked at the first draw that binds it: the
// reference renderer's program and stages, and the device program variants.
// spec: vortexpipe §2.3.1 (variants per CSO), §2.5 (resident once)
type linked struct {
	// mu serialises what mutates the program's state or its stages' scratch:
	// uniform updates and reference draws (contexts of one screen share pairs).
	mu   sync.Mutex
	name string
	prog *program.Program
	vs   *program.VertexShader
	fs   *program.FragmentShader
	// gs is the geometry stage (nil: none); gsVariants its per-state forms
	// as vsVariants (refGeometry).
	gs         *program.GeometryShader
	gsVariants map[program.VertexOptions]*program.GeometryShader
	// vsVariants is the reference vertex stage per draw state other than
	// the default (refVertex: clip planes, the vertex colour clamp, the
	// fixed point size).
	vsVariants map[program.VertexOptions]*program.VertexShader
	// variants compiles the device program per variant key (at most
	// MaxFSVariants); clampVariants the same with the vertex colour clamp
	// folded into the vertex stage (nil when it writes no legacy colour),
	// clampWhy why that program has no device form ("" when it has).
	variants, clampVariants *VariantCache
	clampWhy                string
	// flatVariants and flatClampVariants are the same with the legacy
	// colours flat (GL_FLAT; nil when the shade model changes no varying).
	flatVariants, flatClampVariants *VariantCache
	// base is, for a program with a generated fixed-function stage
	// (ffLink), the pair as bound: its uniforms and sampler units are the
	// ones SetUniform sets.
	base *linked
	// user attribute slots (gl_VertexID/gl_InstanceID excluded), in layout
	// order, and the words of one vertex record (the fixed-function vertex
	// stage's, program.FixedVertexWords, without a vertex shader).
	attrs       []ir.Slot
	attribWords int
}

// programCache holds the linked pairs of a screen.
type programCache struct {
	mu    sync.Mutex
	pairs map[[3]*Shader]*linked // by VS, FS, GS
	// ff holds the pairs' device forms with a generated fixed-function
	// stage, per key (ffgen.go).
	ff map[ffPair]*linked
	n  int
	// release unloads a device program whose variant left its cache or whose
	// pair was dropped (the screen's device backend).
	release func(*shaderdev.Program)
}

// ErrLink wraps a link failure of a (VS, FS) pair. spec: vortexpipe §2.3.2
// (a shader that fails translation keeps no device program)
var ErrLink = errors.New("pipe: link")

// linkStages returns the linked program of the vertex, geometry (nil: none)
// and fragment shaders, linking it on first use; the caller holds c.mu
// (linkBound).
func (c *programCache) linkStages(vs, gs, fs *Shader) (*linked, error) {
	key := [3]*Shader{vs, fs, gs}
	if l := c.pairs[key]; l != nil {
		return l, nil
	}
	if gs != nil && vs == nil {
		return nil, fmt.Errorf("%w: %s + %s + %s: a geometry shader needs a vertex shader", ErrLink, vs.name(), gs.name(), fs.name())
	}
	var srcs []shader.Source
	for _, s := range []*Shader{vs, gs, fs} {
		switch {
		case s == nil:
			// The fixed-function stage (fixedfunc.go).
		case s.stage == nil:
			return nil, fmt.Errorf("%w: %s + %s: a shader without compiled GLSL", ErrLink, vs.name(), fs.name())
		default:
			srcs = append(srcs, s.stage.srcs...)
		}
	}
	if len(srcs) == 0 {
		return nil, ErrNoProgram
	}
	l, err := buildLinked(srcs, vs.name(), fs.name(), vs != nil, fs != nil)
	if err != nil {
		return nil, err
	}
	if gs != nil {
		if l.gs, err = l.prog.NewGeometryShader(context.Background(), program.VertexOptions{}); err != nil {
			return nil, fmt.Errorf("%w: %s: geometry stage: %w", ErrLink, gs.name(), err)
		}
	}
	if c.pairs == nil {
		c.pairs = map[[3]*Shader]*linked{}
	}
	c.n++
	l.name = fmt.Sprintf("pipe.prog%d", c.n)
	if vs == nil || fs == nil || gs != nil {
		// A fixed-function stage or a geometry stage: the reference
		// renderer runs this program
		// (refStages); the device runs its generated form (ffLink).
		c.pairs[key] = l
		return l, nil
	}
	l.setVariants(func(_ VariantKey, p any) {
		if sp, ok := p.(*shaderdev.Program); ok && c.release != nil {
			c.release(sp)
		}
	})
	c.pairs[key] = l
	return l, nil
}

// buildLinked compiles and links srcs (the stages present: hasVS, hasFS)
// into the reference renderer's program and stages.
func buildLinked(srcs []shader.Source, vsName, fsName string, hasVS, hasFS bool) (*linked, error) {
	// The sources compiled on their own already, so only the link or the
	// lowering of the pair can fail here.
	cp, err := shader.Compile(srcs...)
	if err != nil {
		if e, ok := err.(*shader.Error); ok && e.Phase == shader.PhaseLower {
			return nil, fmt.Errorf("%w: %s + %s: lower: %w", ErrLink, vsName, fsName, e.Err)
		}
		return nil, fmt.Errorf("%w: %s + %s: %w", ErrLink, vsName, fsName, unwrap(err))
	}
	// The widest warps (64 lanes) amortise the reference executor's
	// per-instruction dispatch (measured on the bench scene by render).
	p, err := program.New(cp, program.Config{VertexWidth: 64, FragmentWidth: 64})
	if err != nil {
		return nil, fmt.Errorf("%w: %s + %s: lower: %w", ErrLink, vsName, fsName, err)
	}
	// Uniform initialisers ("uniform float k = 2.0;") take effect at link.
	copy(p.Uniforms, p.IR.UniformDefaults)
	l := &linked{prog: p, attribWords: p.AttribWords()}
	ctx := context.Background()
	if hasVS {
		if l.vs, err = p.NewVertexShader(ctx, program.VertexOptions{}); err != nil {
			return nil, fmt.Errorf("%w: %s: vertex stage: %w", ErrLink, vsName, err)
		}
	}
	if hasFS {
		if l.fs, err = p.NewFragmentShader(ctx); err != nil {
			return nil, fmt.Errorf("%w: %s: fragment stage: %w", ErrLink, fsName, err)
		}
	}
	if !hasVS {
		l.attribWords = program.FixedVertexWords
	}
	for _, s := range p.IR.Attributes {
		if s.Name == "gl_VertexID" || s.Name == "gl_InstanceID" {
			continue
		}
		l.attrs = append(l.attrs, s)
	}
	return l, nil
}

// setVariants attaches the device program caches of a linked pair with both
// stages: per variant key, with the vertex colour clamp folded in, and with
// the legacy colours flat (glShadeModel(GL_FLAT)).
func (l *linked) setVariants(release func(VariantKey, any)) {
	ir := l.prog.IR
	// The device program is the same for every key (the key rides each
	// draw as shaderdev.Draw.Key); the cache bounds and counts the variants.
	l.variants = NewVariantCache(func(key VariantKey) (any, error) {
		return shaderdev.NewProgram(fmt.Sprintf("%s.v%x", l.name, variantBits(key)), ir)
	}, release)
	l.clampVariants, l.clampWhy = clampVariants(l.name, ir, release)
	if q := flatColours(ir, l.prog.Interp(false), l.prog.Interp(true)); q != nil {
		l.flatVariants = NewVariantCache(func(key VariantKey) (any, error) {
			return shaderdev.NewProgram(fmt.Sprintf("%s.flat.v%x", l.name, variantBits(key)), q)
		}, release)
		// The clamp rewrites the vertex stage only, as for l.clampVariants
		// (whose clampWhy it shares).
		l.flatClampVariants, _ = clampVariants(l.name+".flat", q, release)
	}
}

// variantBits packs a key into a name suffix.
func variantBits(k VariantKey) uint32 {
	b := uint32(k.BGRAMask) | uint32(k.Samples)<<8
	for i, f := range []bool{k.SWTex, k.SWOM, k.SWRaster} {
		if f {
			b |= 1 << (16 + i)
		}
	}
	return b
}

// drop forgets every pair using s (DeleteShaderState).
func (c *programCache) drop(s *Shader) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, l := range c.pairs {
		if k[0] == s || k[1] == s {
			delete(c.pairs, k)
			c.releaseAll(l)
		}
	}
	for k, l := range c.ff {
		if k.vs == s || k.fs == s {
			delete(c.ff, k)
			c.releaseAll(l)
		}
	}
}

// releaseAll unloads every device program of l. The caller holds c.mu.
func (c *programCache) releaseAll(l *linked) {
	for _, vc := range []*VariantCache{l.variants, l.clampVariants, l.flatVariants, l.flatClampVariants} {
		if vc == nil {
			continue
		}
		for _, p := range vc.programs() {
			if sp, ok := p.(*shaderdev.Program); ok && c.release != nil {
				c.release(sp)
			}
		}
	}
}

// name is the shader's file name for messages.
func (s *Shader) name() string {
	if s == nil {
		return "fixed-function stage"
	}
	if s.Desc.Name != "" {
		return s.Desc.Name
	}
	return [...]string{"vertex shader", "fragment shader"}[s.Desc.Stage]
}

// routeErr reports whether err is a device-route refusal of the program.
func routeErr(err error) bool {
	return errors.Is(err, shaderdev.ErrRoute)
}

// unwrap returns the compiler step's own error from a shader.Compile failure,
// so the chain a caller inspects is what it was before the door existed.
func unwrap(err error) error {
	if e, ok := err.(*shader.Error); ok {
		return e.Err
	}
	return err
}

// trimErr shortens a compiler error to its first line for a routing detail.
func trimErr(err error) string {
	s := err.Error()
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}
