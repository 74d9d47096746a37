package render

import (
	"context"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"vortexgfx/scene"
)

// benchDir is ../shared/data/bench beside the repository.
func benchDir(t testing.TB) string {
	t.Helper()
	dir := filepath.Join("..", "..", "shared", "data", "bench")
	if _, err := os.Stat(filepath.Join(dir, "lambert.vert")); err != nil {
		t.Skipf("../shared data absent: %v", err)
	}
	return dir
}

// imageDiff compares two same-sized images. A pixel is covered when it differs
// from the clear colour bg. Coverage mismatches are edge pixels: allowed when
// the other image has a pixel of the same coverage within one pixel (the
// rasterizers' edge rules may differ by a pixel). Pixels covered in both are
// shading pixels: their largest channel difference must not exceed shadeTol.
type diffStats struct {
	pixels, covered    int
	edge, edgeFar      int // coverage mismatches; those with no match within 1 px
	shadeMax           int // largest channel difference over pixels covered in both
	shadeOver          int // pixels covered in both over the shading tolerance
	shadeSum, shadeCnt float64
	shadeTol           int
}

func isBG(img *image.NRGBA, x, y int, bg [4]uint8) bool {
	p := img.Pix[y*img.Stride+x*4:]
	return p[0] == bg[0] && p[1] == bg[1] && p[2] == bg[2]
}

func compareImages(a, b *image.NRGBA, bg [4]uint8, shadeTol int) diffStats {
	w, h := a.Rect.Dx(), a.Rect.Dy()
	s := diffStats{pixels: w * h, shadeTol: shadeTol}
	near := func(img *image.NRGBA, x, y int, wantBG bool) bool {
		for dy := -1; dy <= 1; dy++ {
			for dx := -1; dx <= 1; dx++ {
				xx, yy := x+dx, y+dy
				if xx >= 0 && yy >= 0 && xx < w && yy < h && isBG(img, xx, yy, bg) == wantBG {
					return true
				}
			}
		}
		return false
	}
	for y := range h {
		for x := range w {
			ba, bb := isBG(a, x, y, bg), isBG(b, x, y, bg)
			if !ba {
				s.covered++
			}
			if ba != bb {
				s.edge++
				if !near(b, x, y, ba) || !near(a, x, y, bb) {
					s.edgeFar++
				}
				continue
			}
			if ba {
				continue
			}
			pa, pb := a.Pix[y*a.Stride+x*4:], b.Pix[y*b.Stride+x*4:]
			m := 0
			for c := range 3 {
				m = max(m, abs(int(pa[c])-int(pb[c])))
			}
			s.shadeMax = max(s.shadeMax, m)
			s.shadeSum += float64(m)
			s.shadeCnt++
			if m > shadeTol {
				s.shadeOver++
			}
		}
	}
	return s
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

func readPNG(t testing.TB, path string) *image.NRGBA {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return scene.ToNRGBA(img)
}

// TestBenchMatchesLlvmpipe renders frame 19 of the bench scene at 512x512 and
// compares it with llvmpipe's image. Tolerance: coverage may differ only at
// edges (every mismatched pixel has a pixel of the other coverage within one
// pixel in both images, and mismatches are under 1% of the covered pixels);
// pixels covered in both differ by at most 2 per channel (8-bit rounding of the
// same float shading; measured: at most 1). spec: bench
// README "llvmpipe_*_512.png" (../shared/data/bench/README.md).
func TestBenchMatchesLlvmpipe(t *testing.T) {
	dir := benchDir(t)
	meshes := []struct{ mesh, png string }{
		{filepath.Join(dir, "bunny.obj"), "llvmpipe_bunny_512.png"},
		{"sphere", "llvmpipe_sphere_100k_512.png"},
		{"grid", "llvmpipe_grid_1m_512.png"},
	}
	bg := [4]uint8{31, 31, 38, 255} // (0.12, 0.12, 0.15) in unorm8
	for _, m := range meshes {
		t.Run(filepath.Base(m.mesh), func(t *testing.T) {
			if m.mesh == "grid" && testing.Short() {
				t.Skip("the 1M-triangle grid takes seconds; run without -short")
			}
			desc, err := scene.BenchDescription(m.mesh, dir, 512, 512)
			if err != nil {
				t.Fatal(err)
			}
			frames, _, err := Render(context.Background(), desc, Options{FirstFrame: 19})
			if err != nil {
				t.Fatal(err)
			}
			want := readPNG(t, filepath.Join(dir, m.png))
			s := compareImages(frames[0].Image, want, bg, 2)
			t.Logf("%s: covered %d px; coverage mismatches %d (%.3f%%), %d not within 1 px; shading max diff %d, mean %.3f, %d px over %d",
				m.png, s.covered, s.edge, 100*float64(s.edge)/float64(max(s.covered, 1)), s.edgeFar, s.shadeMax,
				s.shadeSum/max(s.shadeCnt, 1), s.shadeOver, s.shadeTol)
			if s.edgeFar != 0 || float64(s.edge) > 0.01*float64(s.covered) {
				t.Errorf("coverage differs beyond the edges: %d mismatches, %d not within 1 px", s.edge, s.edgeFar)
			}
			if s.shadeOver != 0 {
				t.Errorf("shading differs: max %d, %d px over %d", s.shadeMax, s.shadeOver, s.shadeTol)
			}
		})
	}
}

// BenchmarkBenchScene times Renderer.Draw (clear + draw + finish) of the bench
// scene at 512x512, as `vortex bench render` does, on the reference path and
// on the device path (`-bench BenchScene/device` for the device alone).
func BenchmarkBenchScene(b *testing.B) {
	dir := benchDir(b)
	for _, path := range []Path{PathReference, PathDevice} {
		for _, m := range []string{filepath.Join(dir, "bunny.obj"), "sphere"} {
			b.Run(string(path)+"/"+filepath.Base(m), func(b *testing.B) {
				desc, err := scene.BenchDescription(m, dir, 512, 512)
				if err != nil {
					b.Fatal(err)
				}
				r, err := New(context.Background(), desc, Options{Path: path})
				if err != nil {
					b.Fatal(err)
				}
				defer r.Close()
				b.ResetTimer()
				for i := 0; b.Loop(); i++ {
					if err := r.Draw(context.Background(), i); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkBenchScene1080 times Renderer.Draw (clear + draw + finish) of the
// bench scene's bunny, sphere and grid at 1920x1080 on the reference path,
// the sizes at which its fixed per-frame costs (the clears, the attachments'
// loads and stores) weigh most.
func BenchmarkBenchScene1080(b *testing.B) {
	dir := benchDir(b)
	for _, m := range []string{filepath.Join(dir, "bunny.obj"), "sphere", "grid"} {
		b.Run(filepath.Base(m), func(b *testing.B) {
			desc, err := scene.BenchDescription(m, dir, 1920, 1080)
			if err != nil {
				b.Fatal(err)
			}
			r, err := New(context.Background(), desc, Options{Path: PathReference})
			if err != nil {
				b.Fatal(err)
			}
			defer r.Close()
			for i := 0; b.Loop(); i++ {
				if err := r.Draw(context.Background(), i); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
