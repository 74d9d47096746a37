package device

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"vortexgfx/abi"
	"vortexgfx/device/swom"
	"vortexgfx/gfx/frontend"
	"vortexgfx/gfx/shaderdev"
	"vortexgfx/gl/blend"
	"vortexgfx/gl/format"
	"vortexgfx/gl/sampler"
	"vortexgfx/pipe"
	"vortexgfx/ref"
	"vortexgfx/ref/program"
	"vortexgfx/shader/ir"
	"vortexgfx/shadertest"
	"vortexgfx/shadertest/reference"
)

// draftBuffers are a context's host-side draw buffers, reused across draws.
type draftBuffers struct {
	attrs []byte
	bind  []shaderdev.AttribBinding
	texs  []shaderdev.Texture
	draw  shaderdev.Draw
}

// route decides where draw d (laid out as pd) runs: it returns the device
// draw, or the reason the device cannot take it. spec: vortexpipe-driver
// §3.1 (eligibility), §2.3.3 (routing), §1.5.1 (a fallback names its reason)
func (c *glContext) route(d *shadertest.Draw, pd *reference.Prepared) (*shaderdev.Draw, string) {
	switch d.Mode {
	case shadertest.Triangles, shadertest.TriangleStrip, shadertest.TriangleFan, shadertest.Quads,
		shadertest.QuadStrip, shadertest.Polygon:
	default:
		return nil, fmt.Sprintf("primitive %s (the device path draws triangles; points and lines are the reference renderer's)", d.Mode)
	}
	if d.PatchVertices > 0 {
		return nil, "patches (no tessellation on the device path)"
	}
	p, rs := pd.Program, pd.State
	if why := c.program(p); why != "" {
		return nil, why
	}
	sp := c.prog
	switch {
	case rs.TwoSided && !packsTwoSide(sp, rs.TwoSide):
		return nil, pipe.GateTwoSide.String()
	case d.State.Flat && !slices.Equal(rs.Interp, p.Interp(false)):
		return nil, pipe.GateFlatShade.String()
	case sp.NFlat() > 0 && (d.Mode == shadertest.Quads || d.Mode == shadertest.QuadStrip || d.Mode == shadertest.Polygon):
		return nil, pipe.GateFlatPolygons.String()
	}
	texs, why := c.textures(p, rs)
	if why != "" {
		return nil, why
	}
	dr, why := c.plan(d, pd, texs)
	if dr != nil && rs.TwoSided {
		// Back-facing primitives read the back colours' planes.
		for _, r := range rs.TwoSide {
			dr.TwoSide = append(dr.TwoSide, shaderdev.TwoSide{Front: r.Front, Back: r.Back, Words: r.Words})
		}
	}
	return dr, why
}

// packsTwoSide reports whether the device program packs every two-sided
// colour pair of the reference state (shaderdev.Program.TwoSidePairs).
// spec: GL 2.1 §2.14.1
func packsTwoSide(sp *shaderdev.Program, pairs []ref.TwoSide) bool {
	for _, r := range pairs {
		if !slices.Contains(sp.TwoSidePairs(), shaderdev.TwoSide{Front: r.Front, Back: r.Back, Words: r.Words}) {
			return false
		}
	}
	return true
}

// program makes the device form of the linked program p once per link and
// opens (or, for a new program, reopens) the device with it. It returns why
// the program cannot run on the device ("" when it can).
func (c *glContext) program(p *program.Program) string {
	if c.linked == p {
		return c.why
	}
	c.linked, c.prog, c.why = p, nil, ""
	switch {
	case p.IR.VS == nil:
		c.why = pipe.GateNoVS.String()
		return c.why
	case p.IR.FS == nil:
		c.why = pipe.GateNoFS.String()
		return c.why
	}
	lp := p.IR
	if c.cfg.API == shadertest.APIGL {
		// A compatibility context clamps the legacy vertex colours.
		if q := pipe.ClampVertexColours(lp); q != nil {
			if err := ir.Verify(q.VS); err != nil {
				c.why = "vertex colour clamp: " + err.Error()
				return c.why
			}
			lp = q
		}
	}
	c.progs++
	sp, err := shaderdev.NewProgram(fmt.Sprintf("shadertest.prog%d", c.progs), lp)
	if err != nil {
		// A route refusal counts by its cause (RouteError.Reason, the same
		// text for every program), any other error by its message.
		var re *shaderdev.RouteError
		if !errors.As(err, &re) {
			c.why = "program: " + err.Error()
			return c.why
		}
		c.why = re.Reason
		return c.why
	}
	c.prog = sp
	return ""
}

// open opens the device for the current program, carrying the window over
// when a device for an earlier program is open (its kernel library is fixed
// when it opens).
func (c *glContext) open() error {
	if c.dev != nil && c.devProg == c.prog {
		return nil
	}
	if err := c.toReference(); err != nil {
		return err
	}
	if c.dev != nil {
		if err := c.dev.Close(); err != nil {
			return err
		}
		c.dev = nil
	}
	dev, err := shaderdev.Open(c.b.cfg, c.cfg.Width, c.cfg.Height, []*shaderdev.Program{c.prog})
	if err != nil {
		return fmt.Errorf("device: %w", err)
	}
	c.dev, c.devProg = dev, c.prog
	c.where = refAhead
	return nil
}

// textures gives each fragment sampler the texture bound to its unit at its
// target: in the FF TEX unit's form when that unit can sample it, else as
// the reference texture and sampler state themselves, which route the draw's
// TEX to the software sampler on the device (shaderdev.Texture.Ref).
// spec: vortexpipe-driver §3.6 (FF TEX coverage; everything else on the
// SW sampler, still on the device)
func (c *glContext) textures(p *program.Program, rs *ref.State) ([]shaderdev.Texture, string) {
	sp := c.prog
	if !sp.Textured() {
		return nil, ""
	}
	out := c.scratch.texs[:0]
	for _, b := range sp.Samplers() {
		unit := -1
		for i, s := range p.IR.Samplers {
			if s.Name == b.Name && i < len(p.Units) {
				unit = p.Units[i]
			}
		}
		k := program.TextureIndex(unit, program.KindTarget(b.Kind))
		if unit < 0 || k < 0 || k >= len(rs.Textures) || rs.Textures[k].Texture == nil {
			return nil, "sampler without a texture unit"
		}
		tb := &rs.Textures[k]
		t, why := ffTexture(tb)
		if why != "" || b.Kind != ir.Sampler2D || b.Result != ir.F32 {
			t = shaderdev.Texture{Ref: tb.Texture, RefSampler: &tb.Sampler}
		}
		out = append(out, t)
	}
	c.scratch.texs = out
	return out, ""
}

// ffTexture is a reference texture binding in the FF TEX unit's form: a
// power-of-two RGBA8 2D image, one filter, repeat/clamp/mirror wraps, and
// either one level or no mipmapping (the device makes its own chain).
func ffTexture(tb *ref.TextureBinding) (shaderdev.Texture, string) {
	t, s := tb.Texture, &tb.Sampler
	switch {
	case t == nil || len(t.Levels) == 0:
		return shaderdev.Texture{}, "no image"
	case t.Dim != sampler.Dim2D:
		return shaderdev.Texture{}, "not a 2D texture"
	case t.Format != format.RGBA8:
		return shaderdev.Texture{}, fmt.Sprintf("format %v (the FF TEX unit samples RGBA8 here)", t.Format)
	case t.Swizzle != sampler.IdentitySwizzle:
		return shaderdev.Texture{}, "view swizzle"
	case t.BaseLevel != 0:
		return shaderdev.Texture{}, "base level above 0"
	case s.CompareEnable:
		return shaderdev.Texture{}, "depth compare"
	case s.Unnormalized:
		return shaderdev.Texture{}, "unnormalized coordinates"
	case s.LODBias != 0:
		return shaderdev.Texture{}, "LOD bias"
	case s.MaxAnisotropy > 1:
		return shaderdev.Texture{}, "anisotropic filtering"
	case s.MinFilter != s.MagFilter:
		return shaderdev.Texture{}, "different min and mag filters (the TEX unit has one)"
	case s.MipFilter != sampler.MipNone && len(t.Levels) > 1:
		return shaderdev.Texture{}, "explicit mip levels (the device generates its own chain)"
	}
	wrap := func(w sampler.Wrap) (abi.TexWrap, bool) {
		switch w {
		case sampler.Repeat:
			return abi.WrapRepeat, true
		case sampler.ClampToEdge:
			return abi.WrapClamp, true
		case sampler.MirroredRepeat:
			return abi.WrapMirror, true
		}
		return 0, false
	}
	l := &t.Levels[0]
	ft := shaderdev.Texture{Width: uint32(l.W), Height: uint32(l.H), Bilinear: s.MagFilter == sampler.Linear}
	var okU, okV bool
	ft.WrapU, okU = wrap(s.WrapS)
	ft.WrapV, okV = wrap(s.WrapT)
	switch {
	case !okU || !okV:
		return ft, "wrap mode the TEX unit has no form of"
	case ft.Bilinear && (ft.WrapU == abi.WrapMirror || ft.WrapV == abi.WrapMirror):
		return ft, "bilinear MIRROR (the FF unit's taps are not GL's filter there)"
	case l.W <= 0 || l.H <= 0 || l.W&(l.W-1) != 0 || l.H&(l.H-1) != 0:
		return ft, "not power-of-two"
	case l.D != 1:
		return ft, "layered"
	}
	ft.Pixels = make([]byte, 4*l.W*l.H)
	for i := 0; i < l.W*l.H; i++ {
		p, q := l.Data[4*i:4*i+4], ft.Pixels[4*i:4*i+4]
		q[0], q[1], q[2], q[3] = p[2], p[1], p[0], p[3] // A8R8G8B8 little-endian
	}
	return ft, ""
}

// plan builds the device draw: the primitives as a triangle list in the
// reference renderer's vertex order (so windings, provoking vertices and quad
// diagonals match), the vertex records as bytes, one attribute binding per
// program attribute, the uniform words, and the OM state.
func (c *glContext) plan(d *shadertest.Draw, pd *reference.Prepared, texs []shaderdev.Texture) (*shaderdev.Draw, string) {
	sb := &c.scratch
	prm := &pd.Params
	elems := make([]uint32, prm.Count)
	for i := range elems {
		if prm.Indices != nil {
			elems[i] = uint32(binary.LittleEndian.Uint16(prm.Indices[2*(prm.First+i):]))
		} else {
			elems[i] = uint32(prm.First + i)
		}
	}
	indices := triangleList(d.Mode, elems)
	in := &pd.Input
	if n := 4 * len(in.Data); cap(sb.attrs) < n {
		sb.attrs = make([]byte, n)
	} else {
		sb.attrs = sb.attrs[:n]
	}
	for k, w := range in.Data {
		binary.LittleEndian.PutUint32(sb.attrs[4*k:], w)
	}
	sp := c.prog
	sb.bind = sb.bind[:0]
	for _, s := range sp.Attributes() {
		sb.bind = append(sb.bind, shaderdev.AttribBinding{Data: sb.attrs, Offset: uint64(4 * s.Word), Stride: uint64(4 * in.Words)})
	}
	rs := pd.State
	hasDepth := c.fb.DepthStencil != nil
	var om swom.State
	om.DepthTest, om.DepthWrite, om.DepthFunc = rs.Depth.Test && hasDepth, rs.Depth.Write && hasDepth, rs.Depth.Func
	// GL depth clamp runs on the device as pipe runs it: the software merger
	// with setup_k's depth clip off, the clamp range the depth range (0, 1).
	om.DepthClamp = rs.Depth.Clamp
	om.Targets[0].Blend = swom.Blend{WriteMask: 0xF, EqRGB: blend.Add, EqA: blend.Add,
		SrcRGB: blend.One, SrcA: blend.One, DstRGB: blend.Zero, DstA: blend.Zero}
	cull := frontend.CullNone
	switch rs.Cull {
	case ref.CullBack:
		cull = frontend.CullBack
	case ref.CullFront:
		cull = frontend.CullFront
	case ref.CullNone:
	default:
		return nil, "cull front and back"
	}
	if rs.FrontFace != ref.FrontCCW && cull != frontend.CullNone {
		return nil, "clockwise front faces"
	}
	sb.draw = shaderdev.Draw{Program: sp, Attribs: sb.bind, Indices: indices, Count: len(indices),
		Instances: max(prm.Instances, 1), BaseVertex: prm.BaseVertex, BaseInstance: uint32(prm.BaseInstance),
		Uniforms: pd.Program.Uniforms, Cull: cull, Merge: om, Textures: texs, ClipDistances: rs.ClipDistances}
	// setup_k clips the enabled gl_ClipDistance[] or, without them, the
	// legacy planes dotted with gl_ClipVertex (else gl_Position), as ref.
	for i := range sb.draw.ClipPlanes {
		for k := range sb.draw.ClipPlanes[i] {
			sb.draw.ClipPlanes[i][k] = float32(d.State.ClipPlanes[i][k])
		}
	}
	return &sb.draw, ""
}

// primModes maps the triangle primitives onto the driver's topologies.
var primModes = map[shadertest.Primitive]pipe.PrimMode{
	shadertest.Triangles: pipe.PrimTriangles, shadertest.TriangleStrip: pipe.PrimTriangleStrip,
	shadertest.TriangleFan: pipe.PrimTriangleFan, shadertest.Quads: pipe.PrimQuads,
	shadertest.QuadStrip: pipe.PrimQuadStrip, shadertest.Polygon: pipe.PrimPolygon,
}

// triangleList is the triangles of mode over the element list r as the
// driver assembles them (pipe.TriangleList: the reference renderer's order,
// so windings, provoking vertices and quad diagonals match).
// spec: GL 4.6 §10.1; GL 2.1 §2.6.1
func triangleList(mode shadertest.Primitive, r []uint32) []uint32 {
	out, err := pipe.TriangleList(primModes[mode], r, false, 0, false)
	if err != nil {
		return nil // route admits only the modes of primModes
	}
	return out
}
