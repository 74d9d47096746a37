package shaderdev_test

import (
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"vortexgfx/config"
	"vortexgfx/gfx/session"
	"vortexgfx/gfx/shaderdev"
	"vortexgfx/shader/ir"
)

// drawTestProgram draws TestShaderDrawMatchesRef's indexed, instanced pair of
// triangles with cfg and returns the colour target and the draw's counters.
func drawTestProgram(t *testing.T, cfg config.Config, strict bool) ([]uint32, session.DrawStats, error) {
	t.Helper()
	const W, H = 64, 48
	p := link(t, testVS, testFS)
	if err := p.SetUniform("u_scale", ir.F32, []uint32{math.Float32bits(0.8)}); err != nil {
		t.Fatal(err)
	}
	sp, err := shaderdev.NewProgram("isa.prog", p.IR)
	if err != nil {
		t.Fatal(err)
	}
	verts := [][6]float32{
		{9, 9, 9, 0, 0, 0},
		{-0.4, -0.8, 0, 1, 0, 0}, {0.4, -0.6, 0.5, 0, 1, 0}, {0, 0.1, 1, 0, 0, 1},
		{-0.4, 0.2, 0.2, 1, 1, 0}, {0, 0.9, 0.6, 0, 1, 1}, {0.4, 0.3, 0, 1, 0, 1},
	}
	words := p.AttribWords()
	pos, _ := p.Attribute("a_pos")
	col, _ := p.Attribute("a_col")
	raw := make([]byte, 4*len(verts)*words)
	for i, v := range verts {
		for k := range 3 {
			binary.LittleEndian.PutUint32(raw[4*(i*words+pos.Word+k):], math.Float32bits(v[k]))
			binary.LittleEndian.PutUint32(raw[4*(i*words+col.Word+k):], math.Float32bits(v[3+k]))
		}
	}
	attrs := make([]shaderdev.AttribBinding, len(sp.Attributes()))
	for i, s := range sp.Attributes() {
		attrs[i] = shaderdev.AttribBinding{Data: raw, Offset: uint64(4 * s.Word), Stride: uint64(4 * words)}
	}
	dev, err := shaderdev.Open(cfg, W, H, []*shaderdev.Program{sp})
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	if err := dev.Clear(0, 0xFFFFFF); err != nil {
		t.Fatal(err)
	}
	idx := []uint32{0, 1, 2, 3, 4, 5}
	ds, err := dev.Draw(&shaderdev.Draw{Program: sp, Attribs: attrs, Indices: idx, Count: len(idx), Instances: 2, BaseVertex: 1,
		Uniforms: p.Uniforms, Merge: omAll(), StrictISA: strict})
	if err != nil {
		return nil, ds, err
	}
	px, err := dev.Color()
	if err != nil {
		t.Fatal(err)
	}
	return px, ds, nil
}

// TestVertexStageISADraw draws the same scene with cores = "ir" and cores =
// "isa": the machine-code vertex stage gives the same image bit for bit (the
// program is exact under codegen's rules), and the route says where the VS
// ran. A core whose LMEM cannot hold the kernel's frames makes codegen refuse:
// the draw then runs the IR kernel with the reason in Route.Why — the same
// image again — or fails with ErrISARefused under StrictISA.
// spec: vortexpipe §2.3.2; docs/ABI.md row 39
func TestVertexStageISADraw(t *testing.T) {
	irCfg := config.Default()
	want, irSt, err := drawTestProgram(t, irCfg, false)
	if err != nil {
		t.Fatal(err)
	}
	if irSt.Route.VSISA {
		t.Errorf("cores = ir: the route says the VS ran as machine code")
	}
	isaCfg := config.Default()
	isaCfg.Device.Cores = config.CoresISA
	got, st, err := drawTestProgram(t, isaCfg, true)
	if err != nil {
		t.Fatal(err)
	}
	if !st.Route.VSISA {
		t.Errorf("cores = isa: the VS did not run as machine code (route %+v)", st.Route)
	}
	if !slices.Equal(got, want) {
		t.Errorf("cores = isa: the image differs from cores = ir")
	}
	small := isaCfg
	small.Device.LocalMemBytes = 512 // 64 threads × a 16-byte frame do not fit
	got, st, err = drawTestProgram(t, small, false)
	if err != nil {
		t.Fatal(err)
	}
	if st.Route.VSISA || !slices.ContainsFunc(st.Route.Why, func(w string) bool {
		return strings.HasPrefix(w, "vs: IR executor: ") && strings.Contains(w, "local memory")
	}) {
		t.Errorf("refused VS: route %+v, want the IR kernel with the reason", st.Route)
	}
	if !slices.Equal(got, want) {
		t.Errorf("refused VS: the image differs from cores = ir")
	}
	if _, _, err := drawTestProgram(t, small, true); !errors.Is(err, shaderdev.ErrISARefused) {
		t.Errorf("refused VS under StrictISA: %v, want ErrISARefused", err)
	}
}
