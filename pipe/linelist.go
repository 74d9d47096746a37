package pipe

import (
	"fmt"

	"vortexgfx/gfx/shaderdev"
)

// Lines reports whether the topology draws line segments.
func (m PrimMode) Lines() bool { return m == PrimLines || m == PrimLineStrip || m == PrimLineLoop }

// LineList translates a line list, strip or loop into a list of segments
// (two indices each, in the reference renderer's order: a loop's closing
// segment last, from the last vertex to the first) and a point list into
// its points, resolving primitive restart (a restart index ends the current
// primitive; an unpaired vertex of a line list is dropped, as GL does). A
// segment keeps its vertices' order: which one is provoking is the draw's
// (shaderdev.Draw.ProvokingFirst). spec: GL 4.6 §10.1.2–§10.1.5 (points,
// line strips, loops, separate lines); vortexpipe §3.1
func LineList(mode PrimMode, idx []uint32, restart bool, restartIndex uint32) ([]uint32, error) {
	if mode != PrimPoints && !mode.Lines() {
		return nil, fmt.Errorf("pipe: LineList: topology %v is neither points nor lines", mode)
	}
	out := make([]uint32, 0, 2*len(idx))
	for seg := 0; seg <= len(idx); {
		end := len(idx)
		if restart {
			end = seg
			for end < len(idx) && idx[end] != restartIndex {
				end++
			}
		}
		v := idx[seg:end]
		n := len(v)
		switch mode {
		case PrimPoints:
			out = append(out, v...)
		case PrimLines:
			out = append(out, v[:n-n%2]...)
		case PrimLineStrip, PrimLineLoop:
			for i := 0; i+1 < n; i++ {
				out = append(out, v[i], v[i+1])
			}
			if mode == PrimLineLoop && n >= 2 {
				out = append(out, v[n-1], v[0])
			}
		}
		seg = end + 1
	}
	return out, nil
}

// devicePrim sets the device draw's primitive type, polygon modes and its
// line and point state as the reference renderer takes them (refState:
// width and size 1 unless the rasterizer sets them; the shader's
// gl_PointSize unless IgnoreShaderPointSize) and returns the indices per
// primitive.
// spec: GL 4.6 §14.4, §14.5
func devicePrim(dr *shaderdev.Draw, st *BoundState, sp *shaderdev.Program, mode PrimMode) int {
	dr.LineWidth, dr.PointSize = 1, 1
	if r := st.Rast; r != nil {
		if r.State.PointSize > 0 {
			dr.PointSize = r.State.PointSize
		}
		if r.State.LineWidth > 0 {
			dr.LineWidth = r.State.LineWidth
		}
		dr.ProvokingFirst = r.State.FlatshadeFirst
	}
	if r := st.Rast; r != nil && r.PolygonModes() && mode.Triangles() {
		// A culled face's mode never applies (its triangles are dropped).
		dr.FillFront, dr.FillBack = shaderdev.PolygonMode(r.State.FillFront), shaderdev.PolygonMode(r.State.FillBack)
		dr.FrontCCW = r.State.FrontCCW
		dr.ShaderPointSize = sp.WritesPointSize() && !r.State.IgnoreShaderPointSize
	}
	switch {
	case mode == PrimPoints:
		dr.Prim = shaderdev.PrimPoints
		dr.ShaderPointSize = sp.WritesPointSize() && (st.Rast == nil || !st.Rast.State.IgnoreShaderPointSize)
		return 1
	case mode.Lines():
		dr.Prim = shaderdev.PrimLines
		return 2
	}
	return 3
}
