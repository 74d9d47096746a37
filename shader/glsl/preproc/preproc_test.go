package preproc

import (
	"strings"
	"testing"
)

func join(ts []Token) string {
	var s []string
	for _, t := range ts {
		if t.Kind != EOF {
			s = append(s, t.Text)
		}
	}
	return strings.Join(s, " ")
}

// spec: GLSL 4.50 §3.3 (preprocessor).
func TestProcess(t *testing.T) {
	tests := []struct {
		name, src, want, err string
	}{
		{"object macro", "#define A 1+2\nA*A", "1 + 2 * 1 + 2", ""},
		{"function macro", "#define F(x,y) (x*y)\nF(a+1, b)", "( a + 1 * b )", ""},
		{"not invoked", "#define F(x) x\nF + 1", "F + 1", ""},
		{"space before paren is object-like", "#define F (x) x\nF", "( x ) x", ""},
		{"argument prescan", "#define ID(x) x\n#define TWO 2\nID(TWO)", "2", ""},
		{"nested invocation", "#define F(x) x+1\nF(F(1))", "1 + 1 + 1", ""},
		{"self reference stops", "#define X X+1\nX", "X + 1", ""},
		{"mutual recursion stops", "#define A B\n#define B A\nA", "A", ""},
		{"multi-line invocation", "#define F(x,y) x y\nF(1,\n2)", "1 2", ""},
		{"paste", "#define CAT(a,b) a##b\nCAT(foo, bar)", "foobar", ""},
		{"empty args", "#define F() 7\nF()", "7", ""},
		{"undef", "#define A 1\n#undef A\nA", "A", ""},
		{"ifdef", "#define A\n#ifdef A\nyes\n#else\nno\n#endif", "yes", ""},
		{"ifndef", "#ifndef A\nyes\n#endif", "yes", ""},
		{"if arithmetic", "#if (1 + 2) * 3 == 9 && 7 % 4 == 3 && (1 << 4) == 16\nyes\n#endif", "yes", ""},
		{"if defined", "#define B 0\n#if defined(B) && !defined A && B == 0\nyes\n#endif", "yes", ""},
		{"elif chain", "#if 0\na\n#elif 0\nb\n#elif 1\nc\n#else\nd\n#endif", "c", ""},
		{"nested skip", "#if 0\n#if 1\na\n#endif\n#else\nb\n#endif", "b", ""},
		{"short circuit div", "#if 0 && (1/0)\na\n#else\nb\n#endif", "b", ""},
		{"hex octal", "#if 0x10 == 16 && 010 == 8\nyes\n#endif", "yes", ""},
		{"line macro", "a\n__LINE__", "a 2", ""},
		{"version macro", "#version 130\n__VERSION__", "130", ""},
		{"GL_ES", "#version 300 es\n#if GL_ES\nes\n#endif", "es", ""},
		{"GL_ES desktop", "#ifdef GL_ES\nes\n#else\ndesk\n#endif", "desk", ""},
		{"core profile macro", "#version 150\n#ifdef GL_core_profile\ncore\n#endif", "core", ""},
		{"compat profile macro", "#version 150 compatibility\n#if GL_compatibility_profile\ncompat\n#endif", "compat", ""},
		{"ES ifdef", "#version 300 es\n#ifdef GL_ES\nes\n#endif\n#ifdef GL_FRAGMENT_PRECISION_HIGH\nhp\n#endif", "es hp", ""},
		{"no stringification", "#define S(a) #a", "", "'#' (stringification) is not allowed"},
		{"line continuation", "#define A 1 \\\n + 2\nA", "1 + 2", ""},
		{"continuation closes a comment", "/* a *\\\n/ b", "b", ""},
		{"continuation inside a name", "f\\\noo", "foo", ""},
		{"comments", "a /* x\ny */ b // c\nd", "a b d", ""},
		{"line directive", "#line 10\n__LINE__", "10", ""},
		{"pragma ignored", "#pragma optimize(off)\nx", "x", ""},
		{"extension warn", "#extension GL_FOO_bar : warn\nx", "x", ""},
		{"skipped garbage", "#if 0\n#foo $ @\n#endif\nx", "x", ""},

		{"error directive", "#error stop here", "", "1:1: error: #error stop here"},
		{"unterminated if", "#if 1\nx", "", "unterminated #if"},
		{"else without if", "#else", "", "#else without #if"},
		{"endif without if", "#endif", "", "#endif without #if"},
		{"div by zero", "#if 1/0\n#endif", "", "division by zero"},
		{"undefined in if", "#version 300 es\n#if FOO\n#endif", "", "undefined macro FOO"},
		{"undefined in if is 0 on desktop", "#if FOO\na\n#else\nb\n#endif", "b", ""},
		{"redefine", "#define A 1\n#define A 2", "", "macro A redefined"},
		{"reserved GL_", "#define GL_FOO 1", "", "reserved"},
		{"builtin redefine", "#define __LINE__ 3", "", "cannot redefine built-in macro __LINE__"},
		{"wrong arg count", "#define F(a,b) a\nF(1)", "", "expects 2 arguments, got 1"},
		{"unterminated call", "#define F(a) a\nF(1", "", "unterminated invocation"},
		{"version late", "x\n#version 110", "", "#version must occur"},
		{"bad version", "#version 123", "", "not supported"},
		{"require unknown", "#extension GL_FOO : require", "", "extension GL_FOO is not supported"},
		{"unknown directive", "#foo", "", "invalid preprocessor directive #foo"},
		{"unterminated comment", "/* abc", "", "unterminated comment"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Process("t.vert", tc.src, Options{})
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error = %v, want it to contain %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if got := join(r.Tokens); got != tc.want {
				t.Errorf("tokens = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestVersion(t *testing.T) {
	tests := []struct {
		src     string
		version int
		es      bool
	}{
		{"", 110, false},
		{"#version 120\n", 120, false},
		{"  /* c */ #version 130\n", 130, false},
		{"#version 100\n", 100, true},
		{"#version 300 es\n", 300, true},
		{"#version 450 core\n", 450, false},
	}
	for _, tc := range tests {
		r, err := Process("v", tc.src, Options{})
		if err != nil {
			t.Fatalf("%q: %v", tc.src, err)
		}
		if r.Version != tc.version || r.ES != tc.es {
			t.Errorf("%q: version %d es %v, want %d %v", tc.src, r.Version, r.ES, tc.version, tc.es)
		}
	}
	// A default of 100 means GLSL ES 1.00 unless the source says otherwise.
	for _, tc := range []struct {
		src     string
		version int
		es      bool
	}{{"", 100, true}, {"#version 120\n", 120, false}, {"#version 300 es\n", 300, true}} {
		r, err := Process("v", tc.src, Options{DefaultVersion: 100})
		if err != nil || r.Version != tc.version || r.ES != tc.es {
			t.Errorf("default 100, %q: version %d es %v err %v", tc.src, r.Version, r.ES, err)
		}
	}
	for _, tc := range tests {
		r, err := Process("v", tc.src, Options{})
		if err != nil {
			t.Fatalf("%q: %v", tc.src, err)
		}
		if r.Version != tc.version || r.ES != tc.es {
			t.Errorf("%q: version %d es %v, want %d %v", tc.src, r.Version, r.ES, tc.version, tc.es)
		}
	}
}

func TestErrorPosition(t *testing.T) {
	_, err := Process("shader.frag", "\n\n  #error boom\n", Options{})
	if err == nil || err.Error() != "shader.frag:3:3: error: #error boom" {
		t.Fatalf("got %v", err)
	}
}

func TestExpansionBomb(t *testing.T) {
	src := "#define A x x x x x x x x\n#define B A A A A A A A A\n#define C B B B B B B B B\n" +
		"#define D C C C C C C C C\n#define E D D D D D D D D\n#define F E E E E E E E E\n#define G F F F F F F F F\nG"
	_, err := Process("b", src, Options{})
	if err == nil || !strings.Contains(err.Error(), "too large") {
		t.Fatalf("got %v, want expansion limit error", err)
	}
}

// TestPathologicalMacros checks that deeply nested and exponential invocations stop
// at the expansion limit with an error instead of running for minutes.
func TestPathologicalMacros(t *testing.T) {
	for name, src := range map[string]string{
		"nested": "#define F(x) x\n" + strings.Repeat("F(", 5000) + "1" + strings.Repeat(")", 5000),
		"args":   "#define F(x) x x x x\n" + strings.Repeat("F(", 12) + "1" + strings.Repeat(")", 12),
	} {
		_, err := Process(name, src, Options{})
		if err == nil || !strings.Contains(err.Error(), "too large") {
			t.Errorf("%s: got %v, want expansion limit error", name, err)
		}
	}
}

func FuzzProcess(f *testing.F) {
	f.Add("#define F(x) x*x\n#if defined(F) && 1\nF(2)\n#endif\n")
	f.Add("#version 300 es\n#line 4\n__LINE__ __FILE__ GL_ES\n")
	f.Add("#define A(x,y) x##y\nA(,)A(1,2)\\\n/* */")
	f.Add("#version 300 es\n#define D defined(X)\n#if D || UNDEF\n#endif\n#line 9 2\n__FILE__")
	f.Add("#version 100\n#define F(m) defined(m) && m\n#if F(F)\n#elif 1 && A__B\n#endif\n#undef A__B")
	f.Add("#extension GL_ARB_shading_language_include : enable\n#include \"/a\"\n#include <b>\n#line 3 \"/x\"\n")
	// The include tree's strings include each other and themselves.
	inc := &Includes{Strings: map[string]string{"/a": "#include \"b\"\nA", "/b": "#include </a>\n#if 1\nB", "/c": "#endif"}, Paths: []string{"/"}}
	f.Fuzz(func(t *testing.T, src string) {
		for _, def := range []int{0, 100} {
			r, err := Process("fuzz", src, Options{DefaultVersion: def, Extensions: []string{ExtShadingLanguageInclude}, Includes: inc})
			if r == nil || len(r.Tokens) == 0 || r.Tokens[len(r.Tokens)-1].Kind != EOF {
				t.Fatal("result must end with EOF")
			}
			// Process turns a panic into this error; the fuzzer must see it.
			if err != nil && strings.Contains(err.Error(), "internal compiler error") {
				t.Fatal(err)
			}
			for _, tok := range r.Tokens[:len(r.Tokens)-1] {
				if tok.Text == "" {
					t.Fatalf("empty token at %v", tok.Pos)
				}
			}
		}
	})
}
