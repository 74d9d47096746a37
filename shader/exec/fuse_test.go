package exec

import (
	"context"
	"math/rand/v2"
	"testing"

	"vortexgfx/shader/ir"
)

// fusedPrograms builds one program per fused shape (see fuse.go): multiply-add
// with the product as the add's first, second or both operands, with the
// destinations aliasing the sources, and runs of broadcasts and of copies whose
// later members read earlier ones. Each stores the values it computes to outputs.
func fusedPrograms() map[string]*ir.Program {
	ps := map[string]*ir.Program{}
	mk := func(name string, body func(b *ir.Builder, x, y, c ir.Reg) []ir.Reg) {
		p, b := newProg(ir.Vertex, 4, 4)
		p.UniformWords = 4
		x := b.Imm(ir.LoadInput, b.Reg(ir.F32), 0)
		y := b.Imm(ir.LoadInput, b.Reg(ir.F32), 1)
		c := b.Imm(ir.LoadInput, b.Reg(ir.F32), 2)
		b.Imm(ir.LoadInput, b.Reg(ir.F32), 3)
		for i, r := range body(b, x, y, c) {
			b.Imm(ir.StoreOutput, ir.NoReg, uint32(i), r)
		}
		if err := ir.Verify(p); err != nil {
			panic(name + ": " + err.Error() + "\n" + p.String())
		}
		ps[name] = p
	}
	mk("mul-add TC", func(b *ir.Builder, x, y, c ir.Reg) []ir.Reg {
		p := b.Op(ir.FMul, ir.F32, x, y)
		return []ir.Reg{b.Op(ir.FAdd, ir.F32, p, c), p}
	})
	mk("mul-add CT", func(b *ir.Builder, x, y, c ir.Reg) []ir.Reg {
		p := b.Op(ir.FMul, ir.F32, x, y)
		return []ir.Reg{b.Op(ir.FAdd, ir.F32, c, p), p}
	})
	mk("mul-add TT", func(b *ir.Builder, x, y, c ir.Reg) []ir.Reg {
		p := b.Op(ir.FMul, ir.F32, x, y)
		return []ir.Reg{b.Op(ir.FAdd, ir.F32, p, p), p}
	})
	mk("mul-add into mul source", func(b *ir.Builder, x, y, c ir.Reg) []ir.Reg {
		p := b.Op(ir.FMul, ir.F32, x, y)
		b.OpTo(ir.FAdd, x, p, x)
		return []ir.Reg{x, p, y}
	})
	mk("mul-add accumulate", func(b *ir.Builder, x, y, c ir.Reg) []ir.Reg {
		b.OpTo(ir.FMul, x, x, y)
		b.OpTo(ir.FAdd, x, c, x)
		b.OpTo(ir.FMul, y, y, y)
		b.OpTo(ir.FAdd, y, y, y)
		return []ir.Reg{x, y}
	})
	mk("mul-add into add source", func(b *ir.Builder, x, y, c ir.Reg) []ir.Reg {
		p := b.Op(ir.FMul, ir.F32, x, c)
		b.OpTo(ir.FAdd, c, p, c)
		q := b.Op(ir.FMul, ir.F32, c, y)
		b.OpTo(ir.FAdd, q, q, x)
		return []ir.Reg{c, p, q}
	})
	mk("broadcasts", func(b *ir.Builder, x, y, c ir.Reg) []ir.Reg {
		u0 := b.Imm(ir.LoadUniform, b.Reg(ir.F32), 0)
		k := b.ConstF(0.25)
		u3 := b.Imm(ir.LoadUniform, b.Reg(ir.F32), 3)
		b.Imm(ir.LoadUniform, x, 1) // overwrites an input register
		return []ir.Reg{u0, k, u3, x}
	})
	mk("copies", func(b *ir.Builder, x, y, c ir.Reg) []ir.Reg {
		a := b.Op(ir.Mov, ir.F32, x)
		d := b.Op(ir.Mov, ir.F32, a)
		b.OpTo(ir.Mov, x, y)
		b.OpTo(ir.Mov, y, d)
		return []ir.Reg{a, d, x, y}
	})
	return ps
}

// TestFusedEdgeOperands runs every fused shape on the compiled path and the
// generic one over every pair of diffWords and random words (NaNs of both signs
// and payloads, infinities, denormals, zeros of both signs), flushing and IEEE,
// with full, low, scattered and single-lane masks: outputs and every register
// must be equal bit for bit, and the fused groups must be in use.
func TestFusedEdgeOperands(t *testing.T) {
	for _, w := range []int{16, 7, 1} {
		testFused(t, w)
	}
}

func testFused(t *testing.T, w int) {
	var words []uint32
	for _, a := range diffWords {
		for _, b := range diffWords {
			words = append(words, a, b)
		}
	}
	rng := rand.New(rand.NewPCG(3, 9))
	for i := 0; i < 1024; i++ {
		words = append(words, rng.Uint32())
	}
	uni := []uint32{0x7fc0beef, 0x00000001, 0x80000000, 0xffc12345}
	for name, p := range fusedPrograms() {
		for _, dn := range []Denormals{DenormalsFlush, DenormalsIEEE} {
			var ms [2]*Machine
			for i := range ms {
				m, err := New(p, Config{Width: w, Denormals: dn})
				if err != nil {
					t.Fatal(err)
				}
				if err := m.SetUniforms(uni); err != nil {
					t.Fatal(err)
				}
				ms[i] = m
			}
			fusedAt := func(op ir.Op) bool {
				for pc, st := range ms[0].compiled {
					if st.multi != nil && ms[0].code[pc].Op == op {
						return true
					}
				}
				return false
			}
			first := map[string]ir.Op{"broadcasts": ir.LoadUniform, "copies": ir.LoadInput}[name]
			if first == 0 {
				first = ir.FMul
			}
			if !fusedAt(first) {
				t.Fatalf("%s: no fused group starts at a %v\n%s", name, first, p)
			}
			ms[1].useGeneric()
			for base := 0; base < len(words); base += 3 * w {
				for _, exec := range []uint64{0xffff, 0x00ff, 0x007f, 0x5a5a, 0x8001, 0x0001} {
					if exec &= 1<<w - 1; exec == 0 {
						continue
					}
					for i, m := range ms {
						for in := 0; in < 4; in++ {
							for l := 0; l < w; l++ {
								m.Input(in)[l] = words[(base+in*w+l)%len(words)]
							}
						}
						if _, err := m.Run(context.Background(), exec, exec); err != nil {
							t.Fatal(err)
						}
						_ = i
					}
					if l := firstDiff(ms[0].out, ms[1].out); l >= 0 {
						t.Fatalf("width %d: %s denormals %d exec %#x: output word %d: fused %#x, generic %#x\n%s", w, name, dn, exec, l, ms[0].out[l], ms[1].out[l], p)
					}
					if l := firstDiff(ms[0].regs, ms[1].regs); l >= 0 {
						t.Fatalf("%s denormals %d exec %#x: register word %d: fused %#x, generic %#x\n%s", name, dn, exec, l, ms[0].regs[l], ms[1].regs[l], p)
					}
					if ms[0].Steps() != ms[1].Steps() || ms[0].LaneOps() != ms[1].LaneOps() {
						t.Fatalf("%s: steps %d/%d lane ops %d/%d", name, ms[0].Steps(), ms[1].Steps(), ms[0].LaneOps(), ms[1].LaneOps())
					}
				}
			}
		}
	}
}
