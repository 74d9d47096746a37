package glsl

import (
	"strings"
	"testing"
)

// TestLinkGPUShader5 covers the link rules of GL_ARB_gpu_shader5's geometry
// shader instancing and vertex streams and of its sample qualifier: the
// program's invocations count merged across units, streams outside 0..3, a
// non-zero stream without points output, a fragment input fed from another
// stream than 0, and sample on one side of a varying only.
// spec: ARB_gpu_shader5 §4.3.4, §4.3.8.1, §4.3.8.2, §8.10.
func TestLinkGPUShader5(t *testing.T) {
	const ext = "#version 150\n#extension GL_ARB_gpu_shader5 : enable\n"
	const vs = "#version 150\nin vec4 p; out vec4 v; void main() { gl_Position = p; v = p; }"
	const fs = "#version 150\nin vec4 g; out vec4 o; void main() { o = g; }"
	const gsBody = "in vec4 v[]; out vec4 g;\nvoid main() { g = v[0] + vec4(gl_InvocationID); gl_Position = gl_in[0].gl_Position; EmitVertex(); }\n"
	tests := []struct {
		name     string
		vs, fs   string
		gs       []string
		wantErr  string
		wantInvo int
	}{
		{"invocations", vs, fs, []string{ext + "layout(points, invocations = 4) in;\nlayout(points, max_vertices = 1) out;\n" + gsBody}, "", 4},
		{"invocations in another unit", vs, fs, []string{ext + "layout(points) in;\nlayout(points, max_vertices = 1) out;\n" + gsBody,
			ext + "layout(invocations = 3) in;\n"}, "", 3},
		{"invocations conflict", vs, fs, []string{ext + "layout(points, invocations = 4) in;\nlayout(points, max_vertices = 1) out;\n" + gsBody,
			ext + "layout(invocations = 3) in;\n"}, "invocations = 3 conflicts with 4", 0},
		{"no invocations", vs, fs, []string{ext + "layout(points) in;\nlayout(points, max_vertices = 1) out;\n" + gsBody}, "", 0},
		{"negative stream", vs, fs, []string{ext + "layout(points) in;\nlayout(points, max_vertices = 1) out;\n" +
			"in vec4 v[]; out vec4 g; void main() { g = v[0]; EmitStreamVertex(-1); EndStreamPrimitive(-1); }\n"}, "vertex stream -1 is outside 0..3", 0},
		{"stream 1 needs points", vs, fs, []string{ext + "layout(points) in;\nlayout(triangle_strip, max_vertices = 3) out;\n" +
			"in vec4 v[]; out vec4 g; void main() { g = v[0]; EmitStreamVertex(1); }\n"}, "vertex stream 1 needs the points output primitive", 0},
		{"stream 1 with points", vs, fs, []string{ext + "layout(points) in;\nlayout(points, max_vertices = 2) out;\n" +
			"in vec4 v[]; out vec4 g; layout(stream = 1) out vec4 g1; void main() { g = g1 = v[0]; EmitStreamVertex(0); EmitStreamVertex(1); }\n"}, "", 0},
		{"fragment input on stream 1", vs, fs, []string{ext + "layout(points) in;\nlayout(points, max_vertices = 2) out;\n" +
			"in vec4 v[]; layout(stream = 1) out vec4 g; void main() { g = v[0]; EmitStreamVertex(1); }\n"}, "geometry shader output on vertex stream 1", 0},
		{"sample on one side", ext + "in vec4 p; sample out vec4 g; void main() { gl_Position = p; g = p; }", fs, nil,
			"sample qualifier of 'g' differs", 0},
		{"sample on both sides", ext + "in vec4 p; sample out vec4 g; void main() { gl_Position = p; g = p; }",
			ext + "sample in vec4 g; out vec4 o; void main() { o = g; }", nil, "", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var units []*Shader
			for i, src := range append([]string{tc.vs, tc.fs}, tc.gs...) {
				stage := []Stage{Vertex, Fragment}[min(i, 1)]
				if i >= 2 {
					stage = Geometry
				}
				sh, err := Compile("u.glsl", src, stage, Options{})
				if err != nil {
					t.Fatalf("unit %d: %v", i, err)
				}
				units = append(units, sh)
			}
			p, err := LinkShaders(units...)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("got %v, want an error containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if p.Geometry != nil && p.GeometryLayout.Invocations != tc.wantInvo {
				t.Errorf("invocations %d, want %d", p.GeometryLayout.Invocations, tc.wantInvo)
			}
		})
	}
}
