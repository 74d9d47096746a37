package exec

import (
	"context"
	"strings"
	"testing"

	"vortexgfx/shader/ir"
)

// geomProgram builds a points → line_strip geometry program with max_vertices
// max that, for the int count x in input word 0, emits x vertices whose output
// word is 10*i + gl_PrimitiveIDIn, ending the strip after vertex 1:
//
//	for i := 0; i < x; i++ { out = 10*i + pid; EmitVertex(); if i == 1 { EndPrimitive() } }
func geomProgram(max uint32) *ir.Program {
	p, b := newProg(ir.Geometry, 2, 1)
	p.Geometry = ir.GeometryLayout{In: ir.PrimPoints, Out: ir.PrimLineStrip, MaxVertices: max, VertexWords: 1}
	x, pid := b.Reg(ir.I32), b.Reg(ir.I32)
	b.Imm(ir.LoadInput, x, 0)
	b.Imm(ir.LoadInput, pid, uint32(p.Geometry.PrimitiveIDWord()))
	i, one, ten := b.ConstI(0), b.ConstI(1), b.ConstI(10)
	b.Ctl(ir.Loop)
	b.Ctl(ir.If, b.Op(ir.IGe, ir.Bool, i, x))
	b.Ctl(ir.Break)
	b.Ctl(ir.EndIf)
	v := b.Op(ir.IAdd, ir.I32, b.Op(ir.IMul, ir.I32, i, ten), pid)
	b.Imm(ir.StoreOutput, ir.NoReg, 0, v)
	b.Ctl(ir.Emit)
	b.Ctl(ir.If, b.Op(ir.Eq, ir.Bool, i, one))
	b.Ctl(ir.EndPrim)
	b.Ctl(ir.EndIf)
	b.Ctl(ir.Continuing)
	b.OpTo(ir.IAdd, i, i, one)
	b.Ctl(ir.EndLoop)
	return p
}

// TestGeometryEmit checks EmitVertex/EndPrimitive per lane: each lane keeps
// its own list, emits past max_vertices are dropped, EndPrimitive marks the
// next vertex as a strip start, and a second Run starts empty.
func TestGeometryEmit(t *testing.T) {
	for _, w := range []int{1, 4, 16} {
		m := mustNew(t, geomProgram(3), w)
		counts := []int32{0, 1, 2, 3, 5, 9, 4, 2, 7, 1, 0, 3, 6, 2, 8, 5}
		for l := 0; l < w; l++ {
			m.Input(0)[l] = uint32(counts[l])
			m.Input(1)[l] = uint32(l)
		}
		for run := 0; run < 2; run++ {
			if _, err := m.Run(context.Background(), m.full, m.full); err != nil {
				t.Fatal(err)
			}
			for l := 0; l < w; l++ {
				n, words, restart := m.Emitted(l)
				want := min(int(counts[l]), 3)
				if n != want {
					t.Fatalf("w=%d lane %d: %d vertices, want %d", w, l, n, want)
				}
				for i := 0; i < n; i++ {
					if words[i] != uint32(10*i+l) {
						t.Errorf("w=%d lane %d vertex %d: word %d, want %d", w, l, i, words[i], 10*i+l)
					}
					if wantR := i == 0 || i == 2; restart[i] != wantR {
						t.Errorf("w=%d lane %d vertex %d: restart %v, want %v", w, l, i, restart[i], wantR)
					}
				}
			}
		}
		// Lanes not present emit nothing.
		if _, err := m.Run(context.Background(), 0, 0); err != nil {
			t.Fatal(err)
		}
		for l := 0; l < w; l++ {
			if n, _, _ := m.Emitted(l); n != 0 {
				t.Errorf("w=%d lane %d: absent lane emitted %d", w, l, n)
			}
		}
	}
}

// TestGeometryMaxVerticesZero: max_vertices = 0 is legal and drops every emit.
func TestGeometryMaxVerticesZero(t *testing.T) {
	m := mustNew(t, geomProgram(0), 4)
	for l := 0; l < 4; l++ {
		m.Input(0)[l] = 4
	}
	if _, err := m.Run(context.Background(), m.full, m.full); err != nil {
		t.Fatal(err)
	}
	for l := 0; l < 4; l++ {
		if n, _, _ := m.Emitted(l); n != 0 {
			t.Errorf("lane %d: %d vertices with max_vertices 0", l, n)
		}
	}
}

// TestGeometryVerify covers the verifier's geometry rules.
func TestGeometryVerify(t *testing.T) {
	ok := geomProgram(3)
	if err := ir.Verify(ok); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		mod  func(p *ir.Program)
		want string
	}{
		{"emit in a vertex program", func(p *ir.Program) { p.Stage = ir.Vertex }, "emit: only allowed in geometry shaders"},
		{"output primitive as input", func(p *ir.Program) { p.Geometry.In = ir.PrimLineStrip }, "is not an input / output primitive"},
		{"input primitive as output", func(p *ir.Program) { p.Geometry.Out = ir.PrimTriangles }, "is not an input / output primitive"},
		{"too many vertices", func(p *ir.Program) { p.Geometry.MaxVertices = ir.MaxGeometryVertices + 1 }, "max_vertices 1025 exceeds"},
		{"input too small", func(p *ir.Program) { p.Geometry.In = ir.PrimTriangles }, "geometry: 2 input words, triangles needs 4"},
	}
	for _, tc := range tests {
		p := ok.Clone()
		tc.mod(p)
		err := ir.Verify(p)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", tc.name, err, tc.want)
		}
	}
}
