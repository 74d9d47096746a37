package parser

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vortexgfx/shader/glsl/ast"
)

var update = flag.Bool("update", false, "rewrite the golden AST dumps")

// TestGolden parses each testdata/golden source and compares the AST dump.
// spec: GLSL 4.50 §9 (grammar).
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/golden/*.vert")
	more, _ := filepath.Glob("testdata/golden/*.frag")
	files = append(files, more...)
	if len(files) == 0 {
		t.Fatal("no golden sources")
	}
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, err := ParseFile(filepath.Base(path), string(src), Options{})
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		got := ast.Sprint(f)
		golden := path + ".golden"
		if *update {
			if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run with -update)", err)
		}
		if got != string(want) {
			t.Errorf("%s: AST dump differs from %s:\n%s", path, golden, got)
		}
	}
}

// TestPrecedence checks operator precedence and associativity through the dump.
func TestPrecedence(t *testing.T) {
	tests := []struct{ src, want string }{
		{"a + b * c", "Binary + Ident a Binary * Ident b Ident c"},
		{"a - b - c", "Binary - Binary - Ident a Ident b Ident c"},
		{"a = b = c", "Assign = Ident a Assign = Ident b Ident c"},
		{"a || b && c", "Binary || Ident a Binary && Ident b Ident c"},
		{"a ^^ b || c", "Binary || Binary ^^ Ident a Ident b Ident c"},
		{"a | b ^ c & d", "Binary | Ident a Binary ^ Ident b Binary & Ident c Ident d"},
		{"a == b < c", "Binary == Ident a Binary < Ident b Ident c"},
		{"a << b + c", "Binary << Ident a Binary + Ident b Ident c"},
		{"a ? b : c ? d : e", "Cond Ident a Ident b Cond Ident c Ident d Ident e"},
		{"a, b = c", "Binary , Ident a Assign = Ident b Ident c"},
		{"-a.x++", "Unary - Unary post++ Field .x Ident a"},
		{"f(a, b)[1].y", "Field .y Index Call f Ident a Ident b Lit 1"},
		{"vec3(1)", "Call vec3 Lit 1"},
		{"x.length()", "Call length Ident x"},
	}
	for _, tc := range tests {
		x, err := ParseExpr(tc.src)
		if err != nil {
			t.Fatalf("%q: %v", tc.src, err)
		}
		got := strings.Join(strings.Fields(ast.Sprint(x)), " ")
		if got != tc.want {
			t.Errorf("%q:\n got %s\nwant %s", tc.src, got, tc.want)
		}
	}
}

// TestSyntaxErrors checks that malformed programs report an error at the right place.
func TestSyntaxErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"void main() { int x = ; }", "1:23: error: syntax error: unexpected ';'"},
		{"void main() { x = 1 }", "1:21: error: syntax error: expected ';', found '}'"},
		{"void main() {", "syntax error: unexpected end of file"},
		{"int class;", "1:5: error: 'class' is a reserved word"},
		{"#version 120\nfloat x = 1.0ff;", "invalid floating-point literal"},
		{"int x = 09;", "invalid integer literal 09"},
		{"#version 110\nuint x;", "2:1: error: syntax error: 'uint' is not a type"},
		{"void f() { void g() {} }", "function definitions are not allowed inside functions"},
		{"void main() { x = y $ z; }", "invalid character"},
		{"struct S {};", "struct must have at least one member"},
	}
	for _, tc := range tests {
		_, err := ParseFile("t", tc.src, Options{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.src, err, tc.want)
		}
	}
}

// TestRecovery checks that parsing resumes after a broken declaration so that
// several syntax errors are reported, in source order.
func TestRecovery(t *testing.T) {
	src := "void f() { int x = ; }\nfloat g;\nvoid main() { x = 1 }\nvec4 h("
	_, err := ParseFile("m.frag", src, Options{})
	want := "m.frag:1:20: error: syntax error: unexpected ';'\n" +
		"m.frag:3:21: error: syntax error: expected ';', found '}'\n" +
		"m.frag:4:8: error: syntax error: expected type, found end of file"
	if err == nil || err.Error() != want {
		t.Fatalf("got\n%v\nwant\n%s", err, want)
	}
}

func TestDeepNesting(t *testing.T) {
	src := "void main() { x = " + strings.Repeat("(", 5000) + "1" + strings.Repeat(")", 5000) + "; }"
	_, err := ParseFile("deep", src, Options{})
	if err == nil || !strings.Contains(err.Error(), "nesting too deep") {
		t.Fatalf("got %v", err)
	}
}

func FuzzParse(f *testing.F) {
	f.Add("void main() { gl_Position = vec4(1.0); }")
	f.Fuzz(func(t *testing.T, src string) {
		file, err := ParseFile("fuzz", src, Options{})
		if file == nil {
			t.Fatal("ParseFile returned a nil file")
		}
		if err != nil {
			if _, ok := err.(ast.ErrorList); !ok {
				t.Fatalf("error is %T, want ast.ErrorList", err)
			}
		}
	})
}
