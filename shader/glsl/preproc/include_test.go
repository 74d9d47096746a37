package preproc

import (
	"strings"
	"testing"
)

// spec: ARB_shading_language_include (#include, the named-string tree, search
// points, "#line N "name"").
func TestInclude(t *testing.T) {
	const ext = "#extension GL_ARB_shading_language_include : enable\n"
	tree := &Includes{
		Strings: map[string]string{
			"/lib/a.glsl":          "a_body",
			"/lib/sub/b.glsl":      "#include \"c.glsl\"\nb_body", // quoted: its own directory first
			"/lib/sub/c.glsl":      "c_in_sub",
			"/lib/c.glsl":          "c_in_lib",
			"/spaced path/to a/x":  "spaced",
			"/def":                 "#define FROM_INCLUDE 42",
			"/self":                "#include \"/self\"",
			"/lib/line.glsl":       "\n\n#line 10\nL __LINE__",
			"/lib/disabled-inside": "#include </lib/a.glsl>",
		},
		Paths: []string{"/nowhere/", "/lib"},
	}
	// Named with . and ..: stored as /dir/file.h, and replaced by a later
	// string at the same clean path.
	if !tree.Add("/dir/./x/../file.h", "first") || !tree.Add("/dir/y/../file.h", "cleaned") || tree.Add("rel", "") {
		t.Fatal("Add")
	}
	for _, tc := range []struct {
		name, src, want, err string
	}{
		{"absolute", ext + "#include </lib/a.glsl>\nafter", "a_body after", ""},
		{"quoted absolute", ext + "#include \"/lib/a.glsl\"", "a_body", ""},
		{"search points in order", ext + "#include <a.glsl>", "a_body", ""},
		{"quoted in an included string: its directory first", ext + "#include </lib/sub/b.glsl>", "c_in_sub b_body", ""},
		{"angle brackets: search points only", ext + "#include <c.glsl>", "c_in_lib", ""},
		{"spaces in paths", ext + "#include \"/spaced path/to a/x\" // trailing comment", "spaced", ""},
		{"dot and dot-dot", ext + "#include \"/dir/y/../file.h\"", "cleaned", ""},
		{"macros cross the include", ext + "#include \"/def\"\nFROM_INCLUDE", "42", ""},
		{"line numbers of the including string continue", ext + "#include </lib/line.glsl>\n__LINE__", "L 10 3", ""},
		{"skipped include", ext + "#if 0\n#include </missing>\n#endif\nok", "ok", ""},
		{"not in the tree", ext + "#include </missing>", "", `no named string at "/missing"`},
		{"a directory is not a string", ext + "#include </lib>", "", `no named string at "/lib"`},
		{"relative not found", ext + "#include <sub>", "", "no named string"},
		{"extension disabled", "#include </lib/a.glsl>", "", "#include requires #extension GL_ARB_shading_language_include"},
		{"bad operand", ext + "#include lib/a.glsl", "", `#include expects "path" or <path>`},
		{"unterminated", ext + "#include \"/lib/a.glsl", "", `#include expects "path" or <path>`},
		{"garbage after", ext + "#include </lib/a.glsl> x", "", `#include expects "path" or <path>`},
		{"recursion bounded", ext + "#include </self>", "", "nested more than 32 deep"},
		{"line with a source name", ext + "#line 7 \"/shader/./include/../pa th\"\n__LINE__", "7", ""},
		{"line with a name needs the extension", "#line 7 \"/x\"\n", "", "#line with a source string name requires #extension"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Process("s", tc.src, Options{Extensions: []string{ExtShadingLanguageInclude}, Includes: tree})
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := join(res.Tokens); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestCleanPath: the include path normalisation.
func TestCleanPath(t *testing.T) {
	for in, want := range map[string]string{
		"/a/b": "/a/b", "/a//b/": "/a/b", "/a/./b": "/a/b", "/a/../b": "/b", "/../a": "/a", "/": "/",
	} {
		if got, ok := CleanPath(in); !ok || got != want {
			t.Errorf("CleanPath(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	if _, ok := CleanPath("rel/a"); ok {
		t.Error("a relative path cleaned")
	}
}
