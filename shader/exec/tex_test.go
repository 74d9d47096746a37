package exec

import (
	"context"
	"math"
	"testing"

	"vortexgfx/shader/ir"
)

// gradSampler returns, per lane, the coordinate and the gradients it was given, so
// the test can see what the executor passed; it counts its calls.
type gradSampler struct {
	calls int
	last  TexRequest
}

func (s *gradSampler) Texture(r *TexRequest) error {
	s.calls++
	s.last.Mask, s.last.Grads, s.last.Op = r.Mask, r.Grads, r.Op
	for l := 0; l < r.Width; l++ {
		if r.Mask>>l&1 == 0 {
			continue
		}
		r.Out[0][l] = math.Float32bits(r.Coord[0][l])
		r.Out[1][l] = math.Float32bits(r.DPdx[0][l])
		r.Out[2][l] = math.Float32bits(r.DPdy[1][l])
		r.Out[3][l] = math.Float32bits(r.Bias[l])
	}
	return nil
}

// TestTextureImplicitLOD checks that an implicit-LOD sample in a fragment program
// is one sampler call per instruction with the quad's coordinate gradients, and the
// results land in the destination registers of the active lanes only.
func TestTextureImplicitLOD(t *testing.T) {
	p, b := newProg(ir.Fragment, 2, 4)
	p.Samplers = []ir.SamplerBinding{{Name: "tex", Kind: ir.Sampler2D, Result: ir.F32}}
	u, v := b.Reg(ir.F32), b.Reg(ir.F32)
	b.Imm(ir.LoadInput, u, 0)
	b.Imm(ir.LoadInput, v, 1)
	bias := b.ConstF(0.25)
	var dst [4]ir.Reg
	for i := range dst {
		dst[i] = b.Reg(ir.F32)
	}
	no3 := [3]ir.Reg{ir.NoReg, ir.NoReg, ir.NoReg}
	p.Tex = []ir.TexInfo{{Op: ir.TexSample, Sampler: 0, Dst: dst, Coord: [4]ir.Reg{u, v, ir.NoReg, ir.NoReg}, NCoord: 2,
		Lod: ir.NoReg, Bias: bias, Compare: ir.NoReg, DPdx: no3, DPdy: no3}}
	b.Emit(ir.Inst{Op: ir.Tex, Dst: ir.NoReg, Src: [4]ir.Reg{ir.NoReg, ir.NoReg, ir.NoReg, ir.NoReg}})
	for i := range dst {
		b.Imm(ir.StoreOutput, ir.NoReg, uint32(i), dst[i])
	}
	m := mustNew(t, p, 8)
	s := &gradSampler{}
	m.SetSampler(s)
	for l := 0; l < 8; l++ {
		px, py := 2*(l/4)+l&1, (l>>1)&1
		m.Input(0)[l] = math.Float32bits(float32(px) / 8)  // du/dx = 1/8
		m.Input(1)[l] = math.Float32bits(float32(py) / 16) // dv/dy = 1/16
	}
	if _, err := m.Run(context.Background(), 0xff, 0x0f); err != nil {
		t.Fatal(err)
	}
	if s.calls != 1 || s.last.Grads != 2 || s.last.Mask != 0xff {
		t.Fatalf("calls %d grads %d mask %#x, want 1 call, 2 gradients, all lanes", s.calls, s.last.Grads, s.last.Mask)
	}
	for l := 0; l < 8; l++ {
		if got := f32(m.Output(1)[l]); got != 0.125 {
			t.Errorf("lane %d du/dx = %v, want 0.125", l, got)
		}
		if got := f32(m.Output(2)[l]); got != 0.0625 {
			t.Errorf("lane %d dv/dy = %v, want 0.0625", l, got)
		}
		if got := f32(m.Output(3)[l]); got != 0.25 {
			t.Errorf("lane %d bias = %v, want 0.25", l, got)
		}
	}
	// No sampler: a defined error, not a panic.
	m.SetSampler(nil)
	if _, err := m.Run(context.Background(), 0xff, 0xff); err != ErrNoSampler {
		t.Fatalf("got %v, want ErrNoSampler", err)
	}
}

// TestConfigErrors checks that bad configurations and buffers are errors.
func TestConfigErrors(t *testing.T) {
	p, b := newProg(ir.Fragment, 0, 1)
	p.UniformWords = 2
	b.Imm(ir.StoreOutput, ir.NoReg, 0, b.Imm(ir.LoadUniform, b.Reg(ir.F32), 1))
	for _, w := range []int{0, 6, 65} {
		if _, err := New(p, Config{Width: w}); err == nil {
			t.Errorf("width %d accepted", w)
		}
	}
	m := mustNew(t, p, 4)
	if _, err := m.Run(context.Background(), 0xf, 0xf); err == nil {
		t.Error("run without uniforms accepted")
	}
	if err := m.SetUniforms([]uint32{1}); err == nil {
		t.Error("short uniform buffer accepted")
	}
	bad := &ir.Program{Regs: []ir.Type{ir.F32}, Code: []ir.Inst{{Op: ir.FAdd, Dst: 0, Src: [4]ir.Reg{0, 5}}}}
	if _, err := New(bad, Config{Width: 4}); err == nil {
		t.Error("unverifiable program accepted")
	}
}
