package types_test

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"vortexgfx/shader/glsl"
	glslast "vortexgfx/shader/glsl/ast"
)

// The rejection tests live in testdata/check, in the style of go/types: each
// file holds one or more GLSL compilation units (separated by a line starting
// "// ----"), the stage given by the file's extension (.vert, .frag, .comp, .geom), and
// a comment `// ERROR "regexp"` on every line where a diagnostic must be
// reported (several ERROR clauses when a line has several diagnostics). A unit
// compiles with the lines before it blanked, so diagnostics carry file line
// numbers (GLSL allows only white space before #version). Every diagnostic must
// be expected on its line and every expectation met. Warnings are expected the
// same way with `// WARNING "regexp"` (checked only in units that compile, as a
// failed compile returns no file), and so are the diagnostics a unit that
// compiles leaves for the link (ast.File.LinkErrors), with ERROR. TestEveryDiagnosticIsTested
// holds the files to covering every message format the checker can emit.

// unitSep starts a new compilation unit.
const unitSep = "// ----"

var errorRE = regexp.MustCompile(`ERROR "((?:[^"\\]|\\.)*)"`)

// warningRE is an expected warning, which a unit that compiles must report on
// its line; warnLineRE parses a warning of ast.File.Warnings.
var (
	warningRE  = regexp.MustCompile(`WARNING "((?:[^"\\]|\\.)*)"`)
	warnLineRE = regexp.MustCompile(`^[^:]*:(\d+):(\d+): warning: (.*)$`)
)

// diag is one reported diagnostic.
type diag struct {
	file string
	line int
	msg  string
}

// checkFile compiles each unit of one testdata file and reports mismatches
// against its ERROR expectations; it returns the diagnostics reported.
func checkFile(t *testing.T, path string) []diag {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var stage glsl.Stage
	switch filepath.Ext(path) {
	case ".vert":
		stage = glsl.Vertex
	case ".frag":
		stage = glsl.Fragment
	case ".comp":
		stage = glsl.Compute
	case ".geom":
		stage = glsl.Geometry
	default:
		t.Fatalf("%s: unknown stage extension", path)
	}
	lines := strings.SplitAfter(string(b), "\n")
	var out []diag
	start := 0
	for i := 0; i <= len(lines); i++ {
		if i < len(lines) && !strings.HasPrefix(lines[i], unitSep) {
			continue
		}
		if i > start {
			out = append(out, checkUnit(t, path, stage, lines, start, i)...)
		}
		start = i + 1
	}
	return out
}

// checkUnit compiles lines[from:to] of a file (1-based line from+1 onward).
func checkUnit(t *testing.T, path string, stage glsl.Stage, lines []string, from, to int) []diag {
	t.Helper()
	src := strings.Repeat("\n", from) + strings.Join(lines[from:to], "")
	expect := func(clause *regexp.Regexp, what string) map[int][]*regexp.Regexp {
		want := map[int][]*regexp.Regexp{}
		for i := from; i < to; i++ {
			for _, m := range clause.FindAllStringSubmatch(lines[i], -1) {
				pat, err := strconv.Unquote(`"` + m[1] + `"`)
				if err != nil {
					t.Fatalf("%s:%d: bad %s string: %v", path, i+1, what, err)
				}
				re, err := regexp.Compile(pat)
				if err != nil {
					t.Fatalf("%s:%d: bad %s regexp: %v", path, i+1, what, err)
				}
				want[i+1] = append(want[i+1], re)
			}
		}
		return want
	}
	want := expect(errorRE, "ERROR")
	wantWarn := expect(warningRE, "WARNING")
	sh, err := glsl.Compile(filepath.Base(path), src, stage, glsl.Options{})
	var list glslast.ErrorList
	if err != nil && !errors.As(err, &list) {
		t.Fatalf("%s:%d: %v", path, from+1, err)
	}
	var out []diag
	match := func(want map[int][]*regexp.Regexp, line, col int, msg, what string) {
		out = append(out, diag{path, line, msg})
		res := want[line]
		k := -1
		for j, re := range res {
			if re.MatchString(msg) {
				k = j
				break
			}
		}
		if k < 0 {
			t.Errorf("%s:%d:%d: unexpected %s: %s", path, line, col, what, msg)
			return
		}
		want[line] = append(res[:k], res[k+1:]...)
	}
	for _, e := range list {
		match(want, e.Pos.Line, e.Pos.Col, e.Msg, "diagnostic")
	}
	if sh != nil {
		// Link-time diagnostics (ast.File.LinkErrors) are expected as errors.
		for _, e := range sh.File.LinkErrors {
			match(want, e.Pos.Line, e.Pos.Col, e.Msg, "link diagnostic")
		}
		for _, w := range sh.File.Warnings {
			m := warnLineRE.FindStringSubmatch(w)
			if m == nil {
				t.Errorf("%s: warning without a position: %s", path, w)
				continue
			}
			line, _ := strconv.Atoi(m[1])
			col, _ := strconv.Atoi(m[2])
			match(wantWarn, line, col, m[3], "warning")
		}
	}
	for line, res := range want {
		for _, re := range res {
			t.Errorf("%s:%d: no diagnostic matching %q", path, line, re)
		}
	}
	for line, res := range wantWarn {
		for _, re := range res {
			t.Errorf("%s:%d: no warning matching %q", path, line, re)
		}
	}
	return out
}

func testdataFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, ext := range []string{"vert", "frag", "comp", "geom"} {
		m, err := filepath.Glob(filepath.Join("testdata", "check", "*."+ext))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	sort.Strings(files)
	if len(files) == 0 {
		t.Fatal("no testdata/check files")
	}
	return files
}

// TestCheckFiles runs the rejection tests of testdata/check.
func TestCheckFiles(t *testing.T) {
	for _, f := range testdataFiles(t) {
		checkFile(t, f)
	}
}

// format is one diagnostic message format of the checker's source.
type format struct {
	pos string // file:line of the call
	fmt string
	re  *regexp.Regexp
}

// untestable lists the checker's message formats no GLSL source can produce,
// each with the reason.
var untestable = map[string]string{
	"internal compiler error: %v": "reports a recovered panic of the checker; no valid behaviour reaches it",
	"initializer list used outside of a declaration": "the parser builds initializer lists only as declarator " +
		"initializers, which initializer and initList check; expr guards against a tree built otherwise",
	"type %s cannot be initialized with a list": "every type but samplers and void takes a list, and a " +
		"declaration of either is refused before its initializer is checked",
	"layout qualifiers require GLSL 1.40 or GLSL ES 3.00": "the parser takes 'layout' as a keyword under " +
		"exactly the conditions this rule allows (parser.isKeyword), so an earlier version fails to parse first",
}

// checkerFormats extracts every message format the checker passes to its
// error reporters: c.errorf(pos, FORMAT, ...) and the local bad(FORMAT, ...)
// closures that forward to it, plus the literal messages given to errs.Add.
func checkerFormats(t *testing.T) []format {
	t.Helper()
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var out []format
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") || name == "verify.go" {
			continue // verify.go reports broken contracts of the checked tree, not diagnostics
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			arg := -1
			switch fn := call.Fun.(type) {
			case *ast.SelectorExpr:
				switch fn.Sel.Name {
				case "errorf", "warnf":
					arg = 1
				case "Add": // c.errs.Add(pos, fmt.Sprintf(FORMAT, ...))
					if len(call.Args) == 2 {
						if sp, ok := call.Args[1].(*ast.CallExpr); ok {
							if sel, ok := sp.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Sprintf" {
								call, arg = sp, 0
							}
						}
					}
					if arg < 0 {
						arg = 1
					}
				}
			case *ast.Ident:
				if fn.Name == "bad" {
					arg = 0
				}
			}
			if arg < 0 || len(call.Args) <= arg {
				return true
			}
			pos := fset.Position(call.Pos())
			where := fmt.Sprintf("%s:%d", pos.Filename, pos.Line)
			s, ok := stringConst(call.Args[arg])
			if !ok {
				if id, isID := call.Args[arg].(*ast.Ident); isID && id.Name == "format" {
					return true // a reporter forwarding its own format
				}
				t.Errorf("%s: message format is not a string constant; the coverage test cannot see it", where)
				return true
			}
			out = append(out, format{pos: where, fmt: s, re: formatRE(s)})
			return true
		})
	}
	return out
}

// stringConst evaluates a string literal or a concatenation of them.
func stringConst(e ast.Expr) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(e.Value)
		return s, err == nil
	case *ast.BinaryExpr:
		if e.Op != token.ADD {
			return "", false
		}
		a, ok1 := stringConst(e.X)
		b, ok2 := stringConst(e.Y)
		return a + b, ok1 && ok2
	case *ast.ParenExpr:
		return stringConst(e.X)
	}
	return "", false
}

var verbRE = regexp.MustCompile(`%[-+# 0-9.]*[a-zA-Z%]`)

// formatRE turns a printf format into a regexp matching its messages.
func formatRE(f string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^")
	last := 0
	for _, m := range verbRE.FindAllStringIndex(f, -1) {
		b.WriteString(regexp.QuoteMeta(f[last:m[0]]))
		if f[m[1]-1] == '%' {
			b.WriteString("%")
		} else {
			b.WriteString("(?s:.*)")
		}
		last = m[1]
	}
	b.WriteString(regexp.QuoteMeta(f[last:]))
	b.WriteString("$")
	return regexp.MustCompile(b.String())
}

// TestEveryDiagnosticIsTested fails for each message format of the checker
// that no testdata/check diagnostic exercises (or that the untestable list
// names but the checker no longer has), so coverage stays honest as the
// checker grows.
func TestEveryDiagnosticIsTested(t *testing.T) {
	var diags []diag
	for _, f := range testdataFiles(t) {
		diags = append(diags, checkFile(t, f)...)
	}
	seen := map[string]bool{}
	for _, f := range checkerFormats(t) {
		seen[f.fmt] = true
		if _, ok := untestable[f.fmt]; ok {
			continue
		}
		covered := false
		for _, d := range diags {
			if f.re.MatchString(d.msg) {
				covered = true
				break
			}
		}
		if !covered {
			t.Errorf("%s: no testdata/check diagnostic exercises %q", f.pos, f.fmt)
		}
	}
	for f := range untestable {
		if !seen[f] {
			t.Errorf("untestable lists %q, which the checker no longer emits", f)
		}
	}
}
