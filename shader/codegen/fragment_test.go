package codegen

import (
	"encoding/binary"
	"math"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"vortexgfx/abi"
	"vortexgfx/device/simt"
	"vortexgfx/gl/format"
	"vortexgfx/isa/rv32"
	"vortexgfx/shader"
	"vortexgfx/shader/glsl"
	"vortexgfx/shader/ir"
)

// runLanes runs code on one 32-lane warp at 0x1000 with word l of 0x10000 in
// a0 of lane l and stores lane l's a0 back at 0x10080 + 4l.
func runLanes(t *testing.T, code []uint32, in [32]uint32) [32]uint32 {
	t.Helper()
	m := simt.NewFlatMemory(0x1000, 0x10000)
	pre := []rv32.Inst{
		{Op: rv32.CSRRS, Rd: rT0, CSR: simt.CSRThreadID}, {Op: rv32.SLLI, Rd: rT0, Rs1: rT0, Imm: 2},
		{Op: rv32.LUI, Rd: rT1, Imm: 0x10000}, {Op: rv32.ADD, Rd: rT1, Rs1: rT1, Rs2: rT0},
		{Op: rv32.LW, Rd: 10, Rs1: rT1, Imm: 0},
	}
	post := []rv32.Inst{{Op: rv32.CSRRS, Rd: rT0, CSR: simt.CSRThreadID}, {Op: rv32.SLLI, Rd: rT0, Rs1: rT0, Imm: 2},
		{Op: rv32.LUI, Rd: rT1, Imm: 0x10000}, {Op: rv32.ADD, Rd: rT1, Rs1: rT1, Rs2: rT0},
		{Op: rv32.SW, Rs1: rT1, Rs2: 10, Imm: 0x80}, {Op: rv32.VXTMC, Rs1: rZero}}
	var words []uint32
	for _, in := range pre {
		w, err := rv32.Encode(in)
		if err != nil {
			t.Fatal(err)
		}
		words = append(words, w)
	}
	words = append(words, code...)
	for _, in := range post {
		w, err := rv32.Encode(in)
		if err != nil {
			t.Fatal(err)
		}
		words = append(words, w)
	}
	for i, w := range words {
		binary.LittleEndian.PutUint32(m.Data[4*i:], w)
	}
	for l, v := range in {
		binary.LittleEndian.PutUint32(m.Data[0x10000-0x1000+4*l:], v)
	}
	c, err := simt.New(simt.Config{Warps: 1, Threads: 32}, m)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(0, 0x1000, ^uint32(0)); err != nil {
		t.Fatal(err)
	}
	if err := c.Run(); err != nil {
		t.Fatal(err)
	}
	var out [32]uint32
	for l := range out {
		out[l] = binary.LittleEndian.Uint32(m.Data[0x10080-0x1000+4*l:])
	}
	return out
}

// TestUNorm8Exact: the export's integer unorm8 sequence is format.UNorm8 (the
// Go wrapper's floor(v·255 + 0.5) in double) bit for bit: every float near
// each of the 256 rounding boundaries, the special values and random words.
func TestUNorm8Exact(t *testing.T) {
	g := &gen{}
	g.unorm8(10, rT2, rT3, rT4, rT5)
	code, err := g.a.words()
	if err != nil {
		t.Fatal(err)
	}
	var vals []uint32
	for n := range 256 {
		b := math.Float32bits(float32((float64(n) + 0.5) / 255))
		for d := uint32(0); d < 8; d++ {
			vals = append(vals, b+d, b-d)
		}
	}
	for _, v := range []float32{0, 1, 2, 0.5, 1e-30, 1.0 / 510, 0.99999994, float32(math.Inf(1)), float32(math.Inf(-1)), -0.5} {
		vals = append(vals, math.Float32bits(v), math.Float32bits(-v))
	}
	vals = append(vals, 0x7fc00000, 0xffc00000, 0x7f800001, 0x00000001, 0x3b800000, 0x3b7fffff)
	rng := rand.New(rand.NewSource(1))
	for range 4096 {
		vals = append(vals, rng.Uint32(), math.Float32bits(rng.Float32()))
	}
	for len(vals)%32 != 0 {
		vals = append(vals, 0)
	}
	bad := 0
	for i := 0; i < len(vals); i += 32 {
		var in [32]uint32
		copy(in[:], vals[i:])
		out := runLanes(t, code, in)
		for l, v := range in {
			if want := format.UNorm8(math.Float32frombits(v)); out[l] != want && bad < 10 {
				t.Errorf("unorm8(%#08x = %g) = %d, want %d", v, math.Float32frombits(v), out[l], want)
				bad++
			}
		}
	}
}

func compileFS(t *testing.T, src string) *ir.Program {
	t.Helper()
	cp, err := shader.Compile(shader.Source{Name: "t.vert", Stage: glsl.Vertex, Text: "#version 330\nin vec4 p; out vec4 v; void main() { gl_Position = p; v = p; }"},
		shader.Source{Name: "t.frag", Stage: glsl.Fragment, Text: src})
	if err != nil {
		t.Fatal(err)
	}
	return cp.IR.FS
}

// TestCompileFragmentRefuses: what the fragment backend does not take is an
// error naming it, never a kernel.
func TestCompileFragmentRefuses(t *testing.T) {
	plain := compileFS(t, "#version 330\nin vec4 v; out vec4 o; void main() { o = v; }")
	texFS := func(decl, body string) *ir.Program {
		return compileFS(t, "#version 330\nuniform "+decl+"; in vec4 v; out vec4 o; void main() { "+body+" }")
	}
	ok := FragmentInputs{Coord: -1, Facing: -1, Helper: -1, SampleID: -1, SamplePos: -1, SampleMaskIn: -1, FragDepth: -1, SampleMask: -1,
		Interp: []FragmentInterp{{Word: 4, Front: 0, Back: 0}}, Colors: []int{0}}
	opts := FragmentOptions{WaveThreads: 16}
	if _, err := CompileFragment(plain, ok, opts); err != nil {
		t.Fatalf("the plain program: %v", err)
	}
	with := func(f func(*FragmentInputs)) FragmentInputs {
		in := ok
		in.Interp = append([]FragmentInterp(nil), ok.Interp...)
		f(&in)
		return in
	}
	for _, c := range []struct {
		name string
		p    *ir.Program
		in   FragmentInputs
		opts FragmentOptions
		want string
	}{
		{"texelFetch beside texture()", texFS("sampler2D s", "o = texelFetch(s, ivec2(v.xy), 0) + texture(s, v.zw);"), ok, opts, "beside texelFetch/textureSize"},
		{"texelFetchOffset", texFS("sampler2D s", "o = texelFetchOffset(s, ivec2(v.xy), 0, ivec2(1, 1));"), ok, opts, "texel offset"},
		{"textureQueryLevels", compileFS(t, "#version 330\n#extension GL_ARB_texture_query_levels : require\nuniform sampler2D s; in vec4 v; out vec4 o; void main() { o = vec4(textureQueryLevels(s)); }"), ok, opts, "texture op levels"},
		{"textureLodOffset", texFS("sampler2D s", "o = textureLodOffset(s, v.xy, 1.0, ivec2(1, 0));"), ok, opts, "texel offset"},
		{"textureGrad shadow", texFS("sampler2DShadow z", "o = vec4(textureGrad(z, v.xyz, v.xy, v.zw));"), ok, opts, "a shadow compare, which vx_tex has no form of"},
		{"textureSize of a 3D sampler", texFS("sampler3D s3", "o = vec4(textureSize(s3, 0), 1);"), ok, opts, "not a float 2D sampler"},
		{"shadow", texFS("sampler2DShadow z", "o = vec4(texture(z, v.xyz));"), ok, opts, "a shadow compare, which vx_tex has no form of"},
		{"3D", texFS("sampler3D s3", "o = texture(s3, v.xyz);"), ok, opts, "not a float 2D sampler"},
		{"offset", texFS("sampler2D s", "o = textureOffset(s, v.xy, ivec2(1, 0));"), ok, opts, "texel offset"},
		{"three stages", texFS("sampler2D s, s1, s2", "o = texture(s, v.xy) + texture(s1, v.zw) + texture(s2, v.yx);"), ok, opts, "exceed the 2 TEX stages"},
		{"a vertex program", nil, ok, opts, "takes a fragment program"},
		{"no lanes", plain, ok, FragmentOptions{}, "fragment wave of 0 lanes"},
		{"one face", plain, with(func(in *FragmentInputs) { in.Interp[0].Back = -1 }), opts, "one face only"},
		{"mixed planes", plain, with(func(in *FragmentInputs) { in.Interp[0].Back = 40 }), opts, "different kinds"},
		{"mixed perspective", plain, with(func(in *FragmentInputs) { in.Interp[0].BackNP = true }), opts, "different kinds"},
		{"overlap", plain, with(func(in *FragmentInputs) { in.Coord = 3 }), opts, "overlaps input word 4"},
		{"past the inputs", plain, with(func(in *FragmentInputs) { in.Facing = 99 }), opts, "gl_FrontFacing at input word 99"},
		{"colour past the outputs", plain, with(func(in *FragmentInputs) { in.Colors = []int{2} }), opts, "colour output 0 at output word 2"},
		{"frames", plain, ok, FragmentOptions{WaveThreads: 16, LMemBytes: 8}, "local memory"},
	} {
		p := c.p
		if c.name == "a vertex program" {
			p = &ir.Program{Stage: ir.Vertex}
		}
		k, err := CompileFragment(p, c.in, c.opts)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: kernel %v, error %v; want an error naming %q", c.name, k != nil, err, c.want)
		}
	}
}

// TestCompileFragmentTex: texture() on float 2D samplers compiles to one
// vx_tex per sample with the sampler index as funct2 (the TEX stage) and lod
// x0 (docs/ABI.md row 44); the draw-level behaviour is gfx/shaderdev's
// differential test.
func TestCompileFragmentTex(t *testing.T) {
	p := compileFS(t, "#version 330\nuniform sampler2D s0, s1; in vec4 v; out vec4 o;\n"+
		"void main() { o = texture(s0, v.xy) + texture(s1, v.zw) * texture(s0, v.yx).a; }")
	in := FragmentInputs{Coord: -1, Facing: -1, Helper: -1, SampleID: -1, SamplePos: -1, SampleMaskIn: -1, FragDepth: -1, SampleMask: -1,
		Interp: []FragmentInterp{{Word: 0, Front: 0, Back: 0}, {Word: 1, Front: 1, Back: 1}, {Word: 2, Front: 2, Back: 2}, {Word: 3, Front: 3, Back: 3}},
		Colors: []int{0}}
	k, err := CompileFragment(p, in, FragmentOptions{WaveThreads: 16})
	if err != nil {
		t.Fatal(err)
	}
	var stages []int32
	if k.DataWords != 2*lodTableLen {
		t.Errorf("%d data words, want the %d-entry lod table", k.DataWords, lodTableLen)
	}
	for i, w := range k.Text() {
		d, err := rv32.Decode(w)
		if err != nil {
			t.Errorf("word %d: %08x does not decode: %v", i, w, err)
			continue
		}
		if d.Op != rv32.VXTEX {
			continue
		}
		if d.Rs3 == 0 || d.Rd == 0 {
			t.Errorf("word %d: %s: want a lod register and a result register", i, rv32.Disasm(d, 0))
		}
		stages = append(stages, d.Imm)
	}
	if want := []int32{0, 1, 0}; !slices.Equal(stages, want) {
		t.Errorf("vx_tex stages %v, want %v", stages, want)
	}
}

// TestCompileFragmentExplicitLod: textureLod and textureGrad on float 2D
// samplers compile to vx_tex with a lod register (docs/ABI.md row 44):
// textureLod's lod is the shader's value clamped (no gradients, so neither
// quad shuffles nor the threshold table), textureGrad's the exact threshold
// lod over its explicit gradients (the table, no shuffles); texture() beside
// them still takes the quad's.
func TestCompileFragmentExplicitLod(t *testing.T) {
	in := FragmentInputs{Coord: -1, Facing: -1, Helper: -1, SampleID: -1, SamplePos: -1, SampleMaskIn: -1, FragDepth: -1, SampleMask: -1,
		Interp: []FragmentInterp{{Word: 0, Front: 0, Back: 0}, {Word: 1, Front: 1, Back: 1}, {Word: 2, Front: 2, Back: 2}, {Word: 3, Front: 3, Back: 3}},
		Colors: []int{0}}
	for _, c := range []struct {
		name, body   string
		tex, shuffle int
		table        bool
	}{
		{"textureLod", "o = textureLod(s0, v.xy, v.z) + textureLod(s1, v.zw, 2.5);", 2, 0, false},
		{"textureGrad", "o = textureGrad(s1, v.xy, v.zw, v.wz);", 1, 0, true},
		{"all three", "o = texture(s0, v.xy) + textureLod(s1, v.zw, v.x) + textureGrad(s0, v.yx, v.zw, v.xy);", 3, 8, true},
	} {
		p := compileFS(t, "#version 330\nuniform sampler2D s0, s1; in vec4 v; out vec4 o;\nvoid main() { "+c.body+" }")
		k, err := CompileFragment(p, in, FragmentOptions{WaveThreads: 16})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		tex, shuffle := 0, 0
		for i, w := range k.Text() {
			d, err := rv32.Decode(w)
			if err != nil {
				t.Fatalf("%s: word %d: %08x does not decode: %v", c.name, i, w, err)
			}
			switch d.Op {
			case rv32.VXTEX:
				if d.Rs3 == 0 || d.Rd == 0 {
					t.Errorf("%s: word %d: %s: want a lod register and a result register", c.name, i, rv32.Disasm(d, 0))
				}
				tex++
			case rv32.VXSHFLIDX:
				shuffle++
			}
		}
		if tex != c.tex || shuffle != c.shuffle {
			t.Errorf("%s: %d vx_tex and %d vx_shfl_idx, want %d and %d", c.name, tex, shuffle, c.tex, c.shuffle)
		}
		if got := k.DataWords == 2*lodTableLen; got != c.table || (!got && k.DataWords != 0) {
			t.Errorf("%s: %d data words, want the lod table %v", c.name, k.DataWords, c.table)
		}
	}
}

// TestCompileFragmentFetch: texelFetch and textureSize of float 2D samplers
// compile to loads from the software sampler's descriptor table at FS arg
// slot abi.ArgFSSWSampler (texfetch.go; docs/ABI.md row 49) — no vx_tex, no
// lod table; the draw-level behaviour is gfx/shaderdev's differential test.
func TestCompileFragmentFetch(t *testing.T) {
	in := FragmentInputs{Coord: -1, Facing: -1, Helper: -1, SampleID: -1, SamplePos: -1, SampleMaskIn: -1, FragDepth: -1, SampleMask: -1,
		Interp: []FragmentInterp{{Word: 0, Front: 0, Back: 0}, {Word: 1, Front: 1, Back: 1}, {Word: 2, Front: 2, Back: 2}, {Word: 3, Front: 3, Back: 3}},
		Colors: []int{0}}
	p := compileFS(t, "#version 330\nuniform sampler2D s0, s1; in vec4 v; out vec4 o;\n"+
		"void main() { o = texelFetch(s0, ivec2(v.xy), int(v.z)) + vec4(textureSize(s1, int(v.w)), 0, 1); }")
	k, err := CompileFragment(p, in, FragmentOptions{WaveThreads: 16})
	if err != nil {
		t.Fatal(err)
	}
	if k.DataWords != 0 {
		t.Errorf("%d data words, want none (no lod table)", k.DataWords)
	}
	table := 0
	var prev rv32.Inst
	for i, w := range k.Text() {
		d, err := rv32.Decode(w)
		if err != nil {
			t.Fatalf("word %d: %08x does not decode: %v", i, w, err)
		}
		if d.Op == rv32.VXTEX {
			t.Errorf("word %d: vx_tex in a texelFetch/textureSize kernel", i)
		}
		if d.Op == rv32.LW && prev.Op == rv32.CSRRS && prev.CSR == simt.CSRMscratch && d.Rs1 == prev.Rd && d.Imm == abi.ArgFSSWSampler*abi.ArgSlotBytes {
			table++
		}
		prev = d
	}
	if table != 2 {
		t.Errorf("%d loads of the FS arg block's software-sampler table, want 2 (one per op)", table)
	}
}
