package shaderdev

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand"
	"reflect"
	goruntime "runtime"
	"testing"

	"vortexgfx/abi"
	"vortexgfx/config"
	"vortexgfx/device"
	"vortexgfx/device/swom"
	"vortexgfx/gfx/frontend"
	"vortexgfx/gfx/session"
	"vortexgfx/gl/compare"
)

// hostVS clips (gl_ClipDistance[0]), crosses the near plane (w − z changes
// sign over the draw) and, for some large triangles, the guard band, carries 16 interpolated varying words (four beyond the
// twelve planes: setup_k's side array) and a flat word.
const hostVS = `#version 130
in vec3 a_pos; in vec3 a_col;
out vec4 v_a; out vec4 v_b; out vec4 v_c; out vec4 v_d; flat out int v_id;
void main() {
	float w = 1.0 + a_pos.z * 0.5;
	gl_Position = vec4(a_pos.xy * w, a_pos.z * 1.6 * w, w);
	gl_ClipDistance[0] = a_pos.x + 0.8;
	v_a = vec4(a_col, 1.0); v_b = vec4(a_col.zyx, 0.5); v_c = a_pos.xyzx; v_d = vec4(a_col.x * a_pos.y);
	v_id = gl_VertexID;
}`

const hostFS = `#version 130
in vec4 v_a; in vec4 v_b; in vec4 v_c; in vec4 v_d; flat in int v_id;
out vec4 o;
void main() { o = vec4(v_a.r * 0.5 + v_d.x, v_b.g + v_c.z * 0.25, float(v_id % 7) / 7.0, 0.9); }`

// hostRun is everything a draw leaves behind: the colour and depth planes,
// the draw's counters (CP cycles, front-end, raster and unit counters), the
// cores' MPM counters, and the SHA-256 of every per-draw device buffer (the
// vertex records, the setup_k slots, keep and offset words, the dense
// primitive, bbox and side arrays, the binning keys, histogram, bases and
// tile buffer, the front-end counters) in pool order.
type hostRun struct {
	color, depth []uint32
	stats        []session.DrawStats
	core         []uint64
	buffers      [][sha256.Size]byte
}

// TestFrontEndHostParallelism draws 9000 triangles in two passes (clipped
// against the near plane and a user clip distance, some culled, extra
// varyings and a flat word) twice per device, with GOMAXPROCS and the raster
// workers at 1, 2 and 4: the front-end kernels' CTAs run as the modelled
// cores' shares, each on one host goroutine (its core's or the launching
// one's, device.Device.dispatch), however many host threads run them, so
// every byte of device memory the draws wrote, the images and
// every counter must be the same for any host parallelism. Run it under
// -race. spec: vortex-hardware-facts §1.4 (CTAs of one launch are
// independent; the KMU's static CTA-to-core assignment), rasterizer §3.1
func TestFrontEndHostParallelism(t *testing.T) {
	const W, H, N = 64, 48, 9000
	sp, p := compileProgram(t, "host.parallel", hostVS, hostFS)
	words := p.AttribWords()
	pos, _ := p.Attribute("a_pos")
	col, _ := p.Attribute("a_col")
	r := rand.New(rand.NewSource(14))
	raw := make([]byte, 4*3*N*words)
	put := func(v, w int, f float32) { binary.LittleEndian.PutUint32(raw[4*(v*words+w):], math.Float32bits(f)) }
	for tr := range N {
		cx, cy, cz, s := r.Float32()*2.4-1.2, r.Float32()*2.4-1.2, r.Float32()*2-1, 0.02+r.Float32()*0.2
		sz := s
		if tr%64 == 0 {
			s, cz, sz = 1000, 0, 0.1 // past the guard band, inside the depth range
		}
		for k := range 3 {
			v := 3*tr + k
			put(v, pos.Word, cx+(r.Float32()*2-1)*s)
			put(v, pos.Word+1, cy+(r.Float32()*2-1)*s)
			put(v, pos.Word+2, cz+(r.Float32()*2-1)*sz)
			for j := range 3 {
				put(v, col.Word+j, r.Float32())
			}
		}
	}
	attrs := make([]AttribBinding, len(sp.Attributes()))
	for i, s := range sp.Attributes() {
		attrs[i] = AttribBinding{Data: raw, Offset: uint64(4 * s.Word), Stride: uint64(4 * words)}
	}
	var m swom.State
	m.Targets[0].Blend.WriteMask = 0xF
	m.DepthTest, m.DepthWrite, m.DepthFunc = true, true, compare.LessEqual

	draw := func(procs, workers int) hostRun {
		t.Helper()
		defer goruntime.GOMAXPROCS(goruntime.GOMAXPROCS(procs))
		cfg := config.Default()
		cfg.Raster.Workers = workers
		cfg.Raster.BinLogSize = 4 // 16-pixel bins: 4×3 of them, many keys per primitive
		dev, err := Open(cfg, W, H, []*Program{sp})
		if err != nil {
			t.Fatal(err)
		}
		defer dev.Close()
		if err := dev.Clear(0x10203040, 0xFFFFFF); err != nil {
			t.Fatal(err)
		}
		var res hostRun
		for range 2 {
			st, err := dev.Draw(&Draw{Program: sp, Attribs: attrs, Count: 3 * N, Merge: m, ClipDistances: 1})
			if err != nil {
				t.Fatal(err)
			}
			res.stats = append(res.stats, st)
		}
		if res.color, res.depth, err = dev.Targets(); err != nil {
			t.Fatal(err)
		}
		for _, csr := range []int{abi.CSRMCycle, abi.CSRMInstret, device.CSRCoreCTAs, device.CSRCoreWaves, device.CSRCoreThreads, device.CSRCoreMemOps} {
			v, err := dev.ds.Runtime.PerfCounter(abi.MPMCore, csr, -1)
			if err != nil {
				t.Fatal(err)
			}
			res.core = append(res.core, v)
		}
		for _, b := range dev.pool {
			if b == nil {
				continue
			}
			buf := make([]byte, b.Size())
			if err := dev.ds.Sim.Mem.Read(b.Addr(), buf); err != nil {
				t.Fatal(err)
			}
			res.buffers = append(res.buffers, sha256.Sum256(buf))
		}
		return res
	}

	want := draw(1, 1)
	st := want.stats[0]
	fe := st.FrontEnd
	t.Logf("front end %+v, %d primitives, %d written, %d buffers, CP cycles %d", fe, st.Primitives, st.Written, len(want.buffers), st.CPCycles)
	// The draw must exercise what the comparison is about: two passes,
	// every clip, culling, many primitives and fragments, all on the device.
	if st.Route.SWRaster || st.Route.SWOM || fe.NearClipped == 0 || fe.GuardClipped == 0 || fe.Culled == 0 || st.Primitives < N/4 ||
		st.Written < 500 || st.BinsTouched < 12 || st.Pairs <= int64(st.Primitives) || len(want.buffers) < 20 {
		t.Fatalf("the draw does not exercise the front end: %+v, front end %+v, %d buffers", st, fe, len(want.buffers))
	}
	if passes := (N + abi.MaxPrimsPerPass/frontend.SlotsPerTriangle(1) - 1) / (abi.MaxPrimsPerPass / frontend.SlotsPerTriangle(1)); passes < 2 {
		t.Fatalf("%d triangles make %d pass(es), want at least 2", N, passes)
	}
	if !reflect.DeepEqual(want.stats[0], want.stats[1]) {
		// The second draw repeats the first over its depth: every counter
		// but the fragments written (depth-tested away) may differ, but the
		// front end's must not.
		if want.stats[0].FrontEnd != want.stats[1].FrontEnd || want.stats[0].Primitives != want.stats[1].Primitives {
			t.Errorf("the repeated draw's front end differs: %+v / %+v", want.stats[0].FrontEnd, want.stats[1].FrontEnd)
		}
	}
	for _, c := range [][2]int{{2, 2}, {4, 4}, {1, 4}, {4, 1}, {2, 1}} {
		name := fmt.Sprintf("GOMAXPROCS=%d/workers=%d", c[0], c[1])
		got := draw(c[0], c[1])
		if !reflect.DeepEqual(got.color, want.color) || !reflect.DeepEqual(got.depth, want.depth) {
			t.Errorf("%s: the colour or depth plane differs from GOMAXPROCS=1/workers=1", name)
		}
		if !reflect.DeepEqual(got.stats, want.stats) {
			t.Errorf("%s: draw counters differ:\n%+v\n%+v", name, got.stats, want.stats)
		}
		if !reflect.DeepEqual(got.core, want.core) {
			t.Errorf("%s: core counters %v, want %v", name, got.core, want.core)
		}
		if len(got.buffers) != len(want.buffers) {
			t.Fatalf("%s: %d device buffers, want %d", name, len(got.buffers), len(want.buffers))
		}
		for i := range got.buffers {
			if got.buffers[i] != want.buffers[i] {
				t.Errorf("%s: device buffer %d (pool order) differs", name, i)
			}
		}
	}
}
