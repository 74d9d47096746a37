package pipe

import "fmt"

// RasterizerState is the rasterizer CSO description (pipe_rasterizer_state). Zero
// values are the common case: fill, no cull, depth clipped, no offset.
type RasterizerState struct {
	Cull              CullFace
	FrontCCW          bool
	Scissor           bool
	FlatshadeFirst    bool // provoking vertex first (Vulkan) instead of last (GL)
	FillFront         PolygonMode
	FillBack          PolygonMode
	OffsetTri         bool
	OffsetUnits       float32
	OffsetScale       float32
	DepthClamp        bool
	DepthClipDisable  bool
	RasterizerDiscard bool
	PointSize         float32
	LineWidth         float32
	// ClipPlaneEnable enables user clip plane i (bit i): the vertex stage's
	// gl_ClipDistance[i], or, for a stage without it, ClipState's plane i
	// dotted with gl_ClipVertex (else gl_Position). Both paths clip.
	ClipPlaneEnable uint8
	// Flatshade makes the legacy colour inputs (gl_Color,
	// gl_SecondaryColor) flat, from the provoking vertex:
	// glShadeModel(GL_FLAT). spec: GL 2.1 §2.14.7
	Flatshade bool
	// LightTwoSide makes back-facing primitives read the back colours
	// (gl_BackColor, gl_BackSecondaryColor) for the legacy colour inputs:
	// GL_VERTEX_PROGRAM_TWO_SIDE. spec: GL 2.1 §2.14.1
	LightTwoSide bool
	// ClampVertexColor clamps the legacy colour outputs of the vertex
	// stage to [0, 1] (a compatibility context's CLAMP_VERTEX_COLOR, TRUE by
	// default there): the reference renderer clamps after its vertex stage,
	// the device runs a program with the clamp folded in
	// (ClampVertexColours). spec: GL 3.0 §2.19.6
	ClampVertexColor bool
	// IgnoreShaderPointSize rasterizes points at PointSize even when the
	// vertex stage writes gl_PointSize: desktop GL without
	// GL_PROGRAM_POINT_SIZE (the zero value honours the shader's size, as
	// GL ES and GL_PROGRAM_POINT_SIZE do). spec: GL 4.6 §14.4
	IgnoreShaderPointSize bool
	// OffsetClamp bounds the polygon offset of OffsetTri
	// (GL_POLYGON_OFFSET_FILL; OffsetScale and OffsetUnits are
	// glPolygonOffset's factor and units) when nonzero: from above when
	// positive, from below when negative (glPolygonOffsetClamp). Both paths
	// add o = OffsetScale·m + OffsetUnits·r with ref's arithmetic (ref's
	// depthBias; on the device setup_k, on each primitive's depth plane).
	// GL's LINE and POINT offset enables have no field: POLYGON_OFFSET_FILL
	// with a face in LINE or POINT mode gates the draw (GatePolygonMode);
	// lines and points are never offset on either path. spec: GL 4.6
	// §14.6.5
	OffsetClamp float32
}

// PolygonModes reports whether a face the cull mode keeps is in LINE or
// POINT polygon mode. spec: GL 4.6 §14.6.4
func (r *Rasterizer) PolygonModes() bool {
	s := &r.State
	return s.FillFront != PolygonFill && s.Cull&CullFront == 0 || s.FillBack != PolygonFill && s.Cull&CullBack == 0
}

// Rasterizer is a rasterizer CSO captured at creation: the cull/front-face pair the
// front end's setup_k applies (after the viewport's y-flip, at draw time), the
// scissor enable for RASTER's SCISSOR_X/Y words, Flags for state the device
// front end does not implement (line/point fill, a non-finite polygon
// offset), each of which gates the draw, and Routes for depth clamp (setup_k skips the depth
// clip and the software merger clamps the depth to the depth range, as GL's
// depth clamp does) and depth-clip disable (clamped to [0, 1], what a
// fixed-point attachment stores). spec: vortexpipe §1.4,
// §3.2 step 2, §3.7 (depth-clamp row), §3.8
type Rasterizer struct {
	State RasterizerState
	// CullsAll is set for CullFrontAndBack: every triangle is discarded, so a
	// triangle draw produces no fragments on either path.
	CullsAll bool
	Flags    []Reason
	Routes   []Reason
}

// NewRasterizer captures s. It fails on an undefined enum value.
func NewRasterizer(s RasterizerState) (*Rasterizer, error) {
	if s.Cull > CullFrontAndBack {
		return nil, fmt.Errorf("pipe: rasterizer: cull mode %d undefined", s.Cull)
	}
	if s.FillFront > PolygonPoint || s.FillBack > PolygonPoint {
		return nil, fmt.Errorf("pipe: rasterizer: polygon mode %d/%d undefined", s.FillFront, s.FillBack)
	}
	r := &Rasterizer{State: s, CullsAll: s.Cull == CullFrontAndBack}
	if r.PolygonModes() && s.OffsetTri {
		// POLYGON_OFFSET_FILL offsets the FILL faces only; GL's LINE
		// and POINT offset enables have no field, and the device's
		// setup_k would offset the lines and points too.
		r.Flags = append(r.Flags, Reason{GatePolygonMode, fmt.Sprintf("front %d back %d with polygon offset", s.FillFront, s.FillBack)})
	}
	if s.OffsetTri && !(finite32(s.OffsetUnits) && finite32(s.OffsetScale) && finite32(s.OffsetClamp)) {
		// setup_k refuses a non-finite offset, as ref does (ErrBadDraw):
		// routed there, the draw fails with ref's error on either path.
		r.Flags = append(r.Flags, Reason{GatePolygonOffset, fmt.Sprintf("units %g scale %g clamp %g not finite", s.OffsetUnits, s.OffsetScale, s.OffsetClamp)})
	}
	switch {
	case s.DepthClamp:
		r.Routes = append(r.Routes, Reason{RouteDepthClamp, ""})
	case s.DepthClipDisable:
		// No clip, no clamp: a fixed-point depth attachment stores the depth
		// clamped to [0, 1], which the merger's clamp to [0, 1] is exactly;
		// Route gates it over a float attachment.
		r.Routes = append(r.Routes, Reason{RouteDepthClip, ""})
	}
	return r, nil
}

// finite32 reports whether f is neither infinite nor NaN.
func finite32(f float32) bool { return f-f == 0 }
