package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestGLSLCommand(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "ok.frag")
	bad := filepath.Join(dir, "bad.vert")
	if err := os.WriteFile(good, []byte("#version 130\nout vec4 c;\nvoid main() { c = gl_FragCoord; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("#version 130\nvoid main() {\n  gl_Position = vec4(nope);\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A macro name with "__" is reserved: a warning, not an error (GLSL 4.50 §3.3).
	warn := filepath.Join(dir, "warn.frag")
	if err := os.WriteFile(warn, []byte("#version 130\n#define MY__MACRO 1\nout vec4 c;\nvoid main() { c = vec4(MY__MACRO); }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// #include of a named string given on the command line.
	incl := filepath.Join(dir, "incl.frag")
	lib := filepath.Join(dir, "lib.glsl")
	if err := os.WriteFile(incl, []byte("#version 130\n#extension GL_ARB_shading_language_include : enable\n#include <lib.glsl>\nout vec4 c;\nvoid main() { c = f(); }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(lib, []byte("vec4 f() { return vec4(0.5); }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args       []string
		code       int
		out, errIn string
	}{
		{[]string{"--include", "/l/lib.glsl=" + lib, "--include-path", "/l", incl}, 0, "storeout @0", ""},
		{[]string{"--include", "/l/lib.glsl=" + lib, incl}, 1, "", `no named string at "lib.glsl"`},
		{[]string{"--include", "rel=" + lib, incl}, 2, "", "does not start with '/'"},
		{[]string{"--include", "/l/lib.glsl=" + filepath.Join(dir, "none"), incl}, 1, "", "no such file"},
		{[]string{good}, 0, "storeout @0", ""},
		{[]string{warn}, 0, "storeout @0", "warn.frag:2:9: warning: "},
		{[]string{bad}, 1, "", "bad.vert:3:"},
		{[]string{good, bad}, 1, "# " + good, ": error: "},
		{[]string{"--stage", "vert", good}, 1, "", "error"},
		{[]string{filepath.Join(dir, "x.txt")}, 1, "", "cannot tell the stage"},
		{[]string{"--stage", "geom", good}, 2, "", "vert or frag"},
		{nil, 2, "", "usage"},
	}
	for _, tc := range tests {
		var out, errb bytes.Buffer
		code := runGLSL(tc.args, &out, &errb)
		if code != tc.code || !strings.Contains(out.String(), tc.out) || !strings.Contains(errb.String(), tc.errIn) {
			t.Errorf("glsl %v: code %d, stdout %q, stderr %q; want code %d, stdout containing %q, stderr containing %q",
				tc.args, code, out.String(), errb.String(), tc.code, tc.out, tc.errIn)
		}
	}
}

// TestGLSLEmitVXBin: --emit vxbin writes a compute kernel that `vortex disasm` reads
// back, and refuses what it cannot compile with the reason.
func TestGLSLEmitVXBin(t *testing.T) {
	dir := t.TempDir()
	comp := filepath.Join(dir, "k.comp")
	src := "#version 430\nlayout(local_size_x = 8) in;\nlayout(std430, binding = 1) buffer B { uint o[]; };\n" +
		"void main() { uint i = gl_GlobalInvocationID.x; if ((i & 1u) == 0u) o[i] = i * 3u; }\n"
	if err := os.WriteFile(comp, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	sin := filepath.Join(dir, "tex.comp") // codegen compiles compute texelFetch, not textureLod
	texSrc := strings.Replace(strings.Replace(src, "i * 3u", "uint(textureLod(s, vec2(0.5), 0.0).x)", 1), "void main", "uniform sampler2D s;\nvoid main", 1)
	if err := os.WriteFile(sin, []byte(texSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	frag := filepath.Join(dir, "ok.frag")
	if err := os.WriteFile(frag, []byte("#version 130\nout vec4 c;\nvoid main() { c = gl_FragCoord; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "k.vxbin")
	for _, tc := range []struct {
		args       []string
		code       int
		out, errIn string
	}{
		{[]string{"--emit", "vxbin", "-o", bin, comp}, 0, "bindings [storage buffer 1]", ""},
		{[]string{comp}, 0, "mstore", ""},
		{[]string{"--emit", "vxbin", "-o", bin, sin}, 1, "", "compute-stage texture: texture op samplelod"},
		{[]string{"--emit", "vxbin", "-o", bin, frag}, 1, "", "compute shaders only"},
		{[]string{"--emit", "vxbin", comp}, 2, "", "-o FILE"},
		{[]string{"--emit", "spirv", comp}, 2, "", "ir or vxbin"},
	} {
		var out, errb bytes.Buffer
		code := runGLSL(tc.args, &out, &errb)
		if code != tc.code || !strings.Contains(out.String(), tc.out) || !strings.Contains(errb.String(), tc.errIn) {
			t.Errorf("glsl %v: code %d, stdout %q, stderr %q; want code %d, stdout containing %q, stderr containing %q",
				tc.args, code, out.String(), errb.String(), tc.code, tc.out, tc.errIn)
		}
	}
	var out, errb bytes.Buffer
	if code := runDisasm([]string{bin}, &out, &errb); code != 0 {
		t.Fatalf("disasm: code %d, %s", code, errb.String())
	}
	for _, want := range []string{"80000000:", "vx_split", "vx_join", "vx_tmc"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("disasm of the kernel lacks %q:\n%s", want, out.String())
		}
	}
}
