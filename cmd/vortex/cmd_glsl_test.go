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
