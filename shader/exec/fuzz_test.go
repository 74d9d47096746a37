package exec

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"

	"vortexgfx/shader/ir"
)

// decodeProgram turns fuzz bytes into an arbitrary (usually invalid) program: a
// register file typed from the first bytes, then 8-byte instructions whose fields
// come straight from the input, and one texture record.
func decodeProgram(data []byte) *ir.Program {
	if len(data) < 4 {
		return nil
	}
	p := &ir.Program{InputWords: 4, OutputWords: 4, UniformWords: 4, FlushDenormals: data[0]&4 != 0}
	switch data[0] & 3 {
	case 1, 3:
		p.Stage = ir.Fragment
	case 2:
		// A compute program with one binding in every memory space, so that
		// memory instructions (binding 0) verify and run against fuzzMemory.
		p.Stage, p.InputWords, p.LocalSize, p.SharedBytes = ir.Compute, ir.ComputeInputWords, [3]uint32{8, 1, 1}, 16
		p.Buffers = []ir.BufferBinding{{Name: "b", Stride: 4}}
		p.Counters = []ir.CounterBinding{{Name: "c", Count: 1}}
		p.Images = []ir.ImageBinding{{Name: "i", Format: ir.FormatR32UI}}
	}
	nregs := int(data[1]%24) + 1
	data = data[2:]
	for i := 0; i < nregs; i++ {
		t := ir.F32
		if i < len(data) {
			t = ir.Type(data[i]%4) + 1
		}
		p.Regs = append(p.Regs, t)
	}
	if len(data) > nregs {
		data = data[nregs:]
	} else {
		data = nil
	}
	reg := func(b byte) ir.Reg {
		if int(b) >= nregs+2 {
			return ir.NoReg
		}
		return ir.Reg(b)
	}
	p.Samplers = []ir.SamplerBinding{{Name: "s", Kind: ir.Sampler2D, Result: ir.F32}}
	if len(data) >= 8 {
		p.Samplers[0].Kind = ir.SamplerKind(data[0] >> 3 % byte(ir.LastSamplerKind+1))
		t := ir.TexInfo{Op: ir.TexOp(data[0] % 8), Sampler: int(data[1] % 2), NCoord: int(data[2] % 5),
			HasOffsets: data[2]&0x80 != 0, Offsets: [4][2]int32{{int32(data[3]), -1}, {0, 1}, {2, 3}, {-8, 7}},
			Coord: [4]ir.Reg{reg(data[3]), reg(data[4]), ir.NoReg, ir.NoReg},
			Dst:   [4]ir.Reg{reg(data[5]), reg(data[6]), ir.NoReg, ir.NoReg},
			Lod:   reg(data[7]), Bias: ir.NoReg, Compare: ir.NoReg,
			DPdx: [3]ir.Reg{ir.NoReg, ir.NoReg, ir.NoReg}, DPdy: [3]ir.Reg{ir.NoReg, ir.NoReg, ir.NoReg}}
		p.Tex = append(p.Tex, t)
		data = data[8:]
	}
	for len(data) >= 8 && len(p.Code) < 200 {
		in := ir.Inst{
			Op:     ir.Op(data[0] % uint8(ir.NumOps+1)),
			Dst:    reg(data[1]),
			Src:    [4]ir.Reg{reg(data[2]), reg(data[3]), reg(data[4]), reg(data[5])},
			Imm:    uint32(data[6] % 8),
			Len:    uint32(data[7] % 8),
			Stride: uint32(data[7] >> 3 % 4),
		}
		if in.Op == ir.Const {
			in.Imm = uint32(data[6]) * 0x01010101
			if p.Regs[min(int(in.Dst), nregs-1)] == ir.Bool {
				in.Imm &= 1
			}
		}
		p.Code = append(p.Code, in)
		data = data[8:]
	}
	return p
}

type fuzzSampler struct{}

func (fuzzSampler) Texture(r *TexRequest) error {
	for i := range r.Out {
		for l := range r.Out[i] {
			r.Out[i][l] = math.Float32bits(float32(i))
		}
	}
	return nil
}

// FuzzExec decodes arbitrary bytes into a program; whatever verifies must run (and,
// optimised, run again) without panicking or hanging, with the same results on the
// compiled path as on the generic interpreter. spec: CONVENTIONS (bad input
// never panics or hangs).
func FuzzExec(f *testing.F) {
	f.Add([]byte{0, 3, 1, 2, 3})
	f.Add([]byte{1, 4, 1, 1, 4, 4, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0x3f, 0, 18, 1, 0, 0, 9, 9, 0, 0})
	f.Add([]byte{0, 2, 2, 4, byte(ir.Loop), 0, 0, 0, 0, 0, 0, 0, byte(ir.EndLoop), 0, 0, 0, 0, 0, 0, 0})
	// Compute: three uint registers, a texture record, then a buffer load, a
	// counter atomic, a barrier and a shared store.
	f.Add([]byte{2, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0,
		byte(ir.MemLoad), 1, 0, 255, 255, 255, 0, 0,
		byte(ir.MemAtomic), 2, 0, 1, 1, 255, 0, 2 | 1<<3,
		byte(ir.Barrier), 255, 255, 255, 255, 255, 0, 0,
		byte(ir.MemStore), 255, 0, 2, 255, 255, 0, 1})
	// A flushing fragment program; a 1D-array textureQueryLod record and a
	// multisample fetch record.
	f.Add([]byte{5, 3, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0,
		byte(ir.FMul), 2, 0, 1, 255, 255, 0, 0})
	f.Add([]byte{1, 4, 1, 1, 1, 1, 0, 0, byte(ir.TexQueryLod) | byte(ir.Sampler1DArray)<<3, 0, 1, 0, 1, 0, 1, 255,
		byte(ir.Tex), 255, 255, 255, 255, 255, 0, 0})
	f.Add([]byte{0, 4, 2, 2, 2, 2, 0, 0, byte(ir.TexFetch) | byte(ir.Sampler2DMS)<<3, 0, 2, 0, 1, 2, 3, 0,
		byte(ir.Tex), 255, 255, 255, 255, 255, 0, 0})
	f.Fuzz(fuzzOne)
}

// fuzzOne runs one FuzzExec input.
func fuzzOne(t *testing.T, data []byte) {
	p := decodeProgram(data)
	if p == nil || ir.Verify(p) != nil {
		return
	}
	o, err := ir.Optimize(p)
	if err != nil {
		return
	}
	var mems [2]*sliceMemory // per program: memory after the width-4 workgroup run
	var oks [2]bool
	for qi, q := range []*ir.Program{p, o} {
		if err := ir.Verify(q); err != nil {
			t.Fatalf("optimised program fails verification: %v\n%s", err, q)
		}
		_ = q.String()
		// The compiled path and the generic interpreter agree bit for bit.
		checkSame(t, q, uint64(len(data)))
		for _, w := range []int{1, 4, 8} {
			m, err := New(q, Config{Width: w, MaxSteps: 5000})
			if err != nil {
				t.Fatalf("verified program rejected by New: %v", err)
			}
			m.SetSampler(fuzzSampler{})
			m.SetMemory(fuzzMemory())
			if err := m.SetUniforms(make([]uint32, 4)); err != nil {
				t.Fatal(err)
			}
			for i := 0; i < 4; i++ {
				for l := range m.Input(i) {
					m.Input(i)[l] = uint32(l*0x01000193 + i)
				}
			}
			if _, err := m.Run(context.Background(), m.full, m.full&0x5); err != nil && !errors.Is(err, ErrBudget) {
				t.Fatalf("run: %v", err)
			}
			if q.Stage != ir.Compute {
				continue
			}
			// The same program as a workgroup of 8 invocations (barriers yield).
			wg, err := NewWorkgroup(q, Config{Width: w, MaxSteps: 5000})
			if err != nil {
				t.Fatalf("verified compute program rejected by NewWorkgroup: %v", err)
			}
			wg.SetSampler(fuzzSampler{})
			if err := wg.SetUniforms(make([]uint32, 4)); err != nil {
				t.Fatal(err)
			}
			mem := fuzzMemory()
			err = wg.Run(context.Background(), WorkgroupIDs{Num: [3]uint32{1, 1, 1}}, mem)
			if err != nil && !errors.Is(err, ErrBudget) {
				t.Fatalf("workgroup run: %v", err)
			}
			if w == 4 {
				mems[qi], oks[qi] = mem, err == nil
			}
		}
	}
	// Optimisation must not change what a compute program leaves in memory.
	if oks[0] && oks[1] {
		for _, pair := range [][2][]uint32{{mems[0].buf[0], mems[1].buf[0]}, {mems[0].counter[0], mems[1].counter[0]}, {mems[0].image[0], mems[1].image[0]}} {
			if !slices.Equal(pair[0], pair[1]) {
				t.Fatalf("optimised program leaves %v, original %v\n%s\n%s", pair[1], pair[0], p, o)
			}
		}
	}
}

// fuzzMemory backs every binding with 8 words and 2x2x2 images: fuzzed addresses
// are mostly out of bounds, which the Machine must drop before calling it.
func fuzzMemory() *sliceMemory {
	m := newSliceMemory()
	m.buf[0], m.counter[0], m.image[0] = make([]uint32, 8), make([]uint32, 8), make([]uint32, 8)
	m.extent[0] = [3]uint32{2, 2, 2}
	return m
}
