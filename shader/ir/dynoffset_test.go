package ir

import (
	"strings"
	"testing"
)

// TestDynOffset covers a gather's run-time offset registers
// (TexInfo.DynOffset, ARB_gpu_shader5's textureGatherOffset): the verifier
// takes two int registers on a gather without constant offsets and refuses
// anything else, and the optimizer keeps (and renames) the registers the
// record names, so the offset computation survives.
func TestDynOffset(t *testing.T) {
	build := func(edit func(p *Program, ti *TexInfo)) *Program {
		p := &Program{Stage: Fragment, InputWords: 4, OutputWords: 1}
		p.Samplers = []SamplerBinding{{Name: "s", Kind: Sampler2D, Result: F32}}
		b := NewBuilder(p)
		b.Reg(F32) // r0, unused: the live registers move down when compacted
		u := b.Imm(LoadInput, b.Reg(F32), 0)
		v := b.Imm(LoadInput, b.Reg(F32), 1)
		ox := b.Imm(LoadInput, b.Reg(I32), 2)
		oy := b.Op(IAdd, I32, b.Imm(LoadInput, b.Reg(I32), 3), b.ConstI(1))
		d := b.Reg(F32)
		no3 := [3]Reg{NoReg, NoReg, NoReg}
		ti := TexInfo{Op: TexGather, Sampler: 0, Dst: [4]Reg{d, NoReg, NoReg, NoReg}, Coord: [4]Reg{u, v, NoReg, NoReg}, NCoord: 2,
			Lod: NoReg, Bias: NoReg, Compare: NoReg, DPdx: no3, DPdy: no3, DynOffset: [2]Reg{ox, oy}, HasDynOffset: true}
		if edit != nil {
			edit(p, &ti)
		}
		p.Tex = append(p.Tex, ti)
		b.Emit(Inst{Op: Tex, Dst: NoReg, Src: nosrc(), Imm: 0})
		b.Imm(StoreOutput, NoReg, 0, d)
		return p
	}
	p := build(nil)
	if err := Verify(p); err != nil {
		t.Fatal(err)
	}
	if s := p.String(); !strings.Contains(s, "offset(r") {
		t.Errorf("printed record lacks the run-time offset:\n%s", s)
	}
	q, err := Optimize(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := Verify(q); err != nil {
		t.Fatalf("optimized: %v\n%s", err, q)
	}
	ti := q.Tex[0]
	if !ti.HasDynOffset {
		t.Fatalf("optimizer dropped the run-time offset:\n%s", q)
	}
	for k, r := range ti.DynOffset {
		written := false
		for _, in := range q.Code {
			if in.Op.HasDst() && in.Dst == r {
				written = true
			}
		}
		if !written {
			t.Errorf("offset register %d (r%d) is written by no instruction after optimizing:\n%s", k, r, q)
		}
	}
	rejects := []struct {
		name string
		edit func(p *Program, ti *TexInfo)
		want string
	}{
		{"on a sample", func(p *Program, ti *TexInfo) { ti.Op = TexSample }, "run-time offset on a sample"},
		{"with a constant offset", func(p *Program, ti *TexInfo) { ti.HasOffset = true }, "run-time offset"},
		{"missing register", func(p *Program, ti *TexInfo) { ti.DynOffset[1] = NoReg }, "without its registers"},
		{"float register", func(p *Program, ti *TexInfo) { ti.DynOffset[0] = ti.Coord[0] }, "offset r"},
	}
	for _, tc := range rejects {
		err := Verify(build(tc.edit))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
}
