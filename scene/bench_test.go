package scene

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"vortexgfx/gl/compare"
)

// sharedData returns /work/shared/data (../shared/data beside the repository
// root) or skips the test when it is absent.
func sharedData(t testing.TB) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	repoRoot := filepath.Join(filepath.Dir(file), "..")
	d := filepath.Join(repoRoot, "..", "shared", "data")
	if _, err := os.Stat(d); err != nil {
		t.Skipf("../shared/data absent: %v", err)
	}
	return d
}

func TestBunnyMesh(t *testing.T) {
	p := filepath.Join(sharedData(t), "bench", "bunny.obj")
	if _, err := os.Stat(p); err != nil {
		t.Skipf("../shared/data absent: %v", err)
	}
	m, err := LoadBenchMesh(p)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.TriangleCount(); got != 3674 {
		t.Errorf("bunny triangles = %d, want 3674 (bench README)", got)
	}
	if got := m.VertexCount(); got != 1839 {
		t.Errorf("bunny vertices = %d, want 1839", got)
	}
	lo, hi, _ := m.Bounds()
	longest := float32(0)
	for k := 0; k < 3; k++ {
		if lo[k] < -0.5 || hi[k] > 0.5 {
			t.Errorf("axis %d spans [%g, %g], outside [-0.5, 0.5]", k, lo[k], hi[k])
		}
		longest = max(longest, hi[k]-lo[k])
		if c := (lo[k] + hi[k]) / 2; c > 1e-6 || c < -1e-6 {
			t.Errorf("axis %d centre %g, want 0", k, c)
		}
	}
	if longest < 0.999999 || longest > 1.000001 {
		t.Errorf("longest side %g, want 1", longest)
	}
	for i := 0; i < m.VertexCount(); i++ {
		if l := m.Normal(i).Len(); l < 0.9999 || l > 1.0001 {
			t.Fatalf("vertex %d normal length %g", i, l)
		}
	}
	if m.Texcoords != nil {
		t.Errorf("bunny has no vt; want nil texcoords (read as (0,0))")
	}
}

func TestGeneratorCounts(t *testing.T) {
	tests := []struct {
		name      string
		mesh      func() *Mesh
		triangles int
		vertices  int
	}{
		// (157+1)*(320+1) sphere vertices less the two unused seam
		// copies of the poles (slice 320 of the first and last rows).
		{"sphere", SphereMesh, SphereTriangles, 158*321 - 2},
		{"grid", GridMesh, GridTriangles, 708 * 708},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := tc.mesh()
			if err := m.Validate(); err != nil {
				t.Fatal(err)
			}
			if m.TriangleCount() != tc.triangles || m.VertexCount() != tc.vertices {
				t.Errorf("%d triangles, %d vertices; want %d, %d", m.TriangleCount(), m.VertexCount(), tc.triangles, tc.vertices)
			}
		})
	}
}

func TestSphereValues(t *testing.T) {
	m := SphereMesh()
	// Vertex 0 is the north pole (0, 1, 0) with texcoord (0, 1); the first
	// triangle is 1/1/1 322/322/322 323/323/323 of the OBJ.
	if p := m.Position(0); p != (Vec3{0, 1, 0}) {
		t.Errorf("vertex 0 = %v", p)
	}
	if uv := m.Texcoord(0); uv != [2]float32{0, 1} {
		t.Errorf("texcoord 0 = %v", uv)
	}
	// Ring 1, slice 80 (phi = 90°): python3 -c "import math; t=math.pi/157;
	// print('%.6f %.6f' % (math.sin(t), math.cos(t)))" prints 0.020009 0.999800.
	v := m.Position(int(m.Indices[3*80+1]))
	if v[0] != 0.020009 || v[1] != 0.999800 || v[2] != 0 {
		t.Errorf("ring 1 slice 80 = %v, want (0.020009, 0.999800, 0)", v)
	}
}

// pyHash is a Python program that runs mkmeshes.py's generator into a
// SHA-256 sink and prints the digest, so the 30 MB grid is never stored.
const pyHash = `import hashlib, sys
sys.path.insert(0, sys.argv[1])
import mkmeshes
class Sink:
    def __init__(self): self.h = hashlib.sha256()
    def write(self, s): self.h.update(s.encode())
    def writelines(self, lines):
        for s in lines: self.h.update(s.encode())
sink = Sink()
getattr(mkmeshes, "write_" + sys.argv[2])(sink)
print(sink.h.hexdigest())
`

// TestGeneratorsMatchPython checks that the Go OBJ writers produce exactly
// mkmeshes.py's bytes (by SHA-256), and that loading the sphere's text gives
// the directly generated mesh.
func TestGeneratorsMatchPython(t *testing.T) {
	dir := filepath.Join(sharedData(t), "bench")
	if _, err := os.Stat(filepath.Join(dir, "mkmeshes.py")); err != nil {
		t.Skipf("../shared/data absent: %v", err)
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not available")
	}
	for _, tc := range []struct {
		name  string
		write func(w io.Writer) error
	}{
		{"sphere", WriteSphereOBJ},
		{"grid", WriteGridOBJ},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := exec.Command(py, "-c", pyHash, dir, tc.name).CombinedOutput()
			if err != nil {
				t.Fatalf("python3: %v\n%s", err, out)
			}
			h := sha256.New()
			if err := tc.write(h); err != nil {
				t.Fatal(err)
			}
			if got, want := hex.EncodeToString(h.Sum(nil)), strings.TrimSpace(string(out)); got != want {
				t.Fatalf("Go output SHA-256 %s, mkmeshes.py %s", got, want)
			}
		})
	}
	var text bytes.Buffer
	if err := WriteSphereOBJ(&text); err != nil {
		t.Fatal(err)
	}
	s, err := DecodeOBJ(&text, "sphere.obj", nil)
	if err != nil {
		t.Fatal(err)
	}
	direct, loaded := SphereMesh(), &s.Meshes[0]
	if !equalF32(loaded.Positions, direct.Positions) || !equalF32(loaded.Normals, direct.Normals) ||
		!equalF32(loaded.Texcoords, direct.Texcoords) || !equalU32(loaded.Indices, direct.Indices) {
		t.Errorf("loading the sphere OBJ differs from SphereMesh")
	}
}

func equalF32(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func equalU32(a, b []uint32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestBenchMatrices(t *testing.T) {
	mvp, model := BenchMatrices(0, 512, 512)
	want := RotateX(Radians(20))
	if model != want {
		t.Errorf("frame 0 model = %v, want rotateX(20°)", model)
	}
	// The origin lands at view depth -2: clip w = 2.
	c := mvp.MulVec4([4]float32{0, 0, 0, 1})
	if c[3] != 2 || c[0] != 0 || c[1] != 0 {
		t.Errorf("origin in clip space = %v", c)
	}
	l := BenchLightDir()
	if n := l.Len(); n < 0.999999 || n > 1.000001 {
		t.Errorf("light dir length %g", n)
	}
}

func BenchmarkGridMesh(b *testing.B) {
	for b.Loop() {
		GridMesh()
	}
}

// BenchmarkDecodeOBJGrid measures loading the 1M-triangle grid's 30 MB OBJ text.
func BenchmarkDecodeOBJGrid(b *testing.B) {
	var text bytes.Buffer
	if err := WriteGridOBJ(&text); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(text.Len()))
	for b.Loop() {
		if _, err := DecodeOBJ(bytes.NewReader(text.Bytes()), "grid.obj", nil); err != nil {
			b.Fatal(err)
		}
	}
}

func TestBenchDescription(t *testing.T) {
	bench := filepath.Join(sharedData(t), "bench")
	if _, err := os.Stat(filepath.Join(bench, "lambert.vert")); err != nil {
		t.Skipf("../shared/data absent: %v", err)
	}
	d, err := BenchDescription(filepath.Join(bench, "bunny.obj"), bench, 1920, 1080)
	if err != nil {
		t.Fatal(err)
	}
	if d.Width != 1920 || d.Height != 1080 || d.MSAA != 1 || d.ClearColor != BenchClearColor() || d.ClearDepth != 1 {
		t.Errorf("header %+v", d)
	}
	dr := &d.Draws[0]
	if dr.Mesh.TriangleCount() != 3674 || !dr.State.DepthTest || dr.State.DepthFunc != compare.Less || dr.State.Cull != CullNone || dr.State.Blend.Enable {
		t.Errorf("draw %d triangles, state %+v", dr.Mesh.TriangleCount(), dr.State)
	}
	for _, frame := range []int{0, 19} {
		mvp, model := BenchMatrices(frame, 1920, 1080)
		got := map[string][]float32{}
		for _, u := range d.UniformValues(0, frame) {
			got[u.Name] = u.Value
		}
		l, c := BenchLightDir(), BenchBaseColor()
		if !equalF32(got["u_mvp"], mvp[:]) || !equalF32(got["u_model"], model[:]) || !equalF32(got["u_light_dir"], l[:]) || !equalF32(got["u_base_color"], c[:]) {
			t.Errorf("frame %d uniforms %v", frame, got)
		}
	}
	if _, err := BenchDescription(filepath.Join(bench, "nope.obj"), bench, 8, 8); err == nil {
		t.Error("missing mesh accepted")
	}
}
