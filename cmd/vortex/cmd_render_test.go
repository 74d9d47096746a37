package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRenderCommand(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "x.png")
	stats := filepath.Join(dir, "s.json")
	heat := filepath.Join(dir, "h.png")
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"width": 8, "height": 8, "draws": [{"mesh": {"generator": "nope"}}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	// A draw passing 68 varying words (17 vec4s) from the vertex to the
	// fragment shader: beyond the device's 64, so the device path routes it
	// to the reference renderer.
	routed := filepath.Join(dir, "routed.json")
	files := map[string]string{
		routed: `{"width": 16, "height": 16, "camera": {"projection": "orthographic", "xmag": 1, "ymag": 1, "near": -1, "far": 1}, "draws": [{"mesh": {"generator": "quad"}, "vertex_shader": "big.vert",
  "fragment_shader": "big.frag", "uniforms": {"u_mvp": "mvp"}}]}`,
		filepath.Join(dir, "big.vert"): "#version 130\nuniform mat4 u_mvp;\nin vec3 a_position;\nout vec4 v[17];\n" +
			"void main() { for (int i = 0; i < 17; i++) v[i] = vec4(float(i)); gl_Position = u_mvp * vec4(a_position, 1.0); }\n",
		filepath.Join(dir, "big.frag"): "#version 130\nin vec4 v[17];\nout vec4 c;\n" +
			"void main() { vec4 s = vec4(0.0); for (int i = 0; i < 17; i++) s += v[i]; c = s / 136.0; }\n",
	}
	for name, data := range files {
		if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		args  []string
		code  int
		errIn string
		files []string
	}{
		{[]string{"--size", "64x48", "-o", out, "--stats", stats, "--heatmap", heat}, 0, "", []string{out, stats, heat}},
		{[]string{"--size", "32x24", "--msaa", "1", "--frames", "2", "-o", out}, 0, "", []string{
			filepath.Join(dir, "x-0000.png"), filepath.Join(dir, "x-0001.png")}},
		{[]string{bad, "-o", out}, 1, "bad.json", nil},
		{[]string{filepath.Join(dir, "none.json")}, 1, "none.json", nil},
		{[]string{filepath.Join(dir, "x.txt")}, 1, "x.txt: unknown scene type", nil},
		{[]string{"--path", "device", "--strict", "--size", "64x48", "-o", out}, 0, "", []string{out}}, // the demo, 4x MSAA, all on the device
		{[]string{routed, "--path", "device", "--strict", "-o", out}, 1, "routed to the reference renderer", nil},
		{[]string{routed, "--path", "device", "-o", out}, 0, "", []string{out}},
		{[]string{"--path", "device", "--msaa", "1", "--size", "32x24", "-o", out}, 0, "", []string{out}},
		{[]string{"--path", "gpu"}, 2, "device or reference", nil},
		{[]string{"--size", "0x3"}, 2, "WxH", nil},
		{[]string{"--msaa", "3"}, 2, "1, 2, 4, 8 or 16", nil},
		{[]string{"--frames", "0"}, 2, "at least 1", nil},
		{[]string{"a.json", "b.json"}, 2, "one SCENE", nil},
	}
	for _, tc := range tests {
		for _, f := range tc.files {
			os.Remove(f)
		}
		var so, se bytes.Buffer
		code := runRender(tc.args, &so, &se)
		if code != tc.code || !strings.Contains(se.String(), tc.errIn) {
			t.Errorf("render %v: code %d, stderr %q; want %d containing %q", tc.args, code, se.String(), tc.code, tc.errIn)
		}
		if so.Len() != 0 {
			t.Errorf("render %v: stdout %q, want nothing (not a terminal)", tc.args, so.String())
		}
		for _, f := range tc.files {
			if _, err := os.Stat(f); err != nil {
				t.Errorf("render %v: %v", tc.args, err)
			}
		}
	}
	data, err := os.ReadFile(stats)
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		Route string `json:"route"`
		Draws []struct {
			TrianglesIn      uint64 `json:"triangles_in"`
			FragmentsWritten uint64 `json:"fragments_written"`
		} `json:"draws"`
	}
	if err := json.Unmarshal(data, &st); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(st.Route, "reference renderer (--path reference)") || len(st.Draws) != 1 || st.Draws[0].TrianglesIn == 0 || st.Draws[0].FragmentsWritten == 0 {
		t.Errorf("stats %s", data)
	}
}

func TestBenchRenderCommand(t *testing.T) {
	data := filepath.Join("..", "..", "..", "shared", "data", "bench")
	if _, err := os.Stat(filepath.Join(data, "lambert.vert")); err != nil {
		t.Skipf("../shared data absent: %v", err)
	}
	out := filepath.Join(t.TempDir(), "last.png")
	var so, se bytes.Buffer
	code := runBenchRender([]string{"--mesh", "bunny", "--shaders", data, "--size", "128x96", "--frames", "3", "--json", "-o", out}, &so, &se)
	if code != 0 {
		t.Fatalf("code %d, stderr %q", code, se.String())
	}
	var res benchResult
	if err := json.Unmarshal(so.Bytes(), &res); err != nil {
		t.Fatalf("%q: %v", so.String(), err)
	}
	if res.Frames != 3 || res.Width != 128 || res.Height != 96 || res.Triangles != 3674 || res.MsPerFrame <= 0 {
		t.Errorf("result %+v", res)
	}
	if _, err := os.Stat(out); err != nil {
		t.Error(err)
	}
	for _, tc := range []struct {
		args  []string
		code  int
		errIn string
	}{
		{[]string{"--shaders", data}, 2, "usage"},
		{[]string{"--mesh", "nope.obj", "--shaders", data}, 1, "nope.obj"},
		{[]string{"--mesh", "bunny", "--shaders", data, "--path", "device", "--frames", "1", "--size", "64x64"}, 0, ""},
		{[]string{"--mesh", "sphere", "--shaders", t.TempDir()}, 1, "lambert.vert"},
	} {
		so.Reset()
		se.Reset()
		if code := runBenchRender(tc.args, &so, &se); code != tc.code || !strings.Contains(se.String(), tc.errIn) {
			t.Errorf("bench render %v: code %d, stderr %q; want %d containing %q", tc.args, code, se.String(), tc.code, tc.errIn)
		}
	}
}

func TestProgressBarAndFrameNames(t *testing.T) {
	var buf bytes.Buffer
	if newProgress(&buf) != nil {
		t.Error("a bytes.Buffer is not a terminal")
	}
	p := &progressBar{w: &buf, width: 10}
	p.update(3, 10)
	if got := buf.String(); got != "\r[###.......] 3/10 frames" {
		t.Errorf("bar %q", got)
	}
	p.update(10, 10)
	if !strings.HasSuffix(buf.String(), "\r\033[K") {
		t.Errorf("finished bar %q does not clear the line", buf.String())
	}
	var none *progressBar
	none.update(1, 2) // no terminal: a no-op
	for _, tc := range []struct {
		out           string
		frame, frames int
		want          string
	}{
		{"a.png", 0, 1, "a.png"},
		{"a.png", 3, 12, "a-0003.png"},
		{"dir/b", 1, 2, "dir/b-0001"},
	} {
		if got := frameName(tc.out, tc.frame, tc.frames); got != tc.want {
			t.Errorf("frameName(%q, %d, %d) = %q, want %q", tc.out, tc.frame, tc.frames, got, tc.want)
		}
	}
}

// TestRenderModelFlags checks the model flags: warnings for what a glTF
// file's loader leaves out go to stderr (an error with --strict), --fps must
// be positive, --animation must name a clip of the file.
func TestRenderModelFlags(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "tri.gltf")
	// One triangle; its file uses an extension the loader does not implement.
	doc := `{"asset":{"version":"2.0"},"extensionsUsed":["KHR_materials_sheen"],
"buffers":[{"byteLength":36,"uri":"data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAA"}],
"bufferViews":[{"buffer":0,"byteLength":36}],
"accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,0]}],
"meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],"nodes":[{"mesh":0}],"scenes":[{"nodes":[0]}]}`
	if err := os.WriteFile(model, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "m.png")
	for _, tc := range []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{model, "-o", out, "--size", "16x16"}, 0, "warning: " + model + ": extensionsUsed[0]: extension KHR_materials_sheen is not implemented"},
		{[]string{model, "-o", out, "--size", "16x16", "--strict"}, 1, "scene feature not implemented (--strict)"},
		{[]string{model, "-o", out, "--size", "16x16", "--fps", "0"}, 2, "--fps 0: want > 0"},
		{[]string{model, "-o", out, "--size", "16x16", "--animation", "1"}, 1, "animation 1 out of range (the file has 0"},
		{[]string{model, "-o", out, "--size", "16x16", "--frames", "2", "--fps", "12", "--turntable"}, 0, "warning:"},
	} {
		var stdout, stderr bytes.Buffer
		if code := runRender(tc.args, &stdout, &stderr); code != tc.code || !strings.Contains(stderr.String(), tc.stderr) {
			t.Errorf("render %q: exit %d, stderr %q; want exit %d and %q", tc.args, code, stderr.String(), tc.code, tc.stderr)
		}
	}
}
