package ref

import (
	"encoding/binary"
	"fmt"
	"math"

	"vortexgfx/gl/format"
	"vortexgfx/gl/stencil"
)

// flush shades the batched quads and runs the per-fragment operations on
// their covered, live lanes in submission order.
func (d *drawer) flush() error {
	if d.nq == 0 {
		return nil
	}
	if err := d.ctx.Err(); err != nil {
		return err
	}
	if d.packed != nil {
		n := d.lanes
		d.nq, d.lanes = 0, 0
		return d.flushPacked(n)
	}
	quads := d.quads[:d.nq]
	d.nq, d.lanes = 0, 0
	if d.fetchFS != nil {
		d.loadDestination(quads)
	}
	if d.fs != nil {
		if err := d.fs.ShadeQuads(quads, d.tex); err != nil {
			return fmt.Errorf("ref: fragment shader, primitive %d: %w", quads[0].PrimitiveID, err)
		}
	}
	if d.fastOps {
		d.fragmentsRGBA8(quads)
		return nil
	}
	for i := range quads {
		q := &quads[i]
		live := d.qmask[i] & q.Live
		for l := range 4 {
			if live&(1<<l) != 0 {
				d.fragment(q, l, d.qpos[i][0]+l&1, d.qpos[i][1]+l>>1, d.qback[i])
			}
		}
	}
	return nil
}

// fragment runs the per-fragment operations for lane l of q in GL order:
// (ownership and scissor are part of coverage) alpha test, depth bounds,
// stencil, depth, then blending or logic op, write masks and stores for
// every render target.
// spec: software-shader-backend "Persistent depth semantics" (the depth
// test honours its enable), "Production color packing" (clamped stores).
func (d *drawer) fragment(q *Quad, l, x, y int, back bool) {
	s := d.s
	if s.AlphaTest && len(d.t.Color) > 0 && !d.t.Color[0].Format.IsInteger() {
		if !s.AlphaFunc.Test(math.Float32frombits(q.Color[0][l][3]), s.AlphaRef) {
			return
		}
	}
	if ds := d.t.DepthStencil; ds != nil {
		buf := ds.Data[(y*ds.W+x)*d.dsBytes:]
		f := ds.Format
		hasDepth, hasStencil := d.dsDepth, d.dsStencil
		z := q.Depth[l]
		if s.Depth.Clamp {
			lo, hi := min(s.Viewport.MinDepth, s.Viewport.MaxDepth), max(s.Viewport.MinDepth, s.Viewport.MaxDepth)
			z = min(max(z, lo), hi)
		}
		if hasDepth && s.Depth.BoundsTest {
			if st := format.UnpackDepth(f, buf); st < s.Depth.BoundsMin || st > s.Depth.BoundsMax {
				return
			}
		}
		doStencil := s.StencilTest && hasStencil
		sf := &s.StencilFront
		if back {
			sf = &s.StencilBack
		}
		var sv uint8
		if doStencil {
			sv = format.UnpackStencil(f, buf)
			if !sf.Func.TestUint(uint32(sf.Ref&sf.ReadMask), uint32(sv&sf.ReadMask)) {
				format.PackStencil(f, buf, stencilUpdate(sf.Fail, sv, sf))
				return
			}
		}
		pass := true
		if s.Depth.Test && hasDepth {
			if f == format.D24S8 {
				pass = s.Depth.Func.TestUint(format.UNorm24(z), d24(buf))
			} else {
				pass = s.Depth.Func.Test(format.QuantizeDepth(f, z), format.UnpackDepth(f, buf))
			}
		}
		if doStencil {
			op := sf.Pass
			if !pass {
				op = sf.DepthFail
			}
			format.PackStencil(f, buf, stencilUpdate(op, sv, sf))
		}
		if !pass {
			return
		}
		if s.Depth.Test && s.Depth.Write && hasDepth {
			if f == format.D24S8 {
				format.PackDepthD24S8(buf, z)
			} else {
				format.PackDepth(f, buf, z)
			}
		}
	}
	if d.fs == nil {
		return
	}
	for i, surf := range d.t.Color {
		bs := &s.Blend[i]
		if bs.WriteMask&0xF == 0 {
			continue
		}
		d.writeColor(surf, bs, q, i, l, x, y)
	}
}

// d24 returns the 24-bit depth of a D24S8 texel. Testing UNorm24 of the
// fragment's depth against it is the same test as comparing the quantized
// floats (QuantizeDepthD24S8 against UnpackDepthD24S8): q -> float32(q /
// (2^24-1)) is strictly increasing over the 24-bit integers (checked by
// TestD24Monotonic), so every comparison function gives the same answer.
func d24(buf []byte) uint32 { return binary.LittleEndian.Uint32(buf) >> 8 }

// fastFragmentOps reports whether the per-fragment operations reduce to
// fragmentsRGBA8: one RGBA8 colour attachment written whole without
// blending or a logic op, no alpha, stencil or depth bounds test, and
// either no depth/stencil attachment or a D24S8 one.
func fastFragmentOps(t *Target, s *State) bool {
	if s.Fragment == nil || s.AlphaTest || s.LogicOpEnable || len(t.Color) != 1 || t.Color[0].Format != format.RGBA8 ||
		s.Blend[0].Enable || s.Blend[0].WriteMask&0xF != 0xF {
		return false
	}
	ds := t.DepthStencil
	return ds == nil || (ds.Format == format.D24S8 && !s.StencilTest && !s.Depth.BoundsTest)
}

// fragmentsRGBA8 is fragment for every covered, live lane of quads when
// fastFragmentOps holds: the depth test on the 24-bit integers (see d24)
// with the same clamp, the depth write keeping the stencil byte, and the
// colour stored with UNorm8, as fragment, writeColor and writeRGBA8 do.
// spec: software-shader-backend "Persistent depth semantics",
// "Production color packing".
func (d *drawer) fragmentsRGBA8(quads []Quad) {
	s := d.s
	cs, ds := d.t.Color[0], d.t.DepthStencil
	test := ds != nil && s.Depth.Test
	write := test && s.Depth.Write
	fn, clamp := s.Depth.Func, s.Depth.Clamp
	lo, hi := min(s.Viewport.MinDepth, s.Viewport.MaxDepth), max(s.Viewport.MinDepth, s.Viewport.MaxDepth)
	for i := range quads {
		q := &quads[i]
		live := d.qmask[i] & q.Live
		for l := range 4 {
			if live&(1<<l) == 0 {
				continue
			}
			o := ((d.qpos[i][1]+l>>1)*cs.W + d.qpos[i][0] + l&1) * 4
			if test {
				z := q.Depth[l]
				if clamp {
					z = min(max(z, lo), hi)
				}
				buf := ds.Data[o : o+4 : o+4]
				w := binary.LittleEndian.Uint32(buf)
				qz := format.UNorm24(z)
				if !fn.TestUint(qz, w>>8) {
					continue
				}
				if write {
					binary.LittleEndian.PutUint32(buf, qz<<8|w&0xFF)
				}
			}
			c := &q.Color[0][l]
			px := cs.Data[o : o+4 : o+4]
			px[0] = byte(format.UNorm8(math.Float32frombits(c[0])))
			px[1] = byte(format.UNorm8(math.Float32frombits(c[1])))
			px[2] = byte(format.UNorm8(math.Float32frombits(c[2])))
			px[3] = byte(format.UNorm8(math.Float32frombits(c[3])))
		}
	}
}

// stencilUpdate applies op to v and merges the result under the write mask.
func stencilUpdate(op stencil.Op, v uint8, f *StencilFace) uint8 {
	return v&^f.WriteMask | op.Apply(f.Ref, v)&f.WriteMask
}

func (d *drawer) writeColor(surf *Surface, bs *BlendState, q *Quad, rt, l, x, y int) {
	f := surf.Format
	if f == format.RGBA8 && !d.s.LogicOpEnable {
		d.writeRGBA8(surf, bs, q, rt, l, x, y)
		return
	}
	buf := surf.Data[surf.offset(x, y):]
	dst := format.Unpack(f, buf)
	cm := format.ComponentMask(f)
	var res format.Raw
	in := f.Info()
	switch {
	case f.IsInteger():
		res = format.FromInt(f, q.Color[rt][l])
		if d.s.LogicOpEnable {
			for c := range 4 {
				res[c] = d.s.LogicOp.Apply(res[c], dst[c]) & cm
			}
		}
	case d.s.LogicOpEnable && in.Kind == format.KindUNorm && !in.SRGB:
		res = format.FromFloat(f, q.ColorFloat(rt, l))
		for c := range 4 {
			res[c] = d.s.LogicOp.Apply(res[c], dst[c]) & cm
		}
	case bs.Enable:
		src, src1 := q.ColorFloat(rt, l), floats(q.Color1[l])
		res = format.FromFloat(f, bs.fn().Float(in.Kind, src, src1, format.ToFloat(f, dst), d.s.BlendConstant))
	default:
		res = format.FromFloat(f, q.ColorFloat(rt, l))
	}
	for c := range 4 {
		if bs.WriteMask&(1<<c) == 0 {
			res[c] = dst[c]
		}
	}
	format.Pack(f, buf, res)
}

// writeRGBA8 is writeColor for an RGBA8 target without a logic op: the
// same blend, conversion and write mask through format's RGBA8 fast paths.
func (d *drawer) writeRGBA8(surf *Surface, bs *BlendState, q *Quad, rt, l, x, y int) {
	o := (y*surf.W + x) * 4
	buf := surf.Data[o : o+4 : o+4]
	dst := format.UnpackRGBA8(buf)
	var res format.Raw
	if bs.Enable {
		res = format.FromFloatRGBA8(bs.fn().Float(format.KindUNorm, q.ColorFloat(rt, l), floats(q.Color1[l]), format.ToFloatRGBA8(dst), d.s.BlendConstant))
	} else {
		res = format.FromFloatRGBA8(q.ColorFloat(rt, l))
	}
	for c := range 4 {
		if bs.WriteMask&(1<<c) == 0 {
			res[c] = dst[c]
		}
	}
	format.PackRGBA8(buf, res)
}

func floats(w [4]uint32) [4]float32 {
	var c [4]float32
	for i, v := range w {
		c[i] = math.Float32frombits(v)
	}
	return c
}
