package shaderdev

import (
	"bytes"
	"context"
	"fmt"
	"math/bits"

	"vortexgfx/abi"
	"vortexgfx/device"
	"vortexgfx/device/swom"
	"vortexgfx/gl/msaa"
	"vortexgfx/shader/exec"
	"vortexgfx/shader/ir"
)

// Cross-wave execution batching of the §3.4 wrapper. RASTER's waves are
// small — its packer flushes on owner change, same-pixel collision, full and
// end of bin (rasterizer §8), so a wave of a small primitive carries a few
// covered lanes — and the executor's cost is mostly per instruction, not per
// lane. A fragment program whose waves cannot see one another's effects is
// therefore shaded several waves at a time: each wave does the wrapper's
// head on its own CTA (the routing words, the uniforms, FRAG_POS/FRAG_PID,
// its primitives and inputs: every read, in the same order, as unbatched),
// placed in the next lanes of one exec.MaxWidth-lane executor, and stages
// the rest (device.CTA.Stage); when the raster worker's staged waves flush,
// the executor runs them all in one call (fsBatch.Shade) and each wave's
// tail — its export through the OM or the software merger and its
// counters — runs on a CTA restored to that wave, in launch order
// (fsBatch.Finish). The exports are per wave, lane order within the wave,
// waves in launch order: the same fragments reach the OM in the same order
// with the same words, so images, OM/TEX records and every counter are as
// unbatched.
//
// It is sound when nothing a later wave's shading reads can be changed by an
// earlier wave's tail, and when a lane's results do not depend on the lanes
// of other waves (fsBatchable): the program has no storage buffer, image or
// atomic, no barrier; derivatives and gl_HelperInvocation are quad-local,
// and every wave starts on a whole quad (a compacted wave, fscompact.go,
// has neither and packs its covered lanes alone). Textures are read-only
// for a draw (shaderdev's are uploads of their own, never a target), so
// sampling early changes no texel; the FF sampler's requests are sampled
// in the batched run without being counted (device.CTA.TexLines), logged
// per wave in the wave's order, and recorded on the wave's CTA by Finish
// before its export (device.CTA.TexRecord), so TEX READS and the tcache
// record are as unbatched; the software sampler counts nothing. Waves join
// a batch only with the same routing words, uniforms, TEX stages, sampler
// table and merger descriptor as its first one (fsHead); anything else
// flushes the batch first. A batched run that fails (the step budget, a
// sample that would fault) or exports more than once is run again wave by
// wave in Finish, so errors name the wave they come from as unbatched.

// fsBatching turns cross-wave batching on, and fsBatchWaveByWave makes
// every batch take Finish's wave-by-wave path (tests compare both with
// batching off).
var fsBatching, fsBatchWaveByWave = true, false

// fsBatchable reports whether the fragment program's waves may share an
// executor run (see above): every operation in its code and functions is
// lane-local arithmetic, control flow, its inputs, outputs, registers or
// uniforms, discard or demote, a quad-local derivative or helper test, a
// texture sample, or the export.
func fsBatchable(p *ir.Program) bool {
	ok := func(code []ir.Inst) bool {
		for i := range code {
			switch op := code[i].Op; {
			case op.IsPure(), op.IsControl():
			case op == ir.Nop, op == ir.LoadInput, op == ir.StoreOutput, op == ir.LoadUniform,
				op == ir.LoadUniformIdx, op == ir.ArrayLoad, op == ir.ArrayStore, op == ir.Discard, op == ir.Demote,
				op == ir.DdxFine, op == ir.DdyFine, op == ir.DdxCoarse, op == ir.DdyCoarse, op == ir.IsHelper, op == ir.Tex, op == ir.Export:
			default:
				return false
			}
		}
		return true
	}
	if !ok(p.Code) {
		return false
	}
	for _, f := range p.Funcs {
		if !ok(f.Code) {
			return false
		}
	}
	return true
}

// fsHead is what the wrapper's head reads that the whole batch shares: the
// routing flags, the walk's samples, the uniform bytes, the TEX stages'
// sizes, the software sampler's table and the software merger's
// descriptor.
type fsHead struct {
	flags   uint64
	samples int
	ub      []byte
	tex     [abi.TexNumStages]fsTexState
	swTex   bool
	swArg   uint64 // the software sampler's descriptor table (swTex)
	merger  bool
	omDesc  [swom.DescBytes]byte
}

// same reports whether h and o route and shade a wave alike.
func (h *fsHead) same(o *fsHead) bool {
	return h.flags == o.flags && h.samples == o.samples && h.merger == o.merger && bytes.Equal(h.ub, o.ub) &&
		h.tex == o.tex && h.swTex == o.swTex && h.swArg == o.swArg && (!h.merger || h.omDesc == o.omDesc)
}

// readHead reads the wave's head into b.probe with exactly the device
// accesses fsScratch.begin makes, in its order: the descriptor table,
// flags and geometry arguments, the uniform words, each TEX stage's size
// and mip mode (FF sampler), or the software sampler's table, which it
// binds unless the batch's staged waves are bound to it already (flushing
// them first when they are bound to another), then the merger argument and
// its descriptor.
func (b *fsBatch) readHead(sp *Program, c *device.CTA, env *devEnv) error {
	h, s := &b.probe, b.s
	desc := c.Arg(abi.ArgFSDesc)
	h.flags = c.Arg(abi.ArgFSFlags)
	h.samples = max(abi.UnpackFSGeometry(c.Arg(abi.ArgFSGeometry)).Samples, 1)
	if n := sp.prog.UniformWords; n > 0 {
		b := h.ub[:4*n]
		if v := c.ReadView(c.ReadU64(desc), b); &v[0] != &b[0] {
			copy(b, v)
		}
	}
	h.tex = [abi.TexNumStages]fsTexState{}
	if len(sp.prog.FS.Tex) > 0 && h.flags&abi.FSFlagSWTex == 0 {
		// Descriptor set 0 (table slot 1): {w, h, levels, mip} per sampler.
		set0 := c.ReadU64(desc + 8)
		for i := range sp.prog.FS.Samplers {
			d := set0 + uint64(i)*texDescBytes
			h.tex[i] = fsTexState{w: float32(c.ReadU32(d)), h: float32(c.ReadU32(d + 4)), levels: max(c.ReadU32(d+8), 1), mip: MipFilter(c.ReadU32(d + 12))}
		}
	}
	h.swTex, h.swArg = h.flags&abi.FSFlagSWTex != 0 && len(sp.prog.FS.Tex) > 0, 0
	if h.swTex {
		if env == nil || env.mem == nil {
			return fmt.Errorf("%s: software sampler routed on a kernel without device memory (open the program with a Device)", sp.fsName())
		}
		h.swArg = c.Arg(abi.ArgFSSWSampler)
		// A batch never outlives its frame kick, in which the table's
		// bytes do not change; the next batch binds afresh (the host may
		// rewrite a table in place between kicks).
		if len(b.waves) == 0 || !b.swBound || b.swArg != h.swArg {
			if len(b.waves) > 0 {
				c.FlushWaves()
			}
			b.swBound = false
			if err := s.sw.Bind(env.mem, h.swArg, len(sp.prog.FS.Samplers)); err != nil {
				return err
			}
			b.swBound, b.swArg = true, h.swArg
		}
	}
	a := c.Arg(abi.ArgFSSWMerger)
	h.merger = a != 0
	if h.merger {
		c.Read(a, h.omDesc[:])
	}
	return c.Err()
}

// applyHead makes h the scratch's routing and uniforms, as begin does after
// its reads, with its errors.
func (s *fsScratch) applyHead(sp *Program, h *fsHead) error {
	s.flags, s.samples = h.flags, h.samples
	n := sp.prog.UniformWords
	copy(s.ub, h.ub[:4*n])
	for i := range n {
		s.uni[i] = uint32(h.ub[4*i]) | uint32(h.ub[4*i+1])<<8 | uint32(h.ub[4*i+2])<<16 | uint32(h.ub[4*i+3])<<24
	}
	if err := s.m.SetUniforms(s.uni); err != nil {
		return err
	}
	s.tex, s.swTex = h.tex, h.swTex
	s.swOM = s.flags&abi.FSFlagSWOM != 0
	if h.merger {
		s.omDesc = h.omDesc
	}
	return s.applyMerger(sp, h.merger)
}

// fsBatch is one raster worker's staged waves of one program: an
// exec.MaxWidth-lane scratch whose routing and uniforms are the batch's
// (head), the lanes used so far, and per wave its lanes.
type fsBatch struct {
	sp               *Program
	s                *fsScratch
	runner           int // the runner s was taken for (its shard)
	head             fsHead
	probe            fsHead // the next wave's head, read before it joins
	n                int    // lanes staged
	present, covered uint64
	waves            []fsStagedWave
	// applied: head is the scratch's routing and uniforms (applyHead
	// succeeded on it, and the scratch has served no other wave since);
	// swBound: its software sampler is bound to the table at swArg.
	applied, swBound bool
	swArg            uint64
	// Per lane the staged wave it belongs to, per wave its FF vx_tex
	// requests of the batched run (each: n, then its n cache lines), the
	// CTA Shade samples through, and whether a request would have faulted.
	laneWave [exec.MaxWidth]uint8
	texLog   [][]uint64
	texLines []uint64
	shadeCTA *device.CTA
	texFail  bool
	// Shade's outcome: the run's one export mask, how many exports it
	// made, and whether Finish must run each wave alone.
	expMask uint64
	words   []uint32 // the run's output words (the executor's, until its next run)
	exports int
	perWave bool
}

// fsStagedWave is one staged wave's lanes in the batch's executor.
type fsStagedWave struct {
	lanes, present, covered uint64
}

// workerBatch returns c's raster worker's batch for sp, taking a
// full-width scratch for it when it has none.
func (sp *Program) workerBatch(c *device.CTA) (*fsBatch, error) {
	b, _ := c.WorkerBatch().(*fsBatch)
	if b == nil {
		b = &fsBatch{}
	}
	if c.PendingWaves() != device.WaveBatch(b) {
		b.reset() // a kick that ended before its flush left it
	}
	if b.sp != sp {
		if b.s != nil {
			b.sp.release(b.s, b.runner, exec.MaxWidth)
		}
		n := 4 * max(sp.prog.UniformWords, 1)
		b.sp, b.s, b.head.ub, b.probe.ub, b.applied, b.swBound = sp, nil, make([]byte, n), make([]byte, n), false, false
	}
	if b.s == nil {
		s, err := sp.fsScratch(c.Runner(), exec.MaxWidth)
		if err != nil {
			return nil, err
		}
		b.s, b.runner, b.applied, b.swBound = s, c.Runner(), false, false
	}
	return b, nil
}

// reset empties the batch.
func (b *fsBatch) reset() {
	b.n, b.present, b.covered, b.waves = 0, 0, 0, b.waves[:0]
	b.expMask, b.words, b.exports, b.perWave = 0, nil, 0, false
}

// stageWave is fsKernelOn for a batchable program on a CTA that can stage:
// the wave's head on c, its lanes into the worker's batch, the rest staged.
func (sp *Program) stageWave(c *device.CTA, env *devEnv, n int) error {
	width := n
	if sp.fsCompact {
		width = 0
		for l := 0; l < n; l++ {
			width += int(c.FragPos(l) >> 31)
		}
	}
	b, err := sp.workerBatch(c)
	if err != nil {
		return err
	}
	if len(b.waves) > 0 && b.n+width > exec.MaxWidth {
		c.FlushWaves()
	}
	if err := b.readHead(sp, c, env); err != nil {
		return err
	}
	if len(b.waves) > 0 && !b.probe.same(&b.head) {
		c.FlushWaves()
	}
	s := b.s
	s.c, s.prog, s.valid = c, sp, false
	s.ctr = [abi.FSCounterWords]uint32{}
	if len(b.waves) == 0 && (!b.applied || !b.probe.same(&b.head)) {
		// A new head (the last batch's, when it is the same, is still the
		// scratch's routing and uniforms).
		b.head, b.probe = b.probe, b.head
		b.applied = false
		if err := s.applyHead(sp, &b.head); err != nil {
			return err
		}
		b.applied = true
	}
	// From here the unbatched wrapper would end with its counters (end).
	fail := func(err error) error {
		s.end()
		return err
	}
	if s.samples != 1 {
		return fail(fmt.Errorf("%s: RASTER launched a %d-sample wave (multisampling walks in software)", sp.fsName(), s.samples))
	}
	base := b.n
	var present, covered uint64
	if sp.fsCompact {
		k := base
		for l := 0; l < n; l++ {
			if pos := c.FragPos(l); pos>>31 != 0 {
				s.x[k], s.y[k], s.pidL[k], s.cov[k], s.smp[k] = int32(pos&0xFFFF), int32(pos>>16&0x7FFF), c.FragPID(l), 1, -1
				k++
			}
		}
		present = (uint64(1)<<width - 1) << base
		covered = present
	} else {
		for q := 0; q < n/4; q++ {
			var cov uint64
			for k := 0; k < 4; k++ {
				l, bl := 4*q+k, base+4*q+k
				pos := c.FragPos(l)
				s.x[bl], s.y[bl], s.pidL[bl] = int32(pos&0xFFFF), int32(pos>>16&0x7FFF), c.FragPID(l)
				s.cov[bl], s.smp[bl] = msaa.Mask(pos>>31), -1
				if pos>>31 != 0 {
					cov |= 1 << bl
				}
			}
			if cov != 0 {
				present |= 0xF << (base + 4*q)
				covered |= cov
			}
		}
	}
	if present != 0 {
		// shade's head: the wave's primitives and inputs.
		prims, flat := c.Arg(abi.ArgFSPrimBuffer), c.Arg(abi.ArgFSFlat)
		s.inputs(sp, present, prims, flat)
		if sp.helper >= 0 {
			h := s.m.Input(sp.helper)
			for m := present; m != 0; m &= m - 1 {
				l := bits.TrailingZeros64(m)
				h[l] = uint32(^covered >> l & 1)
			}
		}
		if err := c.Err(); err != nil {
			return fail(err)
		}
	}
	lanes := (uint64(1)<<width - 1) << base // width 64: every lane (the shift is 0)
	for l := base; l < base+width; l++ {
		b.laneWave[l] = uint8(len(b.waves))
	}
	b.waves = append(b.waves, fsStagedWave{lanes: lanes, present: present, covered: covered})
	b.n += width
	b.present, b.covered = b.present|present, b.covered|covered
	s.c = nil
	if err := c.Stage(b, len(b.waves)-1); err != nil {
		b.waves = b.waves[:len(b.waves)-1]
		return err
	}
	return nil
}

// Shade runs every staged wave's lanes in one executor call; their exports
// are taken, not made (fsScratch.Export), and made per wave by Finish.
func (b *fsBatch) Shade(c *device.CTA) {
	s := b.s
	b.expMask, b.exports, b.perWave, b.texFail = 0, 0, false, false
	for len(b.texLog) < len(b.waves) {
		b.texLog = append(b.texLog, nil)
	}
	for i := range b.waves {
		b.texLog[i] = b.texLog[i][:0]
	}
	if b.present == 0 {
		return
	}
	b.shadeCTA = c
	defer func() { b.shadeCTA = nil }()
	b.sp.fsBatchRuns.Add(1)
	b.sp.fsBatchWaves.Add(int64(len(b.waves)))
	s.batch = b
	_, err := s.m.Run(context.Background(), b.present, b.covered)
	s.batch = nil
	b.perWave = err != nil || b.exports > 1 || b.texFail || fsBatchWaveByWave
}

// take is the batched run's export: it keeps the mask for Finish.
func (b *fsBatch) take(req *exec.ExportRequest) {
	b.exports++
	b.expMask, b.words = req.Mask, req.Words
}

// Finish is staged wave i's tail on c: its export (as the executor's Export
// would have made it, from the batched run's outputs — or, when the batched
// run cannot stand for the wave's own, from the wave run alone), then its
// counters. spec: vortexpipe §3.4
func (b *fsBatch) Finish(c *device.CTA, i int) error {
	if i < 0 || i >= len(b.waves) {
		return fmt.Errorf("%s: staged wave %d of %d", b.sp.fsName(), i, len(b.waves))
	}
	w, s, sp := &b.waves[i], b.s, b.sp
	s.c = c
	s.ctr = [abi.FSCounterWords]uint32{}
	defer s.end()
	if w.present == 0 {
		return nil
	}
	if b.perWave {
		if _, err := s.m.Run(context.Background(), w.present, w.covered); err != nil {
			return fmt.Errorf("%s: %w", sp.fsName(), err)
		}
		return c.Err()
	}
	// The wave's vx_tex requests, in its order, then its export.
	for log, k := b.texLog[i], 0; k < len(log); {
		n := int(log[k])
		c.TexRecord(log[k+1 : k+1+n])
		k += 1 + n
	}
	if err := c.Err(); err != nil {
		return err
	}
	if b.exports == 1 {
		req := exec.ExportRequest{Mask: b.expMask & w.lanes, Width: exec.MaxWidth, Words: b.words}
		if err := s.Export(&req); err != nil {
			return fmt.Errorf("%s: %w", sp.fsName(), err)
		}
	}
	return c.Err()
}

// texture is fsScratch.Texture's FF vx_tex in a batched run: per lane in
// lane order the same level of detail, coordinates and texel, sampled
// through CTA.TexLines, the request logged for its wave (Finish records it
// on the wave's CTA); a request that would fault makes Finish run every
// wave alone.
func (b *fsBatch) texture(s *fsScratch, req *exec.TexRequest) error {
	if !ffTexReq(req) || req.Sampler < 0 || req.Sampler >= len(s.tex) {
		return fmt.Errorf("vx_tex: texture op %v on sampler %d", req.Op, req.Sampler)
	}
	ts := &s.tex[req.Sampler]
	for l := 0; l < req.Width; l++ {
		if req.Mask>>l&1 == 0 {
			continue
		}
		t, lines, ok := b.shadeCTA.TexLines(req.Sampler, s23(req.Coord[0][l]), s23(req.Coord[1][l]), ts.lod(req, l), b.texLines[:0])
		b.texLines = lines
		if !ok {
			b.texFail = true
		}
		log := append(b.texLog[b.laneWave[l]], uint64(len(lines)))
		b.texLog[b.laneWave[l]] = append(log, lines...)
		texelOut(req, l, t)
	}
	return nil
}

// Done empties the batch for the worker's next waves.
func (b *fsBatch) Done() { b.reset() }
