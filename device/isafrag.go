package device

import (
	"fmt"

	"vortexgfx/abi"
)

// Machine code in fragment waves. A wave RASTER launches at a KernelCode entry
// runs on a modelled SIMT core like any machine-code CTA (isa.go), with three
// additions: each warp's FRAG_POS/FRAG_PID CSRs (0xCE2/0xCE3) read the wave's
// launch registers of its lanes (rasterizer §11); vx_om_export hands the lane's
// fragment to the OM, its address an OM aperture address decoded with the latched
// APERTURE_XBITS/YBITS/RECORD_SHIFT registers into (rt, face, x, y) exactly as an
// aperture store is (OMStore); and, since a frame kick has no LMEM_SIZE, the wave
// maps the core's whole local memory (Config LocalMemBytes, at most
// ISALocalMemMax) for the code's frames, its contents left by the previous wave
// (fragment code writes every frame word before reading it). vx_tex samples
// through the frame's TEX unit exactly as the Go wrapper's requests do (CTA.Tex:
// the same sampler, READS counter and texture-cache record), rs1/rs2 the S.23
// u/v, rs3 the lod, funct2 the stage (docs/ABI.md row 44).
// spec: vortex-hardware-facts.md §5 (the aperture), §6 (vx_om_export, FRAG_POS/PID);
// vortexpipe-driver.md §3.4

// fragLanes is a warp's FRAG_POS/FRAG_PID source: the wave's lanes from first.
type fragLanes struct {
	c     *CTA
	first int
}

func (f fragLanes) FragPos(l int) uint32 { return f.c.FragPos(f.first + l) }
func (f fragLanes) FragPID(l int) uint32 { return f.c.FragPID(f.first + l) }

// ctaGraphics serves a machine-code fragment wave's graphics instructions.
type ctaGraphics struct{ c *CTA }

// Tex implements simt.Graphics: vx_tex of stage at the S.23 coordinates (u,
// v) and lod through CTA.Tex; a fault (no frame, an unbound stage) is the
// instruction's error. spec: vortex-hardware-facts.md §4, §6
func (g *ctaGraphics) Tex(warp, lane, stage int, u, v, lod uint32) (uint32, error) {
	t := g.c.Tex(stage, int32(u), int32(v), lod)
	return t, g.c.Err()
}

// OMExport implements simt.Graphics: vx_om_export of colour and depth
// (funct7[1:0] = {has_depth, has_colour} = 3) at aperture address addr.
func (g *ctaGraphics) OMExport(warp, lane int, addr, color, depth uint32, flags int) error {
	c := g.c
	fr := c.dev.gfx.frame.Load()
	if fr == nil {
		return fmt.Errorf("vx_om_export outside a fragment frame")
	}
	if flags != 3 {
		return fmt.Errorf("vx_om_export flags %d: only colour and depth together (3) are modelled", flags)
	}
	rt, face, x, y, ok := fr.aper.Decode(uint64(addr))
	if !ok {
		return fmt.Errorf("vx_om_export address 0x%08x is outside the OM aperture", addr)
	}
	c.OMExport(x, y, uint32(face), rt, color, depth&abi.DepthMask, 0)
	return c.Err()
}

// fragLMem maps the core's local memory for a fragment wave's machine code.
func (c *CTA) fragLMem() {
	n := int(min(c.dev.lmem, ISALocalMemMax))
	if cap(c.fragMem) < n {
		c.fragMem = make([]byte, n)
	}
	c.LMem = c.fragMem[:n]
}
