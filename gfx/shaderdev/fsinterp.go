package shaderdev

import (
	"encoding/binary"
	"math"
	"math/bits"
	"unsafe"

	"vortexgfx/abi"
	"vortexgfx/gfx/frontend"
	"vortexgfx/gl/msaa"
	"vortexgfx/shader/exec"
	"vortexgfx/shader/ir"
)

// fsInterpWord is one FS input word the wrapper interpolates: its plane
// index on front- and on back-facing primitives (-1: not interpolated on
// that face).
type fsInterpWord struct {
	w, front, back  int
	frontNP, backNP bool // the plane is a noperspective varying's
	// unread: no LoadInput of the fragment program reads the word (an
	// input declared but unused, or one whose loads the compiler removed),
	// so the Go wrapper does not interpolate it (interp): no lane's result
	// can depend on it. The machine-code wrapper's table keeps every word.
	unread bool
}

// markUnreadInputs sets fsInterpWord.unread on each interpolated word no
// LoadInput of the fragment program (its main body and functions) reads.
// An input word is read only by a LoadInput naming it (ir.LoadInput's Imm),
// so the words it leaves out are dead for every lane.
func (sp *Program) markUnreadInputs() {
	read := make([]bool, sp.prog.FS.InputWords)
	mark := func(code []ir.Inst) {
		for i := range code {
			if in := &code[i]; in.Op == ir.LoadInput && in.Imm >= 0 && int(in.Imm) < len(read) {
				read[in.Imm] = true
			}
		}
	}
	mark(sp.prog.FS.Code)
	for _, f := range sp.prog.FS.Funcs {
		mark(f.Code)
	}
	for i := range sp.fsInterp {
		iw := &sp.fsInterp[i]
		iw.unread = iw.w >= 0 && iw.w < len(read) && !read[iw.w]
	}
}

// inputs prepares the present lanes' inputs: the per-lane body of the §3.4
// wrapper, split in two. The first loop walks the lanes in order and does
// everything that touches memory or depends on the lane alone — its
// primitive loaded when the pid changes (its plane coefficients decoded
// once, not per lane), the edge values, barycentrics, 1/w, depth and the
// flat words read verbatim — in exactly the order the one-lane-at-a-time
// form did, so every access, count and fault is the same; the second
// (interp) interpolates the varying words from the decoded coefficients,
// with the same float32 operations per lane; the last writes gl_FragCoord
// and gl_FrontFacing, which the varyings never overwrite.
// spec: vortexpipe §3.4
func (s *fsScratch) inputs(sp *Program, present uint64, prims, flat uint64) {
	c := s.c
	np := len(sp.planes)
	stride := sideBytes(sp)
	slot := -1
	if s.valid {
		// The primitive loaded by an earlier wave of the CTA (the software
		// raster's) serves this one's first lanes too, as it did.
		slot = 0
		s.loadCoef(slot, np)
	}
	const one = 1 << abi.FracA
	// The loaded primitive's words the lanes use, kept in locals while its
	// run of lanes lasts (reloaded when the pid changes): its three edge
	// planes, the 1/w and depth planes, the rhw_scale word and the facing
	// word with the flat table of its face.
	var pr primLanes
	if s.valid {
		pr.load(sp, &s.prim)
	}
	// sampled: a lane may interpolate away from its pixel centre
	// (interpSample): a per-sample lane, or a centroid program's partly
	// covered pixel on a multisampled walk.
	centroid := sp.centroid && s.samples > 1
	for m := present; m != 0; m &= m - 1 {
		l := bits.TrailingZeros64(m) & (exec.MaxWidth - 1) // a lane of the wave (present has no higher bits)
		x, y, pid := s.x[l], s.y[l], s.pidL[l]
		if !s.valid || s.pid != pid {
			getPrim(&s.prim, c.ReadView(prims+uint64(pid)*abi.PrimBytes, s.pb[:]))
			if len(s.sb) > 0 {
				sb := c.ReadView(flat+uint64(pid)*stride+uint64(4*abi.SideFlatWords(sp.NFlat())), s.sb)
				for i := range s.side {
					s.side[i] = binary.LittleEndian.Uint32(sb[4*i:])
				}
			}
			s.pid, s.valid = pid, true
			slot++
			s.loadCoef(slot, np)
			pr.load(sp, &s.prim)
		}
		s.coefAt[l] = int32(3 * slot * np)
		// The three edge values (Q15.16, int32 arithmetic wrapping as the
		// wrapper's).
		F := [3]float32{float32(pr.e[0]*x+pr.e[1]*y+pr.e[2]) / 65536, float32(pr.e[3]*x+pr.e[4]*y+pr.e[5]) / 65536,
			float32(pr.e[6]*x+pr.e[7]*y+pr.e[8]) / 65536}
		if s.smp[l] >= 0 || centroid {
			if k := s.interpSample(sp, l); k >= 0 {
				// A per-sample lane interpolates at its sample, a partly
				// covered pixel of a centroid program at a covered one
				// (sample.go).
				F = sampleEdges(&s.prim, x, y, s.samples, k)
			}
		}
		recip := 1 / float32(F[0]+F[1]+F[2])
		dx := frontend.FixDev(float32(recip*F[0]), abi.FracA)
		dy := frontend.FixDev(float32(recip*F[1]), abi.FracA)
		rhw := frontend.GuardRHW(float32(frontend.MulA(pr.rhw[1], dy)+(frontend.MulA(pr.rhw[0], dx)+pr.rhw[2])) / one)
		s.invW[l] = 1 / rhw
		// 1/w from the edge sum (PlanesCompiled's rhw_scale word).
		s.fw[l] = float32(float32(F[0]+F[1])+F[2]) * pr.rhwScale
		s.fdx[l], s.fdy[l] = float32(dx)/one, float32(dy)/one
		for _, f := range pr.flatIn { // verbatim, no arithmetic
			s.m.Input(f[0])[l] = c.ReadU32(flat + uint64(pid)*stride + 4*uint64(f[1]))
		}
		// planeZ on the kept words.
		depth := uint32(0)
		if z := int32(int64(pr.z[0])*int64(x) + int64(pr.z[1])*int64(y) + int64(pr.z[2])); z > 0 {
			depth = min(uint32(z), abi.DepthMask)
		}
		if s.samples == 1 {
			s.zs[l][0] = depth
		} else {
			for k := 0; k < s.samples; k++ {
				sx, sy := msaa.Position(s.samples, k)
				s.zs[l][k] = sampleZ(&s.prim, x, y, sx, sy)
			}
			if k := s.smp[l]; k >= 0 {
				depth = s.zs[l][k]
			}
		}
		s.depth[l], s.face[l], s.facingW[l] = depth, pr.facing&1, pr.facing
	}
	if len(sp.fsInterp) > 0 {
		s.interp(sp, present)
	}
	s.sampleInputs(sp, present)
	if sp.coord < 0 && sp.facing < 0 {
		return
	}
	if sp.coord >= 0 {
		cx, cy, cz, cw := s.m.Input(sp.coord), s.m.Input(sp.coord+1), s.m.Input(sp.coord+2), s.m.Input(sp.coord+3)
		for m := present; m != 0; m &= m - 1 {
			l := bits.TrailingZeros64(m)
			cx[l] = math.Float32bits(float32(s.x[l]) + 0.5)
			cy[l] = math.Float32bits(float32(s.y[l]) + 0.5)
			cz[l] = math.Float32bits(float32(s.depth[l]) / one)
			cw[l] = math.Float32bits(s.fw[l])
		}
	}
	if sp.facing >= 0 {
		f := s.m.Input(sp.facing)
		for m := present; m != 0; m &= m - 1 {
			l := bits.TrailingZeros64(m)
			f[l] = 0
			if s.facingW[l] == 0 {
				f[l] = 1
			}
		}
	}
}

// primLanes is what inputs' per-lane loop reads of the loaded primitive:
// the three Q15.16 edge planes' {A, B, C}, the Q7.24 1/w and depth planes'
// words, the rhw_scale factor, the facing word and the flat words its face
// reads (fsFlatIn, or fsFlatInBack on a back face).
type primLanes struct {
	e        [9]int32
	rhw, z   [3]int32
	rhwScale float32
	facing   uint32
	flatIn   [][2]int
}

// load takes p's words (the scratch's loaded primitive).
func (pr *primLanes) load(sp *Program, p *[abi.PrimWords]int32) {
	pr.e = [9]int32(p[:9])
	w, zw := abi.PlaneRHW.Word(), abi.PlaneZ.Word()
	pr.rhw = [3]int32(p[w : w+3])
	pr.z = [3]int32(p[zw : zw+3])
	pr.rhwScale = math.Float32frombits(uint32(p[abi.PrimRHWScaleW]))
	pr.facing = uint32(p[abi.PrimFacingWord])
	pr.flatIn = sp.fsFlatIn
	if pr.facing&1 != 0 { // back-facing: two-sided colour's back words
		pr.flatIn = sp.fsFlatInBack
	}
}

// interp writes each interpolated input word of each lane in present: the
// perspective interpolation of the §3.4 wrapper, (fdx·a + fdy·b + c)·(1/rhw)
// on the word's plane for the lane's face (two-sided colour's back planes
// on a back face; expand_k packs the front ones there when the pair is off),
// times the edge-sum 1/w for a noperspective varying (its plane carries
// v·w_clip: the product is screen-linear v). It runs word by word over the
// lanes (the lanes' results do not depend on the order), each word's loop
// specialised for the wave's one face and dense lanes when it has them — the
// commonest wave: a compacted one, every lane of one primitive side — with
// the same float32 operations per lane; a lane whose face has no plane for
// the word, and every lane of a word the program never reads
// (fsInterpWord.unread), keeps the word as it was.
func (s *fsScratch) interp(sp *Program, present uint64) {
	if present == 0 {
		return
	}
	hi := 64 - bits.LeadingZeros64(present)
	lo := bits.TrailingZeros64(present)
	// dense: the lanes lo..hi-1 all, as a compacted wave's, or one placed
	// further on in a batch (fsbatch.go).
	dense := present == (1<<hi-1)&^(1<<lo-1)
	var nBack int
	for m := present; m != 0; m &= m - 1 {
		nBack += int(s.face[bits.TrailingZeros64(m)])
	}
	oneFace := nBack == 0 || nBack == bits.OnesCount64(present)
	coef := s.coef[:len(s.coef):len(s.coef)]
	at := s.coefAt[:hi:hi]
	fdx, fdy, invW, fw := s.fdx[:hi:hi], s.fdy[:hi:hi], s.invW[:hi:hi], s.fw[:hi:hi]
	for i := range sp.fsInterp {
		iw := &sp.fsInterp[i]
		if iw.unread {
			continue
		}
		out := s.interpIn[i][:hi:hi]
		if dense && oneFace {
			out := out[lo:]
			pl, noPersp := iw.front, iw.frontNP
			if nBack != 0 {
				pl, noPersp = iw.back, iw.backNP
			}
			if pl < 0 {
				continue
			}
			// A wave's lanes come in runs of one primitive: its plane's
			// coefficients are loaded once per run.
			last := int32(-1)
			var c0, c1, c2 float32
			n := len(out) // every lane array resliced to it: the loop's indices need no checks
			at, fdx, fdy, invW, fw := at[lo:lo+n], fdx[lo:lo+n], fdy[lo:lo+n], invW[lo:lo+n], fw[lo:lo+n]
			for l := range out {
				if a := at[l]; a != last {
					o := int(a) + 3*pl
					c := coef[o : o+3 : o+3]
					c0, c1, c2, last = c[0], c[1], c[2], a
				}
				v := float32(float32(float32(fdx[l]*c0)+float32(fdy[l]*c1))+c2) * invW[l]
				if noPersp {
					v *= fw[l]
				}
				out[l] = math.Float32bits(v)
			}
			continue
		}
		for m := present; m != 0; m &= m - 1 {
			l := bits.TrailingZeros64(m)
			pl, noPersp := iw.front, iw.frontNP
			if s.face[l] != 0 {
				pl, noPersp = iw.back, iw.backNP
			}
			if pl < 0 {
				continue
			}
			o := int(at[l]) + 3*pl
			c := coef[o : o+3 : o+3]
			v := float32(float32(float32(fdx[l]*c[0])+float32(fdy[l]*c[1]))+c[2]) * invW[l]
			if noPersp {
				v *= fw[l]
			}
			out[l] = math.Float32bits(v)
		}
	}
}

// loadCoef decodes the loaded primitive's np varying planes into coef entry
// slot as {a, b, c} with v = (fdx·a + fdy·b) + c: a plane's float32 words
// (a0−a2, a1−a2, a2), or for a varying past the planes its three vertex
// values from the side array, differenced as the plane words are.
func (s *fsScratch) loadCoef(slot, np int) {
	co := s.coef[3*slot*np : 3*(slot+1)*np]
	p := &s.prim
	for pl := 0; pl < np; pl++ {
		if pl < abi.NumVaryingPlanes {
			pw := abi.VaryingPlane(pl).Word()
			co[3*pl] = math.Float32frombits(uint32(p[pw]))
			co[3*pl+1] = math.Float32frombits(uint32(p[pw+1]))
			co[3*pl+2] = math.Float32frombits(uint32(p[pw+2]))
			continue
		}
		e := s.side[3*(pl-abi.NumVaryingPlanes):]
		a0, a1, a2 := math.Float32frombits(e[0]), math.Float32frombits(e[1]), math.Float32frombits(e[2])
		co[3*pl], co[3*pl+1], co[3*pl+2] = float32(a0-a2), float32(a1-a2), a2
	}
}

// getPrim decodes a rast_prim_t's little-endian words (one copy on a
// little-endian host).
func getPrim(p *[abi.PrimWords]int32, b []byte) {
	b = b[:abi.PrimBytes]
	if hostLittleEndian {
		copy(unsafe.Slice((*byte)(unsafe.Pointer(&p[0])), abi.PrimBytes), b)
		return
	}
	for i := range p {
		p[i] = word(b, i)
	}
}
