package shaderdev

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand"
	"reflect"
	"slices"
	"testing"

	"vortexgfx/abi"
	"vortexgfx/config"
	"vortexgfx/device"
	"vortexgfx/device/swom"
	"vortexgfx/gfx/session"
	"vortexgfx/gl/blend"
	"vortexgfx/gl/compare"
)

// TestFSBatchDecision pins which fragment programs' waves may share an
// executor run: those that touch no memory but their textures; derivatives,
// gl_HelperInvocation, flat inputs and discard are lane- or quad-local.
func TestFSBatchDecision(t *testing.T) {
	for _, tc := range []struct {
		name, decl, body string
		want             bool
	}{
		{"arithmetic", "", `o = vec4(normalize(v_col) * 0.5, 1.0);`, true},
		{"control flow and discard", "", `vec3 c = v_col; for (int i = 0; i < 3; i++) { if (c.r > 0.5) c = c.gbr; } if (c.g < 0.1) discard; o = vec4(c, 1.0);`, true},
		{"derivative", "", `o = vec4(dFdx(v_col.r), fwidth(v_col.g), 0.0, 1.0);`, true},
		{"flat input", "flat in int v_id;", `o = vec4(float(v_id % 4) * 0.25);`, true},
		{"unused sampler", "uniform sampler2D u_tex;", `o = vec4(v_col, 1.0);`, true},
		{"texture", "uniform sampler2D u_tex;", `o = texture(u_tex, v_col.xy);`, true},
		{"texelFetch", "uniform sampler2D u_tex;", `o = texelFetch(u_tex, ivec2(v_col.xy * 8.0), 0);`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := "#version 130\nin vec3 v_col; out vec4 o; " + tc.decl + "\nvoid main() { " + tc.body + " }"
			sp, _ := compileProgram(t, "batch."+tc.name, compactVS, fs)
			if sp.fsBatch != tc.want {
				t.Errorf("fsBatch = %v, want %v", sp.fsBatch, tc.want)
			}
		})
	}
	sp, _ := compileProgram(t, "batch.helper", "#version 450\nin vec3 a_pos; void main() { gl_Position = vec4(a_pos, 1.0); }",
		"#version 450\nout vec4 o;\nvoid main() { o = vec4(gl_HelperInvocation ? 1.0 : 0.0, dFdy(gl_FragCoord.x), 0.0, 1.0); }")
	if !sp.fsBatch {
		t.Error("a program reading gl_HelperInvocation and a derivative does not batch")
	}
}

// TestFSBatchHead: a wave joins a batch only when it routes and shades
// alike — flags, samples, every uniform byte and the merger descriptor.
func TestFSBatchHead(t *testing.T) {
	base := fsHead{flags: 5, samples: 1, ub: []byte{1, 2, 3, 4}, merger: true}
	base.omDesc[7] = 9
	for _, tc := range []struct {
		name string
		edit func(h *fsHead)
		same bool
	}{
		{"identical", func(*fsHead) {}, true},
		{"flags", func(h *fsHead) { h.flags ^= 1 << 40 }, false},
		{"samples", func(h *fsHead) { h.samples = 4 }, false},
		{"a uniform byte", func(h *fsHead) { h.ub[3] ^= 1 }, false},
		{"merger", func(h *fsHead) { h.merger = false }, false},
		{"merger descriptor", func(h *fsHead) { h.omDesc[100] = 1 }, false},
	} {
		h := base
		h.ub = slices.Clone(base.ub)
		tc.edit(&h)
		if got := h.same(&base); got != tc.same {
			t.Errorf("%s: same = %v, want %v", tc.name, got, tc.same)
		}
	}
	// Without a merger its descriptor bytes are not read, so not compared.
	a, b := base, base
	a.merger, b.merger = false, false
	b.omDesc[3] = 1
	if !a.same(&b) {
		t.Error("heads without a merger differ by stale descriptor bytes")
	}
}

// fsBatchPrograms are the differential test's fragment programs: one that
// compacts (lane-free, with discard and a lane-dependent loop), and one on
// whole quads (derivatives, a flat input, facing and gl_FragCoord), and
// one sampling a mipmapped texture (the LOD from quad derivatives).
var fsBatchPrograms = []struct{ name, fs string }{
	{"texture", `#version 130
uniform sampler2D u_tex; in vec3 v_col; out vec4 o;
void main() {
	vec4 t = texture(u_tex, v_col.xy * 3.0);
	if (t.a < 0.1) discard;
	o = vec4(t.rgb * 0.7 + v_col * 0.3, 0.8);
}`},
	{"compact", `#version 130
in vec3 v_col; out vec4 o;
void main() {
	vec3 c = v_col;
	if (fract(gl_FragCoord.x * 0.37 + c.b * 3.0) < 0.2) discard;
	for (int i = 0; i < int(c.r * 5.0); i++) { if (c.r > c.g) c = c.gbr * 0.9; }
	o = vec4(c, 0.6);
}`},
	{"quads", `#version 130
in vec3 v_col; flat in int v_id; out vec4 o;
void main() {
	vec3 c = gl_FrontFacing ? v_col : v_col.bgr;
	if (c.g < 0.05) discard;
	o = vec4(c.r + abs(dFdx(c.g)) * 8.0, c.g * 0.5 + float(v_id % 3) * 0.2, fwidth(c.b) * 4.0 + gl_FragCoord.z * 0.5, 0.7);
}`},
}

// TestFSBatchDraw is the differential test of cross-wave batching: two
// thousand small, overlapping triangles of both windings (most waves a few
// lanes) drawn with depth test and blending, on the FF and the software
// merger and the FF and the software sampler, with one and three raster
// workers, give with batching the same colour and depth planes and every
// counter (cycles, memory operations, TEX/OM cache counters) as without —
// and many waves share each run.
func TestFSBatchDraw(t *testing.T) {
	const W, H, N = 96, 80, 2000
	defer func() { fsBatching, fsBatchWaveByWave = true, false }()
	for _, pc := range fsBatchPrograms {
		sp, p := compileProgram(t, "batch."+pc.name, compactVS, pc.fs)
		if !sp.fsBatch {
			t.Fatalf("%s: the program does not batch", pc.name)
		}
		words := p.AttribWords()
		pos, _ := p.Attribute("a_pos")
		col, _ := p.Attribute("a_col")
		r := rand.New(rand.NewSource(21))
		raw := make([]byte, 4*3*N*words)
		put := func(v, w int, f float32) { binary.LittleEndian.PutUint32(raw[4*(v*words+w):], math.Float32bits(f)) }
		for tr := range N {
			cx, cy, s := r.Float32()*2-1, r.Float32()*2-1, 0.01+r.Float32()*0.1
			for k := range 3 {
				v := 3*tr + k
				put(v, pos.Word, cx+(r.Float32()*2-1)*s)
				put(v, pos.Word+1, cy+(r.Float32()*2-1)*s)
				put(v, pos.Word+2, r.Float32())
				for j := range 3 {
					put(v, col.Word+j, r.Float32())
				}
			}
		}
		attrs := make([]AttribBinding, len(sp.Attributes()))
		for i, s := range sp.Attributes() {
			attrs[i] = AttribBinding{Data: raw, Offset: uint64(4 * s.Word), Stride: uint64(4 * words)}
		}
		// One texture per draw: the second draw's sampler descriptors
		// may land where the first's were, with other bytes.
		var texs [2][]Texture
		if len(sp.Samplers()) > 0 {
			for i := range texs {
				px := make([]byte, 4*32*32)
				r.Read(px)
				texs[i] = []Texture{{Width: 32, Height: 32, Pixels: px, Bilinear: i == 0, Mip: MipLinear}}
			}
		}
		var m swom.State
		m.Targets[0].Blend = swom.Blend{Enable: true, WriteMask: 0xF, EqRGB: blend.Add, EqA: blend.Add,
			SrcRGB: blend.SrcAlpha, SrcA: blend.One, DstRGB: blend.OneMinusSrcAlpha, DstA: blend.Zero}
		m.DepthTest, m.DepthWrite, m.DepthFunc = true, true, compare.LessEqual
		type result struct {
			c, z []uint32
			st   []session.DrawStats
			core []uint64 // the cores' MPM counters: cycles, instret, waves, threads, memory operations
		}
		draw := func(batch bool, workers int, force Units) result {
			t.Helper()
			fsBatching = batch
			cfg := config.Default()
			cfg.Raster.Workers = workers
			dev, err := Open(cfg, W, H, []*Program{sp})
			if err != nil {
				t.Fatal(err)
			}
			defer dev.Close()
			dev.SetForceSW(force)
			if err := dev.Clear(0x20406080, 0xFFFFFF); err != nil {
				t.Fatal(err)
			}
			var sts []session.DrawStats
			// Two draws: the second's waves test against the first's depth,
			// in a kick (and batches) of its own.
			for i := range 2 {
				st, err := dev.Draw(&Draw{Program: sp, Attribs: attrs, Count: 3 * N, Uniforms: p.Uniforms, Merge: m, Textures: texs[i]})
				if err != nil {
					t.Fatal(err)
				}
				sts = append(sts, st)
			}
			c, z, err := dev.Targets()
			if err != nil {
				t.Fatal(err)
			}
			// The cores' own counters, memory operations exactly (the
			// cycles round them per wave).
			var core []uint64
			for _, csr := range []int{abi.CSRMCycle, abi.CSRMInstret, device.CSRCoreWaves, device.CSRCoreThreads, device.CSRCoreMemOps} {
				v, err := dev.ds.Runtime.PerfCounter(abi.MPMCore, csr, -1)
				if err != nil {
					t.Fatal(err)
				}
				core = append(core, v)
			}
			return result{c, z, sts, core}
		}
		for _, force := range []Units{0, UnitOM, UnitTex} {
			var first *result
			for _, workers := range []int{1, 3} {
				name := fmt.Sprintf("%s/force=%v/workers=%d", pc.name, force, workers)
				w := draw(false, workers, force)
				runs0 := sp.fsBatchRuns.Load()
				b := draw(true, workers, force)
				runs, waves := sp.fsBatchRuns.Load()-runs0, sp.fsBatchWaves.Load()
				sp.fsBatchRuns.Store(0)
				sp.fsBatchWaves.Store(0)
				if w.st[0].Written < 1000 || w.st[1].Shaded == 0 || w.core[4] == 0 {
					t.Fatalf("%s: %+v: want many fragments written", name, w.st)
				}
				if texs[0] != nil && (w.st[0].Route.SWTex != (force == UnitTex) || (force != UnitTex && w.st[0].Perf.TexReads == 0)) {
					t.Fatalf("%s: route %+v, %d vx_tex requests: want the forced sampler", name, w.st[0].Route, w.st[0].Perf.TexReads)
				}
				if runs0 != 0 {
					t.Errorf("%s: %d batched runs with batching off", name, runs0)
				}
				if runs == 0 || waves < 3*runs {
					t.Errorf("%s: %d waves in %d batched runs: want several waves per run", name, waves, runs)
				}
				if !slices.Equal(w.c, b.c) || !slices.Equal(w.z, b.z) {
					t.Errorf("%s: the batched draw's planes differ from the wave-by-wave draw's", name)
				}
				if !reflect.DeepEqual(w.st, b.st) || !slices.Equal(w.core, b.core) {
					t.Errorf("%s: counters differ:\n batched %+v %v\n waves   %+v %v", name, b.st, b.core, w.st, w.core)
				}
				if first != nil && !reflect.DeepEqual(*first, b) {
					t.Errorf("%s: the batched draw differs from one raster worker's", name)
				}
				first = &b
				// The fallback of a batched run that cannot stand for its
				// waves' own (an error, more than one export): each wave
				// run alone in Finish.
				fsBatchWaveByWave = true
				if o := draw(true, workers, force); !reflect.DeepEqual(w, o) {
					t.Errorf("%s: finishing each staged wave alone differs from the wave-by-wave draw", name)
				}
				fsBatchWaveByWave = false
				sp.fsBatchRuns.Store(0)
				sp.fsBatchWaves.Store(0)
			}
		}
	}
}
