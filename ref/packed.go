package ref

import (
	"encoding/binary"
	"fmt"
	"math"

	"vortexgfx/gl/format"
)

// PackedLanes are the lane arrays of a FragmentPacked shader: the structure
// of arrays its warp reads and writes, lane j of a call being the j-th
// covered lane the renderer packed. Inputs are written by the renderer for
// lanes 0..n-1 before ShadePacked; a nil input is one the shader does not
// read (and the renderer does not compute). Outputs are read after it.
// Every slice holds at least Width lanes; the arrays stay the same for the
// shader's life.
type PackedLanes struct {
	Width int // lanes per call; the renderer packs only when it is at least 64
	// Varyings[w] is varying word w's lanes (interpolated float bits, or
	// the provoking vertex's word for flat inputs); words past the slice
	// are not read.
	Varyings    [][]uint32
	FragCoord   [4][]uint32 // gl_FragCoord: x+0.5, y+0.5, window z, 1/w_clip as float bits
	FrontFacing []uint32    // 1 for a front-facing primitive, else 0
	PointCoord  [2][]uint32 // gl_PointCoord as float bits (points only, else 0)
	// Color[rt][c] is component c of render target rt's colour; targets
	// past the slice are not written (their colour is zero).
	Color [][4][]uint32
	// Depth is gl_FragDepth's float bits, nil when the shader does not
	// write depth (the interpolated window z is kept).
	Depth []uint32
}

// FragmentPacked is implemented by fragment shaders that shade packed
// covered lanes directly, without quads: with HelpersUnused true (so no lane
// reads another) the renderer writes each covered lane's inputs straight
// into the shader's lane arrays and reads its outputs from them, in the same
// batches and submission order as ShadeQuads would get them, so the output
// is identical with no quads built and no lanes gathered or scattered.
// Packed returns the arrays, or nil when the shader cannot shade packed;
// ShadePacked shades lanes 0..n-1 (n at most Width) and returns their live
// mask (bit j clear: lane j discarded). Clones made by FragmentCloner must
// answer the same with their own arrays.
// spec: vortexpipe-driver §5.2 (the oracle's output must not change).
type FragmentPacked interface {
	FragmentHelperFree
	Packed() *PackedLanes
	ShadePacked(n int, tex Textures) (uint64, error)
}

// setPacked selects the packed path for d's fragment shader: a FragmentPacked
// shader without helpers, lanes arrays of at least laneBatch lanes, and the
// per-fragment operations of fragmentsRGBA8 (the only ones the packed path
// runs). Called again for each worker's clone.
func (d *drawer) setPacked() {
	d.packed, d.pfs = nil, nil
	p, ok := d.fs.(FragmentPacked)
	if !ok || !d.noHelpers || !d.fastOps || !p.HelpersUnused() {
		return
	}
	if pl := p.Packed(); pl != nil && pl.Width >= laneBatch {
		d.packed, d.pfs = pl, p
		d.laneOff = make([]int32, laneBatch)
		d.laneZ = make([]float32, laneBatch)
	}
}

// packLanes is emitQuad's interpolation for the packed path: the covered
// lanes of mask, in lane order, become packed lanes j0, j0+1, ... with the
// inputs emitQuad would give them (the same arithmetic), their pixel offset
// and window depth kept for fragmentsPacked.
func (d *drawer) packLanes(j0, qx, qy int, mask uint8, bary *[4][3]float64, zs *[4]float64, v [3]*wvert, front bool, id int32, pc *[4][2]float32) {
	pl := d.packed
	if d.nq == 0 {
		d.batchPrim = id
	}
	s0, s1, s2 := d.setup[0], d.setup[1], d.setup[2]
	iw0, iw1, iw2 := v[0].iw, v[1].iw, v[2].iw
	vary := pl.Varyings
	j := j0
	for l := range 4 {
		if mask&(1<<l) == 0 {
			continue
		}
		b0, b1, b2 := bary[l][0], bary[l][1], bary[l][2]
		z := zs[l]
		iw := b0*iw0 + b1*iw1 + b2*iw2
		px, py := qx+l&1, qy+l>>1
		if pl.FragCoord[0] != nil {
			pl.FragCoord[0][j] = math.Float32bits(float32(px) + 0.5)
			pl.FragCoord[1][j] = math.Float32bits(float32(py) + 0.5)
			pl.FragCoord[2][j] = math.Float32bits(float32(z))
			pl.FragCoord[3][j] = math.Float32bits(float32(iw))
		}
		for _, k := range d.smoothW {
			if k < len(vary) && vary[k] != nil {
				vary[k][j] = math.Float32bits(float32((b0*s0[k] + b1*s1[k] + b2*s2[k]) / iw))
			}
		}
		for _, k := range d.linearW {
			if k < len(vary) && vary[k] != nil {
				vary[k][j] = math.Float32bits(float32(b0*s0[k] + b1*s1[k] + b2*s2[k]))
			}
		}
		for _, k := range d.flatW {
			if k < len(vary) && vary[k] != nil {
				vary[k][j] = d.flat[k]
			}
		}
		if pl.FrontFacing != nil {
			pl.FrontFacing[j] = 0
			if front {
				pl.FrontFacing[j] = 1
			}
		}
		if pl.PointCoord[0] != nil {
			var c [2]float32
			if pc != nil {
				c = pc[l]
			}
			pl.PointCoord[0][j], pl.PointCoord[1][j] = math.Float32bits(c[0]), math.Float32bits(c[1])
		}
		d.laneOff[j] = int32((py*d.t.W + px) * 4)
		d.laneZ[j] = float32(z)
		j++
	}
}

// flushPacked shades the n packed lanes of the batch and runs their
// per-fragment operations.
func (d *drawer) flushPacked(n int) error {
	live, err := d.pfs.ShadePacked(n, d.tex)
	if err != nil {
		return fmt.Errorf("ref: fragment shader, primitive %d: %w", d.batchPrim, err)
	}
	d.fragmentsPacked(n, live)
	return nil
}

// fragmentsPacked is fragmentsRGBA8 for the packed lanes 0..n-1 that live
// keeps, in submission order: the same depth test and write on the 24-bit
// integers and the same colour conversion, the colour and (when the shader
// writes it) the depth read from the shader's output lanes.
// spec: software-shader-backend "Persistent depth semantics",
// "Production color packing".
func (d *drawer) fragmentsPacked(n int, live uint64) {
	s, pl := d.s, d.packed
	cs, ds := d.t.Color[0], d.t.DepthStencil
	test := ds != nil && s.Depth.Test
	write := test && s.Depth.Write
	fn, clamp := s.Depth.Func, s.Depth.Clamp
	lo, hi := min(s.Viewport.MinDepth, s.Viewport.MaxDepth), max(s.Viewport.MinDepth, s.Viewport.MaxDepth)
	var col [4][]uint32
	if len(pl.Color) > 0 {
		col = pl.Color[0]
	}
	offs, zs := d.laneOff[:n], d.laneZ[:n]
	for j, o32 := range offs {
		if live&(1<<j) == 0 {
			continue
		}
		o := int(o32)
		if test {
			z := zs[j]
			if pl.Depth != nil {
				z = math.Float32frombits(pl.Depth[j])
			}
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
		px := cs.Data[o : o+4 : o+4]
		if col[0] == nil {
			px[0], px[1], px[2], px[3] = 0, 0, 0, 0
			continue
		}
		px[0] = byte(format.UNorm8(math.Float32frombits(col[0][j])))
		px[1] = byte(format.UNorm8(math.Float32frombits(col[1][j])))
		px[2] = byte(format.UNorm8(math.Float32frombits(col[2][j])))
		px[3] = byte(format.UNorm8(math.Float32frombits(col[3][j])))
	}
}
