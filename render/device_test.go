package render

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"vortexgfx/config"
	"vortexgfx/gfx/session"
	"vortexgfx/scene"
)

// TestDevicePathMatchesReference renders frame 19 of the bench scene (bunny,
// lambert shaders) at 128x128 on both paths. The device draw is one runtime
// draw per scene draw (compiled VS as front-end stage 0, expand_k, setup_k,
// binning_k, RASTER and the FS wrapper on the cores, OM). Tolerance: coverage
// may differ only at edges (the device uses Q15.16 edges with the top-left
// rule, ref 8 sub-pixel bits): every mismatched pixel has a pixel of the other
// coverage within one pixel and mismatches stay under 2% of the covered
// pixels; shading of pixels covered in both within 2/255 per channel, except
// that the 100k-triangle sphere (sub-pixel triangles at 128x128) may show the
// far surface through at most 0.2% of its pixels: per-triangle max-normalised
// Q15.16 edges round a shared edge differently in its two triangles, so a
// pixel centre exactly on it can be missed by both (measured: 5 of 5008).
// spec: vortexpipe-driver.md §3.2–§3.4
func TestDevicePathMatchesReference(t *testing.T) {
	dir := benchDir(t)
	// The sphere's 99840 triangles take several front-end passes.
	for _, mesh := range []string{filepath.Join(dir, "bunny.obj"), "sphere"} {
		cracks := 0.0
		if mesh == "sphere" {
			cracks = 0.002
		}
		t.Run(filepath.Base(mesh), func(t *testing.T) { deviceMatchesReference(t, dir, mesh, cracks) })
	}
}

func deviceMatchesReference(t *testing.T, dir, mesh string, cracks float64) {
	desc, err := scene.BenchDescription(mesh, dir, 128, 128)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	want, _, err := Render(ctx, desc, Options{FirstFrame: 19})
	if err != nil {
		t.Fatal(err)
	}
	got, st, err := Render(ctx, desc, Options{FirstFrame: 19, Path: PathDevice, Strict: true, Stats: true})
	if err != nil {
		t.Fatal(err)
	}
	if st.Path != string(PathDevice) {
		t.Fatalf("path %q (%s), want device", st.Path, st.Route)
	}
	// The device counters cover every pass of a streamed draw: each
	// shaded fragment belongs to one of the walk's quads.
	if dv := st.Draws[0].Device; dv == nil || dv.Quads <= 0 || dv.Waves <= 0 || dv.Shaded > 4*dv.Quads {
		t.Errorf("device counters %+v", dv)
	}
	bg := [4]uint8{31, 31, 38, 255}
	s := compareImages(got[0].Image, want[0].Image, bg, 2)
	t.Logf("covered %d px; coverage mismatches %d (%.3f%%), %d not within 1 px; shading max diff %d, mean %.3f, %d px over %d; draws %+v",
		s.covered, s.edge, 100*float64(s.edge)/float64(max(s.covered, 1)), s.edgeFar, s.shadeMax,
		s.shadeSum/max(s.shadeCnt, 1), s.shadeOver, s.shadeTol, st.Draws)
	if s.covered < 1000 {
		t.Fatalf("only %d pixels covered on the device", s.covered)
	}
	if s.edgeFar != 0 || float64(s.edge) > 0.02*float64(s.covered) {
		t.Errorf("coverage differs beyond the edges: %d mismatches, %d not within 1 px", s.edge, s.edgeFar)
	}
	if float64(s.shadeOver) > cracks*float64(s.covered) {
		t.Errorf("shading differs: max %d, %d px over %d", s.shadeMax, s.shadeOver, s.shadeTol)
	}
}

// TestDeviceMSAA renders a multisampled frame (a quad rotated so that its
// edges cut pixels at every angle) at 2, 4, 8 and 16 samples entirely on the
// device under Strict — pipe.Route sends it to the software raster and
// merger, the wrapper shades once per pixel and merges per sample,
// msaa_resolve_k box-filters — and compares it with the reference path's
// (S passes at gl/msaa's positions, averaged). The shader is a constant
// colour, so shading once per pixel and per sample agree. Tolerance: 4/255
// per channel (the two resolves round the average of the unorm8 samples
// independently), except that at most one pixel in 32 of the antialiased
// edge pixels may differ by one sample's weight (⌈255/S⌉ + 4): a sample
// within the Q15.16 edge coefficients' quantization (~1/1000 px here) of an
// edge falls on the other side of it than under ref's float edges, which
// with 16 samples at ~90 edge pixels happens about once or twice. Edge
// pixels must hold intermediate values on both paths. spec: vortexpipe §3.4.1
func TestDeviceMSAA(t *testing.T) {
	for _, n := range []int{2, 4, 8, 16} {
		t.Run(fmt.Sprintf("%dx", n), func(t *testing.T) { deviceMSAA(t, n) })
	}
}

func deviceMSAA(t *testing.T, samples int) {
	js := `{"width": 32, "height": 32, "msaa": ` + fmt.Sprint(samples) + `, "clear": {"color": [0, 0, 0, 1]},
 "camera": {"projection": "orthographic", "xmag": 0.5, "ymag": 0.5, "near": -1, "far": 1},
 "draws": [{"name": "q", "mesh": {"generator": "quad"}, "vertex_shader": "v.vert", "fragment_shader": "f.frag",
  "model": [{"rotate_z_deg": 17}, {"scale": [0.8, 0.8, 1]}],
  "uniforms": {"u_mvp": "mvp", "u_color": [1, 0.5, 0.25, 1], "u_mode": 2}}]}`
	d, err := scene.LoadDescription(writeScene(t, js, testVert, testFrag))
	if err != nil {
		t.Fatal(err)
	}
	want, _, err := Render(context.Background(), d, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, st, err := Render(context.Background(), d, Options{Path: PathDevice, Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	if st.Path != string(PathDevice) || !strings.Contains(st.Draws[0].Route, "sw_raster:true") {
		t.Fatalf("route %q / %q, want the device with the software raster", st.Path, st.Draws[0].Route)
	}
	partial := func(img []uint8) int {
		n := 0
		for i := 0; i < len(img); i += 4 {
			if img[i] != 0 && img[i] != 255 {
				n++
			}
		}
		return n
	}
	gp, wp := partial(got[0].Image.Pix), partial(want[0].Image.Pix)
	worst, flipped := 0, 0
	oneSample := (255+samples-1)/samples + 4
	for i := 0; i < len(got[0].Image.Pix); i += 4 {
		d := 0
		for c := range 4 {
			d = max(d, absDiff(got[0].Image.Pix[i+c], want[0].Image.Pix[i+c]))
		}
		worst = max(worst, d)
		switch {
		case d > oneSample:
			t.Errorf("pixel (%d, %d) differs by %d/255, more than one sample's weight", i/4%32, i/4/32, d)
		case d > 4:
			flipped++
		}
	}
	t.Logf("partially covered pixels: device %d, reference %d; max channel difference %d, %d pixels differ by one sample", gp, wp, worst, flipped)
	if gp < 40 || wp < 40 {
		t.Errorf("edges not antialiased: %d / %d partially covered pixels", gp, wp)
	}
	if flipped > wp/32 {
		t.Errorf("device %dx MSAA differs from the reference by one sample at %d pixels (of %d edge pixels)", samples, flipped, wp)
	}
}

func absDiff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}

// TestDeviceBlend draws an opaque quad and a half-transparent one over it
// (src_alpha, one_minus_src_alpha; then additive with a constant colour) and
// compares the device OM's blending with ref's within 2/255.
// spec: vortexpipe §3.3 step 2, §3.7
func TestDeviceBlend(t *testing.T) {
	for _, blend := range []string{
		`{"enable": true, "src": "src_alpha", "dst": "one_minus_src_alpha"}`,
		`{"enable": true, "equation_rgb": "add", "equation_alpha": "max", "src_rgb": "constant_color", "dst_rgb": "one", "src_alpha": "one", "dst_alpha": "one", "color": [0.25, 0.5, 0.75, 1]}`,
	} {
		js := `{"width": 32, "height": 32, "clear": {"color": [0, 0, 0, 1]},
 "camera": {"projection": "orthographic", "xmag": 0.5, "ymag": 0.5, "near": -1, "far": 1},
 "draws": [{"name": "a", "mesh": {"generator": "quad"}, "vertex_shader": "v.vert", "fragment_shader": "f.frag",
   "uniforms": {"u_mvp": "mvp", "u_color": [0.9, 0.1, 0.2, 1], "u_mode": 2}},
  {"name": "b", "mesh": {"generator": "quad"}, "vertex_shader": "v.vert", "fragment_shader": "f.frag",
   "model": [{"translate": [0.25, 0.25, 0]}],
   "uniforms": {"u_mvp": "mvp", "u_color": [0.1, 0.8, 0.3, 0.4], "u_mode": 2},
   "state": {"blend": ` + blend + `}}]}`
		d, err := scene.LoadDescription(writeScene(t, js, testVert, testFrag))
		if err != nil {
			t.Fatal(err)
		}
		want, _, err := Render(context.Background(), d, Options{})
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := Render(context.Background(), d, Options{Path: PathDevice, Strict: true})
		if err != nil {
			t.Fatal(err)
		}
		s := compareImages(got[0].Image, want[0].Image, [4]uint8{0, 0, 0, 255}, 2)
		if s.covered < 500 || s.edgeFar != 0 || s.shadeOver != 0 {
			t.Errorf("%s: %d covered, %d coverage mismatches not within 1 px, %d px over 2/255 (max %d)", blend, s.covered, s.edgeFar, s.shadeOver, s.shadeMax)
		}
	}
}

const texVert = `#version 130
uniform mat4 u_mvp;
in vec3 a_position;
in vec2 a_texcoord;
out vec2 v_uv;
void main() { v_uv = a_texcoord * 6.0 - 0.25; gl_Position = u_mvp * vec4(a_position, 1.0); }
`

const texFrag = `#version 130
uniform sampler2D u_tex;
in vec2 v_uv;
out vec4 c;
void main() { c = texture(u_tex, v_uv) * vec4(1.0, 0.9, 0.8, 1.0); }
`

// TestDeviceTexturedQuad renders a textured quad (a 16x16 checker repeated
// six times, repeat wrap; flat and then tilted in perspective so that levels
// mix) on both paths: vx_tex on the FF TEX unit with the LOD formed from the
// quad derivatives, against gl/sampler. Tolerance: coverage may differ on
// edge pixels; where both cover, channels may differ by 2/255, and at most 1%
// of the pixels more (a sub-texel position in S.23 against float, or an LOD,
// rounding to the other texel or level; measured: none for nearest, bilinear
// and trilinear). spec: vortexpipe §2.2 (emit_vx_tex), §3.4, §3.6
func TestDeviceTexturedQuad(t *testing.T) {
	for _, tc := range []struct {
		name, filter, model string
		bound               float64
	}{
		{"nearest", `"min_filter": "nearest", "mag_filter": "nearest"`, `[{"scale": [0.9, 0.9, 1]}]`, 0.01},
		{"bilinear", `"min_filter": "linear", "mag_filter": "linear"`, `[{"scale": [0.9, 0.9, 1]}]`, 0.01},
		{"trilinear", `"min_filter": "linear_mipmap_linear", "mag_filter": "linear"`, `[{"rotate_x_deg": -60}, {"scale": [1.6, 1.6, 1]}]`, 0.01},
	} {
		t.Run(tc.name, func(t *testing.T) {
			js := `{"width": 64, "height": 64, "clear": {"color": [0, 0, 0, 1]},
 "camera": {"projection": "perspective", "yfov_deg": 45, "near": 0.1, "far": 10, "view": [{"translate": [0, 0, -1.3]}]},
 "draws": [{"name": "q", "mesh": {"generator": "quad"}, "vertex_shader": "v.vert", "fragment_shader": "f.frag",
  "model": ` + tc.model + `, "uniforms": {"u_mvp": "mvp"},
  "textures": [{"uniform": "u_tex", "generator": "checker", "size": 16, "wrap_s": "repeat", "wrap_t": "repeat", ` + tc.filter + `}]}]}`
			desc, err := scene.LoadDescription(writeScene(t, js, texVert, texFrag))
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			want, _, err := Render(ctx, desc, Options{})
			if err != nil {
				t.Fatal(err)
			}
			got, st, err := Render(ctx, desc, Options{Path: PathDevice, Strict: true})
			if err != nil {
				t.Fatal(err)
			}
			s := compareImages(got[0].Image, want[0].Image, [4]uint8{0, 0, 0, 255}, 2)
			t.Logf("%s: covered %d px; coverage mismatches %d, %d not within 1 px; shading max diff %d, mean %.3f, %d px over %d",
				st.Route, s.covered, s.edge, s.edgeFar, s.shadeMax, s.shadeSum/max(s.shadeCnt, 1), s.shadeOver, s.shadeTol)
			if s.covered < 1000 || s.edgeFar != 0 {
				t.Errorf("coverage: %d covered, %d mismatches not within 1 px", s.covered, s.edgeFar)
			}
			if float64(s.shadeOver) > tc.bound*float64(s.covered) {
				t.Errorf("texturing differs: %d px over %d (max %d)", s.shadeOver, s.shadeTol, s.shadeMax)
			}
		})
	}
}

// BenchmarkDevicePath times Renderer.Draw of the bench scene at 512x512 on the
// device path (clear + one runtime draw + read back), as `vortex bench render
// --path device` does.
func BenchmarkDevicePath(b *testing.B) {
	dir := benchDir(b)
	for _, m := range []string{filepath.Join(dir, "bunny.obj"), "sphere"} {
		b.Run(filepath.Base(m), func(b *testing.B) {
			desc, err := scene.BenchDescription(m, dir, 512, 512)
			if err != nil {
				b.Fatal(err)
			}
			r, err := New(context.Background(), desc, Options{Path: PathDevice, Strict: true})
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

// TestDeviceMixedRoute renders a scene whose middle draw the device cannot
// take (its shaders pass 70 varying words, beyond the device's 64) between
// two device draws, all depth-tested: the routed draw runs on
// the reference renderer inside the device frame (targets read back and
// written again), so visibility across the paths is resolved by one depth
// buffer. Under Strict the same scene is an error naming the reason. Compared
// with the reference path: coverage may differ on edges, shading within
// 2/255. spec: vortexpipe §3.5, §1.5
func TestDeviceMixedRoute(t *testing.T) {
	draw := func(name, vs, model string) string {
		fs := "f.frag"
		if vs == "big.vert" {
			fs = "big.frag"
		}
		return `{"name": "` + name + `", "mesh": {"generator": "quad"}, "vertex_shader": "` + vs + `", "fragment_shader": "` + fs + `",
  "model": ` + model + `, "uniforms": {"u_mvp": "mvp"},
  "textures": [{"uniform": "u_tex", "generator": "checker", "size": 16, "min_filter": "nearest", "mag_filter": "nearest"}],
  "state": {"depth_test": true}}`
	}
	js := `{"width": 64, "height": 64, "clear": {"color": [0, 0, 0, 1]},
 "camera": {"projection": "orthographic", "xmag": 1, "ymag": 1, "near": -1, "far": 1},
 "draws": [` + draw("a", "v.vert", `[{"translate": [-0.3, -0.3, 0]}]`) + `, ` + draw("b", "big.vert", `[{"translate": [0, 0, 0.3]}]`) + `, ` +
		draw("c", "v.vert", `[{"translate": [0.3, 0.3, -0.3]}]`) + `]}`
	path := writeScene(t, js, texVert, texFrag)
	// big.vert/big.frag: the textured quad with 17 extra vec4 varyings
	// that the fragment shader folds back to zero.
	big := map[string]string{
		"big.vert": strings.Replace(strings.Replace(texVert, "out vec2 v_uv;", "out vec2 v_uv;\nout vec4 v_big[17];", 1),
			"gl_Position =", "for (int i = 0; i < 17; i++) v_big[i] = vec4(a_texcoord, a_texcoord) * float(i); gl_Position =", 1),
		"big.frag": strings.Replace(strings.Replace(texFrag, "in vec2 v_uv;", "in vec2 v_uv;\nin vec4 v_big[17];", 1),
			"void main() { c =", "void main() { vec4 s = vec4(0.0); for (int i = 0; i < 17; i++) s += v_big[i]; c = min(s, vec4(0.0)) +", 1),
	}
	for name, src := range big {
		if err := os.WriteFile(filepath.Join(filepath.Dir(path), name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	d, err := scene.LoadDescription(path)
	if err != nil {
		t.Fatal(err)
	}
	want, _, err := Render(context.Background(), d, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := Render(context.Background(), d, Options{Path: PathDevice, Strict: true}); !errors.Is(err, ErrRouted) || !strings.Contains(err.Error(), "draw 1") {
		t.Fatalf("strict: %v, want ErrRouted naming draw 1", err)
	}
	got, st, err := Render(context.Background(), d, Options{Path: PathDevice})
	if err != nil {
		t.Fatal(err)
	}
	if st.Path != string(PathDevice) || st.Draws[0].Route != "device" || st.Draws[2].Route != "device" ||
		!strings.HasPrefix(st.Draws[1].Route, "reference: ") || !strings.Contains(st.Route, "2 of 3") {
		t.Fatalf("routes: %q; %q / %q / %q", st.Route, st.Draws[0].Route, st.Draws[1].Route, st.Draws[2].Route)
	}
	t.Logf("routed: %s", st.Draws[1].Route)
	s := compareImages(got[0].Image, want[0].Image, [4]uint8{0, 0, 0, 255}, 2)
	t.Logf("%s: covered %d px, %d coverage mismatches (%d not within 1 px), %d px over 2/255 (max %d)",
		st.Route, s.covered, s.edge, s.edgeFar, s.shadeOver, s.shadeMax)
	if s.covered < 2000 || s.edgeFar != 0 || s.shadeOver != 0 {
		t.Errorf("mixed frame differs from the reference")
	}
	// The routed draw's counters come from the reference renderer's stages.
	_, st, err = Render(context.Background(), d, Options{Path: PathDevice, Stats: true})
	if err != nil {
		t.Fatal(err)
	}
	if ds := st.Draws[1]; ds.TrianglesIn == 0 || ds.TrianglesVisible == 0 || ds.FragmentsShaded == 0 {
		t.Errorf("routed draw counters %+v", ds)
	}
	// The device model counts only the draws it ran: the frame's sum is the
	// two device draws', and the routed draw has none.
	if st.Draws[1].Device != nil || st.Draws[0].Device == nil || st.Draws[2].Device == nil {
		t.Errorf("device counters per draw: %+v / %+v / %+v", st.Draws[0].Device, st.Draws[1].Device, st.Draws[2].Device)
	}
	if f := st.LastFrame; f == nil || f.DeviceDraws != 2 || f.CmdDraw == 0 || f.Doorbells != 2 ||
		f.Written != st.Draws[0].Device.Written+st.Draws[2].Device.Written || f.Perf.TexReads == 0 {
		t.Errorf("frame device counters %+v", f)
	}
}

// TestDeviceStats checks that the device path gathers every counter the
// device model reports per draw (summed over frames) and per frame, that they
// agree with render's own counters where they are the same quantity, and
// that the reference path leaves them out, JSON included.
func TestDeviceStats(t *testing.T) {
	dir := benchDir(t)
	desc, err := scene.BenchDescription(filepath.Join(dir, "bunny.obj"), dir, 64, 64)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	const frames = 2
	_, st, err := Render(ctx, desc, Options{Frames: frames, Path: PathDevice, Strict: true, Stats: true})
	if err != nil {
		t.Fatal(err)
	}
	if st.Path != string(PathDevice) || len(st.Draws) != 1 {
		t.Fatalf("path %q, %d draws", st.Path, len(st.Draws))
	}
	ds := st.Draws[0]
	d := ds.Device
	if d == nil {
		t.Fatalf("no device counters: %+v", ds)
	}
	t.Logf("draw %+v; last frame %+v", *d, *st.LastFrame)
	if d.DeviceDraws != frames || d.Doorbells != frames || d.CmdDraw < frames || d.CPCycles == 0 || d.KickCycles == 0 ||
		d.Vertices == 0 || d.Primitives == 0 || uint64(d.Primitives) > ds.TrianglesIn || d.FrontEnd.Triangles == 0 ||
		d.BinsTouched == 0 || d.Pairs == 0 || d.Quads == 0 || d.Waves == 0 || d.Occupancy <= 0 || d.Occupancy > 1 ||
		d.Perf.RasterReads == 0 || d.Perf.OMWrites == 0 || d.Perf.OMReads == 0 {
		t.Errorf("device counters %+v", *d)
	}
	if uint64(d.Shaded) != ds.FragmentsShaded || uint64(d.Written) != ds.FragmentsWritten || uint64(d.Primitives) != ds.TrianglesVisible {
		t.Errorf("device shaded/written/primitives %d/%d/%d, render's %d/%d/%d",
			d.Shaded, d.Written, d.Primitives, ds.FragmentsShaded, ds.FragmentsWritten, ds.TrianglesVisible)
	}
	// One frame of the two: the frame's sum is about half the draw's (the
	// bunny turns between frames, so not exactly).
	f := st.LastFrame
	if f == nil || f.DeviceDraws != 1 || f.Doorbells != 1 || f.CPCycles == 0 || f.CPCycles >= d.CPCycles || f.Written == 0 || f.Written >= d.Written {
		t.Errorf("last frame %+v, draw %+v", f, *d)
	}
	js, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{`"last_frame_device":{`, `"device":{"device_draws":2,`, `"cp_cycles":`, `"perf":{"raster_reads":`, `"front_end":{`, `"early_z_culled":`} {
		if !strings.Contains(string(js), k) {
			t.Errorf("stats JSON lacks %s: %s", k, js)
		}
	}

	_, rs, err := Render(ctx, desc, Options{Frames: frames, Stats: true})
	if err != nil {
		t.Fatal(err)
	}
	if rs.LastFrame != nil || rs.Draws[0].Device != nil || rs.Draws[0].FragmentsShaded == 0 {
		t.Errorf("reference path: last frame %+v, draw %+v", rs.LastFrame, rs.Draws[0])
	}
	js, err = json.Marshal(rs)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(js), `"device"`) || strings.Contains(string(js), `"last_frame_device"`) {
		t.Errorf("reference path JSON has device counters: %s", js)
	}
}

// TestDeviceStatsAddEveryCounter guards DeviceStats.add against a counter
// added to session.DrawStats but not summed: every numeric field set to 1 in
// two draws must read 2 (occupancy, a mean, 1).
func TestDeviceStatsAddEveryCounter(t *testing.T) {
	var one session.DrawStats
	var set func(v reflect.Value)
	set = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Struct:
			for i := range v.NumField() {
				set(v.Field(i))
			}
		case reflect.Int, reflect.Int64:
			v.SetInt(1)
		case reflect.Uint64:
			v.SetUint(1)
		case reflect.Float64:
			v.SetFloat(1)
		case reflect.Bool:
			v.SetBool(true)
		}
	}
	set(reflect.ValueOf(&one).Elem())
	one.Route.Why = []string{"a"}
	var d DeviceStats
	d.add(one)
	d.add(one)
	var check func(v reflect.Value, path string)
	check = func(v reflect.Value, path string) {
		switch v.Kind() {
		case reflect.Struct:
			for i := range v.NumField() {
				check(v.Field(i), path+"."+v.Type().Field(i).Name)
			}
		case reflect.Int, reflect.Int64:
			if v.Int() != 2 {
				t.Errorf("%s = %d, want 2", path, v.Int())
			}
		case reflect.Uint64:
			if v.Uint() != 2 {
				t.Errorf("%s = %d, want 2", path, v.Uint())
			}
		case reflect.Float64:
			if v.Float() != 1 {
				t.Errorf("%s = %g, want 1 (a mean)", path, v.Float())
			}
		case reflect.Bool:
			if !v.Bool() {
				t.Errorf("%s = false, want true", path)
			}
		}
	}
	check(reflect.ValueOf(d.DrawStats), "DrawStats")
	if d.DeviceDraws != 2 || len(d.Route.Why) != 1 {
		t.Errorf("device draws %d, reasons %q", d.DeviceDraws, d.Route.Why)
	}
}

// TestDeviceWorkers renders the bench bunny on the device path with 1 and 3
// workers (the raster's bin walkers): the image and every device counter are
// the same, and the workers reach the device unless the configuration names
// raster.workers.
func TestDeviceWorkers(t *testing.T) {
	dir := benchDir(t)
	desc, err := scene.BenchDescription(filepath.Join(dir, "bunny.obj"), dir, 96, 64)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var imgs [][]byte
	var devs []DeviceStats
	for _, w := range []int{1, 3} {
		img, st, err := Render(ctx, desc, Options{FirstFrame: 7, Path: PathDevice, Strict: true, Stats: true, Workers: w})
		if err != nil {
			t.Fatal(err)
		}
		if st.Draws[0].Device == nil {
			t.Fatalf("workers %d: no device counters", w)
		}
		imgs = append(imgs, img[0].Image.Pix)
		devs = append(devs, *st.Draws[0].Device)
	}
	if !bytes.Equal(imgs[0], imgs[1]) {
		t.Error("the image differs between 1 and 3 workers")
	}
	if !reflect.DeepEqual(devs[0], devs[1]) {
		t.Errorf("device counters differ between 1 and 3 workers:\n%+v\n%+v", devs[0], devs[1])
	}
	if got := deviceConfig(Options{Workers: 3}).Raster.Workers; got != 3 {
		t.Errorf("raster workers %d, want the renderer's 3", got)
	}
	named := config.Default()
	named.Raster.Workers = 2
	if got := deviceConfig(Options{Workers: 3, Config: &named}).Raster.Workers; got != 2 {
		t.Errorf("raster workers %d, want the configuration's 2", got)
	}
}

// sampleFrag reads gl_SampleID and gl_SamplePosition, so every sample is
// shaded on its own (sample shading implied). spec: GL 4.6 §14.3.1.1
const sampleFrag = `#version 400
in vec2 v_uv;
out vec4 c;
void main() { c = vec4(v_uv.x * 0.5 + gl_SamplePosition.x * 0.5, gl_SamplePosition.y, float(gl_SampleID) / 16.0, 1.0); }
`

// TestDeviceSampleShading renders a per-sample shader (gl_SampleID,
// gl_SamplePosition) at 2, 8 and 16 samples on the device under Strict and
// on the reference path, whose sample pass k draws sample k
// (program.FragmentShader.SetSample): both shade each sample at its own
// position, so the resolved images agree within 2/255 per channel (the
// resolves round independently, the device interpolates in fixed point),
// except where a sample on an edge falls differently (at most one pixel in
// 32 of the edge pixels off by one sample's weight, as TestDeviceMSAA).
func TestDeviceSampleShading(t *testing.T) {
	for _, n := range []int{2, 8, 16} {
		t.Run(fmt.Sprintf("%dx", n), func(t *testing.T) {
			js := `{"width": 32, "height": 32, "msaa": ` + fmt.Sprint(n) + `, "clear": {"color": [0, 0, 0, 1]},
 "camera": {"projection": "orthographic", "xmag": 0.5, "ymag": 0.5, "near": -1, "far": 1},
 "draws": [{"name": "q", "mesh": {"generator": "quad"}, "vertex_shader": "v.vert", "fragment_shader": "f.frag",
  "model": [{"rotate_z_deg": 17}, {"scale": [0.8, 0.8, 1]}], "uniforms": {"u_mvp": "mvp"}}]}`
			d, err := scene.LoadDescription(writeScene(t, js, testVert, sampleFrag))
			if err != nil {
				t.Fatal(err)
			}
			want, _, err := Render(context.Background(), d, Options{})
			if err != nil {
				t.Fatal(err)
			}
			got, st, err := Render(context.Background(), d, Options{Path: PathDevice, Strict: true})
			if err != nil {
				t.Fatal(err)
			}
			if st.Path != string(PathDevice) {
				t.Fatalf("path %q", st.Path)
			}
			oneSample := (255+n-1)/n + 2
			worst, flipped := 0, 0
			gp, wp := got[0].Image.Pix, want[0].Image.Pix
			for i := 0; i < len(gp); i += 4 {
				dd := 0
				for c := range 3 {
					dd = max(dd, absDiff(gp[i+c], wp[i+c]))
				}
				worst = max(worst, dd)
				switch {
				case dd > oneSample:
					t.Errorf("pixel (%d, %d) differs by %d/255", i/4%32, i/4/32, dd)
				case dd > 2:
					flipped++
				}
			}
			t.Logf("max channel difference %d, %d pixels beyond 2/255", worst, flipped)
			if flipped > 3 {
				t.Errorf("%d pixels differ beyond 2/255", flipped)
			}
			// The blue channel averages gl_SampleID/16 over a covered pixel's
			// samples: (n−1)/32 for a fully covered one on both paths.
			c := 4 * (16*32 + 16)
			if w := (255*(n-1) + 16) / 32; absDiff(gp[c+2], uint8(w)) > 1 {
				t.Errorf("centre pixel blue %d, want %d (the mean sample id)", gp[c+2], w)
			}
		})
	}
}
