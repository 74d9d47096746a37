package preproc

import (
	"strings"
	"testing"
)

// esCase is one preprocessor run: the output tokens (want) of a valid source, or
// the first error of an invalid one, plus the warnings expected either way.
type esCase struct {
	name string
	src  string
	def  int    // Options.DefaultVersion
	want string // joined tokens when err is ""
	err  string // full first diagnostic ("file:line:col: error: msg") or ""
	warn string // full first warning or ""
}

func runESCases(t *testing.T, tests []esCase) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Process("t.vert", tc.src, Options{DefaultVersion: tc.def})
			if tc.err != "" {
				if err == nil {
					t.Fatalf("no error, want %q (tokens %q)", tc.err, join(r.Tokens))
				}
				if first, _, _ := strings.Cut(err.Error(), "\n"); first != tc.err {
					t.Fatalf("error = %q, want %q", first, tc.err)
				}
			} else {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				if got := join(r.Tokens); got != tc.want {
					t.Errorf("tokens = %q, want %q", got, tc.want)
				}
			}
			switch {
			case tc.warn == "" && len(r.Warnings) > 0:
				t.Errorf("unexpected warning %s", r.Warnings[0])
			case tc.warn != "" && len(r.Warnings) == 0:
				t.Errorf("no warning, want %q", tc.warn)
			case tc.warn != "" && r.Warnings[0].String() != tc.warn:
				t.Errorf("warning = %q, want %q", r.Warnings[0], tc.warn)
			}
		})
	}
}

// TestUndefinedIdentifierInIf: GLSL ES 1.00 §3.4 and ES 3.00 §3.4 make an
// identifier that is not a macro an error in #if/#elif, except where && / || do not
// evaluate it (Mesa's glcpp); desktop GLSL evaluates it to 0 as C does (GLSL 4.30
// §3.3, Mesa, piglit glsl-1.30/preprocessor/if/if-arg-must-be-defined-*).
func TestUndefinedIdentifierInIf(t *testing.T) {
	const ifFoo = "#if FOO\nyes\n#else\nno\n#endif"
	runESCases(t, []esCase{
		{name: "es100", src: "#version 100\n" + ifFoo, err: "t.vert:2:5: error: undefined macro FOO in preprocessor expression"},
		{name: "es100 default", src: ifFoo, def: 100, err: "t.vert:1:5: error: undefined macro FOO in preprocessor expression"},
		{name: "es300", src: "#version 300 es\n" + ifFoo, err: "t.vert:2:5: error: undefined macro FOO in preprocessor expression"},
		{name: "es310", src: "#version 310 es\n" + ifFoo, err: "t.vert:2:5: error: undefined macro FOO in preprocessor expression"},
		{name: "es320", src: "#version 320 es\n" + ifFoo, err: "t.vert:2:5: error: undefined macro FOO in preprocessor expression"},
		{name: "es elif", src: "#version 300 es\n#if 0\n#elif BAR\n#endif", err: "t.vert:3:7: error: undefined macro BAR in preprocessor expression"},
		{name: "es in arithmetic", src: "#version 300 es\n#if 1 + FOO * 0\n#endif", err: "t.vert:2:9: error: undefined macro FOO in preprocessor expression"},
		{name: "es macro expanding to undefined", src: "#version 300 es\n#define M FOO\n#if M\n#endif", err: "t.vert:3:5: error: undefined macro FOO in preprocessor expression"},
		{name: "es short-circuit or", src: "#version 300 es\n#if 1 || STILL_NOT_DEFINED\nyes\n#endif", want: "yes"},
		{name: "es short-circuit and", src: "#version 300 es\n#if 0\n#elif 0 && NOT_DEFINED\n#else\nmore\n#endif", want: "more"},
		{name: "es evaluated right of and", src: "#version 300 es\n#if 1 && FOO\n#endif", err: "t.vert:2:10: error: undefined macro FOO in preprocessor expression"},
		{name: "es skipped group", src: "#version 300 es\n#if 0\n#if FOO\n#endif\n#endif\nok", want: "ok"},
		{name: "es defined is fine", src: "#version 300 es\n#if !defined(FOO)\nyes\n#endif", want: "yes"},
		{name: "glsl110 is 0", src: ifFoo, want: "no"},
		{name: "glsl130 is 0", src: "#version 130\n" + ifFoo, want: "no"},
		{name: "glsl450 not", src: "#version 450\n#if !FOO && FOO == 0\nyes\n#endif", want: "yes"},
		{name: "glsl elif", src: "#version 130\n#if 0\na\n#elif UNDEFINED_MACRO\nb\n#else\nc\n#endif", want: "c"},
	})
}

// TestDefinedFromExpansion: a "defined" that macro expansion produces in #if is
// evaluated, in ES and desktop GLSL alike, as Mesa's glcpp does (C leaves it
// undefined; GLSL ES 3.00 §3.4 is silent).
func TestDefinedFromExpansion(t *testing.T) {
	var tests []esCase
	for _, v := range []string{"#version 100\n", "#version 300 es\n", "#version 320 es\n", "", "#version 450\n"} {
		tests = append(tests,
			esCase{name: v + "object true", src: v + "#define X\n#define D defined(X)\n#if D\nyes\n#else\nno\n#endif", want: "yes"},
			esCase{name: v + "object false", src: v + "#define D defined X\n#if D\nyes\n#else\nno\n#endif", want: "no"},
			esCase{name: v + "not", src: v + "#define D !defined(X) && 1\n#if D\nyes\n#endif", want: "yes"},
			esCase{name: v + "function", src: v + "#define IS(m) defined(m)\n#if IS(Y)\nyes\n#else\nno\n#endif", want: "no"},
			esCase{name: v + "function hidden", src: v + "#define W W\n#define IS(m) defined(m)\n#if IS(W)\nyes\n#endif", want: "yes"},
			esCase{name: v + "nested", src: v + "#define Z 1\n#define E defined(Z)\n#define F E\n#if F\nyes\n#endif", want: "yes"},
		)
	}
	tests = append(tests,
		esCase{name: "no name", src: "#define D defined\n#if D X\n#endif", err: "t.vert:2:5: error: defined expects a macro name"},
		esCase{name: "define defined", src: "#define defined 1", err: "t.vert:1:9: error: 'defined' cannot be used as a macro name"},
		esCase{name: "undef defined", src: "#undef defined", err: "t.vert:1:8: error: 'defined' cannot be used as a macro name"},
		// Outside #if a "defined" is plain text.
		esCase{name: "text", src: "#define D defined(X)\nD", want: "defined ( X )"},
	)
	runESCases(t, tests)
}

// TestGLES: GL_ES is predefined to 1 in ES shaders (GLSL ES 1.00 §3.4, ES 3.00
// §3.4) and not in desktop ones; it is reserved (GL_ prefix) everywhere.
func TestGLES(t *testing.T) {
	const probe = "#ifdef GL_ES\nes GL_ES\n#else\ndesk\n#endif\n#if defined(GL_ES) && GL_ES == 1\none\n#endif"
	runESCases(t, []esCase{
		{name: "es100", src: "#version 100\n" + probe, want: "es 1 one"},
		{name: "es100 default", src: probe, def: 100, want: "es 1 one"},
		{name: "es300", src: "#version 300 es\n" + probe, want: "es 1 one"},
		{name: "es310", src: "#version 310 es\n" + probe, want: "es 1 one"},
		{name: "es320", src: "#version 320 es\n" + probe, want: "es 1 one"},
		{name: "glsl110", src: probe, want: "desk"},
		{name: "glsl330", src: "#version 330\n" + probe, want: "desk"},
		{name: "glsl450 core", src: "#version 450 core\n" + probe, want: "desk"},
		{name: "desktop may use the name", src: "#version 130\nGL_ES", want: "GL_ES"},
		{name: "undef", src: "#version 300 es\n#undef GL_ES", err: "t.vert:2:8: error: cannot undefine built-in macro GL_ES"},
		{name: "redefine", src: "#version 100\n#define GL_ES 1", err: "t.vert:2:9: error: macro names beginning with GL_ are reserved"},
		// GLSL 1.30 §4.5.4 defines GL_FRAGMENT_PRECISION_HIGH too (Mesa: from 1.30 on).
		{name: "precision high 130", src: "#version 130\n#if GL_FRAGMENT_PRECISION_HIGH == 1\nhp\n#endif", want: "hp"},
		{name: "precision high 120", src: "#version 120\n#ifdef GL_FRAGMENT_PRECISION_HIGH\nhp\n#endif\nx", want: "x"},
	})
}

// TestBuiltinMacroValues: __LINE__, __FILE__ (the source string number) and
// __VERSION__, including after #line (GLSL ES 3.00 §3.4: the line after
// "#line line source" is line line of source string source).
func TestBuiltinMacroValues(t *testing.T) {
	runESCases(t, []esCase{
		{name: "line", src: "#version 300 es\n\n__LINE__", want: "3"},
		{name: "line in macro", src: "#version 300 es\n#define L __LINE__\n\nL", want: "4"},
		{name: "line after #line", src: "#version 300 es\n#line 10\n__LINE__\n__LINE__", want: "10 11"},
		{name: "line after #line es100", src: "#version 100\n#line 10\n__LINE__", want: "10"},
		{name: "line in #if after #line", src: "#version 300 es\n#line 20\n#if __LINE__ == 20\nyes\n#endif", want: "yes"},
		{name: "two #line", src: "#line 100\n#line 5\n__LINE__", want: "5"},
		{name: "line from macro", src: "#define N 50\n#line N\n__LINE__", want: "50"},
		{name: "file default", src: "#version 300 es\n__FILE__", want: "0"},
		{name: "file after #line", src: "#version 300 es\n__FILE__\n#line 7 3\n__FILE__ __LINE__", want: "0 3 7"},
		{name: "file persists", src: "#line 5 2\n#line 9\n__FILE__ __LINE__", want: "2 9"},
		{name: "file in #if", src: "#line 1 4\n#if __FILE__ == 4\nyes\n#endif", want: "yes"},
		{name: "version 100", src: "#version 100\n__VERSION__", want: "100"},
		{name: "version default 100", src: "__VERSION__", def: 100, want: "100"},
		{name: "version 300 es", src: "#version 300 es\n__VERSION__", want: "300"},
		{name: "version 310 es", src: "#version 310 es\n__VERSION__", want: "310"},
		{name: "version 320 es", src: "#version 320 es\n__VERSION__", want: "320"},
		{name: "version default", src: "__VERSION__", want: "110"},
		{name: "version in #if", src: "#version 300 es\n#if __VERSION__ != 300\n#error wrong\n#endif\nok", want: "ok"},
		{name: "error line after #line", src: "#version 300 es\n#line 40\n#error here", err: "t.vert:40:1: error: #error here"},
		{name: "if error line after #line", src: "#version 300 es\n#line 40\n#if FOO\n#endif", err: "t.vert:40:5: error: undefined macro FOO in preprocessor expression"},
		{name: "unterminated if after #line", src: "#line 40\n#if 1\nx", err: "t.vert:40:1: error: unterminated #if"},
		{name: "undef __LINE__", src: "#version 300 es\n#undef __LINE__", err: "t.vert:2:8: error: cannot undefine built-in macro __LINE__"},
		{name: "undef __FILE__", src: "#version 300 es\n#undef __FILE__", err: "t.vert:2:8: error: cannot undefine built-in macro __FILE__"},
		{name: "redefine __VERSION__", src: "#version 300 es\n#define __VERSION__ 1", err: "t.vert:2:9: error: cannot redefine built-in macro __VERSION__"},
		{name: "bad source number", src: "#line 3 x", err: "t.vert:1:7: error: #line expects an integer line number"},
	})
}

// TestDoubleUnderscoreMacros: macro names containing "__" are reserved; defining
// one is a warning in every version (GLSL ES 3.00 §3.4: "does not itself result in
// an error"; Mesa's glcpp warns in ES 1.00 too), and so is #undef of one except in
// ES 1.00 and 3.00, where Mesa's glcpp makes it an error. GL_ names are errors.
func TestDoubleUnderscoreMacros(t *testing.T) {
	const w = "t.vert:2:9: warning: macro names containing __ are reserved"
	runESCases(t, []esCase{
		{name: "define es100", src: "#version 100\n#define __FOO 1\n__FOO", want: "1", warn: w},
		{name: "define es300", src: "#version 300 es\n#define A__B 2\nA__B", want: "2", warn: w},
		{name: "define es320", src: "#version 320 es\n#define C__ 3\nC__", want: "3", warn: w},
		{name: "define desktop", src: "#version 130\n#define __I_AM_RESERVED 1\nx", want: "x", warn: w},
		{name: "function-like", src: "#version 300 es\n#define F__(x) x\nF__(4)", want: "4", warn: w},
		{name: "undef es100", src: "#version 100\n#undef __FOO", err: "t.vert:2:8: error: macro names containing __ are reserved"},
		{name: "undef es300", src: "#version 300 es\n#undef A__B", err: "t.vert:2:8: error: macro names containing __ are reserved"},
		{name: "undef es310", src: "#version 310 es\n#undef A__B\nx", want: "x", warn: "t.vert:2:8: warning: macro names containing __ are reserved"},
		{name: "undef desktop", src: "#version 450\n#undef A__B\nx", want: "x", warn: "t.vert:2:8: warning: macro names containing __ are reserved"},
		{name: "GL_ es", src: "#version 300 es\n#define GL_FOO 1", err: "t.vert:2:9: error: macro names beginning with GL_ are reserved"},
		{name: "GL_ desktop", src: "#version 450\n#define GL_FOO 1", err: "t.vert:2:9: error: macro names beginning with GL_ are reserved"},
		{name: "GL_ undef", src: "#version 310 es\n#undef GL_FOO", err: "t.vert:2:8: error: cannot undefine built-in macro GL_FOO"},
		{name: "plain identifier is no macro", src: "#version 300 es\nint a__b;", want: "int a__b ;"},
		{name: "warning after #line", src: "#version 300 es\n#line 9\n#define X__ 1", want: "", warn: "t.vert:9:9: warning: macro names containing __ are reserved"},
	})
}
