package shaderdev

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"

	"vortexgfx/abi"
	"vortexgfx/device"
	"vortexgfx/device/swom"
	"vortexgfx/device/swtex"
	"vortexgfx/gl/format"
	"vortexgfx/gl/msaa"
	"vortexgfx/shader/exec"
)

// fsScratch is one running fragment wave of a compiled program: its executor
// (whose output sink it is), the uniform words, each lane's pixel, primitive,
// sample coverage, per-sample depth and facing, and the wave's output-merger
// routing.
type fsScratch struct {
	m     *exec.Machine
	c     *device.CTA
	prog  *Program
	uni   []uint32
	ub    []byte
	pb    [abi.PrimBytes]byte
	prim  [abi.PrimWords]int32
	pid   uint32
	valid bool
	x, y  [exec.MaxWidth]int32
	pidL  [exec.MaxWidth]uint32
	cov   [exec.MaxWidth]msaa.Mask               // sample mask (bit 0 alone with one sample)
	smp   [exec.MaxWidth]int8                    // the sample a per-sample lane shades (-1: the pixel)
	zs    [exec.MaxWidth][msaa.MaxSamples]uint32 // per-sample plane depth (Z24)
	depth [exec.MaxWidth]uint32                  // the pixel centre's plane depth
	face  [exec.MaxWidth]uint32
	zero  [exec.MaxWidth]uint32 // a lane array of zero words (an unwritten output channel)
	color [exec.MaxWidth]uint32 // each exporting lane's packed colour (exportOne)
	tex   [abi.TexNumStages]fsTexState
	// The wave's interpolation state (inputs): per lane the edge-sum 1/w
	// and its primitive's facing word; the lane arrays of Program.fsInterp's
	// words, and the loaded primitive's interpolated words (bindInterp).
	fw       [exec.MaxWidth]float32
	facingW  [exec.MaxWidth]uint32
	interpIn [][]uint32
	iref     []interpRef

	samples int
	flags   uint64
	swOM    bool
	om      swom.State
	omDesc  [swom.DescBytes]byte
	bpp     [swom.MaxTargets]int
	dsb     [4]byte
	texel   [swom.MaxTargets][16]byte
	frag    swom.Fragment
	ctr     [abi.FSCounterWords]uint32
	swTex   bool
	sw      *swtex.Sampler
	// side is the current primitive's side-array words beyond the flat
	// ones (the varyings past the planes, three words each), sb its bytes.
	side []uint32
	sb   []byte
	// batch is the batch whose staged waves the executor is running
	// (fsbatch.go): its one export is taken for them, not made.
	batch *fsBatch
}

// fsScratch takes a kept executor of width lanes (a whole number of quads,
// checked by the caller) from shard runner % fsShards — its hot slot, else
// its list — or builds one.
func (sp *Program) fsScratch(runner, width int) (*fsScratch, error) {
	if s := sp.fsHot[shardOf(runner)][width/4-1].Swap(nil); s != nil {
		return s, nil
	}
	select {
	case s := <-sp.fsFree[shardOf(runner)][width/4-1]:
		return s, nil
	default:
	}
	m, err := exec.New(sp.prog.FS, exec.Config{Width: width})
	if err != nil {
		return nil, err
	}
	n := max(sp.prog.UniformWords, 1)
	s := &fsScratch{m: m, uni: make([]uint32, n), ub: make([]byte, 4*n), sw: swtex.New(),
		iref: make([]interpRef, 0, len(sp.fsInterp))}
	if x := abi.SideArrayWords(sp.NVar(), sp.NFlat()) - abi.SideFlatWords(sp.NFlat()); x > 0 {
		s.side, s.sb = make([]uint32, x), make([]byte, 4*x)
	}
	for _, iw := range sp.fsInterp {
		s.interpIn = append(s.interpIn, m.Input(iw.w))
	}
	m.SetOutputSink(s)
	m.SetSampler(s)
	return s, nil
}

// outWord returns output word k of colour location loc for lane l (0 when
// the program does not write it).
func (s *fsScratch) outWord(sp *Program, req *exec.ExportRequest, loc, k, l int) uint32 {
	w := sp.colorWord[loc]
	if w < 0 || (w+k+1)*req.Width > len(req.Words) {
		return 0
	}
	return req.Words[(w+k)*req.Width+l]
}

// src1Word is word k of lane l's second source colour: the index-1 output
// at location 0 when the program declares one, else location 1's output.
func (s *fsScratch) src1Word(sp *Program, req *exec.ExportRequest, k, l int) uint32 {
	w := sp.src1Word
	if w < 0 {
		return s.outWord(sp, req, 1, k, l)
	}
	if (w+k+1)*req.Width > len(req.Words) {
		return 0
	}
	return req.Words[(w+k)*req.Width+l]
}

// Export is the wrapper's tail for the lanes the executor hands over (covered
// and live: discard and demote already folded in). On the FF OM each colour
// output is packed to its target's unorm8 word (A8R8G8B8, or R-first for an
// RGBA8 target, the variant key's bgra mask) and exported with the depth —
// the plane's, or gl_FragDepth — through vx_om_export, once per target; on
// the software merger the fragment is merged sample by sample into the planes
// (gfx_om_fragment_sw / _mrt_sw / _msaa_sw). spec: vortexpipe §3.4
func (s *fsScratch) Export(req *exec.ExportRequest) error {
	if s.batch != nil {
		s.batch.take(req)
		return nil
	}
	c, w := s.c, req.Width
	sp := s.sp()
	var exported uint32
	if s.swOM {
		for m := req.Mask; m != 0; m &= m - 1 {
			exported++
			s.merge(sp, req, bits.TrailingZeros64(m))
		}
		s.ctr[abi.FSCounterFragments] += exported
		return c.Err()
	}
	// Per wave: each target's output words (-1: not written, the channel
	// exports 0), its byte order, and where gl_FragDepth is.
	rts := max(min(sp.colorN, int(s.flags>>abi.FSFlagTargetsShift&abi.FSFlagTargetsMask)), 1)
	var word [maxColorOutputs][4]int // rts ≤ colorN ≤ maxColorOutputs
	var order [maxColorOutputs]format.Format
	for rt := 0; rt < rts; rt++ {
		for k := range 4 {
			word[rt][k] = -1
			if cw := sp.colorWord[rt]; cw >= 0 && (cw+k+1)*w <= len(req.Words) {
				word[rt][k] = (cw + k) * w
			}
		}
		order[rt] = format.RGBA8
		if s.flags>>(abi.FSFlagBGRAShift+rt)&1 != 0 {
			order[rt] = format.BGRA8
		}
	}
	fragDepth := -1
	if sp.fragDepth >= 0 && (sp.fragDepth+1)*w <= len(req.Words) {
		fragDepth = sp.fragDepth * w
	}
	// The fast loop needs every lane to export its one sample: no
	// gl_SampleMask and no GL_SAMPLE_MASK dropping sample 0.
	noDrop := s.flags>>abi.FSFlagSampleDropShift&abi.FSFlagSampleDropMask&1 == 0
	if rts == 1 && fragDepth < 0 && noDrop && (sp.sampleMask < 0 || (sp.sampleMask+1)*w > len(req.Words)) {
		exported = s.exportOne(req, &word[0], order[0])
		s.ctr[abi.FSCounterFragments] += exported
		return c.Err()
	}
	for m := req.Mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros64(m)
		if s.outMask(sp, req, l)&1 == 0 {
			continue // gl_SampleMask drops the one sample
		}
		exported++
		depth := s.depth[l]
		if fragDepth >= 0 {
			depth = swom.FloatDepth(math.Float32frombits(req.Words[fragDepth+l])).Z24
		}
		for rt := 0; rt < rts; rt++ {
			var ch [4]uint32
			for k, o := range word[rt] {
				var v uint32
				if o >= 0 {
					v = req.Words[o+l]
				}
				ch[k] = format.UNorm8(math.Float32frombits(v)) // UNorm(v, 8)
			}
			color := swom.PackColor(order[rt], ch[0], ch[1], ch[2], ch[3])
			c.OMExport(int(s.x[l]), int(s.y[l]), s.face[l], rt, color, depth, 0)
		}
	}
	s.ctr[abi.FSCounterFragments] += exported
	return c.Err()
}

// exportOne is Export's loop for the commonest wave: one target, the plane
// depth, no gl_SampleMask and no GL_SAMPLE_MASK dropping sample 0 (every
// lane exports its one sample). It exports
// the same words in the same order as the general loop: per lane in lane
// order, the four channels packed to unorm8 in the target's byte order (an
// unwritten channel reads a zero word), then vx_om_export. It returns the
// lanes exported. The wave's fragments reach the OM in one
// device.CTA.OMExportLanes call. spec: vortexpipe §3.4
func (s *fsScratch) exportOne(req *exec.ExportRequest, word *[4]int, order format.Format) uint32 {
	c, w := s.c, req.Width
	var ch [4][]uint32
	for k, o := range word {
		if o >= 0 {
			ch[k] = req.Words[o : o+w : o+w]
		} else {
			ch[k] = s.zero[:w:w]
		}
	}
	r, g, b, a := ch[0], ch[1], ch[2], ch[3]
	for m := req.Mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros64(m)
		s.color[l] = swom.PackColor(order, format.UNorm8(math.Float32frombits(r[l])), format.UNorm8(math.Float32frombits(g[l])),
			format.UNorm8(math.Float32frombits(b[l])), format.UNorm8(math.Float32frombits(a[l])))
	}
	c.OMExportLanes(0, req.Mask, s.x[:], s.y[:], s.face[:], s.color[:], s.depth[:])
	return uint32(bits.OnesCount64(req.Mask))
}

// sp returns the program the wave runs (kept on the scratch's executor).
func (s *fsScratch) sp() *Program { return s.prog }

// merge runs lane l's fragment through the software merger: the
// per-fragment tests on its sample mask, then each covered sample's texels
// read, merged and the changed ones written back.
func (s *fsScratch) merge(sp *Program, req *exec.ExportRequest, l int) {
	c, st, f := s.c, &s.om, &s.frag
	for i := 0; i < st.NumTargets; i++ {
		for k := range 4 {
			f.Color[i][k] = s.outWord(sp, req, i, k, l)
		}
	}
	if st.DualSource {
		for k := range 4 {
			f.Src1[k] = math.Float32frombits(s.src1Word(sp, req, k, l))
		}
	}
	f.Back = s.face[l] != 0
	mask := st.Coverage(f, s.cov[l]) & s.outMask(sp, req, l)
	fixed := sp.fragDepth >= 0 && (sp.fragDepth+1)*req.Width <= len(req.Words)
	var fz swom.Depth
	if fixed {
		fz = swom.FloatDepth(math.Float32frombits(req.Words[sp.fragDepth*req.Width+l]))
	}
	dsBytes := swom.DepthBytes(st.DepthFormat)
	var tex [swom.MaxTargets][]byte
	for k := 0; k < s.samples; k++ {
		if mask>>k&1 == 0 {
			continue
		}
		idx := uint64(st.TexelIndex(int(s.x[l]), int(s.y[l]), k))
		z := fz
		if !fixed {
			z = swom.PlaneDepth(s.zs[l][k])
		}
		ds := s.dsb[:dsBytes]
		if st.HasDS {
			c.Read(st.DSAddr+idx*uint64(dsBytes), ds)
		}
		for i := 0; i < st.NumTargets; i++ {
			tex[i] = s.texel[i][:s.bpp[i]]
			c.Read(st.Targets[i].Addr+idx*uint64(s.bpp[i]), tex[i])
		}
		wrote, pass := st.Merge(f, z, ds, &tex)
		s.ctr[abi.FSCounterMerged]++
		if pass {
			s.ctr[abi.FSCounterPassed]++
		}
		if wrote&swom.WroteDS != 0 {
			c.Write(st.DSAddr+idx*uint64(dsBytes), ds)
		}
		for i := 0; i < st.NumTargets; i++ {
			if wrote&swom.WroteTarget(i) != 0 {
				c.Write(st.Targets[i].Addr+idx*uint64(s.bpp[i]), tex[i])
			}
		}
	}
}

// begin prepares a scratch for a CTA's waves: uniforms, the TEX stages'
// sizes, the routing flags and, on the software merger, its descriptor.
func (s *fsScratch) begin(sp *Program, c *device.CTA, env *devEnv) error {
	s.c, s.prog, s.valid = c, sp, false
	s.ctr = [abi.FSCounterWords]uint32{}
	desc := c.Arg(abi.ArgFSDesc)
	s.flags = c.Arg(abi.ArgFSFlags)
	s.samples = max(abi.UnpackFSGeometry(c.Arg(abi.ArgFSGeometry)).Samples, 1)
	readUniforms(c, desc, s.uni[:sp.prog.UniformWords], s.ub)
	if err := s.m.SetUniforms(s.uni); err != nil {
		return err
	}
	if len(sp.prog.FS.Tex) > 0 && s.flags&abi.FSFlagSWTex == 0 {
		// Descriptor set 0 (table slot 1): {w, h, levels, mip} per sampler.
		set0 := c.ReadU64(desc + 8)
		for i := range sp.prog.FS.Samplers {
			d := set0 + uint64(i)*texDescBytes
			s.tex[i] = fsTexState{w: float32(c.ReadU32(d)), h: float32(c.ReadU32(d + 4)), levels: max(c.ReadU32(d+8), 1), mip: MipFilter(c.ReadU32(d + 12))}
		}
	}
	s.swTex = s.flags&abi.FSFlagSWTex != 0 && len(sp.prog.FS.Tex) > 0
	if s.swTex {
		if env == nil || env.mem == nil {
			return fmt.Errorf("%s: software sampler routed on a kernel without device memory (open the program with a Device)", sp.fsName())
		}
		if err := s.sw.Bind(env.mem, c.Arg(abi.ArgFSSWSampler), len(sp.prog.FS.Samplers)); err != nil {
			return err
		}
	}
	s.swOM = s.flags&abi.FSFlagSWOM != 0
	a := c.Arg(abi.ArgFSSWMerger)
	if a != 0 {
		c.Read(a, s.omDesc[:])
		if err := c.Err(); err != nil {
			return err
		}
	}
	if err := s.applyMerger(sp, a != 0); err != nil {
		return err
	}
	return c.Err()
}

// applyMerger makes s.omDesc, when the draw has a software merger
// descriptor, the scratch's merger state and its targets' texel sizes; the
// merger's sample count must be the walk's, and a software-merger route
// needs a descriptor. s.swOM and s.samples are set before.
func (s *fsScratch) applyMerger(sp *Program, has bool) error {
	s.om = swom.State{}
	if !has {
		if s.swOM {
			return fmt.Errorf("%s: software merger routed without a descriptor", sp.fsName())
		}
		return nil
	}
	if err := s.om.Unmarshal(s.omDesc[:]); err != nil {
		return err
	}
	for i := 0; i < s.om.NumTargets; i++ {
		s.bpp[i] = s.om.Targets[i].Format.Info().Bytes
	}
	if s.om.Samples != s.samples {
		return fmt.Errorf("%s: a %d-sample merger on a %d-sample walk", sp.fsName(), s.om.Samples, s.samples)
	}
	return nil
}

// end adds the CTA's software counters to the draw's (one atomic per
// non-zero word, taken as one block: device.CTA.AtomicAddU32s).
func (s *fsScratch) end() {
	c := s.c
	if a := c.Arg(abi.ArgFSCounters); a != 0 && c.Err() == nil {
		c.AtomicAddU32s(a, s.ctr[:])
	}
	s.c = nil
}

// fsKernelOn is the FS wrapper. Launched by RASTER (a fragment CTA) it runs
// once per wave exactly as vortexpipe §3.4's pseudo-code: each lane reads
// FRAG_POS/FRAG_PID, loads its primitive, recomputes the edge values from the
// Q15.16 edge planes, forms the barycentrics, interpolates every varying
// plane in Q7.24 and divides by the interpolated 1/w plane, fills
// gl_FragCoord (w with rhw_scale undone) and gl_FrontFacing (!facing), reads
// flat inputs verbatim from the side array (GFX_FS_ARG_FLAT + pid·stride, the
// stride abi.SideArrayWords),
// then runs the fragment program over all lanes of the launched quads — the
// uncovered ones as helpers, so derivatives see their neighbours — and exports
// the covered, live lanes (Export). Launched as a compute grid (the software
// raster route) it walks the bins itself (swRaster).
// env is the device's environment (the software sampler's memory; nil for a
// program registered on its own).
func (sp *Program) fsKernelOn(c *device.CTA, env *devEnv) error {
	if !c.IsFragment() {
		return sp.swRaster(c, env)
	}
	n := c.Threads
	if n < 4 || n%4 != 0 || n > exec.MaxWidth {
		return fmt.Errorf("%s: a fragment wave of %d lanes", sp.fsName(), n)
	}
	if fsBatching && sp.fsBatch && c.CanStage() {
		return sp.stageWave(c, env, n) // fsbatch.go
	}
	c.FlushWaves() // this wave's exports come after any staged ones
	width := n
	if sp.fsCompact {
		// The covered lanes alone, packed in lane order (fscompact.go).
		k := 0
		for l := 0; l < n; l++ {
			k += int(c.FragPos(l) >> 31)
		}
		width = max(4, (k+3)&^3)
	}
	s, err := sp.fsScratch(c.Runner(), width)
	if err != nil {
		return err
	}
	defer sp.release(s, c.Runner(), width)
	if err := s.begin(sp, c, env); err != nil {
		return err
	}
	defer s.end()
	if s.samples != 1 {
		return fmt.Errorf("%s: RASTER launched a %d-sample wave (multisampling walks in software)", sp.fsName(), s.samples)
	}
	if sp.fsCompact {
		k := 0
		for l := 0; l < n; l++ {
			if pos := c.FragPos(l); pos>>31 != 0 {
				// smp -1: the lane shades its pixel at the centre. A kept
				// scratch may hold a software walk's per-sample lanes
				// (swraster.go); left stale they would interpolate a
				// single-sample wave at a sample it does not have, and a
				// 0 left from a fresh scratch recomputes the centre's edge
				// values (sampleEdges at sample 0 of 1) for nothing.
				s.x[k], s.y[k], s.pidL[k], s.cov[k], s.smp[k] = int32(pos&0xFFFF), int32(pos>>16&0x7FFF), c.FragPID(l), 1, -1
				k++
			}
		}
		all := uint64(1)<<k - 1
		return s.shade(sp, all, all)
	}
	var present, covered uint64
	for q := 0; q < n/4; q++ {
		var cov uint64
		for k := 0; k < 4; k++ {
			l := 4*q + k
			pos := c.FragPos(l)
			s.x[l], s.y[l], s.pidL[l] = int32(pos&0xFFFF), int32(pos>>16&0x7FFF), c.FragPID(l)
			s.cov[l], s.smp[l] = msaa.Mask(pos>>31), -1
			if pos>>31 != 0 {
				cov |= 1 << l
			}
		}
		if cov != 0 {
			present |= 0xF << (4 * q)
			covered |= cov
		}
	}
	return s.shade(sp, present, covered)
}

// release returns a scratch to its shard's hot slot for its width, or when
// that is taken to the width's free list.
func (sp *Program) release(s *fsScratch, runner, n int) {
	if sp.fsHot[shardOf(runner)][n/4-1].CompareAndSwap(nil, s) {
		return
	}
	select {
	case sp.fsFree[shardOf(runner)][n/4-1] <- s:
	default:
	}
}

// shardOf is runner's FS executor shard (runners are never negative; a
// negative one takes shard 0).
func shardOf(runner int) int { return max(runner, 0) % fsShards }

// shade prepares the present lanes and runs the program on the wave.
func (s *fsScratch) shade(sp *Program, present, covered uint64) error {
	if present == 0 {
		return nil
	}
	c := s.c
	prims, flat := c.Arg(abi.ArgFSPrimBuffer), c.Arg(abi.ArgFSFlat)
	s.inputs(sp, present, prims, flat)
	if sp.helper >= 0 {
		// A present lane the wave does not cover runs for its quad's
		// derivatives only. spec: GLSL 4.50 §7.1.2
		h := s.m.Input(sp.helper)
		for m := present; m != 0; m &= m - 1 {
			l := bits.TrailingZeros64(m)
			h[l] = uint32(^covered >> l & 1)
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

// planeZ is the Q7.24 depth plane {a, b, c} (the primitive's PlaneZ words)
// at (x, y) clamped to [0, 0xFFFFFF], in 32 bits as the FF late-Z computes
// it.
func planeZ(z *[3]int32, x, y int32) uint32 {
	v := int32(int64(z[0])*int64(x) + int64(z[1])*int64(y) + int64(z[2]))
	switch {
	case v < 0:
		return 0
	case uint32(v) > abi.DepthMask:
		return abi.DepthMask
	}
	return uint32(v)
}

// sampleZ is the depth plane at sample (sx, sy) (1/16 px from the pixel's
// top-left corner) of pixel (x, y): the centre value moved by the plane's
// slopes, clamped as planeZ.
func sampleZ(p *[abi.PrimWords]int32, x, y int32, sx, sy int) uint32 {
	zw := abi.PlaneZ.Word()
	a, b := int64(p[zw]), int64(p[zw+1])
	z16 := int64(int32(a*int64(x)+b*int64(y)+int64(p[zw+2])))*16 + a*int64(sx-8) + b*int64(sy-8)
	z := z16 >> 4
	switch {
	case z < 0:
		return 0
	case z > int64(abi.DepthMask):
		return abi.DepthMask
	}
	return uint32(z)
}

// sideBytes is the program's per-primitive side-array stride.
func sideBytes(sp *Program) uint64 {
	return uint64(4 * abi.SideArrayWords(sp.NVar(), sp.NFlat()))
}

// word is the little-endian signed word i of b.
func word(b []byte, i int) int32 { return int32(binary.LittleEndian.Uint32(b[4*i:])) }
