package device

import (
	"errors"
	"fmt"
	"math/bits"

	"vortexgfx/abi"
	"vortexgfx/device/om"
	"vortexgfx/device/tex"
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
	cc := &fr.cores[c.slot]
	cc.texReads++
	texel := s.SampleTaps(u, v, lod, &cc.taps)
	r := &cc.rec
	r.lines = cc.taps.Lines(fr.texLine, r.lines[:0])
	r.addTex(c, fr.binLog, r.lines)
	return texel
}

// TexLines is vx_tex's sampling without its counting and recording, for a
// staged wave's batched run (graphics_batch.go): the texel Tex returns and,
// appended to lines, the cache lines the request reads. ok is false where
// Tex would fault; nothing is recorded on c either way. TexRecord, on the
// wave's own CTA, then counts and records the request as Tex does.
// spec: vortex-hardware-facts §4, §7
func (c *CTA) TexLines(stage int, u, v int32, lod uint32, lines []uint64) (texel uint32, out []uint64, ok bool) {
	fr := c.dev.gfx.frame.Load()
	if fr == nil || stage < 0 || stage >= abi.TexNumStages || fr.tex[stage] == nil {
		return 0, lines, false
	}
	var taps tex.Taps
	texel = fr.tex[stage].SampleTaps(u, v, lod, &taps)
	return texel, taps.Lines(fr.texLine, lines), true
}

// TexRecord is the rest of Tex for a request TexLines sampled: the core's
// TEX READS and the request's lines in the wave's record. Outside a frame
// kick it records a fault on the CTA.
func (c *CTA) TexRecord(lines []uint64) {
	fr := c.dev.gfx.frame.Load()
	if fr == nil {
		c.Fail(errors.New("vx_tex outside a fragment frame"))
		return
	}
	cc := &fr.cores[c.slot]
	cc.texReads++
	cc.rec.addTex(c, fr.binLog, lines)
}

// OMExport is vx_om_export: it hands one fragment (pixel x, y; face 1 when back
// facing; render target rt; A8R8G8B8 colour; 24-bit depth) to the OM, which runs
// the depth/stencil tests, blends and writes with the latched OM state of rt. It
// reports whether the fragment passed. flags is reserved and must be 0. A lane
// whose pixel is not covered must not export (rasterizer §11).
// spec: vortex-hardware-facts §5, §6; vortexpipe §3.4
func (c *CTA) OMExport(x, y int, face uint32, rt int, color, depth, flags uint32) bool {
	if flags != 0 {
		c.Fail(fmt.Errorf("vx_om_export: reserved flags 0x%x", flags))
		return false
	}
	fr, u := c.omTarget(rt)
	if u == nil {
		return false
	}
	cc := &fr.cores[c.slot]
	cc.omReads++
	pass := u.ExportAccess(x, y, face, color, depth, &cc.acc)
	if pass {
		cc.omWrites++
	}
	a := &cc.acc
	f := b2u(a.ZRead) | b2u(a.CRead)<<1 | b2u(a.ZWrite)<<2 | b2u(a.CWrite)<<3
	if f != 0 {
		cc.rec.addOM(c, fr.binLog, f, a.ZAddr>>fr.omLine, a.CAddr>>fr.omLine)
	}
	return pass
}

// omTarget returns the current frame and render target rt's OM unit, or
// records the fault on the CTA and returns a nil unit: outside a frame kick,
// rt out of range, or a target the frame could not bind.
func (c *CTA) omTarget(rt int) (*gfxFrame, *om.Unit) {
	fr := c.dev.gfx.frame.Load()
	if fr == nil || rt < 0 || rt >= abi.OMMaxRT {
		c.Fail(fmt.Errorf("vx_om_export rt %d outside a fragment frame", rt))
		return nil, nil
	}
	u := fr.om[rt]
	if u == nil {
		c.Fail(fmt.Errorf("vx_om_export: %w", fr.omErr[rt]))
	}
	return fr, u
}

// OMExportLanes is OMExport(x[l], y[l], face[l], rt, color[l], depth[l], 0)
// for each lane l of lanes in ascending order — the same tests, writes,
// counters and recorded traffic, in the same order — with the frame, the
// target's unit and the core's record looked up once for the wave rather
// than once per fragment. It returns the lanes that passed. A lane past the
// end of any of the arrays faults the CTA before anything is exported.
// spec: vortex-hardware-facts §5, §6; vortexpipe §3.4
func (c *CTA) OMExportLanes(rt int, lanes uint64, x, y []int32, face, color, depth []uint32) (passed uint64) {
	if lanes == 0 {
		return 0
	}
	if hi, n := 64-bits.LeadingZeros64(lanes), min(len(x), len(y), len(face), len(color), len(depth)); hi > n {
		c.Fail(fmt.Errorf("vx_om_export: lane %d past the wave's %d-lane arrays", hi-1, n))
		return 0
	}
	fr, u := c.omTarget(rt)
	if u == nil {
		return 0
	}
	cc := &fr.cores[c.slot]
	a, r := &cc.acc, &cc.rec
	var sg *waveSeg  // the wave's record segment, opened by its first traffic (as addOM does)
	general := lanes // the lanes the general loop exports
	if u.DepthColor() {
		// The commonest OM state (om.Unit.ExportDepthColor): the traffic
		// comes back as the record's flag bits (om.Traffic*).
		for m := lanes; m != 0; m &= m - 1 {
			l := bits.TrailingZeros64(m)
			f, za, ca := u.ExportDepthColor(int(x[l]), int(y[l]), color[l], depth[l])
			if f == 0 {
				continue // outside the framebuffer: dropped, no traffic
			}
			passed |= uint64(f/om.TrafficCWrite&1) << l // its colour written: it passed
			if sg == nil {
				sg = r.seg(c, fr.binLog)
			}
			r.om.add(uint64(f)<<56 | za>>fr.omLine&opLineMask)
			r.om.add(ca >> fr.omLine)
		}
		general = 0
	}
	for m := general; m != 0; m &= m - 1 {
		l := bits.TrailingZeros64(m)
		if u.ExportAccess(int(x[l]), int(y[l]), face[l], color[l], depth[l], a) {
			passed |= 1 << l
		}
		f := b2u(a.ZRead) | b2u(a.CRead)<<1 | b2u(a.ZWrite)<<2 | b2u(a.CWrite)<<3
		if f != 0 {
			if sg == nil {
				sg = r.seg(c, fr.binLog)
			}
			r.om.add(f<<56 | a.ZAddr>>fr.omLine&opLineMask)
			r.om.add(a.CAddr >> fr.omLine)
		}
	}
	if sg != nil {
		sg.om1 = r.om.n
	}
	// READS and WRITES, added once for the wave (nothing reads them during
	// the loop).
	cc.omReads += uint64(bits.OnesCount64(lanes))
	cc.omWrites += uint64(bits.OnesCount64(passed))
	return passed
}

// OMStore is the aperture-store form of vx_om_export: a store of one record p at
// an OM aperture address, which the OM turns back into a fragment. The address
// decodes with the latched APERTURE_XBITS/YBITS/RECORD_SHIFT registers into
// (rt, face, x, y) (abi.Aperture). RECORD_SHIFT 3 records are the colour word
// then the depth word; RECORD_SHIFT 2 records are one word, the depth when
// APERTURE_DEPTH_ONLY is set (colour writes must then be masked off), else the
// colour (the draw must not test depth: the record carries none). A store that
// is not one whole aligned record inside the aperture faults the CTA. It reports
// whether the fragment passed. spec: vortexpipe §3.3, §3.4; abi aperture
func (c *CTA) OMStore(addr uint64, p []byte) bool {
	fr := c.dev.gfx.frame.Load()
	if fr == nil {
		c.Fail(fmt.Errorf("OM aperture store at 0x%x outside a fragment frame", addr))
		return false
	}
	rs := uint(fr.aper.RecordShift)
	if rs != abi.RecordShiftColorZ && rs != abi.RecordShiftOneWord {
		c.Fail(fmt.Errorf("OM aperture store at 0x%x: APERTURE_RECORD_SHIFT %d is not 2 or 3", addr, rs))
		return false
	}
	rt, face, x, y, ok := fr.aper.Decode(addr)
	if !ok || addr&(1<<rs-1) != 0 || len(p) != 1<<rs {
		c.Fail(fmt.Errorf("OM aperture store of %d bytes at 0x%x: not one aligned %d-byte record in the aperture", len(p), addr, 1<<rs))
		return false
	}
	var color, depth uint32
	w0 := uint32(p[0]) | uint32(p[1])<<8 | uint32(p[2])<<16 | uint32(p[3])<<24
	switch {
	case rs == abi.RecordShiftColorZ:
		color = w0
		depth = uint32(p[4]) | uint32(p[5])<<8 | uint32(p[6])<<16 | uint32(p[7])<<24
	case fr.depthOnly:
		depth = w0
	default:
		color = w0
	}
	return c.OMExport(x, y, uint32(face), rt, color, depth&abi.DepthMask, 0)
}

// b2u is 1 for true, 0 for false.
func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}
