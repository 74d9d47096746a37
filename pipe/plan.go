package pipe

import "fmt"

// Bound returns a snapshot of the context's bound state.
func (c *Context) Bound() *BoundState {
	c.mu.Lock()
	defer c.mu.Unlock()
	st := &BoundState{
		VS: c.vs, FS: c.fs, GS: c.gs, VElems: c.velems, DSA: c.dsa, Blend: c.blend, Rast: c.rast,
		Samplers: c.samplers, Views: c.views, CBufs: c.cbufs,
		VBufs:      append([]VertexBuffer(nil), c.vbufs...),
		FB:         c.fb,
		StencilRef: c.stencilRef, BlendColor: c.blendColor, BlendColorF: c.blendColorF, Scissor: c.scissor, Viewport: c.viewport,
		MinSamples: c.minSamples, SampleMask: c.sampleMask, Clip: c.clip, Legacy: c.legacy,
		Storage: c.storage,
	}
	st.FB.Cbufs = append([]*Surface(nil), c.fb.Cbufs...)
	for q := range c.queries {
		switch {
		case q.Type.Occlusion():
			st.OcclusionQuery = true
		case q.Type == QueryPrimitivesGenerated:
			// Counted on the host from the assembled list on either path.
		case q.Type.CountsDraws():
			st.CountingQuery = true
		}
	}
	return st
}

// PlannedDraw is one direct draw with its routing decision and, on the device
// path, the triangle-list indices the front end consumes (nil for a non-indexed
// triangle list, which needs none). spec: vortexpipe §3.1
type PlannedDraw struct {
	Draw     DirectDraw
	Decision Decision
	// Indices is the translated u32 triangle list (strips and fans rebuilt
	// as lists), segment list (LineList) or point list, primitive restart
	// resolved, u8/u16 widened. Indexed draws keep their
	// indices relative (Draw.BaseVertex is added by the vertex shader).
	Indices []uint32
	// EdgeFlags, for quads, quad strips and polygons, holds per triangle
	// of Indices which of its edges (bit k: vertex k to k+1, and in POINT
	// mode vertex k) are the polygon's (PolygonEdgeFlags), for the polygon
	// modes and gl_PrimitiveID's numbering; nil otherwise.
	EdgeFlags []uint8
}

// Plan resolves info (indirect on the host, multi-draw split) and routes every
// direct draw, translating indices for the device path. In STRICT mode a draw that
// would fall back returns a *StrictError naming its reasons (errors.Is ErrStrict)
// and nothing is planned; otherwise every fallback and route is counted in Stats.
// spec: vortexpipe §1.5, §3.1, §3.5
func (c *Context) Plan(info *DrawInfo) ([]PlannedDraw, error) {
	if info.Mode >= numPrimModes {
		return nil, fmt.Errorf("pipe: draw: topology %d undefined", info.Mode)
	}
	if info.IndexSize != 0 && info.IndexSize != 1 && info.IndexSize != 2 && info.IndexSize != 4 {
		return nil, fmt.Errorf("pipe: draw: index size %d", info.IndexSize)
	}
	draws, err := ResolveDraws(info)
	if err != nil {
		return nil, err
	}
	st := c.Bound()
	caps := c.screen.caps
	out := make([]PlannedDraw, 0, len(draws))
	for i, d := range draws {
		dec := Route(caps, c.opts, st, DrawShape{Mode: info.Mode, CountFromStreamOutput: info.CountFromStreamOutput, Draw: d})
		if dec.Reference && c.opts.Strict {
			return nil, fmt.Errorf("pipe: draw %d: %w", i, dec.Err())
		}
		p := PlannedDraw{Draw: d, Decision: dec}
		if !dec.Reference && !dec.Empty {
			provokingFirst := st.Rast != nil && st.Rast.State.FlatshadeFirst
			// Quads' and polygons' edge flags also number their
			// primitives for gl_PrimitiveID (polygonPrimitiveIDs).
			edges := info.Mode.polygons()
			p.Indices, p.EdgeFlags, err = c.translate(info, d, provokingFirst, edges)
			if err != nil {
				return nil, fmt.Errorf("pipe: draw %d: %w", i, err)
			}
		}
		out = append(out, p)
	}
	c.mu.Lock()
	for _, p := range out {
		c.stats.Draws++
		switch {
		case p.Decision.Empty:
			c.stats.Empty++
		case p.Decision.Reference:
			c.stats.Reference++
			for _, r := range p.Decision.Gates {
				c.stats.Fallbacks[r.Code]++
				c.stats.FallbackDetails[r.String()]++
			}
		default:
			c.stats.Device++
			for _, r := range p.Decision.Routes {
				c.stats.Routes[r.Code]++
			}
		}
	}
	c.mu.Unlock()
	return out, nil
}

// translate builds the device path's index list for one direct draw, and
// with edges its polygons' edge flags.
func (c *Context) translate(info *DrawInfo, d DirectDraw, provokingFirst, edges bool) ([]uint32, []uint8, error) {
	var idx []uint32
	if info.IndexSize == 0 {
		if info.Mode == PrimTriangles {
			return nil, nil, nil
		}
		idx = Sequence(d.Start, d.Count)
	} else {
		src, start := info.IndexData, d.Start
		if info.Index != nil {
			// Read only the draw's indices from the host backing.
			lo := uint64(d.Start) * uint64(info.IndexSize)
			n := uint64(d.Count) * uint64(info.IndexSize)
			if lo+n > uint64(info.Index.Size()) {
				return nil, nil, fmt.Errorf("indices [%d, %d) of %d bytes read past the %d-byte index buffer",
					d.Start, uint64(d.Start)+uint64(d.Count), info.IndexSize, info.Index.Size())
			}
			src, start = make([]byte, n), 0
			if err := info.Index.Read(int(lo), src); err != nil {
				return nil, nil, fmt.Errorf("index buffer: %w", err)
			}
		}
		var err error
		if idx, err = WidenIndices(src, info.IndexSize, start, d.Count); err != nil {
			return nil, nil, err
		}
		if info.Mode == PrimTriangles && !info.PrimitiveRestart {
			return idx, nil, nil
		}
	}
	restart := info.PrimitiveRestart && info.IndexSize != 0
	if !info.Mode.Triangles() {
		l, err := LineList(info.Mode, idx, restart, info.RestartIndex)
		return l, nil, err
	}
	var flags []uint8
	if edges {
		flags = PolygonEdgeFlags(info.Mode, idx, restart, info.RestartIndex)
	}
	l, err := TriangleList(info.Mode, idx, restart, info.RestartIndex, provokingFirst)
	return l, flags, err
}
