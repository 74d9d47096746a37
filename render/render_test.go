package render

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vortexgfx/scene"
)

var update = flag.Bool("update", false, "rewrite the golden images in testdata")

// goldenTolerance: every channel of at least 99.5% of the pixels within 2 of the
// golden; the rest (edge pixels whose coverage may flip when the shader
// compiler's rounding changes) unconstrained.
const (
	goldenChannelTol = 2
	goldenOverFrac   = 0.005
)

func compareGolden(t *testing.T, name string, img *image.NRGBA) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want := readPNG(t, path)
	if want.Rect != img.Rect {
		t.Fatalf("%s: size %v, golden %v", name, img.Rect, want.Rect)
	}
	over, worst := 0, 0
	for i := 0; i < len(img.Pix); i += 4 {
		m := 0
		for c := range 4 {
			m = max(m, abs(int(img.Pix[i+c])-int(want.Pix[i+c])))
		}
		worst = max(worst, m)
		if m > goldenChannelTol {
			over++
		}
	}
	n := len(img.Pix) / 4
	t.Logf("%s: %d of %d pixels over %d (largest difference %d)", name, over, n, goldenChannelTol, worst)
	if float64(over) > goldenOverFrac*float64(n) {
		t.Errorf("%s: %d pixels differ by more than %d (allowed %.1f%%); run with -update if the change is intended",
			name, over, goldenChannelTol, 100*goldenOverFrac)
	}
}

func TestDemoGolden(t *testing.T) {
	d, err := scene.Demo()
	if err != nil {
		t.Fatal(err)
	}
	frames, st, err := Render(context.Background(), d, Options{Width: 160, Height: 120, Stats: true})
	if err != nil {
		t.Fatal(err)
	}
	if st.MSAA != 4 || st.Path != string(PathReference) || len(st.Draws) != 1 {
		t.Fatalf("stats %+v: want one draw, 4 samples, reference path", st)
	}
	ds := st.Draws[0]
	if ds.TrianglesVisible == 0 || ds.TrianglesVisible > ds.TrianglesIn || ds.FragmentsWritten == 0 || ds.FragmentsWritten > ds.FragmentsShaded {
		t.Errorf("draw counters inconsistent: %+v", ds)
	}
	compareGolden(t, "demo_160x120.png", frames[0].Image)
}

// TestDeterministic renders the demo twice per worker count and requires the
// same bytes every time.
func TestDeterministic(t *testing.T) {
	d, err := scene.Demo()
	if err != nil {
		t.Fatal(err)
	}
	for _, msaa := range []int{1, 4} {
		var first []byte
		for _, workers := range []int{1, 3, 1, 2} {
			frames, _, err := Render(context.Background(), d, Options{Width: 96, Height: 64, MSAA: msaa, Workers: workers, FirstFrame: 5})
			if err != nil {
				t.Fatal(err)
			}
			if first == nil {
				first = frames[0].Image.Pix
				continue
			}
			if !bytes.Equal(first, frames[0].Image.Pix) {
				t.Fatalf("msaa %d, workers %d: image differs from the first render", msaa, workers)
			}
		}
	}
}

// TestTexturedGLB writes a textured quad as a GLB with scene.WriteGLB, loads
// it as a model scene and checks that the checker texture shows on the quad
// and the clear colour around it.
func TestTexturedGLB(t *testing.T) {
	d := texturedGLB(t, 64)
	frames, _, err := Render(context.Background(), d, Options{MSAA: 1})
	if err != nil {
		t.Fatal(err)
	}
	img := frames[0].Image
	px := func(x, y int) [3]uint8 {
		p := img.Pix[y*img.Stride+x*4:]
		return [3]uint8{p[0], p[1], p[2]}
	}
	corner := px(0, 0)
	for _, c := range [][2]int{{63, 0}, {0, 63}, {63, 63}} {
		if px(c[0], c[1]) != corner {
			t.Errorf("corner %v = %v, want the clear colour %v", c, px(c[0], c[1]), corner)
		}
	}
	// The quad's middle shows both checker colours: at least two clearly
	// different brightness levels, none of them the clear colour.
	var lo, hi int = 999, -1
	for y := 26; y < 38; y++ {
		for x := 26; x < 38; x++ {
			p := px(x, y)
			if p == corner {
				t.Fatalf("pixel (%d,%d) is the clear colour: the quad does not cover the centre", x, y)
			}
			l := int(p[0]) + int(p[1]) + int(p[2])
			lo, hi = min(lo, l), max(hi, l)
		}
	}
	if hi-lo < 60 {
		t.Errorf("centre brightness range %d..%d: the checker texture is not visible", lo, hi)
	}
}

func TestOptionErrors(t *testing.T) {
	d, err := scene.Demo()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		opts Options
		want error
		text string
	}{
		{"msaa 3", Options{MSAA: 3}, ErrSampleCount, "3"},
		{"msaa 32", Options{MSAA: 32}, ErrSampleCount, "32"},
		{"path", Options{Path: "gpu"}, nil, `"gpu"`},
		{"size", Options{Width: 20000, Height: 10}, nil, "20000x10"},
	}
	for _, tc := range tests {
		_, _, err := Render(context.Background(), d, tc.opts)
		if err == nil || (tc.want != nil && !errors.Is(err, tc.want)) || !strings.Contains(err.Error(), tc.text) {
			t.Errorf("%s: error %v, want %v containing %q", tc.name, err, tc.want, tc.text)
		}
	}
}

// writeScene writes a scene file and its shaders into a temporary directory.
func writeScene(t *testing.T, sceneJSON, vert, frag string) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range map[string]string{"s.json": sceneJSON, "v.vert": vert, "f.frag": frag} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "s.json")
}

const testVert = `#version 130
uniform mat4 u_mvp;
in vec3 a_position;
in vec2 a_texcoord;
out vec2 v_uv;
void main() { v_uv = a_texcoord; gl_Position = u_mvp * vec4(a_position, 1.0); }
`

const testFrag = `#version 130
uniform vec4 u_color;
uniform int u_mode;
in vec2 v_uv;
out vec4 c;
void main() { c = u_mode == 2 ? u_color : vec4(v_uv, 0.0, 1.0); }
`

func sceneJSON(uniforms string) string {
	return `{"width": 32, "height": 32,
 "camera": {"projection": "orthographic", "xmag": 0.5, "ymag": 0.5, "near": -1, "far": 1},
 "draws": [{"name": "q", "mesh": {"generator": "quad"}, "vertex_shader": "v.vert", "fragment_shader": "f.frag",
  "uniforms": {` + uniforms + `}}]}`
}

// TestUniformConversion sets an int uniform from a scene number and checks the
// converted value took effect; an undeclared uniform is a note, or an error
// naming it with Strict.
func TestUniformConversion(t *testing.T) {
	path := writeScene(t, sceneJSON(`"u_mvp": "mvp", "u_color": [1, 0, 0, 1], "u_mode": 2, "u_nothing": 3`), testVert, testFrag)
	d, err := scene.LoadDescription(path)
	if err != nil {
		t.Fatal(err)
	}
	frames, st, err := Render(context.Background(), d, Options{})
	if err != nil {
		t.Fatal(err)
	}
	p := frames[0].Image.Pix[(16*32+16)*4:]
	if p[0] != 255 || p[1] != 0 || p[2] != 0 {
		t.Errorf("centre pixel %v, want red (u_mode = 2 converted to int)", p[:4])
	}
	if len(st.Notes) != 1 || !strings.Contains(st.Notes[0], "u_nothing") {
		t.Errorf("notes %q, want one naming u_nothing", st.Notes)
	}
	_, _, err = Render(context.Background(), d, Options{Strict: true})
	if !errors.Is(err, ErrUniform) || !strings.Contains(err.Error(), "u_nothing") || !strings.Contains(err.Error(), "f.frag") {
		t.Errorf("strict: error %v, want ErrUniform naming u_nothing and the shaders", err)
	}
}

// TestBadScenes checks that broken scene files and shaders give errors naming
// the file and the field or shader.
func TestBadScenes(t *testing.T) {
	tests := []struct {
		name, json, vert, frag string
		want                   []string
	}{
		{"unknown field", `{"width": 32, "height": 32, "colour": 1, "draws": []}`, testVert, testFrag, []string{"s.json", "colour"}},
		{"bad width", `{"width": -3, "height": 32, "draws": []}`, testVert, testFrag, []string{"s.json", "width"}},
		{"missing shader", strings.Replace(sceneJSON(`"u_mvp": "mvp"`), "f.frag", "nope.frag", 1), testVert, testFrag, []string{"s.json", "nope.frag"}},
		{"shader error", sceneJSON(`"u_mvp": "mvp"`), testVert, "#version 130\nout vec4 c;\nvoid main() { c = nope; }\n", []string{"f.frag:3", "nope"}},
		{"attribute", sceneJSON(`"u_mvp": "mvp"`), strings.ReplaceAll(testVert, "a_texcoord", "a_uv"), testFrag, []string{"v.vert", "a_uv"}},
		{"uniform shape", sceneJSON(`"u_mvp": [1, 2]`), testVert, testFrag, []string{"u_mvp", "2 values"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := writeScene(t, tc.json, tc.vert, tc.frag)
			d, err := scene.LoadDescription(path)
			if err == nil {
				_, _, err = Render(context.Background(), d, Options{})
			}
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not name %q", err, w)
				}
			}
		})
	}
}

// TestSupersamplePattern checks that 4x renders sample abi.MSAA4Sample's
// positions (1/16 pixel from the top-left corner, y down): a white rectangle
// whose right edge lies 8/16 into pixel column 3 and whose bottom edge lies
// 4/16 into pixel row 3 (rows from the top) covers, of pixel (3,3), only the
// sample at (6,2), so the box resolve gives 255/4.
func TestSupersamplePattern(t *testing.T) {
	js := `{"width": 8, "height": 8, "msaa": 4, "clear": {"color": [0, 0, 0, 1]},
 "camera": {"projection": "orthographic", "xmag": 4, "ymag": 4, "near": -1, "far": 1},
 "draws": [{"mesh": {"generator": "quad"}, "model": [{"translate": [-2.25, 2.375, 0]}, {"scale": [3.5, 3.25, 1]}],
  "vertex_shader": "v.vert", "fragment_shader": "f.frag",
  "uniforms": {"u_mvp": "mvp", "u_color": [1, 1, 1, 1], "u_mode": 2}}]}`
	d, err := scene.LoadDescription(writeScene(t, js, testVert, testFrag))
	if err != nil {
		t.Fatal(err)
	}
	frames, _, err := Render(context.Background(), d, Options{})
	if err != nil {
		t.Fatal(err)
	}
	img := frames[0].Image
	for _, c := range []struct{ x, y, want int }{
		// Image rows run top-down; window row wy = 7 - y. The quad covers
		// window y >= 4.75, so image row 3 keeps the samples with sy > 12.
		{2, 2, 255}, // fully covered
		{3, 2, 128}, // x < 8/16: samples (6,2) and (2,10)
		{2, 3, 64},  // sy > 12: sample (10,14)
		{3, 3, 0},   // both: no sample
		{4, 2, 0}, {2, 4, 0},
	} {
		if got := int(img.Pix[c.y*img.Stride+c.x*4]); got != c.want {
			t.Errorf("pixel (%d,%d) red %d, want %d", c.x, c.y, got, c.want)
		}
	}
}

// TestHeatmapCounts checks that the per-pixel heatmap adds up to the shaded
// fragment counter with several workers sharing it (run with -race).
func TestHeatmapCounts(t *testing.T) {
	d, err := scene.Demo()
	if err != nil {
		t.Fatal(err)
	}
	r, err := New(context.Background(), d, Options{Width: 80, Height: 64, MSAA: 1, Workers: 3, Stats: true, Heatmap: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Draw(context.Background(), 2); err != nil {
		t.Fatal(err)
	}
	counts, w, h := r.Heatmap()
	var sum uint64
	for _, c := range counts {
		sum += uint64(c)
	}
	st := r.Stats()
	if w != 80 || h != 64 || sum == 0 || sum != st.Draws[0].FragmentsShaded {
		t.Errorf("heatmap %dx%d sums to %d, fragments shaded %d", w, h, sum, st.Draws[0].FragmentsShaded)
	}
	img := HeatmapImage(counts, w, h)
	if img.Rect.Dx() != w || img.Rect.Dy() != h {
		t.Errorf("heatmap image %v", img.Rect)
	}
}

// texturedGLB writes a textured quad (a 16×16 nearest-filtered, repeating
// checker as its base colour) as a GLB of its own with scene.WriteGLB and
// returns it as a size×size model scene.
func texturedGLB(t *testing.T, size int) *scene.Description {
	t.Helper()
	q := scene.Quad()
	q.Material = 0
	mat := scene.DefaultMaterial()
	mat.MetallicFactor = 0
	mat.DoubleSided = true
	mat.BaseColorTexture = &scene.TextureRef{Texture: 0, Scale: 1}
	tex := scene.Texture{Name: "checker", Image: scene.Checker(16), Sampler: scene.Sampler{
		WrapS: scene.WrapRepeat, WrapT: scene.WrapRepeat, MinFilter: scene.FilterNearest, MagFilter: scene.FilterNearest}}
	s := scene.SingleMeshScene([]scene.Mesh{*q}, []scene.Material{mat}, []scene.Texture{tex})
	path := filepath.Join(t.TempDir(), "quad.glb")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := scene.WriteGLB(f, s); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	d, err := scene.ModelDescription(path, size, size)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestTexturedGLBBothPaths renders the same self-written textured GLB on the
// reference renderer and, under Strict (no fallback allowed), entirely on the
// device, and compares the images. Tolerance: coverage may differ only at
// edges (within one pixel, under 2% of the covered pixels) and shading by at
// most 2/255 per channel — the device's S.23 texture coordinates and Q15.16
// edges round differently from the reference's floats, but the nearest-
// filtered checker and the physically based shading must agree.
// The test writes a small textured glTF/GLB of its own, renders it on both
// paths and compares them.
func TestTexturedGLBBothPaths(t *testing.T) {
	d := texturedGLB(t, 64)
	ctx := context.Background()
	want, _, err := Render(ctx, d, Options{MSAA: 1})
	if err != nil {
		t.Fatal(err)
	}
	got, st, err := Render(ctx, d, Options{MSAA: 1, Path: PathDevice, Strict: true, Stats: true})
	if err != nil {
		t.Fatal(err)
	}
	if st.Path != string(PathDevice) {
		t.Fatalf("path %q (%s), want device", st.Path, st.Route)
	}
	c := want[0].Image.Pix[:4]
	s := compareImages(got[0].Image, want[0].Image, [4]uint8{c[0], c[1], c[2], c[3]}, 2)
	t.Logf("covered %d px; coverage mismatches %d, %d not within 1 px; shading max diff %d, %d px over %d",
		s.covered, s.edge, s.edgeFar, s.shadeMax, s.shadeOver, s.shadeTol)
	if s.covered < 500 {
		t.Fatalf("only %d pixels covered on the device", s.covered)
	}
	if s.edgeFar != 0 || float64(s.edge) > 0.02*float64(s.covered) {
		t.Errorf("coverage differs beyond the edges: %d mismatches, %d not within 1 px", s.edge, s.edgeFar)
	}
	if s.shadeOver != 0 {
		t.Errorf("shading differs: max %d, %d px over %d", s.shadeMax, s.shadeOver, s.shadeTol)
	}
}
