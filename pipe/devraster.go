package pipe

import (
	"fmt"
	"math"
	"vortexgfx/gfx/frontend"
)

// The rasterizer state of a device draw as setup_k and RASTER take it:
// viewport (and its gate), polygon offset and culling. spec: rasterizer.md §2,
// vortexpipe-driver.md §3.8

// viewportGate is why the device cannot draw through viewport v on a w×h
// framebuffer as the reference renderer does, or "": a viewport of any size
// and position inside the coordinate range, with any depth range, runs on
// the device (setup_k's guard band is the target's, viewportGuard). What
// remains are the viewports the reference renderer itself refuses (not
// finite, zero or negative width, zero height) and corners beyond the
// coordinate range.
func viewportGate(v Viewport, w, h int) string {
	vp := refViewport(v, w, h)
	for _, f := range []float32{vp.X, vp.Y, vp.W, vp.H, vp.MinDepth, vp.MaxDepth} {
		if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
			return "viewport or depth range not finite"
		}
	}
	if vp.W <= 0 || vp.H == 0 {
		return "viewport of zero or negative width or zero height"
	}
	for _, c := range []float64{float64(vp.X), float64(vp.X) + float64(vp.W), float64(vp.Y), float64(vp.Y) + float64(vp.H)} {
		if c < -viewportCoordRange || c > viewportCoordRange {
			return fmt.Sprintf("viewport beyond the device coordinate range [-%d, %d]", viewportCoordRange, viewportCoordRange)
		}
	}
	return ""
}

// integralViewport reports whether viewport v's rectangle on a w×h
// framebuffer has integer corners.
func integralViewport(v Viewport, w, h int) bool {
	vp := refViewport(v, w, h)
	for _, c := range []float64{float64(vp.X), float64(vp.X) + float64(vp.W), float64(vp.Y), float64(vp.Y) + float64(vp.H)} {
		if c != math.Trunc(c) {
			return false
		}
	}
	return true
}

// deviceViewport is setup_k's viewport for v on a w×h framebuffer: nil for
// the default mapping onto the whole framebuffer (the zero Viewport or its
// exact transform), so those draws set up exactly as before the viewport
// rode the argument block.
func deviceViewport(v Viewport, w, h int) *frontend.Viewport {
	fw, fh := float32(w)/2, float32(h)/2
	if v == (Viewport{}) || v.Scale[0] == fw && v.Translate[0] == fw && v.Scale[1] == fh && v.Translate[1] == fh {
		return nil
	}
	return &frontend.Viewport{SX: v.Scale[0], TX: v.Translate[0], SY: v.Scale[1], TY: v.Translate[1]}
}

// deviceCull maps the rasterizer's cull face and winding onto setup_k's: setup's
// window y points up and it calls a clockwise triangle back-facing, so with
// counter-clockwise front faces the API's back faces are setup's.
// devicePolygonOffset is the rasterizer's POLYGON_OFFSET_FILL state for
// setup_k (shaderdev fills in the depth plane's bits for r). A draw with a
// LINE or POINT face runs on the device only when no kept face is offset
// (GatePolygonMode), so its offset is off. spec: GL 4.6 §14.6.5
func devicePolygonOffset(r *Rasterizer) frontend.PolygonOffset {
	if r == nil || !r.State.OffsetTri || r.PolygonModes() {
		return frontend.PolygonOffset{}
	}
	return frontend.PolygonOffset{Enable: true, Factor: r.State.OffsetScale, Units: r.State.OffsetUnits, Clamp: r.State.OffsetClamp}
}

func deviceCull(r *Rasterizer) frontend.CullMode {
	if r == nil {
		return frontend.CullNone
	}
	back, front := frontend.CullBack, frontend.CullFront
	if !r.State.FrontCCW {
		back, front = front, back
	}
	switch r.State.Cull {
	case CullBack:
		return back
	case CullFront:
		return front
	}
	return frontend.CullNone
}
