package shaderdev

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"

	"vortexgfx/abi"
	"vortexgfx/gfx/frontend"
)

// validatePrim checks the draw's primitive type and count: a triangle list
// of whole triangles, a line list of whole segments, any number of points.
func (s *drawState) validatePrim() error {
	dr := s.dr
	per := 0
	switch dr.Prim {
	case PrimTriangles:
		per = 3
	case PrimLines:
		per = 2
	case PrimPoints:
		per = 1
	default:
		return fmt.Errorf("shaderdev: draw: primitive type %d undefined", dr.Prim)
	}
	if dr.Count <= 0 || dr.Count%per != 0 || (dr.Indices != nil && len(dr.Indices) != dr.Count) {
		return fmt.Errorf("shaderdev: draw: %d vertices (%d indices) is not a %s list", dr.Count, len(dr.Indices), dr.Prim)
	}
	if dr.PrimitiveIDs != nil && len(dr.PrimitiveIDs) != dr.Count/per {
		return fmt.Errorf("shaderdev: draw: %d primitive ids for %d primitives", len(dr.PrimitiveIDs), dr.Count/per)
	}
	if x := dr.expansion(); x == primPolygons {
		switch {
		case dr.FillFront > PolygonPoint || dr.FillBack > PolygonPoint:
			return fmt.Errorf("shaderdev: draw: polygon modes %d/%d undefined", dr.FillFront, dr.FillBack)
		case dr.ClipDistances != 0 && keptFill(dr.FillFront, dr.FillBack, dr.Cull, dr.FrontCCW):
			// prim_k clips a LINE or POINT face's polygon by the user
			// planes (polygonClipped), but a FILL face passes through
			// to setup_k, which does not clip a polygon-mode launch by
			// them (its lines are prim_k's): one draw cannot have both.
			return fmt.Errorf("shaderdev: draw: polygon modes %d/%d fill a face the cull mode keeps under user clip distances 0x%x", dr.FillFront, dr.FillBack, dr.ClipDistances)
		case dr.EdgeFlags != nil && len(dr.EdgeFlags) != dr.Count/3:
			return fmt.Errorf("shaderdev: draw: %d edge flags for %d triangles", len(dr.EdgeFlags), dr.Count/3)
		case dr.PolygonOffset.Enable:
			return fmt.Errorf("shaderdev: draw: polygon modes %d/%d with POLYGON_OFFSET_FILL (LINE and POINT offsets are not implemented)", dr.FillFront, dr.FillBack)
		}
	} else if dr.EdgeFlags != nil {
		return fmt.Errorf("shaderdev: draw: edge flags without a LINE or POINT polygon mode")
	} else if x == PrimTriangles {
		return nil
	}
	if !finite32(dr.LineWidth) || !finite32(dr.PointSize) {
		return fmt.Errorf("shaderdev: draw: line width %g / point size %g not finite", dr.LineWidth, dr.PointSize)
	}
	if dr.Prim != PrimLines && dr.ShaderPointSize && s.p.pointSizeWord() < 0 {
		return fmt.Errorf("shaderdev: draw: ShaderPointSize but %s writes no gl_PointSize", s.p.name)
	}
	return nil
}

// cull is the front end's cull mode for the draw: lines and points are
// never culled (prim_k winds their triangles front-facing).
func (dr *Draw) cull() frontend.CullMode {
	if dr.Prim != PrimTriangles {
		return frontend.CullNone
	}
	return dr.Cull
}

// pointSizeWord is the VS output word of gl_PointSize (-1: not written).
func (sp *Program) pointSizeWord() int {
	for _, o := range sp.prog.VS.Outputs {
		if o.Name == "gl_PointSize" && o.Words == 1 {
			return o.Word
		}
	}
	return -1
}

// primArgs is prim_k's argument block for the draw: the VS records, the
// expanded records, the primitive count, the record words, the flags and the
// viewport (the whole target when the draw has none) and size.
func (s *drawState) primArgs() []byte {
	dr, d := s.dr, s.d
	sx, tx, sy, ty := float32(d.w)/2, float32(d.w)/2, float32(d.h)/2, float32(d.h)/2
	if vp := dr.Viewport; vp != nil {
		sx, tx, sy, ty = vp.SX, vp.TX, vp.SY, vp.TY
	}
	var flags uint64
	count := uint64(s.total / 2)
	if dr.ShaderPointSize && dr.Prim != PrimLines {
		flags |= primFlagShaderSize | uint64(s.p.pointSizeWord())<<primSizeShift
	}
	if dr.expansion() == primPolygons {
		count = uint64(s.total / 3)
		flags |= primFlagPolygons | uint64(dr.FillFront)<<primFillFrontShift | uint64(dr.FillBack)<<primFillBackShift |
			uint64(dr.Cull)<<primCullShift
		if dr.FrontCCW {
			flags |= primFlagFrontCCW
		}
	}
	if dr.Prim == PrimPoints {
		flags |= primFlagPoints
		count = uint64(s.total)
		if s.p.pointCoord >= 0 {
			flags |= primFlagPointCoord
			if dr.PointOriginLower {
				flags |= primFlagOriginLower
			}
		}
	}
	if dr.ProvokingFirst {
		flags |= primFlagProvokeFirst
	}
	if s.ms.DepthClamp {
		flags |= primFlagDepthClamp
	}
	if d.tc.Samples > 1 {
		flags |= primFlagMultisample
	}
	f2 := func(a, b float32) uint64 { return uint64(math.Float32bits(a)) | uint64(math.Float32bits(b))<<32 }
	args := make([]byte, 8*primArgSlots)
	for slot, v := range [primArgSlots]uint64{
		primArgIn: s.recs.Addr(), primArgOut: s.xrecs.Addr(), primArgCount: count,
		primArgWords: uint64(s.p.prog.VS.OutputWords), primArgFlags: flags,
		primArgScale: f2(sx, sy), primArgOffset: f2(tx, ty), primArgSize: f2(dr.LineWidth, dr.PointSize),
		primArgExact: s.lineTrisAddr(), primArgClip: uint64(s.primClip),
		primArgEdges: s.edgesAddr(), primArgEdgeTris: uint64(dr.Count / 3),
	} {
		binary.LittleEndian.PutUint64(args[8*slot:], v)
	}
	for i, pl := range dr.ClipPlanes {
		for j, x := range pl {
			binary.LittleEndian.PutUint32(args[8*primArgPlanes+4*(4*i+j):], math.Float32bits(x))
		}
	}
	return args
}

// lineTrisAddr is prim_k's exact-corner buffer (0: a point draw, none).
func (s *drawState) lineTrisAddr() uint64 {
	if s.lineTris == nil {
		return 0
	}
	return s.lineTris.Addr()
}

// mapArgs is primmap_k's argument block for the pass of nt triangles from
// triangle first: setup_k's keep counts and offsets at keep and offs.
func (s *drawState) mapArgs(first, nt int, keep, offs uint64) []byte {
	args := make([]byte, 8*mapArgSlots)
	for slot, v := range [mapArgSlots]uint64{
		mapArgKeep: keep, mapArgOffsets: offs, mapArgCount: uint64(nt),
		mapArgExact: s.lineTris.Addr() + uint64(first)*abi.LineCoverBytes,
		mapArgFlags: primFlagMap, mapArgOut: s.lineCover.Addr(),
	} {
		binary.LittleEndian.PutUint64(args[8*slot:], v)
	}
	return args
}

// WritesPointSize reports whether the vertex stage writes gl_PointSize
// (Draw.ShaderPointSize may then take it). spec: GL 4.6 §14.4
func (sp *Program) WritesPointSize() bool { return sp.pointSizeWord() >= 0 }

// recordWords is the words of each record expand_k reads: the VS output's,
// with gl_PointCoord's two after them on a point draw of a program reading
// it (prim_k appends them).
func (s *drawState) recordWords() int {
	ow := s.p.prog.VS.OutputWords
	if s.dr.Prim == PrimPoints && s.p.pointCoord >= 0 {
		ow += pointCoordWords
	}
	return ow
}

// primVerts is prim_k's records per input vertex for the draw: its
// expansion's, or under user clip distances a polygon-mode triangle's two
// triangles for each edge its clipped polygon can have (polyEdges).
func (s *drawState) primVerts() int {
	x := s.dr.expansion()
	if x == primPolygons && s.dr.ClipDistances != 0 {
		return 2 * polyEdges(bits.OnesCount8(s.p.ClipMask(s.dr.ClipDistances)))
	}
	return x.primVerts()
}

// expansion is the draw's prim_k expansion: its primitive type, or
// primPolygons for a triangle draw with a face in LINE or POINT mode.
func (dr *Draw) expansion() Prim {
	if dr.Prim == PrimTriangles && (dr.FillFront != PolygonFill || dr.FillBack != PolygonFill) {
		return primPolygons
	}
	return dr.Prim
}

// drawsLines reports whether the draw rasterises lines: a line draw, or a
// polygon face in LINE mode the cull mode keeps.
func (dr *Draw) drawsLines() bool {
	return dr.Prim == PrimLines || dr.expansion() == primPolygons && (dr.FillFront == PolygonLine || dr.FillBack == PolygonLine)
}

// edgesAddr is the uploaded Draw.EdgeFlags (0: none).
func (s *drawState) edgesAddr() uint64 {
	if s.edges == nil {
		return 0
	}
	return s.edges.Addr()
}
