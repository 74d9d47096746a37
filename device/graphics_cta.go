package device

import (
	"fmt"

	"vortexgfx/abi"
)

// Tex is vx_tex: it samples texture stage at the S.23 coordinates (u, v) with
// level-of-detail lod through the TEX unit bound with the latched TEX DCRs, and
// returns the filtered A8R8G8B8 texel. Outside a frame kick, or for a stage with
// no valid texture, it records a fault on the CTA and returns 0.
// spec: vortex-hardware-facts §4, §6; vortexpipe §3.4
func (c *CTA) Tex(stage int, u, v int32, lod uint32) uint32 {
	fr := c.dev.gfx.frame.Load()
	if fr == nil || stage < 0 || stage >= abi.TexNumStages {
		c.Fail(fmt.Errorf("vx_tex stage %d outside a fragment frame", stage))
		return 0
	}
	s := fr.tex[stage]
	if s == nil {
		c.Fail(fmt.Errorf("vx_tex: %w", fr.texErr[stage]))
		return 0
	}
	fr.cores[c.Core].texReads++
	return s.Sample(u, v, lod)
}

// OMExport is vx_om_export: it hands one fragment (pixel x, y; face 1 when back
// facing; render target rt; A8R8G8B8 colour; 24-bit depth) to the OM, which runs
// the depth/stencil tests, blends and writes with the latched OM state of rt. It
// reports whether the fragment passed. flags is reserved and must be 0. A lane
// whose pixel is not covered must not export (rasterizer §11).
// spec: vortex-hardware-facts §5, §6; vortexpipe §3.4
func (c *CTA) OMExport(x, y int, face uint32, rt int, color, depth, flags uint32) bool {
	fr := c.dev.gfx.frame.Load()
	if fr == nil || rt < 0 || rt >= abi.OMMaxRT {
		c.Fail(fmt.Errorf("vx_om_export rt %d outside a fragment frame", rt))
		return false
	}
	if flags != 0 {
		c.Fail(fmt.Errorf("vx_om_export: reserved flags 0x%x", flags))
		return false
	}
	u := fr.om[rt]
	if u == nil {
		c.Fail(fmt.Errorf("vx_om_export: %w", fr.omErr[rt]))
		return false
	}
	cc := &fr.cores[c.Core]
	cc.omReads++
	if u.Export(x, y, face, color, depth) {
		cc.omWrites++
		return true
	}
	return false
}
