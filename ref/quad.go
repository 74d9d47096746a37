package ref

import (
	"math"
	"math/bits"

	"vortexgfx/gl/format"
)

// emitQuad interpolates a quad's inputs into the batch and flushes the
// batch when full. Only the varying words the fragment shader reads are
// interpolated (see FragmentVaryingUse), and only in covered lanes when it
// needs no helpers (FragmentHelperFree); each is computed as
// (b0*s0 + b1*s1 + b2*s2) / (1/w) (smooth) or b0*s0 + b1*s1 + b2*s2
// (noperspective) in float64 from the lane's barycentrics.
func (d *drawer) emitQuad(qx, qy int, mask uint8, bary *[4][3]float64, v [3]*wvert, front bool, id int32, pc *[4][2]float32) error {
	if mask == 0xF && d.plainInputs && d.qzFast && d.packed != nil && d.zoff == 0 {
		return d.emitFullQuad(qx, qy, bary, v, id)
	}
	z0, z1, z2, zoff := v[0].z, v[1].z, v[2].z, d.zoff
	need := uint8(0xF)
	if d.noHelpers {
		need = mask
	}
	// Window depth of every lane interpolated (a superset of the covered
	// ones), computed once for the early test and the quad.
	var zs [4]float64
	for l := range 4 {
		if need&(1<<l) != 0 {
			b := &bary[l]
			zs[l] = b[0]*z0 + b[1]*z1 + b[2]*z2 + zoff
		}
	}
	if zoff != 0 {
		// An offset depth is clamped to [0, 1] whatever the depth format
		// (a float attachment too). spec: GL 4.6 §14.6.5 (polygon offset)
		for l := range zs {
			zs[l] = min(max(zs[l], 0), 1)
		}
	}
	if d.qzFast {
		// Quantized once per lane (the packed path has no helpers, so
		// need is mask), for the early test and fragmentsPackedQZ.
		for l := range 4 {
			if mask&(1<<l) != 0 {
				d.qz[l] = format.UNorm24(float32(zs[l]))
			}
		}
		if d.early && !d.earlyPass && !d.earlyQZ(qx, qy, mask) {
			return nil
		}
	} else if d.early && !d.earlyDepth(qx, qy, mask, &zs) {
		return nil
	}
	if d.noHelpers {
		// Batches hold at most laneBatch covered lanes.
		n := bits.OnesCount8(mask)
		if d.lanes+n > laneBatch {
			if err := d.flush(); err != nil {
				return err
			}
		}
		d.lanes += n
		if d.packed != nil {
			d.packLanes(d.lanes-n, qx, qy, mask, bary, &zs, v, front, id, pc)
			d.nq++
			if d.nq == d.quadCap {
				return d.flush()
			}
			return nil
		}
	}
	q := &d.quads[d.nq]
	vw := d.vw
	q.X, q.Y = int32(qx), int32(qy)
	q.Helper = ^mask & 0xF
	q.FrontFacing = front
	q.PrimitiveID = id
	vary := d.varyBuf[d.nq*4*vw : (d.nq+1)*4*vw]
	q.Varyings = vary
	s0, s1, s2 := d.setup[0], d.setup[1], d.setup[2]
	iw0, iw1, iw2 := v[0].iw, v[1].iw, v[2].iw
	smoothW, linearW, flatW, flat := d.smoothW, d.linearW, d.flatW, d.flat
	for l := range 4 {
		if need&(1<<l) == 0 {
			continue
		}
		b0, b1, b2 := bary[l][0], bary[l][1], bary[l][2]
		z := zs[l]
		iw := b0*iw0 + b1*iw1 + b2*iw2
		q.FragCoord[l] = [4]float32{float32(qx+l&1) + 0.5, float32(qy+l>>1) + 0.5, float32(z), float32(iw)}
		out := vary[l*vw : (l+1)*vw]
		for _, k := range smoothW {
			out[k] = math.Float32bits(float32((b0*s0[k] + b1*s1[k] + b2*s2[k]) / iw))
		}
		for _, k := range linearW {
			out[k] = math.Float32bits(float32(b0*s0[k] + b1*s1[k] + b2*s2[k]))
		}
		for _, k := range flatW {
			out[k] = flat[k]
		}
		q.Depth[l] = float32(z)
	}
	if need != 0xF {
		// Helpers copy the first covered lane (FragmentHelperFree).
		src := bits.TrailingZeros8(need)
		from := vary[src*vw : (src+1)*vw]
		for l := range 4 {
			if need&(1<<l) == 0 {
				copy(vary[l*vw:(l+1)*vw], from)
				q.FragCoord[l] = q.FragCoord[src]
				q.Depth[l] = q.Depth[src]
			}
		}
	}
	if pc != nil {
		q.PointCoord = *pc
	} else {
		q.PointCoord = [4][2]float32{}
	}
	clear(q.Color[:d.outRT])
	if d.outSrc1 {
		q.Color1 = [4][4]uint32{}
	}
	q.DepthWritten = false
	q.Live = 0xF
	d.qmask[d.nq] = mask
	d.qback[d.nq] = !front
	d.qpos[d.nq] = [2]int{qx, qy}
	d.nq++
	if d.nq == d.quadCap {
		return d.flush()
	}
	return nil
}

// emitFullQuad is emitQuad for a fully covered quad on the packed path
// with quantized depths (qzFast), plain inputs (packQuad) and no depth
// offset: the same window depths, quantization, early test, batch flushes
// and packed lanes, in straight-line code over the four lanes.
func (d *drawer) emitFullQuad(qx, qy int, bary *[4][3]float64, v [3]*wvert, id int32) error {
	z0, z1, z2, zoff := v[0].z, v[1].z, v[2].z, d.zoff
	var zs [4]float64
	b0, b1, b2, b3 := &bary[0], &bary[1], &bary[2], &bary[3]
	zs[0] = b0[0]*z0 + b0[1]*z1 + b0[2]*z2 + zoff
	zs[1] = b1[0]*z0 + b1[1]*z1 + b1[2]*z2 + zoff
	zs[2] = b2[0]*z0 + b2[1]*z1 + b2[2]*z2 + zoff
	zs[3] = b3[0]*z0 + b3[1]*z1 + b3[2]*z2 + zoff
	qz := &d.qz
	qz[0], qz[1] = format.UNorm24(float32(zs[0])), format.UNorm24(float32(zs[1]))
	qz[2], qz[3] = format.UNorm24(float32(zs[2])), format.UNorm24(float32(zs[3]))
	if d.early && !d.earlyPass {
		ds, fn := d.t.DepthStencil, d.s.Depth.Func
		o, row := (qy*ds.W+qx)*4, ds.W*4
		top, bot := ds.Data[o:o+8:o+8], ds.Data[o+row:o+row+8:o+row+8]
		if !fn.TestUint(qz[0], d24(top[0:4])) && !fn.TestUint(qz[1], d24(top[4:8])) &&
			!fn.TestUint(qz[2], d24(bot[0:4])) && !fn.TestUint(qz[3], d24(bot[4:8])) {
			return nil
		}
	}
	if d.lanes+4 > laneBatch {
		if err := d.flush(); err != nil {
			return err
		}
	}
	d.lanes += 4
	if d.nq == 0 {
		d.batchPrim = id
	}
	d.packQuad(d.lanes-4, qx, qy, bary, &zs, v)
	d.nq++
	if d.nq == d.quadCap {
		return d.flush()
	}
	return nil
}

// earlyQZ is earlyDepth on the D24S8 integers emitQuad quantized into d.qz
// (qzFast: the same UNorm24 of the same unclamped window depths).
func (d *drawer) earlyQZ(qx, qy int, mask uint8) bool {
	ds, fn := d.t.DepthStencil, d.s.Depth.Func
	o := (qy*ds.W + qx) * 4
	for l := range 4 {
		if mask&(1<<l) == 0 {
			continue
		}
		p := o + (l>>1*ds.W+l&1)*4
		if fn.TestUint(d.qz[l], d24(ds.Data[p:p+4:p+4])) {
			return true
		}
	}
	return false
}

// earlyDepth reports whether a covered lane of the quad at (qx, qy) with
// window depths zs passes the depth test against the stored depth, with
// the clamp and quantization the per-fragment test applies (fragment).
// D24S8 depths are compared as their 24-bit integers (see d24).
func (d *drawer) earlyDepth(qx, qy int, mask uint8, zs *[4]float64) bool {
	ds, s := d.t.DepthStencil, d.s
	fn := s.Depth.Func
	if ds.Format == format.D24S8 && !s.Depth.Clamp {
		// The bench scene's case, without the per-lane format and clamp
		// branches: lanes 0, 1 and 2, 3 are neighbours in two rows.
		o := (qy*ds.W + qx) * 4
		for l := range 4 {
			if mask&(1<<l) == 0 {
				continue
			}
			p := o + (l>>1*ds.W+l&1)*4
			if fn.TestUint(format.UNorm24(float32(zs[l])), d24(ds.Data[p:p+4:p+4])) {
				return true
			}
		}
		return false
	}
	for l := range 4 {
		if mask&(1<<l) == 0 {
			continue
		}
		z := float32(zs[l])
		if s.Depth.Clamp {
			lo, hi := min(s.Viewport.MinDepth, s.Viewport.MaxDepth), max(s.Viewport.MinDepth, s.Viewport.MaxDepth)
			z = min(max(z, lo), hi)
		}
		buf := ds.Data[((qy+l>>1)*ds.W+qx+l&1)*d.dsBytes:]
		if ds.Format == format.D24S8 {
			if fn.TestUint(format.UNorm24(z), d24(buf)) {
				return true
			}
		} else if fn.Test(format.QuantizeDepth(ds.Format, z), format.UnpackDepth(ds.Format, buf)) {
			return true
		}
	}
	return false
}
