package lower

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"vortexgfx/shader/exec"
	"vortexgfx/shader/glsl"
)

// BenchmarkLambert runs the benchmark shaders (lambert.vert/.frag, textured)
// compiled through the front end, the lowering and Optimize: one vertex batch or one
// fragment warp of 32 lanes per iteration. It reports lanes (vertices or fragments)
// and lane instructions per second.
func BenchmarkLambert(b *testing.B) {
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "..", "..", "shared", "data", "bench")
	vsrc, err1 := os.ReadFile(filepath.Join(dir, "lambert.vert"))
	fsrc, err2 := os.ReadFile(filepath.Join(dir, "lambert.frag"))
	if err1 != nil || err2 != nil {
		b.Skipf("../shared data absent: %v %v", err1, err2)
	}
	p, err := compilePair("lambert.vert", string(vsrc), "lambert.frag", string(fsrc), glsl.Options{Defines: map[string]string{"USE_TEXTURE": "1"}})
	if err != nil {
		b.Fatal(err)
	}
	uni := make([]uint32, p.UniformWords)
	for i := range uni {
		uni[i] = fbits(float32(i%5) * 0.25)
	}
	for _, st := range []struct {
		name string
		w    int
		fs   bool
	}{{"vertex/w32", 32, false}, {"fragment/w32", 32, true}, {"fragment/w1", 1, true}} {
		b.Run(st.name, func(b *testing.B) {
			prog := p.VS
			if st.fs {
				prog = p.FS
			}
			m, err := exec.New(prog, exec.Config{Width: st.w})
			if err != nil {
				b.Fatal(err)
			}
			if err := m.SetUniforms(uni); err != nil {
				b.Fatal(err)
			}
			m.SetSampler(constSampler{[4]float32{1, 1, 1, 1}})
			for i := 0; i < prog.InputWords; i++ {
				for l := range m.Input(i) {
					m.Input(i)[l] = fbits(float32(l+i) * 0.125)
				}
			}
			full := uint64(1)<<st.w - 1
			if st.w == 64 {
				full = ^uint64(0)
			}
			ctx := context.Background()
			var lanes int64
			b.ReportAllocs()
			for b.Loop() {
				if _, err := m.Run(ctx, full, full); err != nil {
					b.Fatal(err)
				}
				lanes += m.LaneOps()
			}
			sec := b.Elapsed().Seconds()
			b.ReportMetric(float64(b.N*st.w)/sec/1e6, "Mlanes/s")
			b.ReportMetric(float64(lanes)/sec/1e6, "Mlaneinstr/s")
		})
	}
}
