package shadertest

import (
	"fmt"
	"strings"
)

// Comparison is a [require] comparison operator.
type Comparison int

// The operators of parser_utils' parse_comparison_op. "!=" parses as
// Greater, as in shader_runner.
const (
	Equal Comparison = iota
	Less
	LessEqual
	GreaterEqual
	Greater
)

var cmpNames = [...]string{"==", "<", "<=", ">=", ">"}

// String returns the name used in test files and messages.
func (c Comparison) String() string {
	if c >= 0 && int(c) < len(cmpNames) {
		return cmpNames[c]
	}
	return "?"
}

// holds reports "have OP want", shader_runner's compare(want, have, op).
func (c Comparison) holds(have, want int) bool {
	switch c {
	case Equal:
		return have == want
	case Less:
		return have < want
	case LessEqual:
		return have <= want
	case GreaterEqual:
		return have >= want
	case Greater:
		return have > want
	}
	return false
}

func parseComparison(s string) (Comparison, string, bool) {
	for _, op := range []struct {
		lit string
		c   Comparison
	}{{"==", Equal}, {"!=", Greater}, {"<=", LessEqual}, {"<", Less}, {">=", GreaterEqual}, {">", Greater}} {
		if rest, ok := parseStr(s, op.lit); ok {
			return op.c, rest, true
		}
	}
	return 0, s, false
}

// Version is a GL or GLSL version: Num is major*10+minor for GL and
// major*100+minor for GLSL, as shader_runner encodes them.
type Version struct {
	Num    int
	ES     bool
	Core   bool
	Compat bool
}

// String formats the version as shader_runner prints it.
func (v Version) String() string {
	return v.format(v.Num >= 100)
}

func (v Version) format(glsl bool) string {
	es := ""
	if v.ES {
		es = " ES"
	}
	if glsl {
		return fmt.Sprintf("GLSL%s %d.%02d", es, v.Num/100, v.Num%100)
	}
	return fmt.Sprintf("GL%s %d.%d", es, v.Num/10, v.Num%10)
}

// ReqKind classifies a [require] line.
type ReqKind int

// Requirement kinds, one per branch of shader_runner's process_requirement.
const (
	ReqIgnored      ReqKind = iota // any line shader_runner does not act on
	ReqGLSL                        // GLSL [ES] >= x.yz
	ReqGL                          // GL [ES] op x.y
	ReqExtension                   // GL_name
	ReqNotExtension                // !GL_name
	ReqLimit                       // GL_MAX_... op n (the limits table)
	ReqInt                         // INT GL_ENUM op n
	ReqRlimit                      // rlimit n
	ReqSSO                         // SSO ENABLED
	ReqSeparable                   // SEPARABLE PROGRAM ENABLED
	ReqSPIRV                       // SPIRV ONLY|YES|NO
	ReqIgnoreMissingUniforms
	ReqSize        // SIZE w h
	ReqDepthBuffer // depthbuffer
)

// Requirement is one [require] line.
type Requirement struct {
	Line    int
	Kind    ReqKind
	Text    string
	Name    string // extension, limit or enum name; SPIRV mode
	Cmp     Comparison
	Version Version
	Value   int
}

// limitNames are the limits shader_runner queries itself.
var limitNames = []string{
	"GL_MAX_VERTEX_OUTPUT_COMPONENTS",
	"GL_MAX_FRAGMENT_UNIFORM_COMPONENTS",
	"GL_MAX_VERTEX_UNIFORM_COMPONENTS",
	"GL_MAX_VERTEX_ATTRIBS",
	"GL_MAX_VARYING_COMPONENTS",
	"GL_NUM_PROGRAM_BINARY_FORMATS",
}

func (f *File) parseRequirement(ln line, first bool, bad func(int, string, ...any)) {
	text := strings.TrimRight(ln.text, " \t\r")
	r := Requirement{Line: ln.num, Text: strings.TrimSpace(text)}
	s := text
	defer func() {
		if r.Kind != ReqIgnored {
			f.Requires = append(f.Requires, r)
		}
	}()
	if rest, ok := parseStr(s, "INT "); ok {
		name, rest2, ok := parseWord(rest)
		if !ok {
			bad(ln.num, "invalid comparison enum at %q", rest)
			return
		}
		cmp, rest3, ok := parseComparison(rest2)
		if !ok {
			bad(ln.num, "invalid comparison operation at %q", rest2)
			return
		}
		v, _, ok := strtol(rest3, 0, 0)
		if !ok {
			bad(ln.num, "invalid comparison value at %q", rest3)
			return
		}
		r.Kind, r.Name, r.Cmp, r.Value = ReqInt, name, cmp, int(int32(v))
		return
	}
	for _, name := range limitNames {
		rest, ok := parseStr(s, name)
		if !ok {
			continue
		}
		cmp, rest2, ok := parseComparison(rest)
		if !ok {
			bad(ln.num, "invalid comparison operation at %q", rest)
			return
		}
		r.Kind, r.Name, r.Cmp, r.Value = ReqLimit, name, cmp, atoi(rest2)
		return
	}
	if _, ok := parseStr(s, "GL_"); ok {
		name, _, _ := parseWord(s)
		r.Kind, r.Name = ReqExtension, name
		return
	}
	if rest, ok := parseStr(s, "!"); ok {
		if _, ok := parseStr(rest, "GL_"); ok {
			name, _, _ := parseWord(rest)
			r.Kind, r.Name = ReqNotExtension, name
			return
		}
	}
	if rest, ok := parseStr(s, "GLSL"); ok {
		cmp, v, err := parseVersionComparison(rest, true)
		if err != nil {
			bad(ln.num, "%v", err)
			return
		}
		if cmp != GreaterEqual {
			bad(ln.num, "unsupported GLSL version comparison %s (only >= is allowed)", cmp)
			return
		}
		r.Kind, r.Cmp, r.Version = ReqGLSL, cmp, v
		f.GLSL = v
		return
	}
	if rest, ok := parseStr(s, "GL"); ok {
		cmp, v, err := parseVersionComparison(rest, false)
		if err != nil {
			bad(ln.num, "%v", err)
			return
		}
		r.Kind, r.Cmp, r.Version = ReqGL, cmp, v
		if first && (cmp == GreaterEqual || cmp == Greater || cmp == Equal) {
			f.GL = v
		}
		return
	}
	if rest, ok := parseStr(s, "rlimit"); ok {
		v, _, ok := strtoul(rest, 0, 0)
		if !ok {
			bad(ln.num, "invalid rlimit argument at %q", rest)
			return
		}
		r.Kind, r.Value = ReqRlimit, int(uint32(v))
		return
	}
	if rest, ok := parseStr(s, "SSO"); ok {
		if _, ok := parseStr(rest, "ENABLED"); ok {
			r.Kind = ReqSSO
			return
		}
	}
	if rest, ok := parseStr(s, "SEPARABLE PROGRAM"); ok {
		if _, ok := parseStr(rest, "ENABLED"); ok {
			r.Kind = ReqSeparable
			return
		}
	}
	if rest, ok := parseStr(s, "SPIRV"); ok {
		mode, _, _ := parseWord(rest)
		switch mode {
		case "ONLY", "YES", "NO":
		default:
			bad(ln.num, "unknown SPIRV line in [require]")
			return
		}
		r.Kind, r.Name = ReqSPIRV, mode
		return
	}
	if _, ok := parseStr(s, "ignore_missing_uniforms"); ok {
		r.Kind = ReqIgnoreMissingUniforms
		return
	}
	// parse_required_config reads SIZE and depthbuffer from the first
	// [require] section only.
	if rest, ok := parseStr(s, "SIZE"); ok && first {
		v, _ := parseUints(rest, 2)
		if len(v) != 2 || v[0] == 0 || v[1] == 0 || v[0] > 16384 || v[1] > 16384 {
			bad(ln.num, "invalid SIZE %q", strings.TrimSpace(rest))
			return
		}
		f.Width, f.Height = int(v[0]), int(v[1])
		r.Kind, r.Value = ReqSize, int(v[0])
		return
	}
	if _, ok := parseStr(s, "depthbuffer"); ok && first {
		f.DepthBuffer = true
		r.Kind = ReqDepthBuffer
	}
}

// parseVersionComparison is shader_runner's parse_version_comparison:
// [CORE] [COMPAT] [ES] op major.minor, nothing after.
func parseVersionComparison(s string, glsl bool) (Comparison, Version, error) {
	var v Version
	s, v.Core = parseStr(s, "CORE")
	s, v.Compat = parseStr(s, "COMPAT")
	s, v.ES = parseStr(s, "ES")
	cmp, rest, ok := parseComparison(s)
	if !ok {
		return 0, v, fmt.Errorf("invalid comparison operation at %q", strings.TrimSpace(s))
	}
	major, r1, ok1 := strtoul(rest, 0, 0)
	var minor uint64
	ok2 := false
	if ok1 && r1 < len(rest) && rest[r1] == '.' {
		var r2 int
		minor, r2, ok2 = strtoul(rest, r1+1, 0)
		rest = rest[r2:]
	}
	if !ok1 || !ok2 {
		return 0, v, fmt.Errorf("invalid version string %q", strings.TrimSpace(rest))
	}
	if strings.TrimLeft(rest, " \t\v\f\r") != "" {
		return 0, v, fmt.Errorf("unexpected characters following version comparison: %q", strings.TrimSpace(rest))
	}
	if glsl {
		v.Num = int(uint32(major*100 + minor))
	} else {
		v.Num = int(uint32(major*10 + minor))
	}
	return cmp, v, nil
}

// parseWord is parser_utils' parse_word: skip blanks, take a run of
// non-space characters.
func parseWord(s string) (word, rest string, ok bool) {
	t := strings.TrimLeft(s, " \t\v\f\r")
	end := 0
	for end < len(t) && !isCSpace(t[end]) {
		end++
	}
	if end == 0 {
		return "", s, false
	}
	return t[:end], t[end:], true
}

// atoi is C atoi: leading white space, sign, decimal digits; 0 when none.
func atoi(s string) int {
	v, _, ok := strtol(s, 0, 10)
	if !ok {
		return 0
	}
	return int(int32(v))
}

// Caps describes what a back end implements, for [require] checks.
// A [require] the renderer honestly cannot meet is a skip, as shader_runner
// reports it (piglit tests/shaders/shader_runner.c, process_requirement).
type Caps struct {
	// GL is the desktop (compatibility) GL version, Num = major*10+minor;
	// 0 when the back end has no desktop GL front.
	GL int
	// GLSL is the desktop GLSL version, Num = major*100+minor.
	GLSL int
	// GLES and GLSLES are the OpenGL ES and GLSL ES versions (0: no ES).
	GLES   int
	GLSLES int
	// Extensions lists the supported GL extension names.
	Extensions []string
	// Limits maps GL enum names (GL_MAX_VARYING_COMPONENTS, ...) to values.
	Limits map[string]int
	// Stages lists the supported shader stages beyond vertex and fragment.
	Stages []Stage
}

func (c *Caps) hasExtension(name string) bool {
	for _, e := range c.Extensions {
		if e == name {
			return true
		}
	}
	return false
}

func (c *Caps) hasStage(s Stage) bool {
	if s == StageVertex || s == StageFragment {
		return true
	}
	for _, t := range c.Stages {
		if t == s {
			return true
		}
	}
	return false
}

// API is the GL flavour of a context.
type API int

// The two APIs shader_runner creates contexts for.
const (
	APIGL API = iota
	APIGLES
)

// contextVersions returns the API and the context's GL and GLSL versions
// for f, or a skip reason. It follows get_required_config: an ES GL
// requirement makes an ES context; anything else a desktop compatibility
// context.
func contextVersions(f *File, caps *Caps) (API, Version, Version, string) {
	if f.GL.ES {
		if caps.GLES == 0 {
			return APIGLES, Version{}, Version{}, "OpenGL ES is not supported"
		}
		if caps.GLES < f.GL.Num {
			return APIGLES, Version{}, Version{}, fmt.Sprintf("test requires %s, back end has %s",
				f.GL.format(false), Version{Num: caps.GLES, ES: true}.format(false))
		}
		return APIGLES, Version{Num: caps.GLES, ES: true}, Version{Num: caps.GLSLES, ES: true}, ""
	}
	if caps.GL == 0 {
		return APIGL, Version{}, Version{}, "desktop OpenGL is not supported"
	}
	return APIGL, Version{Num: caps.GL, Compat: true}, Version{Num: caps.GLSL, Compat: true}, ""
}

// checkRequirements evaluates the [require] lines against the back end's
// capabilities in shader_runner's order and returns a skip reason ("" when
// all are met) or a failure.
func checkRequirements(f *File, caps *Caps, gl, glsl Version) (skip string, fail error) {
	if !f.HasRequire {
		return "", fmt.Errorf("%s: [require] section missing", f.Path)
	}
	if f.GLSL.Num != 0 && f.GLSL.ES && f.GL.Num == 0 {
		return "", fmt.Errorf("%s: the test requires GLSL ES but specifies no GL requirement", f.Path)
	}
	for _, r := range f.Requires {
		switch r.Kind {
		case ReqGLSL:
			if r.Version.ES != glsl.ES || glsl.Num < r.Version.Num {
				return versionSkip(r.Version, glsl, true), nil
			}
		case ReqGL:
			if r.Version.ES != gl.ES || !r.Cmp.holds(gl.Num, r.Version.Num) {
				return fmt.Sprintf("test requires %s %s, back end has %s", r.Cmp, r.Version.format(false), gl.format(false)), nil
			}
		case ReqExtension:
			if !caps.hasExtension(r.Name) {
				return "test requires unsupported extension " + r.Name, nil
			}
		case ReqNotExtension:
			if caps.hasExtension(r.Name) {
				return "test requires extension " + r.Name + " to be absent", nil
			}
		case ReqLimit, ReqInt:
			have, ok := caps.Limits[r.Name]
			if !ok && r.Kind == ReqInt {
				return "", fmt.Errorf("%s:%d: cannot read %s", f.Path, r.Line, r.Name)
			}
			if !r.Cmp.holds(have, r.Value) {
				return fmt.Sprintf("test requires %s %s %d, back end has %d", r.Name, r.Cmp, r.Value, have), nil
			}
		case ReqSSO, ReqSeparable:
			if skip := ssoSkip(caps, gl); skip != "" {
				return skip, nil
			}
		case ReqSPIRV:
			if r.Name == "ONLY" {
				return "SPIR-V shaders are not supported", nil
			}
		}
	}
	return "", nil
}

// versionSkip formats a version-mismatch reason.
func versionSkip(want, have Version, glsl bool) string {
	return "test requires >= " + want.format(glsl) + ", back end has " + have.format(glsl)
}
