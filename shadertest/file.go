package shadertest

import (
	"errors"
	"fmt"
	"strings"

	"vortexgfx/shader/glsl"
)

// DefaultWidth and DefaultHeight are shader_runner's window size.
// spec: piglit tests/shaders/shader_runner.c (DEFAULT_WINDOW_WIDTH/HEIGHT).
const (
	DefaultWidth  = 250
	DefaultHeight = 250
)

// Stage is a shader stage of a [... shader] section.
type Stage int

// The shader stages shader_runner knows.
const (
	StageVertex Stage = iota
	StageTessControl
	StageTessEval
	StageGeometry
	StageFragment
	StageCompute
)

var stageNames = [...]string{"vertex", "tessellation control", "tessellation evaluation", "geometry", "fragment", "compute"}

// String names the stage as its section header does.
func (s Stage) String() string {
	if s >= 0 && int(s) < len(stageNames) {
		return stageNames[s]
	}
	return fmt.Sprintf("stage(%d)", int(s))
}

// PassthroughVertexShader is the source shader_runner compiles for a
// [vertex shader passthrough] section.
const PassthroughVertexShader = "#if __VERSION__ >= 130\n" +
	"in vec4 piglit_vertex;\n" +
	"#else\n" +
	"attribute vec4 piglit_vertex;\n" +
	"#endif\n" +
	"void main() { gl_Position = piglit_vertex; }\n"

// Shader is one shader object: the text of one shader section, ready to
// compile.
type Shader struct {
	Stage Stage
	// Source is the text handed to the compiler, including the #version
	// line shader_runner prepends when the file lacks one.
	Source string
	// Line is the line of the section header.
	Line int
	// Passthrough marks the built-in [vertex shader passthrough] source.
	Passthrough bool
	// AddedVersion reports that a #version line was prepended.
	AddedVersion bool
	// Assembly marks a [vertex program] / [fragment program] section:
	// Source is an ARB assembly program string, which the runner
	// translates (arbprogram.go) before the link.
	Assembly bool
}

// File is a parsed shader_test file.
type File struct {
	Path string
	// Requires are the [require] lines in file order.
	Requires []Requirement
	// HasRequire reports that the file has a [require] section; shader_runner
	// fails files without one.
	HasRequire bool
	// Width and Height are the window size (SIZE in [require], or the
	// defaults).
	Width, Height int
	// DepthBuffer reports a "depthbuffer" requirement.
	DepthBuffer bool
	// GLSL is the last "GLSL >= x.yz" requirement (Num 0 when absent); it
	// supplies missing #version lines and chooses the API.
	GLSL Version
	// GL is the GL requirement used to choose the context (Num 0 when
	// absent).
	GL Version
	// Shaders are the shader objects in file order.
	Shaders []Shader
	// Includes are the [shader include] named strings (first line the path,
	// the rest the string) and the [shader include paths] search points;
	// nil when the file has neither.
	Includes *glsl.Includes
	// VertexData is the [vertex data] table, nil when absent.
	VertexData *VertexData
	// Elements is the [elements] index list.
	Elements []uint16
	// HasTest reports a [test] section.
	HasTest bool
	// Commands are the [test] commands in order.
	Commands []Command
}

// ParseError is a malformed line, naming the file and line.
type ParseError struct {
	Path string
	Line int
	Msg  string
}

// Error describes the failure.
func (e *ParseError) Error() string {
	return fmt.Sprintf("%s:%d: %s", e.Path, e.Line, e.Msg)
}

type sectionKind int

const (
	secNone sectionKind = iota
	secRequire
	secShader
	secPassthrough
	secIgnored // spirv, specializations: not used without SPIR-V mode
	secProgram // [vertex program], [fragment program]: ARB assembly
	secGeometryLayout
	secVertexData
	secElements
	secTest
	secInclude
	secIncludePaths
)

// section headers in shader_runner's matching order (prefix matches).
var sectionTable = []struct {
	header string
	kind   sectionKind
	stage  Stage
}{
	{"[require]", secRequire, 0},
	{"[vertex shader passthrough]", secPassthrough, StageVertex},
	{"[vertex shader spirv]", secIgnored, 0},
	{"[vertex shader specializations]", secIgnored, 0},
	{"[vertex shader]", secShader, StageVertex},
	{"[vertex program]", secProgram, StageVertex},
	{"[tessellation control shader spirv]", secIgnored, 0},
	{"[tessellation control shader specializations]", secIgnored, 0},
	{"[tessellation control shader]", secShader, StageTessControl},
	{"[tessellation evaluation shader spirv]", secIgnored, 0},
	{"[tessellation evaluation shader specializations]", secIgnored, 0},
	{"[tessellation evaluation shader]", secShader, StageTessEval},
	{"[geometry shader specializations]", secIgnored, 0},
	{"[geometry shader spirv]", secIgnored, 0},
	{"[geometry shader]", secShader, StageGeometry},
	{"[geometry layout]", secGeometryLayout, 0},
	{"[fragment shader specializations]", secIgnored, 0},
	{"[fragment shader spirv]", secIgnored, 0},
	{"[fragment shader]", secShader, StageFragment},
	{"[fragment program]", secProgram, StageFragment},
	{"[compute shader specializations]", secIgnored, 0},
	{"[compute shader spirv]", secIgnored, 0},
	{"[compute shader]", secShader, StageCompute},
	{"[vertex data]", secVertexData, 0},
	{"[shader include paths]", secIncludePaths, 0},
	{"[shader include]", secInclude, 0},
	{"[elements]", secElements, 0},
	{"[test]", secTest, 0},
}

// line is one line of the file with its 1-based number and byte offset.
type line struct {
	text string
	num  int
	off  int
}

func splitLines(src string) []line {
	var out []line
	off := 0
	for n := 1; off < len(src); n++ {
		end := strings.IndexByte(src[off:], '\n')
		if end < 0 {
			out = append(out, line{src[off:], n, off})
			break
		}
		out = append(out, line{src[off : off+end], n, off})
		off += end + 1
	}
	return out
}

// parseStr is parser_utils' parse_str: skip blanks (not newlines), then
// match a literal prefix; it returns the rest after the literal.
func parseStr(s, lit string) (string, bool) {
	t := strings.TrimLeft(s, " \t\v\f\r")
	if strings.HasPrefix(t, lit) {
		return t[len(lit):], true
	}
	return s, false
}

// Parse reads a shader_test file. It always returns a File holding what
// could be read; the error, when not nil, joins one *ParseError per bad
// line. Requirements are parsed even when later lines are bad so that a
// runner can report an unmet requirement as a skip first, as shader_runner
// does.
func Parse(path string, data []byte) (*File, error) {
	src := string(data)
	f := &File{Path: path, Width: DefaultWidth, Height: DefaultHeight}
	var errs []error
	bad := func(n int, format string, args ...any) {
		errs = append(errs, &ParseError{Path: path, Line: n, Msg: fmt.Sprintf(format, args...)})
	}
	lines := splitLines(src)
	kind := secNone
	var stage Stage
	var body []line
	headerLine := 0
	headerOff := 0
	requireSections := 0
	flush := func() {
		switch kind {
		case secShader:
			f.addShader(src, stage, headerLine, body, headerOff, bad)
		case secPassthrough:
			f.addPassthrough(headerLine, bad)
		case secProgram:
			f.addProgram(src, stage, headerLine, body)
		case secVertexData:
			vd, err := parseVertexData(path, body)
			if err != nil {
				errs = append(errs, err)
			}
			f.VertexData = vd
		case secElements:
			f.Elements = append(f.Elements, parseElements(path, body, bad)...)
		case secGeometryLayout:
			parseGeometryLayout(body, bad)
		case secInclude:
			f.addInclude(src, headerLine, body, bad)
		case secIncludePaths:
			inc := f.includes()
			for _, l := range body {
				if p := strings.TrimSpace(l.text); p != "" {
					inc.Paths = append(inc.Paths, p)
				}
			}
		}
		body = nil
	}
	for li, ln := range lines {
		if kind == secTest {
			f.parseCommand(ln, bad)
			continue
		}
		if len(ln.text) > 0 && ln.text[0] == '[' {
			flush()
			matched := false
			for _, s := range sectionTable {
				if _, ok := parseStr(ln.text, s.header); ok {
					kind, stage, matched = s.kind, s.stage, true
					break
				}
			}
			if !matched {
				bad(ln.num, "unknown section %q (missing closing ']'?)", strings.TrimSpace(ln.text))
				kind = secIgnored
				continue
			}
			headerLine = ln.num
			if li+1 < len(lines) {
				headerOff = lines[li+1].off
			} else {
				headerOff = len(src)
			}
			switch kind {
			case secRequire:
				f.HasRequire = true
				requireSections++
			case secTest:
				f.HasTest = true
			}
			continue
		}
		switch kind {
		case secRequire:
			f.parseRequirement(ln, requireSections == 1, bad)
		case secShader, secProgram, secVertexData, secElements, secGeometryLayout, secInclude, secIncludePaths:
			body = append(body, ln)
		}
	}
	if kind != secTest {
		flush()
	}
	return f, errors.Join(errs...)
}

// includes returns the file's include tree, creating it.
func (f *File) includes() *glsl.Includes {
	if f.Includes == nil {
		f.Includes = &glsl.Includes{Strings: map[string]string{}}
	}
	return f.Includes
}

// addInclude records one [shader include] section: its first line is the
// string's path (absolute), the rest of the section, exactly as written, the
// string. spec: piglit shader_runner ("shader include": glNamedStringARB)
func (f *File) addInclude(src string, header int, body []line, bad func(int, string, ...any)) {
	if len(body) == 0 || strings.TrimSpace(body[0].text) == "" {
		bad(header, "shader include without a path")
		return
	}
	path := strings.TrimSpace(body[0].text)
	if _, ok := glsl.CleanIncludePath(path); !ok {
		bad(body[0].num, "shader include path %q does not start with '/'", path)
		return
	}
	f.includes().Add(path, sectionText(src, body[1:]))
}

// sectionText is the exact source text of a section's lines, the newline
// ending the last one included ("" for none).
func sectionText(src string, body []line) string {
	if len(body) == 0 {
		return ""
	}
	last := body[len(body)-1]
	end := last.off + len(last.text)
	if end < len(src) {
		end++ // the newline ending the section's last line
	}
	return src[body[0].off:end]
}

// addShader records one shader section. body holds its lines; the source
// is the exact text from the line after the header up to the next section.
func (f *File) addShader(src string, stage Stage, header int, body []line, off int, bad func(int, string, ...any)) {
	text := sectionText(src, body)
	sh := Shader{Stage: stage, Source: text, Line: header}
	// strstr(shader_string, "#version ") scans to the end of the file.
	if !strings.Contains(src[min(off, len(src)):], "#version ") {
		v, ok := f.versionDirective()
		if !ok {
			bad(header, "GLSL version requirement missing")
		}
		sh.Source = v + text
		sh.AddedVersion = true
	}
	f.Shaders = append(f.Shaders, sh)
}

func (f *File) addPassthrough(header int, bad func(int, string, ...any)) {
	v, ok := f.versionDirective()
	if !ok {
		bad(header, "GLSL version requirement missing")
	}
	f.Shaders = append(f.Shaders, Shader{
		Stage: StageVertex, Source: v + PassthroughVertexShader, Line: header,
		Passthrough: true, AddedVersion: true,
	})
}

// versionDirective is the line compile_glsl prepends.
func (f *File) versionDirective() (string, bool) {
	if f.GLSL.Num == 0 {
		return "", false
	}
	s := fmt.Sprintf("#version %d", f.GLSL.Num)
	if f.GLSL.ES && f.GLSL.Num != 100 {
		s += " es"
	}
	return s + "\n", true
}

func parseElements(path string, body []line, bad func(int, string, ...any)) []uint16 {
	var out []uint16
	for _, ln := range body {
		t := ln.text
		if k := strings.IndexByte(t, '#'); k >= 0 {
			t = t[:k]
		}
		i := 0
		for {
			i = skipCSpace(t, i)
			if i >= len(t) {
				break
			}
			v, end, ok := strtoul(t, i, 0)
			if !ok || v > 0xffff {
				bad(ln.num, "invalid [elements] value at %q", strings.TrimSpace(t[i:]))
				break
			}
			out = append(out, uint16(v))
			i = end
		}
	}
	return out
}

func parseGeometryLayout(body []line, bad func(int, string, ...any)) {
	for _, ln := range body {
		t := strings.TrimLeft(ln.text, " \t\r")
		if t == "" {
			continue
		}
		if _, n := scanf(t, "input type %s"); n == 1 {
			continue
		}
		if _, n := scanf(t, "output type %s"); n == 1 {
			continue
		}
		if _, n := scanf(t, "vertices out %d"); n == 1 {
			continue
		}
		bad(ln.num, "could not parse geometry layout line %q", t)
	}
}
