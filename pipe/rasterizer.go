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
	// Line and point primitives are never offset. spec: GL 4.6 §14.6.5
	OffsetClamp float32
	// OffsetLine and OffsetPoint are GL_POLYGON_OFFSET_LINE and
	// GL_POLYGON_OFFSET_POINT: the lines of a LINE face and the points of
	// a POINT face take their polygon's offset (OffsetScale, OffsetUnits,
	// OffsetClamp), as OffsetTri offsets a FILL face. A face in LINE or
	// POINT mode under any offset enable gates the draw (GatePolygonMode):
	// the reference renderer draws it. spec: GL 4.6 §14.6.5
	OffsetLine, OffsetPoint bool
}

// offsets reports whether a kept face's polygon offset is enabled: a FILL
// face's by OffsetTri, a LINE face's by OffsetLine, a POINT face's by
// OffsetPoint.
func (s *RasterizerState) offsets() bool {
	on := func(m PolygonMode) bool {
		return m == PolygonFill && s.OffsetTri || m == PolygonLine && s.OffsetLine || m == PolygonPoint && s.OffsetPoint
	}
	return on(s.FillFront) && s.Cull&CullFront == 0 || on(s.FillBack) && s.Cull&CullBack == 0
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
	if r.PolygonModes() && s.offsets() {
		// setup_k offsets every triangle of a launch by its own depth
		// plane, prim_k's lines and points included, where GL offsets a
		// LINE or POINT face's fragments by the polygon's plane under its
		// own enable: the reference renderer draws these.
		r.Flags = append(r.Flags, Reason{GatePolygonMode, fmt.Sprintf("front %d back %d with polygon offset", s.FillFront, s.FillBack)})
	}
	if (s.OffsetTri || s.OffsetLine || s.OffsetPoint) && !(finite32(s.OffsetUnits) && finite32(s.OffsetScale) && finite32(s.OffsetClamp)) {
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
