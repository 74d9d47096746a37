package ref

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"unsafe"

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
	d.pSmooth, d.pLinear, d.pFlat = nil, nil, nil
	d.qzFast, d.laneQZ, d.plainInputs = false, nil, false
	p, ok := d.fs.(FragmentPacked)
	if !ok || !d.noHelpers || !d.fastOps || !p.HelpersUnused() || d.fetchFS != nil {
		return
	}
	if pl := p.Packed(); pl != nil && pl.Width >= laneBatch {
		d.packed, d.pfs = pl, p
		d.laneOff = make([]int32, laneBatch)
		d.laneZ = make([]float32, laneBatch)
		ds := d.t.DepthStencil
		d.qzFast = ds != nil && ds.Format == format.D24S8 && d.s.Depth.Test && !d.s.Depth.Clamp && pl.Depth == nil
		if d.qzFast {
			d.laneQZ = make([]uint32, laneBatch)
			d.laneZero = make([]uint32, laneBatch)
			d.laneRGBA = make([]uint32, laneBatch)
		}
		d.plainInputs = pl.FragCoord[0] == nil && pl.FrontFacing == nil && pl.PointCoord[0] == nil
		d.pSmooth = packWords(pl, d.smoothW)
		d.smoothPtr, d.smoothTerms = nil, make([]float64, 3*len(d.pSmooth))
		for _, w := range d.pSmooth {
			d.smoothPtr = append(d.smoothPtr, &w.dst[0])
		}
		d.termsGen++ // smoothTerms holds no primitive's terms yet
		d.pLinear = packWords(pl, d.linearW)
		d.pFlat = packWords(pl, d.flatW)
	}
}

// packWord is one varying word the packed shader reads: its index in the
// drawer's words and the shader's lane array it is written to.
type packWord struct {
	k   int
	dst []uint32
}

// packWords lists the words of ws the shader's lane arrays take (a word past
// Varyings or with a nil array is not read), so packLanes needs no check.
func packWords(pl *PackedLanes, ws []int) []packWord {
	var out []packWord
	for _, k := range ws {
		if k < len(pl.Varyings) && pl.Varyings[k] != nil {
			out = append(out, packWord{k, pl.Varyings[k]})
		}
	}
	return out
}

// packLanes is emitQuad's interpolation for the packed path: the covered
// lanes of mask, in lane order, become packed lanes j0, j0+1, ... with the
// inputs emitQuad would give them (the same arithmetic, in the same order
// of operations, so the same bits), their pixel offset and window depth kept
// for fragmentsPacked. Words are the outer loop so that a word's three
// corner terms are loaded once per quad.
func (d *drawer) packLanes(j0, qx, qy int, mask uint8, bary *[4][3]float64, zs *[4]float64, v [3]*wvert, front bool, id int32, pc *[4][2]float32) {
	pl := d.packed
	if d.nq == 0 {
		d.batchPrim = id
	}
	if mask == 0xF && d.plainInputs {
		d.packQuad(j0, qx, qy, bary, zs, v)
		return
	}
	iw0, iw1, iw2 := v[0].iw, v[1].iw, v[2].iw
	// The covered lanes in order, with their barycentrics and 1/w.
	var lb [4]*[3]float64
	var iw [4]float64
	n := 0
	base, row := (qy*d.t.W+qx)*4, d.t.W*4
	for m := mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros8(m)
		b := &bary[l]
		lb[n] = b
		iw[n] = b[0]*iw0 + b[1]*iw1 + b[2]*iw2
		j := j0 + n
		z := zs[l]
		if pl.FragCoord[0] != nil {
			pl.FragCoord[0][j] = math.Float32bits(float32(qx+l&1) + 0.5)
			pl.FragCoord[1][j] = math.Float32bits(float32(qy+l>>1) + 0.5)
			pl.FragCoord[2][j] = math.Float32bits(float32(z))
			pl.FragCoord[3][j] = math.Float32bits(float32(iw[n]))
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
		d.laneOff[j] = int32(base + l>>1*row + l&1*4)
		d.laneZ[j] = float32(z)
		if d.qzFast {
			d.laneQZ[j] = d.qz[l]
		}
		n++
	}
	s0, s1, s2 := d.setup[0], d.setup[1], d.setup[2]
	for _, w := range d.pSmooth {
		a0, a1, a2 := s0[w.k], s1[w.k], s2[w.k]
		dst := w.dst[j0 : j0+n]
		for i := range dst {
			b := lb[i]
			dst[i] = math.Float32bits(float32((b[0]*a0 + b[1]*a1 + b[2]*a2) / iw[i]))
		}
	}
	for _, w := range d.pLinear {
		a0, a1, a2 := s0[w.k], s1[w.k], s2[w.k]
		dst := w.dst[j0 : j0+n]
		for i := range dst {
			b := lb[i]
			dst[i] = math.Float32bits(float32(b[0]*a0 + b[1]*a1 + b[2]*a2))
		}
	}
	for _, w := range d.pFlat {
		f := d.flat[w.k]
		for i := range w.dst[j0 : j0+n] {
			w.dst[j0+i] = f
		}
	}
}

// packQuad is packLanes for a fully covered quad when the shader reads only
// varyings (plainInputs): lanes 0..3 become packed lanes j0..j0+3, each
// value computed by the same expression as packLanes's, in straight-line
// code over the four lanes.
func (d *drawer) packQuad(j0, qx, qy int, bary *[4][3]float64, zs *[4]float64, v [3]*wvert) {
	iw0, iw1, iw2 := v[0].iw, v[1].iw, v[2].iw
	var iw [4]float64
	for l := range iw {
		b := &bary[l]
		iw[l] = b[0]*iw0 + b[1]*iw1 + b[2]*iw2
	}
	base, row := int32((qy*d.t.W+qx)*4), int32(d.t.W*4)
	off := d.laneOff[j0 : j0+4 : j0+4]
	off[0], off[1], off[2], off[3] = base, base+4, base+row, base+row+4
	lz := d.laneZ[j0 : j0+4 : j0+4]
	lz[0], lz[1], lz[2], lz[3] = float32(zs[0]), float32(zs[1]), float32(zs[2]), float32(zs[3])
	if d.qzFast {
		copy(d.laneQZ[j0:j0+4:j0+4], d.qz[:])
	}
	s0, s1, s2 := d.setup[0], d.setup[1], d.setup[2]
	b0, b1, b2, b3 := &bary[0], &bary[1], &bary[2], &bary[3]
	if nw := len(d.pSmooth); nw > 0 {
		if d.smoothGen != d.termsGen {
			// The primitive's terms of the smooth words, in word order.
			t := d.smoothTerms
			for i, w := range d.pSmooth {
				t[3*i], t[3*i+1], t[3*i+2] = s0[w.k], s1[w.k], s2[w.k]
			}
			d.smoothGen = d.termsGen
		}
		_ = d.laneOff[j0+3] // j0+4 <= laneBatch: every smooth array holds the lanes
		smoothQuad(&d.smoothPtr[0], j0, &d.smoothTerms[0], nw, bary, &iw)
	}
	for _, w := range d.pLinear {
		a0, a1, a2 := s0[w.k], s1[w.k], s2[w.k]
		dst := w.dst[j0 : j0+4 : j0+4]
		dst[0] = math.Float32bits(float32(b0[0]*a0 + b0[1]*a1 + b0[2]*a2))
		dst[1] = math.Float32bits(float32(b1[0]*a0 + b1[1]*a1 + b1[2]*a2))
		dst[2] = math.Float32bits(float32(b2[0]*a0 + b2[1]*a1 + b2[2]*a2))
		dst[3] = math.Float32bits(float32(b3[0]*a0 + b3[1]*a1 + b3[2]*a2))
	}
	for _, w := range d.pFlat {
		f := d.flat[w.k]
		dst := w.dst[j0 : j0+4 : j0+4]
		dst[0], dst[1], dst[2], dst[3] = f, f, f, f
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
	if d.qzFast {
		d.fragmentsPackedQZ(n, live, col)
		return
	}
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

// fragmentsPackedQZ is fragmentsPacked when qzFast holds: the depth test and
// write on the 24-bit integers emitQuad quantized (laneQZ, the UNorm24 of
// the same window depth fragmentsPacked would quantize), the colour stored
// as fragmentsPacked stores it.
// spec: software-shader-backend "Persistent depth semantics",
// "Production color packing".
func (d *drawer) fragmentsPackedQZ(n int, live uint64, col [4][]uint32) {
	cs, ds := d.t.Color[0], d.t.DepthStencil
	write, fn := d.s.Depth.Write, d.s.Depth.Func
	offs, qzs := d.laneOff[:n], d.laneQZ[:n]
	if col[0] == nil {
		// No colour output: the colour is zero.
		col = [4][]uint32{d.laneZero, d.laneZero, d.laneZero, d.laneZero}
	}
	c0, c1, c2, c3 := col[0][:n], col[1][:n], col[2][:n], col[3][:n]
	// Every lane's texel at once (four lanes an instruction), the lanes
	// that fail the depth test included: the conversion has no effect
	// but its result.
	rgba := d.laneRGBA[:n]
	if k := n &^ 3; k > 0 {
		packRGBA8(&rgba[0], &c0[0], &c1[0], &c2[0], &c3[0], k)
	}
	if k := n &^ 3; k < n {
		packRGBA8Go(rgba[k:], c0[k:], c1[k:], c2[k:], c3[k:])
	}
	zd, cd := ds.Data, cs.Data
	for m := live & (1<<n - 1); m != 0; m &= m - 1 {
		j := bits.TrailingZeros64(m)
		o := int(offs[j])
		buf := zd[o : o+4 : o+4]
		w := binary.LittleEndian.Uint32(buf)
		qz := qzs[j]
		if !fn.TestUint(qz, w>>8) {
			continue
		}
		if write {
			binary.LittleEndian.PutUint32(buf, qz<<8|w&0xFF)
		}
		binary.LittleEndian.PutUint32(cd[o:o+4:o+4], rgba[j])
	}
}

// smoothQuadGo is smoothQuad in Go: the expression of packLanes, lane by lane.
func smoothQuadGo(dst []*uint32, j0 int, terms []float64, bary *[4][3]float64, iw *[4]float64) {
	for i, p := range dst {
		a0, a1, a2 := terms[3*i], terms[3*i+1], terms[3*i+2]
		out := unsafe.Slice(p, j0+4)[j0:]
		for l := range 4 {
			b := &bary[l]
			out[l] = math.Float32bits(float32((b[0]*a0 + b[1]*a1 + b[2]*a2) / iw[l]))
		}
	}
}
