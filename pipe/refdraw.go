package pipe

import (
	"encoding/binary"
	"fmt"
	"math"
	"runtime"

	"vortexgfx/gl/sampler"
	"vortexgfx/ref"
	"vortexgfx/ref/program"
	"vortexgfx/shader/ir"
)

// The reference path: a draw the device cannot take runs on package ref with
// the linked program's stages (package ref/program), reading the same bound
// state and writing the same attachments. spec: vortexpipe §1.5, §3.5 (the whole
// draw on the fallback renderer), §5.2 (the CPU renderer is the oracle)

// refViewport converts the Gallium viewport transform to ref's; the zero
// transform is the full framebuffer with depth range [0, 1].
func refViewport(v Viewport, w, h int) ref.Viewport {
	if v == (Viewport{}) {
		return ref.Viewport{W: float32(w), H: float32(h), MaxDepth: 1}
	}
	return ref.Viewport{
		X: v.Translate[0] - v.Scale[0], Y: v.Translate[1] - v.Scale[1],
		W: 2 * v.Scale[0], H: 2 * v.Scale[1],
		MinDepth: v.Translate[2] - v.Scale[2], MaxDepth: v.Translate[2] + v.Scale[2],
	}
}

var refTopologies = [numPrimModes]ref.Topology{
	PrimPoints: ref.Points, PrimLines: ref.Lines, PrimLineLoop: ref.LineLoop, PrimLineStrip: ref.LineStrip,
	PrimTriangles: ref.Triangles, PrimTriangleStrip: ref.TriangleStrip, PrimTriangleFan: ref.TriangleFan,
	PrimQuads: ref.Quads, PrimQuadStrip: ref.QuadStrip, PrimPolygon: ref.Polygon,
	PrimLinesAdjacency: ref.LinesAdjacency, PrimLineStripAdjacency: ref.LineStripAdjacency,
	PrimTrianglesAdjacency: ref.TrianglesAdjacency, PrimTriangleStripAdjacency: ref.TriangleStripAdjacency,
}

// refState builds ref's fixed-function state from the bound CSOs.
func refState(st *BoundState, l *linked, info *DrawInfo, texs []ref.TextureBinding) (ref.State, error) {
	fb := &st.FB
	s := ref.DefaultState(fb.Width, fb.Height)
	refStages(&s, st, l)
	s.Interp = l.prog.Interp(st.flatshade())
	s.TwoSide = l.prog.TwoSide()
	s.TwoSided = st.twoSided(l)
	s.Textures = texs
	s.Workers = runtime.NumCPU()
	s.Viewport = refViewport(st.Viewport, fb.Width, fb.Height)
	s.PrimitiveRestart, s.RestartIndex = info.PrimitiveRestart, info.RestartIndex
	if r := st.Rast; r != nil {
		rs := &r.State
		s.PolygonFront, s.PolygonBack = ref.PolygonMode(rs.FillFront), ref.PolygonMode(rs.FillBack)
		s.Cull = ref.CullMode(rs.Cull)
		s.FrontFace = ref.FrontCW
		if rs.FrontCCW {
			s.FrontFace = ref.FrontCCW
		}
		if rs.FlatshadeFirst {
			s.Provoking = ref.ProvokingFirst
		}
		s.RasterizerDiscard = rs.RasterizerDiscard
		if rs.PointSize > 0 {
			s.PointSize = rs.PointSize
		}
		if rs.LineWidth > 0 {
			s.LineWidth = rs.LineWidth
		}
		if rs.Scissor {
			sc := st.Scissor
			s.ScissorTest = true
			s.Scissor = ref.Rect{X: sc.MinX, Y: sc.MinY, W: max(sc.MaxX-sc.MinX, 0), H: max(sc.MaxY-sc.MinY, 0)}
		}
		if rs.OffsetTri || rs.OffsetLine || rs.OffsetPoint {
			s.DepthBias = ref.DepthBias{Enable: rs.OffsetTri, Line: rs.OffsetLine, Point: rs.OffsetPoint,
				Constant: rs.OffsetUnits, Slope: rs.OffsetScale, Clamp: rs.OffsetClamp}
		}
		s.Depth.Clamp = rs.DepthClamp
	}
	if d := st.DSA; d != nil {
		ds := &d.State
		if ds.AlphaEnabled {
			s.AlphaTest, s.AlphaFunc, s.AlphaRef = true, ds.AlphaFunc, ds.AlphaRef
		}
		if fb.Zsbuf != nil {
			zf := fb.Zsbuf.Fmt()
			if zf.IsDepth() && ds.DepthEnabled {
				s.Depth.Test, s.Depth.Func, s.Depth.Write = true, ds.DepthFunc, ds.DepthWrite
			}
			if ds.DepthBounds {
				s.Depth.BoundsTest = true
				s.Depth.BoundsMin, s.Depth.BoundsMax = float32(ds.DepthBoundsMin), float32(ds.DepthBoundsMax)
			}
			if zf.HasStencil() && ds.Stencil[0].Enabled {
				s.StencilTest = true
				back := ds.Stencil[1]
				if !back.Enabled {
					back = ds.Stencil[0]
				}
				face := func(f StencilState, ref8 uint8) ref.StencilFace {
					return ref.StencilFace{Func: f.Func, Ref: ref8, ReadMask: f.ValueMask, WriteMask: f.WriteMask,
						Fail: f.FailOp, DepthFail: f.ZFailOp, Pass: f.ZPassOp}
				}
				s.StencilFront = face(ds.Stencil[0], uint8(st.StencilRef))
				s.StencilBack = face(back, uint8(st.StencilRef>>16))
			}
		}
	}
	if b := st.Blend; b != nil {
		bs := &b.State
		for i := range s.Blend {
			rt := bs.RT[0]
			if bs.IndependentBlend {
				rt = bs.RT[i]
			}
			out := &s.Blend[i]
			out.WriteMask = rt.ColorMask & MaskRGBA
			if rt.BlendEnable && !bs.LogicOpEnable {
				out.Enable = true
				out.EqRGB, out.EqAlpha = rt.RGBFunc, rt.AlphaFunc
				out.SrcRGB, out.DstRGB = rt.RGBSrc, rt.RGBDst
				out.SrcAlpha, out.DstAlpha = rt.AlphaSrc, rt.AlphaDst
			}
		}
		if bs.LogicOpEnable {
			s.LogicOpEnable, s.LogicOp = true, bs.LogicOp
		}
	}
	s.BlendConstant = st.BlendColorF
	return s, nil
}

// refTexture converts a texture resource to gl/sampler's form (all levels, all
// layers; the storage layouts agree: levels in order, layers contiguous, rows
// packed).
func refTexture(r *Resource) (*sampler.Texture, error) {
	d := r.desc
	var dim sampler.Dim
	w, h, z := d.Width, d.Height, d.Depth*d.ArraySize
	switch d.Target {
	case Target1D:
		dim = sampler.Dim1D
	case Target2D, TargetRect:
		dim = sampler.Dim2D
	case Target3D:
		dim, z = sampler.Dim3D, d.Depth
	case TargetCube:
		dim = sampler.DimCube
	case Target1DArray:
		dim = sampler.Dim1DArray
	case Target2DArray:
		dim = sampler.Dim2DArray
	case TargetCubeArray:
		dim = sampler.DimCubeArray
	default:
		return nil, fmt.Errorf("texture target %v", d.Target)
	}
	var t *sampler.Texture
	var err error
	if n := d.samples(); n > 1 {
		// Sample-major rows, as the attachment stores them. spec: §3.4.1
		t, err = sampler.NewMultisampleTexture(dim, d.Format, w, h, z, n)
	} else {
		t, err = sampler.NewTexture(dim, d.Format, w, h, z, d.Levels)
	}
	if err != nil {
		return nil, err
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.destroyed {
		return nil, ErrDestroyed
	}
	off := 0
	for l := range t.Levels {
		lv := &t.Levels[l]
		n := copy(lv.Data, r.data[off:])
		off += n
	}
	t.MaxLevel = len(t.Levels) - 1
	return t, nil
}

// refSampler converts a sampler CSO to gl/sampler's state.
func refSampler(sm *Sampler, rect bool) (sampler.Sampler, error) {
	s := sampler.DefaultSampler()
	if sm == nil {
		s.MinFilter, s.MagFilter, s.MipFilter = sampler.Nearest, sampler.Nearest, sampler.MipNone
		s.Unnormalized = rect
		return s, nil
	}
	ss := &sm.State
	for _, w := range [3]sampler.Wrap{ss.WrapS, ss.WrapT, ss.WrapR} {
		if !w.Valid() {
			return s, fmt.Errorf("wrap %v: the reference sampler has no such mode", w)
		}
	}
	s.WrapS, s.WrapT, s.WrapR = ss.WrapS, ss.WrapT, ss.WrapR
	s.MinFilter, s.MagFilter, s.MipFilter = ss.MinFilter, ss.MagFilter, ss.MipFilter
	s.BorderColor = ss.BorderColor
	for i, v := range ss.BorderColor {
		s.BorderColorInt[i] = uint32(int32(v))
	}
	s.LODBias, s.MinLOD, s.MaxLOD = ss.LodBias, ss.MinLod, ss.MaxLod
	if ss.MinLod == 0 && ss.MaxLod == 0 {
		s.MaxLOD = 1000
	}
	s.MaxAnisotropy = float32(ss.MaxAnisotropy)
	s.CompareEnable, s.Compare = ss.CompareMode, ss.CompareFunc
	s.Unnormalized = rect
	return s, nil
}

// refTextures binds the views the program's samplers read: GL's one texture per
// target per unit, the unit being the sampler uniform's value.
func (c *Context) refTextures(st *BoundState, l *linked) ([]ref.TextureBinding, error) {
	var out []ref.TextureBinding
	l.mu.Lock()
	units := append([]int(nil), l.prog.Units...)
	l.mu.Unlock()
	for i, b := range l.prog.IR.Samplers {
		unit := units[i]
		if unit < 0 || unit >= MaxSamplers || st.Views[unit] == nil {
			continue
		}
		v := st.Views[unit]
		if (v.Buffer != nil) != (b.Kind == ir.SamplerBuffer) {
			// GL binds one texture per target per unit: a buffer sampler
			// reads the unit's buffer texture, no other sampler does.
			continue
		}
		var tex *sampler.Texture
		var err error
		if v.Buffer != nil {
			tex, err = bufferTexture(v)
		} else {
			tex, err = c.screen.refTex(v.Texture)
		}
		if err != nil {
			return nil, fmt.Errorf("sampler %s (unit %d): %w", b.Name, unit, err)
		}
		tex = v.viewOf(tex)
		smp, err := refSampler(st.Samplers[unit], v.Texture.desc.Target == TargetRect)
		if err != nil {
			return nil, fmt.Errorf("sampler %s (unit %d): %w", b.Name, unit, err)
		}
		idx := program.TextureIndex(unit, program.KindTarget(b.Kind))
		for len(out) <= idx {
			out = append(out, ref.TextureBinding{})
		}
		out[idx] = ref.TextureBinding{Texture: tex, Sampler: smp}
	}
	return out, nil
}

// refVertexInput lays the bound vertex buffers out as the program's attribute
// words for vertices [0, nverts) and instances [0, ninst). An attribute with an
// instance divisor reads its instance's element, which ref takes as per-instance
// words after the per-vertex ones; elements past their buffer read as zero
// (robust buffer access).
func refVertexInput(st *BoundState, ve *VertexElements, l *linked, nverts, baseInst, ninst int) (ref.VertexInput, error) {
	words := l.attribWords
	type bind struct {
		slot ir.Slot
		el   []VertexElement // one per column
	}
	var binds []bind
	split := words // first per-instance word
	attrs := l.vertexAttrs(ve)
	for i, s := range attrs {
		loc := s.Location
		if loc < 0 {
			loc = i
		}
		cols := (s.Words + 3) / 4
		b := bind{slot: s}
		for c := 0; c < cols; c++ {
			if ve == nil || loc+c >= len(ve.Elements) {
				return ref.VertexInput{}, fmt.Errorf("attribute %s: no vertex element at location %d", s.Name, loc+c)
			}
			b.el = append(b.el, ve.Elements[loc+c])
		}
		if b.el[0].InstanceDivisor != 0 {
			split = min(split, s.Word)
		}
		binds = append(binds, b)
	}
	for _, b := range binds {
		if b.el[0].InstanceDivisor == 0 && b.slot.Word+b.slot.Words > split {
			return ref.VertexInput{}, fmt.Errorf("attribute %s is per vertex but follows an instanced attribute in the program's layout", b.slot.Name)
		}
	}
	if split < words {
		for _, s := range l.prog.IR.Attributes {
			if (s.Name == "gl_VertexID" || s.Name == "gl_InstanceID") && s.Word >= split {
				return ref.VertexInput{}, fmt.Errorf("instanced attributes with %s: the reference renderer's instance words must come last", s.Name)
			}
		}
	}
	in := ref.VertexInput{Words: split, Data: make([]uint32, split*nverts)}
	if l.vs == nil {
		fixedDefaults(&in, len(attrs), st.legacyOrDefault())
	}
	if split < words {
		in.InstanceWords = words - split
		in.InstanceData = make([]uint32, in.InstanceWords*ninst)
	}
	var raw [16]byte
	for _, b := range binds {
		inst := b.el[0].InstanceDivisor != 0
		n, stride, base := nverts, split, 0
		dst := in.Data
		if inst {
			n, stride, base, dst = ninst, in.InstanceWords, -split, in.InstanceData
		}
		for c, e := range b.el {
			if e.BufferIndex >= len(st.VBufs) || st.VBufs[e.BufferIndex].Buffer == nil {
				return in, fmt.Errorf("attribute %s reads unbound vertex buffer %d", b.slot.Name, e.BufferIndex)
			}
			vb := st.VBufs[e.BufferIndex]
			size := elementBytes(e.Format)
			cw := min(4, b.slot.Words-4*c)
			err := vb.Buffer.readHost(func(data []byte) {
				for v := 0; v < n; v++ {
					elem := v
					if inst {
						elem = baseInst + v/int(e.InstanceDivisor)
					}
					off := int64(vb.Offset) + int64(e.SrcOffset) + int64(elem)*int64(vb.Stride)
					// An element not wholly inside the buffer reads as zero
					// (robust buffer access), as Resource.Read refuses it.
					clear(raw[:])
					if off >= 0 && off+int64(size) <= int64(len(data)) {
						copy(raw[:size], data[off:])
					}
					vals := elementWords(e.Format, raw[:size], b.slot.Type)
					o := v*stride + b.slot.Word + base + 4*c
					copy(dst[o:o+cw], vals[:cw])
				}
			})
			if err != nil {
				return in, fmt.Errorf("attribute %s: vertex buffer %d: %w", b.slot.Name, e.BufferIndex, err)
			}
		}
	}
	return in, nil
}

// elementBytes is the size of one vertex element.
func elementBytes(f VertexFormat) int {
	switch f {
	case VertexFloat32x1, VertexUInt32x1, VertexSInt32x1:
		return 4
	case VertexFloat32x2, VertexUInt32x2, VertexSInt32x2:
		return 8
	case VertexFloat32x3, VertexUInt32x3, VertexSInt32x3:
		return 12
	case VertexUNorm8x4:
		return 4
	}
	return 16
}

// elementComponents is the number of components of a vertex format.
func elementComponents(f VertexFormat) int {
	switch f {
	case VertexFloat32x1, VertexUInt32x1, VertexSInt32x1:
		return 1
	case VertexFloat32x2, VertexUInt32x2, VertexSInt32x2:
		return 2
	case VertexFloat32x3, VertexUInt32x3, VertexSInt32x3:
		return 3
	}
	return 4
}

// elementWords decodes one element into 4 attribute words of type t, the
// missing components GL's defaults (0, 0, 0, 1).
func elementWords(f VertexFormat, b []byte, t ir.Type) [4]uint32 {
	one := math.Float32bits(1)
	if t != ir.F32 {
		one = 1
	}
	out := [4]uint32{0, 0, 0, one}
	n := elementComponents(f)
	for i := 0; i < n; i++ {
		if f == VertexUNorm8x4 {
			v := float32(b[i]) / 255
			if t == ir.F32 {
				out[i] = math.Float32bits(v)
			} else {
				out[i] = uint32(b[i])
			}
			continue
		}
		out[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return out
}

// vertexRange is the number of vertices a draw references and the instance
// count.
func vertexRange(info *DrawInfo, d DirectDraw, idx []byte) (int, error) {
	if info.IndexSize == 0 {
		return int(d.Start) + int(d.Count), nil
	}
	ws, err := WidenIndices(idx, info.IndexSize, d.Start, d.Count)
	if err != nil {
		return 0, err
	}
	hi := -1
	for _, v := range ws {
		if info.PrimitiveRestart && v == info.RestartIndex {
			continue
		}
		hi = max(hi, int(int64(v)+int64(d.BaseVertex)))
	}
	return hi + 1, nil
}

// indexBytes returns the draw's index bytes (the user array or a snapshot of
// the index buffer).
func indexBytes(info *DrawInfo) ([]byte, error) {
	if info.IndexSize == 0 {
		return nil, nil
	}
	if info.Index == nil {
		return info.IndexData, nil
	}
	b := make([]byte, info.Index.Size())
	if err := info.Index.Read(0, b); err != nil {
		return nil, fmt.Errorf("index buffer: %w", err)
	}
	return b, nil
}

// drawReference runs one direct draw on the reference renderer into the
// framebuffer's attachments (host storage, made current first): idx is the
// draw call's index bytes and nverts the vertices the draw references, both
// as DrawVBO checked them.
func (c *Context) drawReference(st *BoundState, l *linked, info *DrawInfo, d DirectDraw, idx []byte, nverts int, uniforms []uint32) error {
	if st.SampleMask.Enable && st.SampleMask.Mask&1 == 0 {
		// The single sample is masked off: no fragment can be written
		// (SetSampleMask). spec: GL 4.6 §14.9.3
		if c.counting() {
			return fmt.Errorf("reference draw: GL_SAMPLE_MASK drops the only sample under an open counting query: not implemented")
		}
		return nil
	}
	if st.layer == 0 {
		if n := fbLayers(&st.FB); n > 0 {
			return c.drawLayers(st, l, info, d, idx, nverts, uniforms, n)
		}
	}
	if err := c.hostCurrent(); err != nil {
		return err
	}
	in, err := c.refVertexInputKept(st, l, max(nverts, 0), int(d.StartInstance), int(d.InstanceCount))
	if err != nil {
		return err
	}
	texs, err := c.refTextures(st, l)
	if err != nil {
		return err
	}
	s, err := refState(st, l, info, texs)
	if err != nil {
		return err
	}
	ctx := c.applyReferenceConfig(&s)
	samples, err := fbSamples(&st.FB)
	if err != nil {
		return err
	}
	var t *ref.Target
	if samples == 1 {
		if t, err = c.refTarget(&st.FB); err != nil {
			return err
		}
	}
	p := ref.DrawParams{Topology: refTopologies[info.Mode], First: int(d.Start), Count: int(d.Count),
		BaseVertex: d.BaseVertex, Instances: int(d.InstanceCount), BaseInstance: int(d.StartInstance)}
	if info.IndexSize != 0 {
		p.IndexType = [...]ref.IndexType{1: ref.Index8, 2: ref.Index16, 4: ref.Index32}[info.IndexSize]
		p.Indices = idx
	}
	l.mu.Lock()
	if err := l.refGeometry(&s, st); err != nil {
		l.mu.Unlock()
		return err
	}
	if st.layer > 0 && !l.selectLayer(&s, st, st.layers) {
		l.mu.Unlock()
		return nil
	}
	if err := l.refVertex(&s, st); err != nil {
		l.mu.Unlock()
		return err
	}
	copy(l.prog.Uniforms, uniforms)
	done, err := c.bindStorage(st, l)
	if err != nil {
		l.mu.Unlock()
		return err
	}
	defer done()
	if samples > 1 {
		// One pass per sample (refsamples.go).
		if c.counting() {
			err = fmt.Errorf("reference draw into %d-sample attachments under an open counting query: not implemented", samples)
		} else {
			err = c.drawSamples(ctx, &st.FB, &s, in, p, samples)
		}
		l.mu.Unlock()
		return err
	}
	if c.counting() {
		err = c.countSamples(ctx, t, &s, in, p, primCount(info, d, idx))
	} else {
		err = ref.Draw(ctx, t, &s, in, p)
	}
	l.mu.Unlock()
	if err != nil {
		// What the draw wrote in place before it failed is the
		// resources' now (storeTarget).
		if serr := c.storeTarget(&st.FB, t, true); serr != nil {
			return fmt.Errorf("%w (and after it: %v)", err, serr)
		}
		return err
	}
	return c.storeTarget(&st.FB, t, false)
}

// surfaceIO copies the framebuffer area of s to (store false) or from (store
// true) buf, a tightly packed fb.Width × fb.Height image, row 0 window y = 0.
// A store marks the range dirty and bumps the resource's version.
func surfaceIO(s *Surface, fb *Framebuffer, buf []byte, store bool) error {
	r := s.Resource
	d := r.desc
	if d.samples() > 1 {
		return fmt.Errorf("a %d-sample attachment: the reference renderer draws it one sample at a time (refsamples.go), not through this path", d.Samples)
	}
	return surfaceRows(s, fb, buf, store)
}

// primCount is the number of primitives a direct draw assembles (all
// instances), for the primitives-generated query.
func primCount(info *DrawInfo, d DirectDraw, idx []byte) uint64 {
	var verts []uint32
	if info.IndexSize != 0 {
		verts, _ = WidenIndices(idx, info.IndexSize, d.Start, d.Count)
	} else {
		verts = Sequence(d.Start, d.Count)
	}
	var n int
	if info.Mode.polygons() {
		n = polygonCount(info.Mode, verts, info.PrimitiveRestart && info.IndexSize != 0, info.RestartIndex)
	} else if info.Mode.Triangles() {
		l, _ := TriangleList(info.Mode, verts, info.PrimitiveRestart && info.IndexSize != 0, info.RestartIndex, false)
		n = len(l) / 3
	} else {
		k := len(verts)
		switch info.Mode {
		case PrimPoints:
			n = k
		case PrimLines:
			n = k / 2
		case PrimLineStrip:
			n = max(k-1, 0)
		case PrimLineLoop:
			if k >= 2 {
				n = k
			}
		}
	}
	return uint64(n) * uint64(d.InstanceCount)
}

// checkVertexRange fails a draw that reads a vertex or instance element past
// the end of its vertex buffer: vertex ids are [0, nverts), instances
// [start, start+count). Robust access would read zeros; the driver refuses
// instead, naming the attribute, so that a bad index cannot make either path
// build or walk an unbounded vertex array.
func checkVertexRange(st *BoundState, l *linked, nverts int, start, count uint32) error {
	ve := st.VElems
	for i, s := range l.vertexAttrs(ve) {
		loc := s.Location
		if loc < 0 {
			loc = i
		}
		for c := 0; c < (s.Words+3)/4; c++ {
			if ve == nil || loc+c >= len(ve.Elements) {
				return fmt.Errorf("attribute %s: no vertex element at location %d", s.Name, loc+c)
			}
			e := ve.Elements[loc+c]
			if e.BufferIndex >= len(st.VBufs) || st.VBufs[e.BufferIndex].Buffer == nil {
				return fmt.Errorf("attribute %s reads unbound vertex buffer %d", s.Name, e.BufferIndex)
			}
			vb := st.VBufs[e.BufferIndex]
			need := int64(nverts)
			if e.InstanceDivisor != 0 {
				need = 0
				if count > 0 {
					need = int64(start) + int64(count-1)/int64(e.InstanceDivisor) + 1
				}
			}
			if need == 0 {
				continue
			}
			last := int64(vb.Offset) + int64(e.SrcOffset) + (need-1)*int64(vb.Stride) + int64(elementBytes(e.Format))
			if size := int64(vb.Buffer.Size()); last > size {
				return fmt.Errorf("attribute %s: element %d ends at byte %d of the %d-byte vertex buffer %d", s.Name, need-1, last, size, e.BufferIndex)
			}
		}
	}
	return nil
}
