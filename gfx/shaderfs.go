package gfx

import (
	"context"
	"fmt"
	"math"

	"vortexgfx/abi"
	"vortexgfx/device"
	"vortexgfx/ref/format"
	"vortexgfx/shader/exec"
)

// fsScratch is one running fragment wave of a compiled program: its executor
// (whose output sink it is), the uniform words and each lane's pixel, depth and
// facing.
type fsScratch struct {
	m     *exec.Machine
	c     *device.CTA
	uni   []uint32
	ub    []byte
	pb    [abi.PrimBytes]byte
	prim  [abi.PrimWords]int32
	pid   uint32
	valid bool
	x, y  [exec.MaxWidth]int32
	depth [exec.MaxWidth]uint32
	face  [exec.MaxWidth]uint32
	tex   [abi.TexNumStages]fsTexState
}

// fsScratch takes a kept executor of width lanes (a whole number of quads,
// checked by the caller) or builds one.
func (sp *ShaderProgram) fsScratch(width int) (*fsScratch, error) {
	select {
	case s := <-sp.fsFree[width/4-1]:
		return s, nil
	default:
	}
	m, err := exec.New(sp.prog.FS, exec.Config{Width: width})
	if err != nil {
		return nil, err
	}
	n := max(sp.prog.UniformWords, 1)
	s := &fsScratch{m: m, uni: make([]uint32, n), ub: make([]byte, 4*n)}
	m.SetOutputSink(s)
	m.SetSampler(s)
	return s, nil
}

// Export is the wrapper's tail for the lanes the executor hands over (covered
// and live: discard and demote already folded in): colour location 0 packed to
// A8R8G8B8 as GL's unorm8 conversion does, exported with the plane depth
// through vx_om_export. spec: vortexpipe §3.4 ("cov &= live"; vx_om_export)
func (s *fsScratch) Export(req *exec.ExportRequest) error {
	c, w := s.c, req.Width
	for l := 0; l < w; l++ {
		if req.Mask>>l&1 == 0 {
			continue
		}
		ch := func(k int) uint32 {
			if (k+1)*w > len(req.Words) {
				return 0
			}
			return format.UNorm(math.Float32frombits(req.Words[k*w+l]), 8)
		}
		color := ch(3)<<24 | ch(0)<<16 | ch(1)<<8 | ch(2)
		c.OMExport(int(s.x[l]), int(s.y[l]), s.face[l], 0, color, s.depth[l], 0)
	}
	return c.Err()
}

// fsKernel is the FS wrapper, run once per RASTER wave exactly as vortexpipe
// §3.4's pseudo-code: each lane reads FRAG_POS/FRAG_PID, loads its primitive,
// recomputes the edge values from the Q15.16 edge planes, forms the
// barycentrics, interpolates every varying plane in Q7.24 and divides by the
// interpolated 1/w plane, fills gl_FragCoord (w with rhw_scale undone) and
// gl_FrontFacing (!facing), reads flat inputs verbatim from the side array
// (GFX_FS_ARG_FLAT + pid·FlatSideWords), then runs the fragment program over all lanes of
// the launched quads — the uncovered ones as helpers, so derivatives see their
// neighbours — and exports the covered, live lanes (Export).
func (sp *ShaderProgram) fsKernel(c *device.CTA) error {
	prims, desc, flat := c.Arg(abi.ArgFSPrimBuffer), c.Arg(abi.ArgFSDesc), c.Arg(abi.ArgFSFlat)
	if err := c.Err(); err != nil {
		return err
	}
	n := c.Threads
	if n < 4 || n%4 != 0 || n > exec.MaxWidth {
		return fmt.Errorf("%s: a fragment wave of %d lanes", sp.fsName(), n)
	}
	s, err := sp.fsScratch(n)
	if err != nil {
		return err
	}
	defer func() {
		select {
		case sp.fsFree[n/4-1] <- s:
		default:
		}
	}()
	s.c, s.valid = c, false
	defer func() { s.c = nil }()
	readUniforms(c, desc, s.uni[:sp.prog.UniformWords], s.ub)
	if err := s.m.SetUniforms(s.uni); err != nil {
		return err
	}
	if len(sp.prog.FS.Tex) > 0 {
		// Descriptor set 0 (table slot 1): {w, h, levels, mip} per sampler.
		set0 := c.ReadU64(desc + 8)
		for i := range sp.prog.FS.Samplers {
			d := set0 + uint64(i)*texDescBytes
			s.tex[i] = fsTexState{w: float32(c.ReadU32(d)), h: float32(c.ReadU32(d + 4)), levels: max(c.ReadU32(d+8), 1), mip: MipFilter(c.ReadU32(d + 12))}
		}
	}
	var present, covered uint64
	for q := 0; q < n/4; q++ {
		var cov uint64
		for k := 0; k < 4; k++ {
			if c.FragPos(4*q+k)>>31 != 0 {
				cov |= 1 << (4*q + k)
			}
		}
		if cov != 0 {
			present |= 0xF << (4 * q)
			covered |= cov
		}
	}
	if present == 0 {
		return nil
	}
	for l := 0; l < n; l++ {
		if present>>l&1 != 0 {
			s.lane(sp, l, prims, flat)
		}
	}
	if err := c.Err(); err != nil {
		return err
	}
	if _, err := s.m.Run(context.Background(), present, covered); err != nil {
		return fmt.Errorf("%s: %w", sp.fsName(), err)
	}
	return c.Err()
}

// lane prepares one lane's inputs (the per-lane body of the §3.4 wrapper).
func (s *fsScratch) lane(sp *ShaderProgram, l int, prims, flat uint64) {
	c := s.c
	pos, pid := c.FragPos(l), c.FragPID(l)
	x, y := int32(pos&0xFFFF), int32(pos>>16&0x7FFF)
	if !s.valid || s.pid != pid {
		c.Read(prims+uint64(pid)*abi.PrimBytes, s.pb[:])
		for i := range s.prim {
			s.prim[i] = word(s.pb[:], i)
		}
		s.pid, s.valid = pid, true
	}
	p := &s.prim
	var F [3]float32
	for e := 0; e < 3; e++ {
		raw := p[3*e]*x + p[3*e+1]*y + p[3*e+2]
		F[e] = float32(raw) / 65536
	}
	recip := 1 / float32(F[0]+F[1]+F[2])
	dx := fxDev(float32(recip*F[0]), abi.FracA)
	dy := fxDev(float32(recip*F[1]), abi.FracA)
	interp := func(pl abi.PrimPlane) int32 {
		w := pl.Word()
		return fmulA(p[w+1], dy) + (fmulA(p[w], dx) + p[w+2])
	}
	const one = 1 << abi.FracA
	rhw := float32(interp(abi.PlaneRHW)) / one
	const kMin = float32(1e-8)
	if rhw < kMin && rhw > -kMin {
		if rhw < 0 {
			rhw = -kMin
		} else {
			rhw = kMin
		}
	}
	invW := 1 / rhw
	for w, pl := range sp.fsIn {
		if pl >= 0 {
			s.m.Input(w)[l] = math.Float32bits(float32(float32(interp(abi.VaryingPlane(pl)))/one) * invW)
		}
		if k := sp.fsFlat[w]; k >= 0 { // verbatim, no arithmetic
			s.m.Input(w)[l] = c.ReadU32(flat + uint64(pid)*flatSideBytes + 4*uint64(k))
		}
	}
	zw := abi.PlaneZ.Word()
	z := int32(int64(p[zw])*int64(x) + int64(p[zw+1])*int64(y) + int64(p[zw+2]))
	var depth uint32
	switch {
	case z < 0:
	case uint32(z) > abi.DepthMask:
		depth = abi.DepthMask
	default:
		depth = uint32(z)
	}
	facing := uint32(p[abi.PrimFacingWord])
	s.x[l], s.y[l], s.depth[l], s.face[l] = x, y, depth, facing&1
	if sp.coord >= 0 {
		// 1/w from the edge sum (PlanesCompiled's rhw_scale word).
		fw := float32(float32(F[0]+F[1])+F[2]) * math.Float32frombits(uint32(p[abi.PrimRHWScaleW]))
		s.m.Input(sp.coord)[l] = math.Float32bits(float32(x) + 0.5)
		s.m.Input(sp.coord + 1)[l] = math.Float32bits(float32(y) + 0.5)
		s.m.Input(sp.coord + 2)[l] = math.Float32bits(float32(depth) / one)
		s.m.Input(sp.coord + 3)[l] = math.Float32bits(fw)
	}
	if sp.facing >= 0 {
		s.m.Input(sp.facing)[l] = 0
		if facing == 0 {
			s.m.Input(sp.facing)[l] = 1
		}
	}
}
