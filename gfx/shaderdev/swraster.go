package shaderdev

import (
	"fmt"

	"vortexgfx/abi"
	"vortexgfx/device"
	"vortexgfx/device/swom"
	"vortexgfx/gfx/frontend"
	"vortexgfx/gl/format"
	"vortexgfx/gl/msaa"
	"vortexgfx/shader/exec"
)

// swQuad is one quad the software tile walk produced: its position in quads,
// the primitive and each pixel's sample mask.
type swQuad struct {
	qx, qy int32
	pid    uint32
	cov    [4]msaa.Mask
	smp    int8 // the sample the quad shades per sample (-1: per pixel)
}

// swWalk is one CTA's software tile walk: the wave being packed.
type swWalk struct {
	s     *fsScratch
	sp    *Program
	quads []swQuad
	max   int
}

// swRaster is the wrapper's software raster route (gfx_rast_walk_tile_sw and
// gfx_rast_walk_tile_msaa_sw, vortexpipe §3.4.1): launched as a compute grid,
// CTA b walks bin headers b, b + grid, … — a bin is walked by one CTA, so a
// pixel's fragments merge in submission order — and for each primitive of a
// bin's pid list (in list order) tests every pixel of the bin ∩ the
// primitive's bounding box against the three Q15.16 edges with the FF
// top-left rule, at the pixel centre with one sample, or at each position of
// the standard pattern of S = 2, 4, 8 or 16 samples (gl/msaa; with four the
// spec's fixed rotated grid, abi.MSAA4Sample): E·16 + A·(sx−8) + B·(sy−8) in
// 64 bits — or, for a line draw's pid, single-sampled, against
// the reference renderer's exact edge functions (lineCover). Covered quads pack into waves of the warp width
// (a same-quad collision flushes first, as RASTER's packer does); each wave is
// shaded once per pixel — or, when the draw shades per sample
// (abi.FSFlagPerSample), once per covered sample (emitQuad, sample.go) — and
// merged per covered sample.
func (sp *Program) swRaster(c *device.CTA, env *devEnv) error {
	tiles, ntiles, boxes := c.Arg(abi.ArgFSTiles), c.Arg(abi.ArgFSTileCount), c.Arg(abi.ArgFSBoxes)
	geo, prims := c.Arg(abi.ArgFSGeometry), c.Arg(abi.ArgFSPrimBuffer)
	if err := c.Err(); err != nil {
		return err
	}
	g := abi.UnpackFSGeometry(geo)
	W, H, S, binLog := int32(g.Width), int32(g.Height), g.Samples, g.BinLog
	if W <= 0 || H <= 0 || !msaa.Valid(S) || binLog < 1 || binLog > 15 || ntiles > 1<<24 {
		return fmt.Errorf("%s: software raster geometry %dx%d, %d samples, bin log %d, %d tiles", sp.fsName(), W, H, S, binLog, ntiles)
	}
	n := min(max(c.WarpWidth&^3, 4), exec.MaxWidth)
	s, err := sp.fsScratch(c.Runner(), n)
	if err != nil {
		return err
	}
	defer sp.release(s, c.Runner(), n)
	if err := s.begin(sp, c, env); err != nil {
		return err
	}
	defer s.end()
	w := &swWalk{s: s, sp: sp, quads: make([]swQuad, 0, n/4), max: n / 4} // once per CTA
	// The sample offsets from the pixel centre, in 1/16 px.
	var off [msaa.MaxSamples][2]int64
	for k := 0; k < S; k++ {
		sx, sy := msaa.Position(S, k)
		off[k] = [2]int64{int64(sx - 8), int64(sy - 8)}
	}
	// A line draw's exact coverage per pid (linecover.go), 0 otherwise.
	lines := c.Arg(abi.ArgFSLineCover)
	var lc lineCover
	pidsBase := abi.PidsBase(tiles, int(ntiles))
	var hb [abi.BinHeaderBytes]byte
	var eb [12 * 4]byte
	for h := uint64(c.BlockIdx[0]); h < ntiles && c.Err() == nil; h += uint64(c.GridDim[0]) {
		c.Read(tiles+h*abi.BinHeaderBytes, hb[:])
		hd := abi.DecodeBinHeader(hb[:])
		if hd.PidsCount == 0 {
			continue
		}
		if hd.PidsCount > abi.MaxPrimsPerPass {
			return fmt.Errorf("%s: bin (%d, %d): pid count %d", sp.fsName(), hd.BinX, hd.BinY, hd.PidsCount)
		}
		bx0, by0 := int32(hd.BinX)<<binLog, int32(hd.BinY)<<binLog
		bx1, by1 := min(bx0+1<<binLog, W), min(by0+1<<binLog, H)
		for i := uint32(0); i < hd.PidsCount && c.Err() == nil; i++ {
			pid := c.ReadU32(pidsBase+4*uint64(hd.PidsOffset+i)) & (abi.MaxPrimsPerPass - 1)
			bb := frontend.ReadBBox(c, boxes+uint64(pid)*frontend.BBoxBytes)
			c.Read(prims+uint64(pid)*abi.PrimBytes, eb[:])
			var a, b, e0 [3]int32
			var tl [3]bool
			for k := 0; k < 3; k++ {
				a[k], b[k], e0[k] = word(eb[:], 3*k), word(eb[:], 3*k+1), word(eb[:], 3*k+2)
				tl[k] = a[k] > 0 || (a[k] == 0 && b[k] > 0)
			}
			exact := lines != 0 && S == 1 && lc.load(c, lines, pid)
			x0, y0 := max(bx0, int32(bb.L))&^1, max(by0, int32(bb.T))&^1
			x1, y1 := min(bx1, int32(bb.R)), min(by1, int32(bb.B))
			for py := y0; py < y1; py += 2 {
				qx0, qx1 := x0, x1
				if exact {
					qx0, qx1 = lc.quadSpan(py, x0, x1)
				}
				for px := qx0; px < qx1; px += 2 {
					q := swQuad{qx: px >> 1, qy: py >> 1, pid: pid, smp: -1}
					any := false
					for p := int32(0); p < 4; p++ {
						X, Y := px+p&1, py+p>>1
						if X >= x1 || Y >= y1 || X < bx0 || Y < by0 || X < int32(bb.L) || Y < int32(bb.T) {
							// Outside the bin or the box: the quad
							// starts on the even pixel at or before the
							// box, and the box is setup_k's clamp to the
							// draw's clip rectangle (scissor, viewport),
							// which pixels before it must not pass.
							// spec: rasterizer.md §4 (RASTER_SCISSOR_X/Y)
							continue
						}
						if exact {
							if lc.covers(X, Y) {
								q.cov[p], any = 1, true
							}
							continue
						}
						var m msaa.Mask
						for k := 0; k < S; k++ {
							inside := true
							for e := 0; e < 3 && inside; e++ {
								v := a[e]*X + b[e]*Y + e0[e] // 32-bit wrap, as RASTER
								if S == 1 {
									inside = v > 0 || (v == 0 && tl[e])
									continue
								}
								v64 := int64(v)*16 + int64(a[e])*off[k][0] + int64(b[e])*off[k][1]
								inside = v64 > 0 || (v64 == 0 && tl[e])
							}
							if inside {
								m |= 1 << k
							}
						}
						q.cov[p] = m
						any = any || m != 0
					}
					if any {
						if err := w.emitQuad(q, S); err != nil {
							return err
						}
					}
				}
			}
		}
	}
	return w.flush()
}

// emit appends a covered quad to the wave, flushing first on a same-quad
// collision (the same pixels, and the same sample or a whole pixel: two
// samples of one pixel merge into different texels) and after when the wave
// is full.
func (w *swWalk) emit(q swQuad) error {
	for _, b := range w.quads {
		if b.qx == q.qx && b.qy == q.qy && (b.smp < 0 || q.smp < 0 || b.smp == q.smp) {
			if err := w.flush(); err != nil {
				return err
			}
			break
		}
	}
	w.quads = append(w.quads, q)
	if len(w.quads) == w.max {
		return w.flush()
	}
	return nil
}

// flush shades the packed quads as one wave.
func (w *swWalk) flush() error {
	if len(w.quads) == 0 {
		return nil
	}
	s := w.s
	var present, covered uint64
	for qi, q := range w.quads {
		for p := 0; p < 4; p++ {
			l := 4*qi + p
			s.x[l], s.y[l], s.pidL[l], s.cov[l], s.smp[l] = 2*q.qx+int32(p&1), 2*q.qy+int32(p>>1), q.pid, q.cov[p], q.smp
			if q.cov[p] != 0 {
				covered |= 1 << l
			}
		}
		present |= 0xF << (4 * qi)
	}
	s.ctr[abi.FSCounterQuads] += uint32(len(w.quads))
	s.ctr[abi.FSCounterWaves]++
	w.quads = w.quads[:0]
	return s.shade(w.sp, present, covered)
}

// resolveKernel is msaa_resolve_k, over its argument block {sample-major
// plane, resolved plane, pixels, samples, gl/format colour format} (a
// cores = "isa" launch adds slot fecode.ResolveDescSlot, which it ignores):
// grid-strided over pixels, it box-filters
// each pixel's samples into the separate single-sample plane (decode,
// average, encode: swom.Resolve). spec: vortexpipe §3.4.1
func resolveKernel(c *device.CTA) error {
	src, dst, n, S, f := c.Arg(0), c.Arg(1), c.Arg(2), c.Arg(3), format.Format(c.Arg(4))
	if err := c.Err(); err != nil {
		return err
	}
	if !f.IsColor() || !msaa.Valid(int(S)) || n > 1<<26 {
		return fmt.Errorf("msaa_resolve_k: %d pixels of %d samples in format %d", n, S, f)
	}
	bpp := uint64(f.Info().Bytes)
	in := make([]byte, S*bpp) // once per CTA
	out := make([]byte, bpp)
	frontend.GridStride(c, n, func(i uint64) {
		c.Read(src+i*S*bpp, in)
		swom.Resolve(f, in, int(S), out)
		c.Write(dst+i*bpp, out)
	})
	return c.Err()
}
