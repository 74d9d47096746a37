package render

import (
	"context"
	"errors"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vortexgfx/scene"
	"vortexgfx/scene/gltfbuild"
)

// The glTF feature tests write small assets of their own with gltfbuild,
// seen through an orthographic camera of the file (xmag = ymag = half,
// centred on (cx, cy), looking down −z), so that a world position maps to a
// known pixel. Each renders on both paths (the device under Strict: every
// draw on the device) and checks the pixels against values computed from
// the glTF maths, and the reference image against a golden (tolerance:
// compareGolden's).

const gltfSize = 64

// orthoCamera adds an orthographic camera node at (cx, cy, 5) and returns
// the node's index.
func orthoCamera(d *gltfbuild.Doc, cx, cy, half float32) int {
	d.Append("cameras", map[string]any{"type": "orthographic",
		"orthographic": map[string]any{"xmag": half, "ymag": half, "znear": 0.1, "zfar": 20}})
	return d.Append("nodes", map[string]any{"camera": 0, "translation": []float32{cx, cy, 5}})
}

// unlit adds an unlit, double-sided material and returns its index.
func unlit(d *gltfbuild.Doc, color [4]float32, mode string) int {
	if used, _ := d.JSON["extensionsUsed"].([]string); !contains(used, "KHR_materials_unlit") {
		d.JSON["extensionsUsed"] = append(used, "KHR_materials_unlit")
	}
	m := map[string]any{"doubleSided": true, "pbrMetallicRoughness": map[string]any{"baseColorFactor": color},
		"extensions": map[string]any{"KHR_materials_unlit": map[string]any{}}}
	if mode != "" {
		m["alphaMode"] = mode
	}
	return d.Append("materials", m)
}

// quad adds a mesh of one axis-aligned quad [x0,x1]×[y0,y1] at depth z with
// the material and optional per-vertex colours (RGBA, 4 vertices), placed
// by a new node; it returns the node.
func quad(d *gltfbuild.Doc, x0, y0, x1, y1, z float32, mat int, colors []float32) int {
	pos := d.Floats("VEC3", []float32{x0, y0, z, x1, y0, z, x1, y1, z, x0, y1, z})
	idx := d.Ints("SCALAR", 5123, false, []uint32{0, 1, 2, 0, 2, 3})
	attrs := map[string]int{"POSITION": pos}
	if colors != nil {
		attrs["COLOR_0"] = d.Floats("VEC4", colors)
	}
	m := d.Append("meshes", map[string]any{"primitives": []any{map[string]any{"attributes": attrs, "indices": idx, "material": mat}}})
	return d.Append("nodes", map[string]any{"mesh": m})
}

// renderGLTF writes the document, renders frame on both paths and checks
// that they agree (coverage within one pixel at edges, shading within 2);
// it returns the reference image.
func renderGLTF(t *testing.T, name string, d *gltfbuild.Doc, opts scene.ModelOptions, frame int) *image.NRGBA {
	t.Helper()
	file := filepath.Join(t.TempDir(), name+".gltf")
	if err := os.WriteFile(file, d.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	desc, err := scene.ModelDescriptionWith(file, gltfSize, gltfSize, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(desc.Warnings) > 0 {
		t.Fatalf("warnings: %q", desc.Warnings)
	}
	ctx := context.Background()
	ref, _, err := Render(ctx, desc, Options{MSAA: 1, Strict: true, FirstFrame: frame})
	if err != nil {
		t.Fatal(err)
	}
	dev, st, err := Render(ctx, desc, Options{MSAA: 1, Strict: true, FirstFrame: frame, Path: PathDevice, Stats: true})
	if err != nil {
		t.Fatalf("device: %v", err)
	}
	if st.Path != string(PathDevice) {
		t.Fatalf("device path %q (%s)", st.Path, st.Route)
	}
	bg := ref[0].Image.Pix[:4]
	s := compareImages(dev[0].Image, ref[0].Image, [4]uint8{bg[0], bg[1], bg[2], bg[3]}, 2)
	if os.Getenv("GLTF_DUMP") != "" {
		_ = writeTestPNG(filepath.Join(os.Getenv("GLTF_DUMP"), name+"-ref.png"), ref[0].Image)
		_ = writeTestPNG(filepath.Join(os.Getenv("GLTF_DUMP"), name+"-dev.png"), dev[0].Image)
	}
	if s.edgeFar != 0 || s.shadeOver != 0 {
		t.Errorf("%s: device and reference differ: %d coverage mismatches (%d beyond a pixel), %d pixels shaded over 2 (max %d)",
			name, s.edge, s.edgeFar, s.shadeOver, s.shadeMax)
	}
	return ref[0].Image
}

// pixelAt returns the pixel at world (x, y) for a camera centred on
// (cx, cy) with half-extent half.
func pixelAt(img *image.NRGBA, x, y, cx, cy, half float32) [3]int {
	px := int((x-cx)/half*gltfSize/2 + gltfSize/2)
	py := int(gltfSize/2 - (y-cy)/half*gltfSize/2)
	p := img.Pix[py*img.Stride+4*px:]
	return [3]int{int(p[0]), int(p[1]), int(p[2])}
}

func near8(got [3]int, want [3]float64, tol int) bool {
	for c := range 3 {
		if abs(got[c]-int(math.Round(want[c]))) > tol {
			return false
		}
	}
	return true
}

// enc is the model shader's output encoding of a linear value (2.2 power).
func enc(v float64) float64 { return 255 * math.Pow(v, 1/2.2) }

// TestGLTFVertexColours: COLOR_0 multiplies the base colour. An unlit quad
// with one colour at every vertex shows exactly that colour (encoded), a
// quad whose colour runs from black at the bottom to white at the top
// shows the interpolated value.
func TestGLTFVertexColours(t *testing.T) {
	d := gltfbuild.New()
	cam := orthoCamera(d, 0, 0, 1)
	mat := unlit(d, [4]float32{1, 1, 1, 1}, "")
	c := []float32{0.5, 0.25, 1, 1}
	left := quad(d, -0.9, -0.9, -0.1, 0.9, 0, mat, append(append(append(append([]float32{}, c...), c...), c...), c...))
	right := quad(d, 0.1, -0.9, 0.9, 0.9, 0, mat, []float32{0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1})
	d.Append("scenes", map[string]any{"nodes": []int{cam, left, right}})
	img := renderGLTF(t, "colours", d, scene.ModelOptions{}, 0)
	if got, want := pixelAt(img, -0.5, 0, 0, 0, 1), [3]float64{enc(0.5), enc(0.25), enc(1)}; !near8(got, want, 1) {
		t.Errorf("constant vertex colour: pixel %v, want %.1f", got, want)
	}
	// At y = 0.3 the colour is (0.3 + 0.9) / 1.8 of the way up (the pixel
	// centre is within half a pixel of y: tolerance 3 levels).
	f := (0.3 + 0.9) / 1.8
	if got, want := pixelAt(img, 0.5, 0.3, 0, 0, 1), [3]float64{enc(f), enc(f), enc(f)}; !near8(got, want, 3) {
		t.Errorf("interpolated vertex colour: pixel %v, want %.1f", got, want)
	}
	compareGolden(t, "gltf_colours.png", img)
}

// TestGLTFAlphaModes: MASK discards below the cutoff, BLEND composites
// src_alpha / one_minus_src_alpha in the order far to near whatever the
// file's order, and opaque draws go first.
func TestGLTFAlphaModes(t *testing.T) {
	d := gltfbuild.New()
	cam := orthoCamera(d, 0, 0, 1)
	white := unlit(d, [4]float32{1, 1, 1, 1}, "")
	mask := unlit(d, [4]float32{0, 1, 0, 0.3}, "MASK")
	red := unlit(d, [4]float32{1, 0, 0, 0.5}, "BLEND")
	blue := unlit(d, [4]float32{0, 0, 1, 0.5}, "BLEND")
	// File order: the near blended quad, the far one, then the opaque
	// background and the masked quad.
	near := quad(d, 0.1, -0.8, 0.8, 0.8, 0.5, red, nil)
	far := quad(d, 0.1, -0.8, 0.8, 0, 0, blue, nil)
	back := quad(d, -0.9, -0.9, 0.9, 0.9, -1, white, nil)
	masked := quad(d, -0.8, -0.8, -0.1, 0.8, 0, mask, nil)
	d.Append("scenes", map[string]any{"nodes": []int{cam, near, far, back, masked}})
	img := renderGLTF(t, "alpha", d, scene.ModelOptions{}, 0)
	for _, tc := range []struct {
		name string
		x, y float32
		want [3]float64
	}{
		{"masked quad discarded (alpha 0.3 < cutoff 0.5)", -0.5, 0, [3]float64{255, 255, 255}},
		{"red over white", 0.5, 0.5, [3]float64{255, 127.5, 127.5}},
		// Blue over white first (it is farther), then red over that.
		{"red over blue over white", 0.5, -0.5, [3]float64{191.25, 63.75, 127.5}},
	} {
		if got := pixelAt(img, tc.x, tc.y, 0, 0, 1); !near8(got, tc.want, 1) {
			t.Errorf("%s: pixel %v, want %.2f", tc.name, got, tc.want)
		}
	}
	compareGolden(t, "gltf_alpha.png", img)
}

// coverage checks an image against triangles computed on the CPU from the
// glTF maths (world xy, camera (cx, cy, half)): every pixel whose centre is
// more than a pixel inside one is covered, every pixel more than a pixel
// outside all of them shows the background.
func coverage(t *testing.T, what string, img *image.NRGBA, tris [][3]scene.Vec3, cx, cy, half float32) {
	t.Helper()
	bg := img.Pix[:4]
	px := 2 * half / gltfSize
	dist := func(p, a, b scene.Vec3) float32 { // signed distance to edge ab, positive on the left
		ex, ey := b[0]-a[0], b[1]-a[1]
		return (ex*(p[1]-a[1]) - ey*(p[0]-a[0])) / float32(math.Hypot(float64(ex), float64(ey)))
	}
	bad := 0
	for y := range gltfSize {
		for x := range gltfSize {
			p := scene.Vec3{cx - half + (float32(x)+0.5)*px, cy + half - (float32(y)+0.5)*px, 0}
			inside, outside := false, true
			for _, tr := range tris {
				d0, d1, d2 := dist(p, tr[0], tr[1]), dist(p, tr[1], tr[2]), dist(p, tr[2], tr[0])
				if dist(tr[2], tr[0], tr[1]) < 0 { // clockwise: flip
					d0, d1, d2 = -d0, -d1, -d2
				}
				if min(d0, d1, d2) > px {
					inside = true
				}
				if min(d0, d1, d2) > -px {
					outside = false
				}
			}
			o := img.Pix[y*img.Stride+4*x:]
			isBG := o[0] == bg[0] && o[1] == bg[1] && o[2] == bg[2]
			if inside && isBG || outside && !isBG {
				bad++
			}
		}
	}
	if bad > 0 {
		t.Errorf("%s: %d pixels disagree with the expected triangles %v", what, bad, tris)
	}
}

// TestGLTFSkin: a two-joint skin whose second joint turns about z (a
// LINEAR rotation from 0° at t = 0 to 90° at t = 1), skinned in the vertex
// shader on both paths, covers the triangle the CPU computes from the
// joint matrices at each frame; the mesh node's own translation does not
// apply.
func TestGLTFSkin(t *testing.T) {
	for _, frame := range []int{0, 2, 3} { // t = 0, 0.5, 0.75 at 4 fps
		d := skinnedDoc()
		img := renderGLTF(t, "skin", d, scene.ModelOptions{FPS: 4}, frame)
		s, err := scene.DecodeGLTF(d.Bytes(), "skin.gltf", nil)
		if err != nil {
			t.Fatal(err)
		}
		pose := s.PoseAt(float64(frame)/4, 0)
		p := s.Meshes[0].SkinPositions(s.JointMatrices(0, &pose))
		coverage(t, "skin frame "+string(rune('0'+frame)), img, [][3]scene.Vec3{{p[0], p[1], p[2]}}, skinCX, skinCY, 1.5)
		if frame == 3 {
			compareGolden(t, "gltf_skin.png", img)
		}
	}
}

// The skin test's camera centre, off the pixel grid so that no edge of the
// skinned triangle passes exactly through pixel centres (where the device's
// subpixel-snapped edges and the reference's float edges may break the tie
// differently).
const skinCX, skinCY = 0.0123, 1.0071

// skinnedDoc is render's copy of the skin of package scene's tests: joint 1
// at (0,1,0) under joint 0, turning about z; vertices (0,2,0) on joint 1,
// (1,0,0) on joint 0, (0,1,0) half each; seen from (0, 1).
func skinnedDoc() *gltfbuild.Doc {
	d := gltfbuild.New()
	pos := d.Floats("VEC3", []float32{0, 2, 0, 1, 0, 0, 0, 1, 0})
	joints := d.Ints("VEC4", 5121, false, []uint32{1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0})
	weights := d.Floats("VEC4", []float32{1, 0, 0, 0, 1, 0, 0, 0, 0.5, 0.5, 0, 0})
	ibm := d.Floats("MAT4", []float32{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1})
	s45 := float32(math.Sin(math.Pi / 4))
	in := d.Floats("SCALAR", []float32{0, 1})
	out := d.Floats("VEC4", []float32{0, 0, 0, 1, 0, 0, s45, s45})
	mat := unlit(d, [4]float32{1, 1, 1, 1}, "")
	d.Append("meshes", map[string]any{"primitives": []any{map[string]any{"material": mat,
		"attributes": map[string]int{"POSITION": pos, "JOINTS_0": joints, "WEIGHTS_0": weights}}}})
	d.Append("nodes", map[string]any{"children": []int{1}})
	d.Append("nodes", map[string]any{"translation": []float32{0, 1, 0}})
	d.Append("nodes", map[string]any{"mesh": 0, "skin": 0, "translation": []float32{5, 0, 0}})
	cam := orthoCamera(d, skinCX, skinCY, 1.5)
	d.Append("skins", map[string]any{"joints": []int{0, 1}, "inverseBindMatrices": ibm})
	d.Append("scenes", map[string]any{"nodes": []int{0, 2, cam}})
	d.Append("animations", map[string]any{
		"samplers": []any{map[string]any{"input": in, "output": out}},
		"channels": []any{map[string]any{"sampler": 0, "target": map[string]any{"node": 1, "path": "rotation"}}}})
	return d
}

// TestGLTFMorph: SimpleMorph's case — the default weights (0.5, 0.5) of two
// targets place the apex at y = 1.5 — and an animated weight curve, blended
// on the host each frame, cover the triangles of base + Σ wᵢ·Δᵢ.
func TestGLTFMorph(t *testing.T) {
	build := func(animated bool) *gltfbuild.Doc {
		d := gltfbuild.New()
		pos := d.Floats("VEC3", []float32{0, 0, 0, 1, 0, 0, 0.5, 0.5, 0})
		t0 := d.Floats("VEC3", []float32{0, 0, 0, 0, 0, 0, 0, 1, 0})
		t1 := d.Floats("VEC3", []float32{0, 0, 0, 0.5, 0, 0, 0, 0, 0})
		mat := unlit(d, [4]float32{1, 1, 1, 1}, "")
		d.Append("meshes", map[string]any{"weights": []float32{0.5, 0.5}, "primitives": []any{map[string]any{
			"attributes": map[string]int{"POSITION": pos}, "material": mat,
			"targets": []any{map[string]int{"POSITION": t0}, map[string]int{"POSITION": t1}}}}})
		n := d.Append("nodes", map[string]any{"mesh": 0})
		cam := orthoCamera(d, 0.75, 0.75, 1)
		d.Append("scenes", map[string]any{"nodes": []int{n, cam}})
		if animated {
			in := d.Floats("SCALAR", []float32{0, 1})
			out := d.Floats("SCALAR", []float32{0, 0, 1, 1})
			d.Append("animations", map[string]any{
				"samplers": []any{map[string]any{"input": in, "output": out}},
				"channels": []any{map[string]any{"sampler": 0, "target": map[string]any{"node": n, "path": "weights"}}}})
		}
		return d
	}
	tri := func(w0, w1 float32) [][3]scene.Vec3 {
		return [][3]scene.Vec3{{{0, 0, 0}, {1 + 0.5*w1, 0, 0}, {0.5, 0.5 + w0, 0}}}
	}
	img := renderGLTF(t, "morph", build(false), scene.ModelOptions{}, 0)
	coverage(t, "default weights", img, tri(0.5, 0.5), 0.75, 0.75, 1)
	compareGolden(t, "gltf_morph.png", img)
	for _, frame := range []int{0, 1, 3} { // t = 0, 0.25, 0.75 at 4 fps: weights t, t
		w := float32(frame) / 4
		img := renderGLTF(t, "morph-anim", build(true), scene.ModelOptions{FPS: 4}, frame)
		coverage(t, "animated weights", img, tri(w, w), 0.75, 0.75, 1)
	}
}

// TestGLTFTextureSets: a texture that names texCoord 1 reads TEXCOORD_1,
// through its KHR_texture_transform. The quad's TEXCOORD_0 is constant
// (0.25, 0.25) — the checker's dark square — and TEXCOORD_1 spans the
// texture, so a checker (not a flat colour) proves set 1 was read; the
// transform's offset of half a checker square inverts the pattern.
func TestGLTFTextureSets(t *testing.T) {
	build := func(offset float32) *gltfbuild.Doc {
		d := gltfbuild.New()
		cam := orthoCamera(d, 0, 0, 1)
		d.JSON["extensionsUsed"] = []string{"KHR_materials_unlit", "KHR_texture_transform"}
		d.JSON["images"] = []any{map[string]any{"uri": "data:image/png;base64," + checker2PNG}}
		d.JSON["samplers"] = []any{map[string]any{"magFilter": 9728, "minFilter": 9728, "wrapS": 10497, "wrapT": 10497}}
		d.JSON["textures"] = []any{map[string]any{"source": 0, "sampler": 0}}
		mat := d.Append("materials", map[string]any{"doubleSided": true,
			"pbrMetallicRoughness": map[string]any{"baseColorTexture": map[string]any{"index": 0, "texCoord": 1,
				"extensions": map[string]any{"KHR_texture_transform": map[string]any{"offset": []float32{offset, 0}}}}},
			"extensions": map[string]any{"KHR_materials_unlit": map[string]any{}}})
		pos := d.Floats("VEC3", []float32{-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0})
		uv0 := d.Floats("VEC2", []float32{0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25})
		uv1 := d.Floats("VEC2", []float32{0, 1, 1, 1, 1, 0, 0, 0})
		idx := d.Ints("SCALAR", 5123, false, []uint32{0, 1, 2, 0, 2, 3})
		d.Append("meshes", map[string]any{"primitives": []any{map[string]any{"material": mat, "indices": idx,
			"attributes": map[string]int{"POSITION": pos, "TEXCOORD_0": uv0, "TEXCOORD_1": uv1}}}})
		n := d.Append("nodes", map[string]any{"mesh": 0})
		d.Append("scenes", map[string]any{"nodes": []int{n, cam}})
		return d
	}
	// The 2×2 checker: texel (0,0) (top left, uv (0.25, 0.25)) black, (1,0) white.
	img := renderGLTF(t, "uvsets", build(0), scene.ModelOptions{}, 0)
	// World (−0.5, 0.5) is uv1 (0.25, 0.25): black; (0.5, 0.5) is (0.75, 0.25): white.
	if got := pixelAt(img, -0.5, 0.5, 0, 0, 1); !near8(got, [3]float64{0, 0, 0}, 1) {
		t.Errorf("TEXCOORD_1 (0.25, 0.25): %v, want black", got)
	}
	if got := pixelAt(img, 0.5, 0.5, 0, 0, 1); !near8(got, [3]float64{255, 255, 255}, 1) {
		t.Errorf("TEXCOORD_1 (0.75, 0.25): %v, want white", got)
	}
	compareGolden(t, "gltf_uvsets.png", img)
	shifted := renderGLTF(t, "uvsets-offset", build(0.5), scene.ModelOptions{}, 0)
	if got := pixelAt(shifted, -0.5, 0.5, 0, 0, 1); !near8(got, [3]float64{255, 255, 255}, 1) {
		t.Errorf("offset 0.5: %v, want white", got)
	}
}

// checker2PNG is a 2×2 RGBA PNG: black, white / white, black.
const checker2PNG = "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAF0lEQVR4nGJiYGD4//8/GDMwAAIAAP//KgAF/T/Bx2gAAAAASUVORK5CYII="

// TestGLTFStrictWarnings: a feature the loader leaves out is in --stats
// without Strict and an error with it.
func TestGLTFStrictWarnings(t *testing.T) {
	d := gltfbuild.New()
	cam := orthoCamera(d, 0, 0, 1)
	d.JSON["extensionsUsed"] = []string{"KHR_materials_sheen"}
	n := quad(d, -0.5, -0.5, 0.5, 0.5, 0, unlit(d, [4]float32{1, 1, 1, 1}, ""), nil)
	d.Append("scenes", map[string]any{"nodes": []int{cam, n}})
	file := filepath.Join(t.TempDir(), "sheen.gltf")
	if err := os.WriteFile(file, d.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	desc, err := scene.ModelDescription(file, 16, 16)
	if err != nil {
		t.Fatal(err)
	}
	_, st, err := Render(context.Background(), desc, Options{MSAA: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Warnings) == 0 || !strings.Contains(st.Warnings[0], "KHR_materials_sheen") {
		t.Errorf("stats warnings %q", st.Warnings)
	}
	if _, _, err := Render(context.Background(), desc, Options{MSAA: 1, Strict: true}); !errors.Is(err, ErrIgnoredFeature) || !strings.Contains(err.Error(), "KHR_materials_sheen") {
		t.Errorf("strict: %v, want ErrIgnoredFeature naming the extension", err)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func writeTestPNG(path string, img image.Image) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return png.Encode(f, img)
}

// Two 1×1 normal maps: tangent-space +x (255, 128, 128) and the flat +z
// (128, 128, 255).
const (
	normalXPNG    = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAAEElEQVR4nGL639AACAAA//8EiQICrZeMnQAAAABJRU5ErkJggg=="
	normalFlatPNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAAEElEQVR4nGJqaPgPCAAA//8DiwIC6otm8wAAAABJRU5ErkJggg=="
)

// TestGLTFNormalMap: a lit quad facing +z with a normal map that tilts the
// normal to the tangent (+x) shades differently from the flat map, which
// shades as no map at all; tangents generated from TEXCOORD_0 (u along +x)
// shade as the file's TANGENT (1, 0, 0, 1).
func TestGLTFNormalMap(t *testing.T) {
	build := func(normalPNG string, tangents bool) *gltfbuild.Doc {
		d := gltfbuild.New()
		cam := orthoCamera(d, 0, 0, 1)
		d.JSON["images"] = []any{map[string]any{"uri": "data:image/png;base64," + normalPNG}}
		d.JSON["textures"] = []any{map[string]any{"source": 0}}
		mat := d.Append("materials", map[string]any{"normalTexture": map[string]any{"index": 0},
			"pbrMetallicRoughness": map[string]any{"metallicFactor": 0, "roughnessFactor": 0.6}})
		pos := d.Floats("VEC3", []float32{-0.9, -0.9, 0, 0.9, -0.9, 0, 0.9, 0.9, 0, -0.9, 0.9, 0})
		nrm := d.Floats("VEC3", []float32{0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1})
		uv := d.Floats("VEC2", []float32{0, 1, 1, 1, 1, 0, 0, 0})
		idx := d.Ints("SCALAR", 5123, false, []uint32{0, 1, 2, 0, 2, 3})
		attrs := map[string]int{"POSITION": pos, "NORMAL": nrm, "TEXCOORD_0": uv}
		if tangents {
			attrs["TANGENT"] = d.Floats("VEC4", []float32{1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1})
		}
		d.Append("meshes", map[string]any{"primitives": []any{map[string]any{"material": mat, "indices": idx, "attributes": attrs}}})
		n := d.Append("nodes", map[string]any{"mesh": 0})
		d.Append("scenes", map[string]any{"nodes": []int{n, cam}})
		return d
	}
	tilted := renderGLTF(t, "normalmap", build(normalXPNG, true), scene.ModelOptions{}, 0)
	generated := renderGLTF(t, "normalmap-generated", build(normalXPNG, false), scene.ModelOptions{}, 0)
	flat := renderGLTF(t, "normalmap-flat", build(normalFlatPNG, true), scene.ModelOptions{}, 0)
	a, b, c := pixelAt(tilted, 0, 0, 0, 0, 1), pixelAt(generated, 0, 0, 0, 0, 1), pixelAt(flat, 0, 0, 0, 0, 1)
	if !near8(a, [3]float64{float64(b[0]), float64(b[1]), float64(b[2])}, 1) {
		t.Errorf("generated tangents shade %v, the file's tangents %v", b, a)
	}
	if abs(a[0]-c[0]) < 10 {
		t.Errorf("tilted normal %v shades like the flat one %v", a, c)
	}
	compareGolden(t, "gltf_normalmap.png", tilted)
}

// brdfRef is pbr.frag's brdf in float64: the reflected radiance towards v
// per unit of radiance from l, times n·l (glTF 2.0 Appendix B).
func brdfRef(n, v, l [3]float64, base, metallic, roughness float64) float64 {
	dot := func(a, b [3]float64) float64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }
	h := [3]float64{l[0] + v[0], l[1] + v[1], l[2] + v[2]}
	hl := math.Sqrt(dot(h, h))
	h = [3]float64{h[0] / hl, h[1] / hl, h[2] / hl}
	ndl, ndv := math.Max(dot(n, l), 0), math.Max(dot(n, v), 0.0001)
	ndh, vdh := math.Max(dot(n, h), 0), math.Max(dot(v, h), 0)
	f0 := 0.04*(1-metallic) + base*metallic
	fresnel := f0 + (1-f0)*math.Pow(1-vdh, 5)
	a := roughness * roughness
	a2 := a * a
	dd := ndh*ndh*(a2-1) + 1
	distribution := a2 / (math.Pi * dd * dd)
	k := a * 0.5
	visibility := 1 / ((ndl*(1-k) + k) * (ndv*(1-k) + k) * 4)
	return ((1-fresnel)*(1-metallic)*base/math.Pi + fresnel*distribution*visibility) * ndl
}

// TestGLTFLights: KHR_lights_punctual lights evaluated by the model shader
// on both paths match the spec's formulas computed here: a directional
// light along its node's −z, a point light with inverse-square falloff, and
// a spot light whose cone (outer 0.3 rad) misses the quad's centre but not
// the point beneath it.
func TestGLTFLights(t *testing.T) {
	d := gltfbuild.New()
	cam := orthoCamera(d, 0, 0, 1)
	d.JSON["extensionsUsed"] = []string{"KHR_lights_punctual"}
	d.JSON["extensions"] = map[string]any{"KHR_lights_punctual": map[string]any{"lights": []any{
		map[string]any{"type": "directional", "intensity": 0.5},
		map[string]any{"type": "point", "intensity": 2},
		map[string]any{"type": "spot", "intensity": 0.3, "spot": map[string]any{"innerConeAngle": 0.1, "outerConeAngle": 0.3}},
	}}}
	mat := d.Append("materials", map[string]any{"pbrMetallicRoughness": map[string]any{
		"baseColorFactor": []float32{0.8, 0.8, 0.8, 1}, "metallicFactor": 0, "roughnessFactor": 1}})
	pos := d.Floats("VEC3", []float32{-0.9, -0.9, 0, 0.9, -0.9, 0, 0.9, 0.9, 0, -0.9, 0.9, 0})
	nrm := d.Floats("VEC3", []float32{0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1})
	idx := d.Ints("SCALAR", 5123, false, []uint32{0, 1, 2, 0, 2, 3})
	d.Append("meshes", map[string]any{"primitives": []any{map[string]any{"material": mat, "indices": idx,
		"attributes": map[string]int{"POSITION": pos, "NORMAL": nrm}}}})
	n := d.Append("nodes", map[string]any{"mesh": 0})
	l0 := d.Append("nodes", map[string]any{"extensions": map[string]any{"KHR_lights_punctual": map[string]any{"light": 0}}})
	l1 := d.Append("nodes", map[string]any{"translation": []float32{0, 0, 2}, "extensions": map[string]any{"KHR_lights_punctual": map[string]any{"light": 1}}})
	l2 := d.Append("nodes", map[string]any{"translation": []float32{0.5, 0, 1}, "extensions": map[string]any{"KHR_lights_punctual": map[string]any{"light": 2}}})
	d.Append("scenes", map[string]any{"nodes": []int{n, cam, l0, l1, l2}})
	img := renderGLTF(t, "lights", d, scene.ModelOptions{}, 0)
	norm := func(v [3]float64) [3]float64 {
		l := math.Sqrt(v[0]*v[0] + v[1]*v[1] + v[2]*v[2])
		return [3]float64{v[0] / l, v[1] / l, v[2] / l}
	}
	smooth := func(e0, e1, x float64) float64 {
		u := math.Min(math.Max((x-e0)/(e1-e0), 0), 1)
		return u * u * (3 - 2*u)
	}
	base := math.Pow(0.8, 1) // the factor; the 1×1 white texture decodes to 1
	for _, x := range []float64{0, 0.5} {
		// The pixel centre nearest (x, 0) and the view vector to the camera at (0, 0, 5).
		px := (math.Floor(x*gltfSize/2+gltfSize/2) + 0.5 - gltfSize/2) * 2 / gltfSize
		py := (gltfSize/2 - (math.Floor(gltfSize/2) + 0.5)) * 2 / gltfSize
		p := [3]float64{px, py, 0}
		nn := [3]float64{0, 0, 1}
		v := norm([3]float64{-p[0], -p[1], 5})
		c := 0.5 * brdfRef(nn, v, [3]float64{0, 0, 1}, base, 0, 1)
		d1 := [3]float64{-p[0], -p[1], 2 - p[2]}
		dist2 := d1[0]*d1[0] + d1[1]*d1[1] + d1[2]*d1[2]
		c += 2 / dist2 * brdfRef(nn, v, norm(d1), base, 0, 1)
		d2 := [3]float64{0.5 - p[0], -p[1], 1}
		l2v := norm(d2)
		cd := l2v[2] // dot(spot direction (0,0,−1), −l)
		dist2 = d2[0]*d2[0] + d2[1]*d2[1] + d2[2]*d2[2]
		c += 0.3 / dist2 * smooth(math.Cos(0.3), math.Cos(0.1), cd) * brdfRef(nn, v, l2v, base, 0, 1)
		c += 0.12 * base // ambient (0.12, 0.13, 0.15) × base colour
		want := [3]float64{enc(math.Min(c, 1)), enc(math.Min(c-0.12*base+0.13*base, 1)), enc(math.Min(c-0.12*base+0.15*base, 1))}
		got := pixelAt(img, float32(x), 0, 0, 0, 1)
		t.Logf("lit pixel at (%g, 0): %v, computed %.1f", x, got, want)
		if !near8(got, want, 2) {
			t.Errorf("lit pixel at (%g, 0): %v, want %.1f", x, got, want)
		}
	}
	compareGolden(t, "gltf_lights.png", img)
}
