package scene

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"vortexgfx/gl/blend"
	"vortexgfx/gl/compare"
)

// memReader serves files from a map.
func memReader(files map[string][]byte) ReadFunc {
	return func(rel string) ([]byte, error) {
		if b, ok := files[rel]; ok {
			return b, nil
		}
		return nil, fmt.Errorf("open %s: %w", rel, os.ErrNotExist)
	}
}

const testVert = "#version 130\nin vec3 a_position;\nvoid main() { gl_Position = vec4(a_position, 1.0); }\n"
const testFrag = "#version 130\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n"

func testFiles(t testing.TB) map[string][]byte {
	glb, err := EncodeGLB(testScene(t))
	if err != nil {
		t.Fatal(err)
	}
	return map[string][]byte{
		"s.vert": []byte(testVert), "s.frag": []byte(testFrag),
		"tri.obj":      []byte("v 0 0 0\nv 2 0 0\nv 0 4 0\nf 1 2 3\n"),
		"models/q.glb": glb,
		"tex/t.png":    pngBytes(t, 4, 4),
	}
}

func TestParseDescription(t *testing.T) {
	src := `{
	  "width": 64, "height": 32, "msaa": 4,
	  "clear": {"color": [0.1, 0.2, 0.3, 1], "depth": 0.5, "stencil": 7},
	  "camera": {"projection": "perspective", "yfov_deg": 45, "near": 0.1, "far": 10,
	             "view": [{"translate": [0, 0, -2]}]},
	  "draws": [
	    {"name": "tri", "mesh": {"file": "tri.obj", "fit": true},
	     "model": [{"rotate_x_deg": 20}, {"rotate_y_deg": 0, "per_frame_deg": 3}],
	     "vertex_shader": "s.vert", "fragment_shader": "s.frag",
	     "defines": {"USE_TEXTURE": "1", "A": ""},
	     "uniforms": {"u_mvp": "mvp", "u_model": "model", "u_color": [1, 0.5, 0.25], "u_on": true,
	                  "u_n": "normal_matrix", "u_k": 2, "u_vp": "viewport", "u_base": "base_color_factor"},
	     "textures": [{"uniform": "u_tex", "file": "tex/t.png", "wrap_s": "clamp_to_edge", "mag_filter": "nearest"},
	                  {"uniform": "u_gen", "unit": 3, "generator": "checker", "size": 16}],
	     "state": {"depth_test": true, "depth_func": "lequal", "depth_write": false, "cull": "back", "front_face": "cw",
	               "blend": {"enable": true, "src": "src_alpha", "dst": "one_minus_src_alpha", "equation_alpha": "max", "color": [1,1,1,1]}}},
	    {"mesh": {"file": "models/q.glb"}, "vertex_shader": "s.vert", "fragment_shader": "s.frag",
	     "uniforms": {"u_base": "base_color_factor", "u_ns": "normal_scale"},
	     "textures": [{"uniform": "u_albedo", "material": "base_color"}, {"uniform": "u_occ", "material": "occlusion"}]}
	  ]
	}`
	d, err := ParseDescription([]byte(src), "t.json", memReader(testFiles(t)))
	if err != nil {
		t.Fatal(err)
	}
	if d.Width != 64 || d.Height != 32 || d.MSAA != 4 || d.ClearColor != [4]float32{0.1, 0.2, 0.3, 1} || d.ClearDepth != 0.5 || d.ClearStencil != 7 {
		t.Errorf("header %+v", d)
	}
	if len(d.Draws) != 2 {
		t.Fatalf("%d draws, want 2", len(d.Draws))
	}
	dr := &d.Draws[0]
	lo, hi, _ := dr.Mesh.Bounds()
	if lo != (Vec3{-0.25, -0.5, 0}) || hi != (Vec3{0.25, 0.5, 0}) {
		t.Errorf("fitted bounds %v %v", lo, hi)
	}
	if !strings.HasPrefix(dr.FragmentShader.Source, "#version 130\n#define A \n#define USE_TEXTURE 1\nout vec4 c;") {
		t.Errorf("defines not injected after #version:\n%s", dr.FragmentShader.Source)
	}
	st := dr.State
	if !st.DepthTest || st.DepthFunc != compare.LessEqual || st.DepthWrite || st.Cull != CullBack || st.FrontFace != FrontCW ||
		!st.Blend.Enable || st.Blend.SrcRGB != blend.SrcAlpha || st.Blend.DstAlpha != blend.OneMinusSrcAlpha ||
		st.Blend.EquationRGB != blend.Add || st.Blend.EquationAlpha != blend.Max {
		t.Errorf("state %+v", st)
	}
	if len(dr.Textures) != 2 || dr.Textures[0].Unit != 0 || dr.Textures[1].Unit != 3 ||
		dr.Textures[0].Texture.Sampler != (Sampler{WrapClampToEdge, WrapRepeat, FilterLinearMipmapLinear, FilterNearest}) ||
		dr.Textures[1].Texture.Image.Bounds().Dx() != 16 {
		t.Errorf("textures %+v", dr.Textures)
	}
	vals := map[string][]float32{}
	for _, u := range d.UniformValues(0, 19) {
		vals[u.Name] = u.Value
	}
	mvp, model := BenchMatrices(19, 64, 32)
	if !equalF32(vals["u_mvp"], mvp[:]) || !equalF32(vals["u_model"], model[:]) {
		t.Errorf("frame 19 u_mvp/u_model differ from BenchMatrices")
	}
	nm := model.NormalMatrix()
	if !equalF32(vals["u_n"], nm[:]) || !equalF32(vals["u_color"], []float32{1, 0.5, 0.25}) || !equalF32(vals["u_on"], []float32{1}) ||
		!equalF32(vals["u_k"], []float32{2}) || !equalF32(vals["u_vp"], []float32{64, 32}) || !equalF32(vals["u_base"], []float32{1, 1, 1, 1}) {
		t.Errorf("uniform values %v", vals)
	}
	// The GLB's quad sits under a parent node: its instance matrix is the node's world matrix.
	g := &d.Draws[1]
	if g.Material == nil || g.Material.Name != "checker" || g.Instance != testScene(t).Instances()[0].Model {
		t.Errorf("glb draw material %+v instance %v", g.Material, g.Instance)
	}
	if g.Textures[0].Texture.Image.Bounds().Dx() != 4 || g.Textures[1].Texture.Name != "white" {
		t.Errorf("material textures %q %q", g.Textures[0].Texture.Name, g.Textures[1].Texture.Name)
	}
	gv := map[string][]float32{}
	for _, u := range d.UniformValues(1, 0) {
		gv[u.Name] = u.Value
	}
	if !equalF32(gv["u_base"], []float32{1, 0.5, 0.25, 1}) || !equalF32(gv["u_ns"], []float32{0.5}) {
		t.Errorf("material uniforms %v", gv)
	}
}

func TestParseDescriptionErrors(t *testing.T) {
	base := func(draw string) string {
		return `{"width":8,"height":8,"camera":{"projection":"orthographic","xmag":1,"ymag":1,"near":0,"far":1},"draws":[` + draw + `]}`
	}
	okDraw := func(extra string) string {
		return `{"mesh":{"generator":"quad"},"vertex_shader":"s.vert","fragment_shader":"s.frag"` + extra + `}`
	}
	tests := []struct{ src, want string }{
		{`{"width":8,"height":8,"bogus":1}`, `t.json: json: unknown field "bogus"`},
		{`{"width":8,`, "t.json: "},
		{`{"width":8,"height":8} {}`, "data after the top-level object"},
		{`{"width":0,"height":8}`, "width, height: 0×8"},
		{`{"width":8,"height":8,"msaa":3}`, "msaa: 3"},
		{`{"width":8,"height":8,"clear":{"color":[1,2]}}`, "clear.color: want 4"},
		{`{"width":8,"height":8,"clear":{"depth":2}}`, "clear.depth: 2"},
		{`{"width":8,"height":8,"camera":{"projection":"fisheye"}}`, `camera.projection: "fisheye"`},
		{`{"width":8,"height":8,"camera":{"projection":"perspective","yfov_deg":45,"near":1,"far":0.5}}`, "camera: near 1, far 0.5"},
		{`{"width":8,"height":8,"camera":{"projection":"matrix","matrix":[1,2]}}`, "camera.matrix: want 16"},
		{`{"width":8,"height":8,"camera":{"projection":"perspective","yfov_deg":45,"near":1,"far":5,"view":[{"translate":[1,2,3],"scale":[1,1,1]}]}}`,
			"camera.view[0]: want exactly one of"},
		{`{"width":8,"height":8,"camera":{"projection":"perspective","yfov_deg":45,"near":1,"far":5,"look_at":{"eye":[0,0,1],"target":[0,0,1],"up":[0,1,0]}}}`,
			"camera.look_at: eye equals target"},
		{base(`{"mesh":{"generator":"teapot"},"vertex_shader":"s.vert","fragment_shader":"s.frag"}`), `draws[0].mesh.generator: "teapot" is not one of`},
		{base(`{"mesh":{"file":"none.obj"},"vertex_shader":"s.vert","fragment_shader":"s.frag"}`), "draws[0].mesh.file: open none.obj"},
		{base(`{"mesh":{"file":"x.stl"},"vertex_shader":"s.vert","fragment_shader":"s.frag"}`), "draws[0].mesh.file"},
		{base(`{"mesh":{},"vertex_shader":"s.vert","fragment_shader":"s.frag"}`), "draws[0].mesh: give file or generator"},
		{base(`{"mesh":{"generator":"quad"},"fragment_shader":"s.frag"}`), "draws[0].vertex_shader: missing"},
		{base(`{"mesh":{"generator":"quad"},"vertex_shader":"s.vert","fragment_shader":"no.frag"}`), "draws[0].fragment_shader: open no.frag"},
		{base(okDraw(`,"uniforms":{"u":"mvpp"}`)), `draws[0].uniforms.u: "mvpp" is not a built-in`},
		{base(okDraw(`,"uniforms":{"u":[1,2,3,4,5]}`)), "draws[0].uniforms.u: 5 numbers"},
		{base(okDraw(`,"uniforms":{"u":{"x":1}}`)), "draws[0].uniforms.u: want a number"},
		{base(okDraw(`,"uniforms":{"1u":1}`)), `draws[0].uniforms: "1u" is not a uniform name`},
		{base(okDraw(`,"state":{"depth_func":"lesser"}`)), `draws[0].state.depth_func: "lesser" is not one of never, less`},
		{base(okDraw(`,"state":{"cull":"sideways"}`)), "draws[0].state.cull"},
		{base(okDraw(`,"state":{"blend":{"src_rgb":"half"}}`)), "draws[0].state.blend.src_rgb"},
		{base(okDraw(`,"textures":[{"uniform":"t","generator":"checker","file":"a.png"}]`)), "draws[0].textures[0]: give exactly one of"},
		{base(okDraw(`,"textures":[{"uniform":"t","generator":"marble"}]`)), `draws[0].textures[0].generator: "marble"`},
		{base(okDraw(`,"textures":[{"uniform":"t","generator":"checker","wrap_s":"clamp"}]`)), `draws[0].textures[0].wrap_s: "clamp" is not one of`},
		{base(okDraw(`,"textures":[{"uniform":"t","generator":"checker","mag_filter":"linear_mipmap_linear"}]`)), "draws[0].textures[0].mag_filter"},
		{base(okDraw(`,"textures":[{"uniform":"t","generator":"checker"},{"uniform":"u","unit":0,"generator":"checker"}]`)), "draws[0].textures[1]: unit 0"},
		{base(okDraw(`,"textures":[{"uniform":"t","unit":40,"generator":"checker"}]`)), "draws[0].textures[0].unit: 40"},
		{base(okDraw(`,"textures":[{"uniform":"t","material":"albedo"}]`)), `draws[0].textures[0].material: "albedo"`},
		{base(okDraw(`,"model":[{"rotate_deg":10,"axis":[0,0,0]}]`)), "draws[0].model[0].axis: zero vector"},
		{base(okDraw(`,"model":[{"translate":[1,2,3],"per_frame_deg":2}]`)), "draws[0].model[0].per_frame_deg: only for rotations"},
		{base(okDraw(`,"defines":{"A B":"1"}`)), `draws[0].defines: "A B" is not a macro name`},
		{base(okDraw(`,"unknown":1`)), `unknown field "unknown"`},
	}
	for _, tc := range tests {
		_, err := ParseDescription([]byte(tc.src), "t.json", memReader(testFiles(t)))
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "t.json: ") {
			t.Errorf("%s\n  error %v\n  want it to contain %q", tc.src, err, tc.want)
		}
	}
}

func TestInjectDefines(t *testing.T) {
	tests := []struct{ src, want string }{
		{"#version 130\nvoid main(){}", "#version 130\n#define X 1\nvoid main(){}"},
		{"\n  #version 130\nx", "\n  #version 130\n#define X 1\nx"},
		{"void main(){}", "#define X 1\nvoid main(){}"},
		{"#version 130", "#version 130\n#define X 1\n"},
	}
	for _, tc := range tests {
		if got := injectDefines(tc.src, map[string]string{"X": "1"}); got != tc.want {
			t.Errorf("injectDefines(%q) = %q, want %q", tc.src, got, tc.want)
		}
	}
}

// TestBenchSceneFile expresses the bench README's scene as a scene file and
// checks it reproduces LoadBenchMesh and BenchMatrices exactly.
func TestBenchSceneFile(t *testing.T) {
	bench := filepath.Join(sharedData(t), "bench")
	if _, err := os.Stat(filepath.Join(bench, "bunny.obj")); err != nil {
		t.Skipf("../shared/data absent: %v", err)
	}
	src := `{"width":512,"height":512,"clear":{"color":[0.12,0.12,0.15,1],"depth":1},
	  "camera":{"projection":"perspective","yfov_deg":45,"near":0.1,"far":10,"view":[{"translate":[0,0,-2]}]},
	  "draws":[{"mesh":{"file":"bunny.obj","fit":true},
	    "model":[{"rotate_x_deg":20},{"rotate_y_deg":0,"per_frame_deg":3}],
	    "vertex_shader":"lambert.vert","fragment_shader":"lambert.frag",
	    "uniforms":{"u_mvp":"mvp","u_model":"model","u_light_dir":[0.30304576,0.50507627,0.80812204],"u_base_color":[0.8,0.7,0.55]},
	    "state":{"depth_test":true,"depth_func":"less","cull":"none"}}]}`
	d, err := ParseDescription([]byte(src), "bench.json", DirReader(bench))
	if err != nil {
		t.Fatal(err)
	}
	want, err := LoadBenchMesh(filepath.Join(bench, "bunny.obj"))
	if err != nil {
		t.Fatal(err)
	}
	m := d.Draws[0].Mesh
	if !equalF32(m.Positions, want.Positions) || !equalF32(m.Normals, want.Normals) || !equalU32(m.Indices, want.Indices) {
		t.Errorf("scene-file bunny differs from LoadBenchMesh")
	}
	l := BenchLightDir()
	if l != (Vec3{0.30304576, 0.50507627, 0.80812204}) {
		t.Errorf("BenchLightDir %v", l)
	}
	for _, frame := range []int{0, 19} {
		mvp, model := BenchMatrices(frame, 512, 512)
		for _, u := range d.UniformValues(0, frame) {
			if (u.Name == "u_mvp" && !equalF32(u.Value, mvp[:])) || (u.Name == "u_model" && !equalF32(u.Value, model[:])) {
				t.Errorf("frame %d %s differs from BenchMatrices", frame, u.Name)
			}
		}
	}
}

func TestDemo(t *testing.T) {
	d, err := Demo()
	if err != nil {
		t.Fatal(err)
	}
	if d.Width != 640 || d.Height != 480 || d.MSAA != 4 || len(d.Draws) != 1 {
		t.Fatalf("demo %dx%d msaa %d, %d draws", d.Width, d.Height, d.MSAA, len(d.Draws))
	}
	dr := &d.Draws[0]
	if err := dr.Mesh.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, s := range []ShaderSource{dr.VertexShader, dr.FragmentShader} {
		if !strings.HasPrefix(s.Source, "#version 130\n") {
			t.Errorf("%s does not start with #version 130", s.Path)
		}
	}
	if len(dr.Textures) != 1 || dr.Textures[0].Texture.Image.Bounds().Dx() != 256 {
		t.Errorf("demo textures %+v", dr.Textures)
	}
	// Every uniform the demo shaders declare has a value.
	vals := map[string]bool{}
	for _, u := range d.UniformValues(0, 0) {
		vals[u.Name] = true
	}
	for _, tb := range dr.Textures {
		vals[tb.Uniform] = true
	}
	for _, src := range []string{dr.VertexShader.Source, dr.FragmentShader.Source} {
		depth := 0 // inside #ifdef blocks: variant uniforms, checked by render's strict tests
		for _, line := range strings.Split(src, "\n") {
			switch t := strings.TrimSpace(line); {
			case strings.HasPrefix(t, "#if"):
				depth++
			case strings.HasPrefix(t, "#endif"):
				depth--
			}
			if depth > 0 {
				continue
			}
			if f := strings.Fields(strings.TrimSuffix(line, ";")); len(f) == 3 && f[0] == "uniform" && !vals[f[2]] {
				t.Errorf("uniform %s has no value", f[2])
			}
		}
	}
}

func TestGeneratedMeshes(t *testing.T) {
	for _, name := range []string{"torus_knot", "cube", "quad"} {
		m, ok := GenerateMesh(name)
		if !ok {
			t.Fatalf("no generator %s", name)
		}
		if err := m.Validate(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		// Counter-clockwise outside: each face's geometric normal agrees
		// with its vertex normals.
		for tr := 0; tr < m.TriangleCount(); tr++ {
			a, b, c := int(m.Indices[3*tr]), int(m.Indices[3*tr+1]), int(m.Indices[3*tr+2])
			g := m.Position(b).Sub(m.Position(a)).Cross(m.Position(c).Sub(m.Position(a)))
			if g.Dot(m.Normal(a)) <= 0 {
				t.Fatalf("%s: triangle %d winds clockwise seen from outside", name, tr)
			}
		}
		lo, hi, _ := m.Bounds()
		for k := 0; k < 3; k++ {
			if lo[k] < -0.5 || hi[k] > 0.5 {
				t.Errorf("%s: axis %d spans [%g, %g]", name, k, lo[k], hi[k])
			}
		}
	}
}

func FuzzParseDescription(f *testing.F) {
	files := testFiles(f)
	f.Add([]byte(`{"width":8,"height":8,"camera":{"projection":"perspective","yfov_deg":45,"near":0.1,"far":10,"view":[{"translate":[0,0,-2]}]},` +
		`"draws":[{"mesh":{"file":"tri.obj","fit":true},"vertex_shader":"s.vert","fragment_shader":"s.frag","uniforms":{"u":"mvp","v":[1,2]},` +
		`"textures":[{"uniform":"t","generator":"checker","size":4}],"state":{"depth_test":true,"blend":{"enable":true,"src":"one"}}}]}`))
	f.Add([]byte(`{"width":8,"height":8,"camera":{"projection":"orthographic","xmag":1,"ymag":1,"near":0,"far":1},` +
		`"draws":[{"mesh":{"file":"models/q.glb","fit":true},"vertex_shader":"s.vert","fragment_shader":"s.frag","textures":[{"uniform":"t","material":"normal"}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := ParseDescription(data, "fuzz.json", memReader(files))
		if err != nil {
			return
		}
		for i := range d.Draws {
			if err := d.Draws[i].Mesh.Validate(); err != nil {
				t.Fatal(err)
			}
			d.UniformValues(i, 1)
		}
	})
}

func BenchmarkDemo(b *testing.B) {
	for b.Loop() {
		if _, err := Demo(); err != nil {
			b.Fatal(err)
		}
	}
}

func TestModelDescription(t *testing.T) {
	dir := t.TempDir()
	s := testScene(t)
	s.Materials[0].AlphaMode = AlphaBlend
	withCamera, err := EncodeGLB(s)
	if err != nil {
		t.Fatal(err)
	}
	s.Roots = []int{0} // the camera node is no longer in the scene
	glb, err := EncodeGLB(s)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "model.glb")
	if err := os.WriteFile(p, glb, 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := ModelDescription(p, 320, 240)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Draws) != 1 {
		t.Fatalf("%d draws", len(d.Draws))
	}
	dr := &d.Draws[0]
	if dr.State.Cull != CullNone || !dr.State.Blend.Enable || !dr.State.DepthTest {
		t.Errorf("state %+v (material double-sided, BLEND)", dr.State)
	}
	if dr.Textures[0].Texture.Image.Bounds().Dx() != 4 || dr.Textures[1].Texture.Name != "white" {
		t.Errorf("textures %q %q", dr.Textures[0].Texture.Name, dr.Textures[1].Texture.Name)
	}
	// The fitted instance maps the quad's world bounds into [-0.5, 0.5].
	for v := 0; v < dr.Mesh.VertexCount(); v++ {
		q := dr.Instance.MulPoint(dr.Mesh.Position(v))
		for k := 0; k < 3; k++ {
			if q[k] < -0.5-1e-6 || q[k] > 0.5+1e-6 {
				t.Fatalf("fitted vertex %d = %v", v, q)
			}
		}
	}
	vals := map[string]bool{}
	for _, u := range d.UniformValues(0, 0) {
		vals[u.Name] = true
	}
	for _, tb := range dr.Textures {
		vals[tb.Uniform] = true
	}
	for _, src := range []string{dr.VertexShader.Source, dr.FragmentShader.Source} {
		depth := 0 // inside #ifdef blocks: variant uniforms, checked by render's strict tests
		for _, line := range strings.Split(src, "\n") {
			switch t := strings.TrimSpace(line); {
			case strings.HasPrefix(t, "#if"):
				depth++
			case strings.HasPrefix(t, "#endif"):
				depth--
			}
			if depth > 0 {
				continue
			}
			if f := strings.Fields(strings.TrimSuffix(line, ";")); len(f) == 3 && f[0] == "uniform" && !vals[f[2]] {
				t.Errorf("uniform %s has no value", f[2])
			}
		}
	}
	// With a camera node the model stays where it is and the file's camera is used.
	pc := filepath.Join(dir, "camera.glb")
	if err := os.WriteFile(pc, withCamera, 0o644); err != nil {
		t.Fatal(err)
	}
	dc, err := ModelDescription(pc, 320, 240)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := dc.Camera.View(7), Translate(0, 0, -5); !near(got[:], want[:], 1e-6) {
		t.Errorf("camera view %v, want %v", got, want)
	}
	if got, want := dc.Projection(), Perspective(0.8, 320.0/240, 0.1, 100); !near(got[:], want[:], 1e-6) {
		t.Errorf("camera projection %v, want %v", got, want)
	}
	if m := dc.Draws[0].ModelMatrix(7); m != testScene(t).Instances()[0].Model {
		t.Errorf("model with a file camera %v, want the node's world matrix", m)
	}
	if _, err := ModelDescription(filepath.Join(dir, "missing.obj"), 8, 8); err == nil || !strings.Contains(err.Error(), "missing.obj") {
		t.Errorf("missing model: %v", err)
	}
}

// TestDocExample parses the scene-file example of the package doc against
// the bench data, so the documentation stays valid.
func TestDocExample(t *testing.T) {
	bench := filepath.Join(sharedData(t), "bench")
	if _, err := os.Stat(filepath.Join(bench, "bunny.obj")); err != nil {
		t.Skipf("../shared/data absent: %v", err)
	}
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	var js []string
	in := false
	for _, line := range strings.Split(string(doc), "\n") {
		switch {
		case line == "//\t{":
			in = true
			js = append(js, "{")
		case in && strings.HasPrefix(line, "//\t"):
			js = append(js, strings.TrimPrefix(line, "//\t"))
			if line == "//\t}" {
				in = false
			}
		}
	}
	if len(js) < 10 {
		t.Fatalf("example not found in doc.go")
	}
	d, err := ParseDescription([]byte(strings.Join(js, "\n")), "doc-example.json", DirReader(bench))
	if err != nil {
		t.Fatal(err)
	}
	if d.Draws[0].Mesh.TriangleCount() != 3674 || !strings.Contains(d.Draws[0].FragmentShader.Source, "#define USE_TEXTURE 1") {
		t.Errorf("example loaded %d triangles", d.Draws[0].Mesh.TriangleCount())
	}
}

func TestProjectionFollowsSize(t *testing.T) {
	d, err := Demo()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := d.Projection(), Perspective(Radians(40), 640.0/480, 0.1, 10); got != want {
		t.Errorf("demo projection %v, want %v", got, want)
	}
	d.Width, d.Height = 300, 300
	if got, want := d.Projection(), Perspective(Radians(40), 1, 0.1, 10); got != want {
		t.Errorf("resized projection %v, want %v", got, want)
	}
}

func TestLoadModel(t *testing.T) {
	dir := t.TempDir()
	glb, err := EncodeGLB(testScene(t))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{"a.glb": glb, "b.OBJ": []byte("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"), "c.stl": nil}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name      string
		triangles int
		err       string
	}{{"a.glb", 2, ""}, {"b.OBJ", 1, ""}, {"c.stl", 0, "not a mesh file"}, {"d.obj", 0, "d.obj"}} {
		s, err := LoadModel(filepath.Join(dir, tc.name))
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want %q", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil || s.Meshes[0].TriangleCount() != tc.triangles {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}
