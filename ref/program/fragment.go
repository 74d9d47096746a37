package program

import (
	"context"
	"fmt"
	"math"

	"vortexgfx/ref"
	"vortexgfx/shader/exec"
	"vortexgfx/shader/ir"
)

// FragmentShader runs a program's fragment stage as ref's fragment stage:
// Width/4 quads per executor run, helpers present but not live.
type FragmentShader struct {
	p     *Program
	ctx   context.Context
	m     *exec.Machine
	tu    *texUnit
	reads []bool // varying words the program loads (VaryingsRead)
	// alone: lanes never depend on the others of their quad, so ref
	// need not interpolate helper lanes (HelpersUnused)
	alone bool
	// packed: the executor's lane arrays as ref.PackedLanes (alone only)
	packed *ref.PackedLanes
	// sample is the sample the pass draws (SetSample; 0 without a call).
	sample int
	// dest holds the destination colours of the quads of the next
	// ShadeQuads call, for a program that fetches them (fetch.go).
	dest []ref.FetchedColors
}

// NewFragmentShader returns the fragment stage of p bound to ctx.
func (p *Program) NewFragmentShader(ctx context.Context) (*FragmentShader, error) {
	if p.IR.FS == nil {
		return nil, fmt.Errorf("program: fragment %w", ErrNoStage)
	}
	m, err := exec.New(p.IR.FS, exec.Config{Width: p.fw})
	if err != nil {
		return nil, err
	}
	if err := m.SetUniforms(p.Uniforms); err != nil {
		return nil, err
	}
	f := &FragmentShader{p: p, ctx: ctx, m: m, tu: newTexUnit(p, p.fw), reads: inputsRead(p.IR.FS, p.nvary), alone: lanesIndependent(p.IR.FS)}
	m.SetSampler(f.tu)
	if err := f.SetSample(0, 1, 8, 8); err != nil {
		return nil, err
	}
	if f.alone && p.fsPrim < 0 {
		// Packed lanes carry no primitive id.
		f.packed = f.packedLanes()
	}
	return f, nil
}

// packedLanes returns the executor's input and output arrays as the lanes
// ref packs into (Packed): exactly the words runPacked copies.
func (f *FragmentShader) packedLanes() *ref.PackedLanes {
	p, m := f.p, f.m
	pl := &ref.PackedLanes{Width: p.fw}
	in := p.IR.FS.InputWords
	for iw := 0; iw < p.nvary && iw < in; iw++ {
		var a []uint32
		if f.reads[iw] {
			a = m.Input(iw)
		}
		pl.Varyings = append(pl.Varyings, a)
	}
	if w := p.fsFrag[0]; w >= 0 {
		for c := range 4 {
			pl.FragCoord[c] = m.Input(w + c)
		}
	}
	if w := p.fsFrag[1]; w >= 0 {
		pl.FrontFacing = m.Input(w)
	}
	if w := p.fsFrag[2]; w >= 0 {
		for c := range 2 {
			pl.PointCoord[c] = m.Input(w + c)
		}
	}
	if w := p.fsFrag[3]; w >= 0 {
		clear(m.Input(w)) // packed lanes are covered: none is a helper
	}
	for rt := 0; rt < p.fsColors; rt++ {
		var c [4][]uint32
		for k := range 4 {
			c[k] = m.Output(4*rt + k)
		}
		pl.Color = append(pl.Color, c)
	}
	if w := p.fsDepth; w >= 0 {
		pl.Depth = m.Output(w)
	}
	return pl
}

// Packed implements ref.FragmentPacked: the executor's own lane arrays, for
// a program whose lanes are independent (nil otherwise).
func (f *FragmentShader) Packed() *ref.PackedLanes { return f.packed }

// ShadePacked implements ref.FragmentPacked: one run of lanes 0..n-1 of the
// arrays ref filled, as runPacked runs the lanes it gathers.
func (f *FragmentShader) ShadePacked(n int, tex ref.Textures) (uint64, error) {
	if f.packed == nil || n < 0 || n > f.p.fw {
		return 0, fmt.Errorf("program: %d packed lanes for a %d-lane fragment warp", n, f.p.fw)
	}
	f.tu.tex = tex
	f.m.SetMemory(f.p.mem)
	present := uint64(1)<<uint(n) - 1
	if n == 64 {
		present = math.MaxUint64
	}
	out, err := f.m.Run(f.ctx, present, present)
	return f.maskLive(out, n), err
}

// CloneFragment implements ref.FragmentCloner: each of ref's workers shades
// with its own executor.
func (f *FragmentShader) CloneFragment() ref.FragmentShader {
	c, err := f.p.NewFragmentShader(f.ctx)
	if err != nil {
		// New succeeded on the same program once, so it cannot fail now;
		// a clone that could not be made reports the error when used.
		return ref.FragmentFunc(func([]ref.Quad, ref.Textures) error { return err })
	}
	c.copySample(f)
	return c
}

// EarlyDepthSafe implements ref.FragmentEarlyDepth: a program that does not write
// gl_FragDepth and has no memory stores or atomics (memory.go) only colours its own quads,
// shades each quad on its own (derivatives never cross quads), so ref may skip quads
// its depth test already rejects without changing any output.
func (f *FragmentShader) EarlyDepthSafe() bool { return f.p.fsDepth < 0 && effectFree(f.p.IR.FS) }

// VaryingsRead implements ref.FragmentVaryingUse: varying word w is read
// when the fragment program has a LoadInput of input word w (the executor
// reads inputs through nothing else), so ref interpolates only those.
func (f *FragmentShader) VaryingsRead() []bool { return f.reads }

// HelpersUnused implements ref.FragmentHelperFree: a program without
// derivatives, texture operations or memory access computes each lane from
// its own inputs, so ref need not interpolate the helpers, and ShadeQuads
// runs only the covered lanes, packed into whole warps (see shadePacked).
func (f *FragmentShader) HelpersUnused() bool { return f.alone }

// lanesIndependent reports whether prog (its main code and functions) has no
// instruction that reads another lane or shared state: no derivative, no vote, no
// texture operation (implicit LODs come from the quad), no memory or image
// access and no barrier.
func lanesIndependent(prog *ir.Program) bool {
	return !prog.AnyInst(func(in *ir.Inst) bool {
		switch in.Op {
		case ir.DdxFine, ir.DdyFine, ir.DdxCoarse, ir.DdyCoarse, ir.Tex, ir.VoteAny, ir.VoteAll, ir.VoteEq,
			ir.MemLoad, ir.MemStore, ir.MemAtomic, ir.MemSize, ir.ImageExtent, ir.ImageFormatOf, ir.Barrier:
			return true
		}
		return false
	})
}

// inputsRead returns, for each of the first n input words, whether prog
// (its main code or a function) loads it.
func inputsRead(prog *ir.Program, n int) []bool {
	r := make([]bool, n)
	mark := func(code []ir.Inst) {
		for _, in := range code {
			if in.Op == ir.LoadInput && int(in.Imm) < n {
				r[in.Imm] = true
			}
		}
	}
	mark(prog.Code)
	for _, fn := range prog.Funcs {
		mark(fn.Code)
	}
	return r
}

// ShadeQuads implements ref.FragmentShader. Lane 4k+l of a run is lane l of
// quad k: pixel (X + l&1, Y + l>>1), so the executor's quad derivatives are
// ref's window-space ones (dFdy from the row above), except for programs
// whose lanes are independent, which run only the covered lanes, packed
// (shadePacked). spec: vortexpipe-driver §2.2.
func (f *FragmentShader) ShadeQuads(quads []ref.Quad, tex ref.Textures) error {
	f.tu.tex = tex
	f.m.SetMemory(f.p.mem)
	if f.alone {
		return f.shadePacked(quads)
	}
	p, m := f.p, f.m
	per := p.fw / 4
	nv := p.nvary
	in := p.IR.FS.InputWords
	for q0 := 0; q0 < len(quads); q0 += per {
		n := min(per, len(quads)-q0)
		batch := quads[q0 : q0+n]
		var live uint64
		for iw := 0; iw < nv && iw < in; iw++ {
			if !f.reads[iw] {
				continue // never loaded: ref left it uninterpolated
			}
			arr := m.Input(iw)[:4*n]
			for k := range batch {
				qv := batch[k].Varyings[iw : 3*nv+iw+1]
				a := arr[4*k : 4*k+4 : 4*k+4]
				a[0], a[1], a[2], a[3] = qv[0], qv[nv], qv[2*nv], qv[3*nv]
			}
		}
		for k := range batch {
			q := &batch[k]
			live |= uint64(^q.Helper&0xF) << uint(4*k)
		}
		if w := p.fsFrag[0]; w >= 0 {
			for c := 0; c < 4; c++ {
				arr := m.Input(w + c)
				for k := range batch {
					for l := 0; l < 4; l++ {
						arr[4*k+l] = math.Float32bits(batch[k].FragCoord[l][c])
					}
				}
			}
		}
		if w := p.fsFrag[1]; w >= 0 {
			arr := m.Input(w)
			for k := range batch {
				v := uint32(0)
				if batch[k].FrontFacing {
					v = 1
				}
				for l := 0; l < 4; l++ {
					arr[4*k+l] = v
				}
			}
		}
		if w := p.fsFrag[2]; w >= 0 {
			for c := 0; c < 2; c++ {
				arr := m.Input(w + c)
				for k := range batch {
					for l := 0; l < 4; l++ {
						arr[4*k+l] = math.Float32bits(batch[k].PointCoord[l][c])
					}
				}
			}
		}
		if w := p.fsFrag[3]; w >= 0 {
			arr := m.Input(w)
			for k := range batch {
				for l := 0; l < 4; l++ {
					arr[4*k+l] = uint32(batch[k].Helper) >> l & 1
				}
			}
		}
		if w := p.fsPrim; w >= 0 {
			arr := m.Input(w)
			for k := range batch {
				for l := 0; l < 4; l++ {
					arr[4*k+l] = uint32(batch[k].PrimitiveID)
				}
			}
		}
		if len(p.IR.Fetch) > 0 {
			f.loadFetch(q0, n)
		}
		present := uint64(1)<<uint(4*n) - 1
		if 4*n == 64 {
			present = math.MaxUint64
		}

		out, err := m.Run(f.ctx, present, live)
		if err != nil {
			return err
		}
		out = f.maskLive(out, 4*n)
		for k := range batch {
			batch[k].Live = uint8(out>>uint(4*k)) & 0xF
		}
		for rt := 0; rt < p.fsColors; rt++ {
			for c := 0; c < 4; c++ {
				arr := m.Output(4*rt + c)[:4*n]
				for k := range batch {
					col := &batch[k].Color[rt]
					a := arr[4*k : 4*k+4 : 4*k+4]
					col[0][c], col[1][c], col[2][c], col[3][c] = a[0], a[1], a[2], a[3]
				}
			}
		}
		if w := p.fsSrc1; w >= 0 {
			for c := 0; c < 4; c++ {
				arr := m.Output(w + c)[:4*n]
				for k := range batch {
					col := &batch[k].Color1
					a := arr[4*k : 4*k+4 : 4*k+4]
					col[0][c], col[1][c], col[2][c], col[3][c] = a[0], a[1], a[2], a[3]
				}
			}
		}
		for k := range batch {
			q := &batch[k]
			if w := p.fsDepth; w >= 0 {
				arr := m.Output(w)
				for l := 0; l < 4; l++ {
					q.Depth[l] = ir.BitsF32(arr[4*k+l])
				}
				q.DepthWritten = true
			}
		}
	}
	return nil
}

// shadePacked is ShadeQuads for a program whose lanes are independent
// (HelpersUnused): helpers compute nothing another lane needs, so only the
// covered lanes run, packed in order into whole warps (lane j of a run is
// the j-th covered lane of the batch). Each covered lane gets the outputs
// it gets in its quad's own warp; helper lanes keep their outputs and are
// reported discarded.
func (f *FragmentShader) shadePacked(quads []ref.Quad) error {
	w := f.p.fw
	var lanes [64]uint16 // quad index << 2 | lane, for the run's lanes
	k := 0
	for i := range quads {
		q := &quads[i]
		cov := ^q.Helper & 0xF
		q.Live = 0
		q.DepthWritten = f.p.fsDepth >= 0
		for l := range 4 {
			if cov&(1<<l) == 0 {
				continue
			}
			lanes[k] = uint16(i<<2 | l)
			k++
			if k == w {
				if err := f.runPacked(quads, lanes[:k]); err != nil {
					return err
				}
				k = 0
			}
		}
	}
	if k > 0 {
		return f.runPacked(quads, lanes[:k])
	}
	return nil
}

// runPacked runs the lanes of quads listed in lanes (quad index << 2 |
// lane) as lanes 0.. of one warp and stores their outputs.
func (f *FragmentShader) runPacked(quads []ref.Quad, lanes []uint16) error {
	p, m := f.p, f.m
	nv := p.nvary
	in := p.IR.FS.InputWords
	for iw := 0; iw < nv && iw < in; iw++ {
		if !f.reads[iw] {
			continue // never loaded: ref left it uninterpolated
		}
		arr := m.Input(iw)[:len(lanes)]
		for j, ql := range lanes {
			arr[j] = quads[ql>>2].Varyings[int(ql&3)*nv+iw]
		}
	}
	if w := p.fsFrag[0]; w >= 0 {
		for c := 0; c < 4; c++ {
			arr := m.Input(w + c)[:len(lanes)]
			for j, ql := range lanes {
				arr[j] = math.Float32bits(quads[ql>>2].FragCoord[ql&3][c])
			}
		}
	}
	if w := p.fsFrag[1]; w >= 0 {
		arr := m.Input(w)[:len(lanes)]
		for j, ql := range lanes {
			v := uint32(0)
			if quads[ql>>2].FrontFacing {
				v = 1
			}
			arr[j] = v
		}
	}
	if w := p.fsFrag[2]; w >= 0 {
		for c := 0; c < 2; c++ {
			arr := m.Input(w + c)[:len(lanes)]
			for j, ql := range lanes {
				arr[j] = math.Float32bits(quads[ql>>2].PointCoord[ql&3][c])
			}
		}
	}
	if w := p.fsFrag[3]; w >= 0 {
		clear(m.Input(w)) // only covered lanes run here: none is a helper
	}
	if w := p.fsPrim; w >= 0 {
		arr := m.Input(w)[:len(lanes)]
		for j, ql := range lanes {
			arr[j] = uint32(quads[ql>>2].PrimitiveID)
		}
	}
	if len(p.IR.Fetch) > 0 {
		f.loadFetchPacked(lanes)
	}
	present := uint64(1)<<uint(len(lanes)) - 1
	if len(lanes) == 64 {
		present = math.MaxUint64
	}
	out, err := m.Run(f.ctx, present, present)
	if err != nil {
		return err
	}
	out = f.maskLive(out, len(lanes))
	for j, ql := range lanes {
		quads[ql>>2].Live |= uint8(out>>uint(j)&1) << (ql & 3)
	}
	for rt := 0; rt < p.fsColors; rt++ {
		for c := 0; c < 4; c++ {
			arr := m.Output(4*rt + c)[:len(lanes)]
			for j, ql := range lanes {
				quads[ql>>2].Color[rt][ql&3][c] = arr[j]
			}
		}
	}
	if w := p.fsSrc1; w >= 0 {
		for c := 0; c < 4; c++ {
			arr := m.Output(w + c)[:len(lanes)]
			for j, ql := range lanes {
				quads[ql>>2].Color1[ql&3][c] = arr[j]
			}
		}
	}
	if w := p.fsDepth; w >= 0 {
		arr := m.Output(w)[:len(lanes)]
		for j, ql := range lanes {
			quads[ql>>2].Depth[ql&3] = ir.BitsF32(arr[j])
		}
	}
	return nil
}
