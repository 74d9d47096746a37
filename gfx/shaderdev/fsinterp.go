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
			if in := &code[i]; in.Op == ir.LoadInput && uint64(in.Imm) < uint64(len(read)) {
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
	sp.faceInterp()
}

// fsInterpBind is one word a face interpolates (Program.fsFaceInterp):
// its index in fsInterp (and the scratch's interpIn), where its plane's
// three words are — in the primitive (prim ≥ 0) or, for a varying past the
// planes, in the side array's extra words (side) — and whether it is a
// noperspective varying's.
type fsInterpBind struct {
	in, prim, side int
	noPersp        bool
}

// faceInterp compiles fsInterp into Program.fsFaceInterp, the words the
// Go wrapper interpolates on front (0) and back (1) faces: each word the
// program reads (fsInterpWord.unread) with a plane on that face, in fsInterp
// order — two-sided colour's back planes on a back face; expand_k packs the
// front ones there when the pair is off. A word a face has no plane for, or
// that the program never reads, keeps its lanes' words as they were.
func (sp *Program) faceInterp() {
	for face := range sp.fsFaceInterp {
		var list []fsInterpBind
		for i := range sp.fsInterp {
			iw := &sp.fsInterp[i]
			pl, np := iw.front, iw.frontNP
			if face == 1 {
				pl, np = iw.back, iw.backNP
			}
			if pl < 0 || iw.unread {
				continue
			}
			b := fsInterpBind{in: i, prim: -1, side: -1, noPersp: np}
			if pl < abi.NumVaryingPlanes {
				b.prim = abi.VaryingPlane(pl).Word()
			} else {
				b.side = 3 * (pl - abi.NumVaryingPlanes)
			}
			list = append(list, b)
		}
		sp.fsFaceInterp[face] = list
	}
}

// inputs prepares the present lanes' inputs: the per-lane body of the §3.4
// wrapper. It walks the lanes in order and does everything that touches
// memory or depends on the lane — its primitive loaded when the pid changes
// (the varying planes its face reads decoded then, once per run of lanes,
// not per lane: bindInterp), the edge values, barycentrics, 1/w, depth, the
// flat words read verbatim and the interpolated words (interpLane) — in
// exactly the order the one-lane-at-a-time form did, so every access, count
// and fault is the same and every word is the same float32 operations on the
// same operands; then it writes gl_FragCoord and gl_FrontFacing, which the
// varyings never overwrite. spec: vortexpipe §3.4
func (s *fsScratch) inputs(sp *Program, present uint64, prims, flat uint64) {
	c := s.c
	stride := sideBytes(sp)
	const one = 1 << abi.FracA
	// The loaded primitive's words the lanes use, kept in locals while its
	// run of lanes lasts (reloaded when the pid changes): its three edge
	// planes, the 1/w and depth planes, the rhw_scale word, the facing word
	// with the flat table and the interpolated words of its face.
	var pr primLanes
	if s.valid {
		// The primitive loaded by an earlier wave of the CTA (the software
		// raster's) serves this one's first lanes too, as it did.
		pr.load(sp, &s.prim)
		s.bindInterp(sp, &pr)
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
			pr.load(sp, &s.prim)
			s.bindInterp(sp, &pr)
		}
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
		// 1/w from the edge sum (PlanesCompiled's rhw_scale word).
		fw := float32(float32(F[0]+F[1])+F[2]) * pr.rhwScale
		s.fw[l] = fw
		interpLane(s.iref, l, float32(dx)/one, float32(dy)/one, 1/rhw, fw)
		for _, f := range pr.flatIn { // verbatim, no arithmetic
			s.m.Input(f[0])[l] = c.ReadU32(flat + uint64(pid)*stride + 4*uint64(f[1]))
		}
		depth := planeZ(&pr.z, x, y)
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

// interpRef is one input word a lane of the loaded primitive interpolates:
// its lane array, its plane's coefficients {a, b, c} with
// v = (fdx·a + fdy·b) + c, and whether it is a noperspective varying's.
type interpRef struct {
	out     []uint32
	a, b, c float32
	noPersp bool
}

// bindInterp makes s.iref the interpolated words of the loaded primitive's
// face (pr.facing; Program.fsFaceInterp), each with its plane's
// coefficients {a, b, c} decoded: a plane's float32 words (a0−a2, a1−a2,
// a2), or for a varying past the planes its three vertex values from the
// side array, differenced as the plane words are.
func (s *fsScratch) bindInterp(sp *Program, pr *primLanes) {
	list := sp.fsFaceInterp[pr.facing&1]
	refs := s.iref[:len(list)]
	p := &s.prim
	for k, f := range list {
		r := &refs[k]
		r.out, r.noPersp = s.interpIn[f.in], f.noPersp
		if f.prim >= 0 {
			w := p[f.prim : f.prim+3 : f.prim+3]
			r.a, r.b, r.c = math.Float32frombits(uint32(w[0])), math.Float32frombits(uint32(w[1])), math.Float32frombits(uint32(w[2]))
			continue
		}
		e := s.side[f.side : f.side+3 : f.side+3]
		a0, a1, a2 := math.Float32frombits(e[0]), math.Float32frombits(e[1]), math.Float32frombits(e[2])
		r.a, r.b, r.c = float32(a0-a2), float32(a1-a2), a2
	}
	s.iref = refs
}

// interpLane writes lane l of each word of refs: the perspective
// interpolation of the §3.4 wrapper, (fdx·a + fdy·b + c)·(1/rhw), times the
// edge-sum 1/w for a noperspective varying (its plane carries v·w_clip: the
// product is screen-linear v), each operation rounded to float32.
func interpLane(refs []interpRef, l int, fdx, fdy, invW, fw float32) {
	for k := range refs {
		r := &refs[k]
		v := float32(float32(float32(fdx*r.a)+float32(fdy*r.b))+r.c) * invW
		if r.noPersp {
			v *= fw
		}
		r.out[l] = math.Float32bits(v)
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
