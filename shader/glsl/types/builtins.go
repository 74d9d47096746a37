package types

import (
	"slices"
	"strings"

	"vortexgfx/shader/glsl/ast"
)

// sig is one overload of a built-in function.
type sig struct {
	fn     ast.Builtin
	ret    *ast.Type
	params []*ast.Type
	out    []bool // parameter is out (nil when none are)
}

// stage restrictions of built-ins.
const (
	anyStage = iota
	vertexOnly
	fragmentOnly
)

// protoSet is a group of overloads written in a tiny notation: each proto is
// "ret param..." where genF/genI/genU/genB expand jointly to scalar..vec4 of that
// base, vecF/vecI/vecU/vecB to vec2..vec4, f/i/u/b are scalars, v2..v4 float
// vectors, iv2/uv2 integer vectors, and an "out:" prefix marks an out parameter.
type protoSet struct {
	desk, es int // minimum versions (es 0: not in GLSL ES)
	stage    int
	protos   []string
}

// builtinTable lists the non-texture built-ins. spec: GLSL 4.50 §8.1-§8.8, §8.13-§8.14.
var builtinTable = map[string][]protoSet{
	"radians":     {{110, 100, anyStage, []string{"genF genF"}}},
	"degrees":     {{110, 100, anyStage, []string{"genF genF"}}},
	"sin":         {{110, 100, anyStage, []string{"genF genF"}}},
	"cos":         {{110, 100, anyStage, []string{"genF genF"}}},
	"tan":         {{110, 100, anyStage, []string{"genF genF"}}},
	"asin":        {{110, 100, anyStage, []string{"genF genF"}}},
	"acos":        {{110, 100, anyStage, []string{"genF genF"}}},
	"atan":        {{110, 100, anyStage, []string{"genF genF genF", "genF genF"}}},
	"sinh":        {{130, 300, anyStage, []string{"genF genF"}}},
	"cosh":        {{130, 300, anyStage, []string{"genF genF"}}},
	"tanh":        {{130, 300, anyStage, []string{"genF genF"}}},
	"asinh":       {{130, 300, anyStage, []string{"genF genF"}}},
	"acosh":       {{130, 300, anyStage, []string{"genF genF"}}},
	"atanh":       {{130, 300, anyStage, []string{"genF genF"}}},
	"pow":         {{110, 100, anyStage, []string{"genF genF genF"}}},
	"exp":         {{110, 100, anyStage, []string{"genF genF"}}},
	"log":         {{110, 100, anyStage, []string{"genF genF"}}},
	"exp2":        {{110, 100, anyStage, []string{"genF genF"}}},
	"log2":        {{110, 100, anyStage, []string{"genF genF"}}},
	"sqrt":        {{110, 100, anyStage, []string{"genF genF"}}},
	"inversesqrt": {{110, 100, anyStage, []string{"genF genF"}}},
	"abs":         {{110, 100, anyStage, []string{"genF genF"}}, {130, 300, anyStage, []string{"genI genI"}}},
	"sign":        {{110, 100, anyStage, []string{"genF genF"}}, {130, 300, anyStage, []string{"genI genI"}}},
	"floor":       {{110, 100, anyStage, []string{"genF genF"}}},
	"ceil":        {{110, 100, anyStage, []string{"genF genF"}}},
	"fract":       {{110, 100, anyStage, []string{"genF genF"}}},
	"trunc":       {{130, 300, anyStage, []string{"genF genF"}}},
	"round":       {{130, 300, anyStage, []string{"genF genF"}}},
	"roundEven":   {{130, 300, anyStage, []string{"genF genF"}}},
	"mod":         {{110, 100, anyStage, []string{"genF genF genF", "genF genF f"}}},
	"modf":        {{130, 300, anyStage, []string{"genF genF out:genF"}}},
	// The int overloads of min, max and clamp are GLSL 1.30 built-ins; they are
	// offered from 1.10 on as a Mesa-compatible leniency (Mesa accepts them in
	// 1.10 and 1.20 shaders, and piglit's glsl-1.10 loop tests use them). GLSL ES
	// 1.00 keeps the strict rule.
	"min": {{110, 100, anyStage, []string{"genF genF genF", "genF genF f"}},
		{110, 300, anyStage, []string{"genI genI genI", "genI genI i"}},
		{130, 300, anyStage, []string{"genU genU genU", "genU genU u"}}},
	"max": {{110, 100, anyStage, []string{"genF genF genF", "genF genF f"}},
		{110, 300, anyStage, []string{"genI genI genI", "genI genI i"}},
		{130, 300, anyStage, []string{"genU genU genU", "genU genU u"}}},
	"clamp": {{110, 100, anyStage, []string{"genF genF genF genF", "genF genF f f"}},
		{110, 300, anyStage, []string{"genI genI genI genI", "genI genI i i"}},
		{130, 300, anyStage, []string{"genU genU genU genU", "genU genU u u"}}},
	"mix": {{110, 100, anyStage, []string{"genF genF genF genF", "genF genF genF f"}},
		{130, 300, anyStage, []string{"genF genF genF genB"}},
		{450, 310, anyStage, []string{"genI genI genI genB", "genU genU genU genB", "genB genB genB genB"}}},
	"step":                  {{110, 100, anyStage, []string{"genF genF genF", "genF f genF"}}},
	"smoothstep":            {{110, 100, anyStage, []string{"genF genF genF genF", "genF f f genF"}}},
	"isnan":                 {{130, 300, anyStage, []string{"genB genF"}}},
	"isinf":                 {{130, 300, anyStage, []string{"genB genF"}}},
	"floatBitsToInt":        {{330, 300, anyStage, []string{"genI genF"}}},
	"floatBitsToUint":       {{330, 300, anyStage, []string{"genU genF"}}},
	"intBitsToFloat":        {{330, 300, anyStage, []string{"genF genI"}}},
	"uintBitsToFloat":       {{330, 300, anyStage, []string{"genF genU"}}},
	"fma":                   {{400, 320, anyStage, []string{"genF genF genF genF"}}},
	"frexp":                 {{400, 310, anyStage, []string{"genF genF out:genI"}}},
	"ldexp":                 {{400, 310, anyStage, []string{"genF genF genI"}}},
	"packUnorm2x16":         {{410, 300, anyStage, []string{"u v2"}}},
	"packSnorm2x16":         {{420, 300, anyStage, []string{"u v2"}}},
	"unpackUnorm2x16":       {{410, 300, anyStage, []string{"v2 u"}}},
	"unpackSnorm2x16":       {{420, 300, anyStage, []string{"v2 u"}}},
	"packHalf2x16":          {{420, 300, anyStage, []string{"u v2"}}},
	"unpackHalf2x16":        {{420, 300, anyStage, []string{"v2 u"}}},
	"packUnorm4x8":          {{400, 310, anyStage, []string{"u v4"}}},
	"packSnorm4x8":          {{400, 310, anyStage, []string{"u v4"}}},
	"unpackUnorm4x8":        {{400, 310, anyStage, []string{"v4 u"}}},
	"unpackSnorm4x8":        {{400, 310, anyStage, []string{"v4 u"}}},
	"length":                {{110, 100, anyStage, []string{"f genF"}}},
	"distance":              {{110, 100, anyStage, []string{"f genF genF"}}},
	"dot":                   {{110, 100, anyStage, []string{"f genF genF"}}},
	"cross":                 {{110, 100, anyStage, []string{"v3 v3 v3"}}},
	"normalize":             {{110, 100, anyStage, []string{"genF genF"}}},
	"faceforward":           {{110, 100, anyStage, []string{"genF genF genF genF"}}},
	"reflect":               {{110, 100, anyStage, []string{"genF genF genF"}}},
	"refract":               {{110, 100, anyStage, []string{"genF genF genF f"}}},
	"lessThan":              relational(false),
	"lessThanEqual":         relational(false),
	"greaterThan":           relational(false),
	"greaterThanEqual":      relational(false),
	"equal":                 relational(true),
	"notEqual":              relational(true),
	"any":                   {{110, 100, anyStage, []string{"b vecB"}}},
	"all":                   {{110, 100, anyStage, []string{"b vecB"}}},
	"not":                   {{110, 100, anyStage, []string{"vecB vecB"}}},
	"uaddCarry":             {{400, 310, anyStage, []string{"genU genU genU out:genU"}}},
	"usubBorrow":            {{400, 310, anyStage, []string{"genU genU genU out:genU"}}},
	"umulExtended":          {{400, 310, anyStage, []string{"void genU genU out:genU out:genU"}}},
	"imulExtended":          {{400, 310, anyStage, []string{"void genI genI out:genI out:genI"}}},
	"bitfieldExtract":       {{400, 310, anyStage, []string{"genI genI i i", "genU genU i i"}}},
	"bitfieldInsert":        {{400, 310, anyStage, []string{"genI genI genI i i", "genU genU genU i i"}}},
	"bitfieldReverse":       {{400, 310, anyStage, []string{"genI genI", "genU genU"}}},
	"bitCount":              {{400, 310, anyStage, []string{"genI genI", "genI genU"}}},
	"findLSB":               {{400, 310, anyStage, []string{"genI genI", "genI genU"}}},
	"findMSB":               {{400, 310, anyStage, []string{"genI genI", "genI genU"}}},
	"dFdx":                  {{110, 300, fragmentOnly, []string{"genF genF"}}},
	"dFdy":                  {{110, 300, fragmentOnly, []string{"genF genF"}}},
	"fwidth":                {{110, 300, fragmentOnly, []string{"genF genF"}}},
	"dFdxFine":              {{450, 0, fragmentOnly, []string{"genF genF"}}},
	"dFdyFine":              {{450, 0, fragmentOnly, []string{"genF genF"}}},
	"dFdxCoarse":            {{450, 0, fragmentOnly, []string{"genF genF"}}},
	"dFdyCoarse":            {{450, 0, fragmentOnly, []string{"genF genF"}}},
	"fwidthFine":            {{450, 0, fragmentOnly, []string{"genF genF"}}},
	"fwidthCoarse":          {{450, 0, fragmentOnly, []string{"genF genF"}}},
	"interpolateAtCentroid": {{400, 320, fragmentOnly, []string{"genF genF"}}},
	"interpolateAtSample":   {{400, 320, fragmentOnly, []string{"genF genF i"}}},
	"interpolateAtOffset":   {{400, 320, fragmentOnly, []string{"genF genF v2"}}},
	"noise1":                {{110, 0, anyStage, []string{"f genF"}}},
	"noise2":                {{110, 0, anyStage, []string{"v2 genF"}}},
	"noise3":                {{110, 0, anyStage, []string{"v3 genF"}}},
	"noise4":                {{110, 0, anyStage, []string{"v4 genF"}}},
}

func relational(withBool bool) []protoSet {
	s := []protoSet{{110, 100, anyStage, []string{"vecB vecF vecF", "vecB vecI vecI"}},
		{130, 300, anyStage, []string{"vecB vecU vecU"}}}
	if withBool {
		s[0].protos = append(s[0].protos, "vecB vecB vecB")
	}
	return s
}

// parseProto expands one proto for component count n.
// same reports whether two overloads have the same parameter types.
func (s sig) same(t sig) bool {
	return slices.EqualFunc(s.params, t.params, ast.Identical) && slices.Equal(s.out, t.out)
}

func parseProto(fn ast.Builtin, proto string, n int) sig {
	f := strings.Fields(proto)
	s := sig{fn: fn}
	for i, w := range f {
		out := strings.HasPrefix(w, "out:")
		w = strings.TrimPrefix(w, "out:")
		var t *ast.Type
		switch w {
		case "void":
			t = ast.Void()
		case "genF", "vecF":
			t = ast.Vector(ast.Float, n)
		case "genI", "vecI":
			t = ast.Vector(ast.Int, n)
		case "genU", "vecU":
			t = ast.Vector(ast.Uint, n)
		case "genB", "vecB":
			t = ast.Vector(ast.Bool, n)
		case "f":
			t = ast.Scalar(ast.Float)
		case "i":
			t = ast.Scalar(ast.Int)
		case "u":
			t = ast.Scalar(ast.Uint)
		case "b":
			t = ast.Scalar(ast.Bool)
		case "v2", "v3", "v4":
			t = ast.Vector(ast.Float, int(w[1]-'0'))
		}
		if i == 0 {
			s.ret = t
			continue
		}
		s.params = append(s.params, t)
		if out {
			if s.out == nil {
				s.out = make([]bool, len(f)-1)
			}
			s.out[i-1] = true
		}
	}
	return s
}

func (c *checker) stageOK(stage int) bool {
	switch stage {
	case vertexOnly:
		return c.conf.Stage == ast.StageVertex
	case fragmentOnly:
		return c.conf.Stage == ast.StageFragment
	}
	return true
}

// extBuiltinTable lists the built-ins extensions add, in a fixed order; each
// exists from its protoSet's version on once its extension is enabled. An
// extension that brings core built-ins to an earlier version repeats their
// core overloads (earlier); builtinSigs drops the repeats where core has them.
var extBuiltinTable = []struct {
	ext   string
	table map[string][]protoSet
}{
	// spec: AMD_shader_trinary_minmax (integer overloads need GLSL 1.30's types)
	{ExtTrinaryMinmax, map[string][]protoSet{
		"min3": {{110, 0, anyStage, []string{"genF genF genF genF"}}, {130, 0, anyStage, []string{"genI genI genI genI", "genU genU genU genU"}}},
		"max3": {{110, 0, anyStage, []string{"genF genF genF genF"}}, {130, 0, anyStage, []string{"genI genI genI genI", "genU genU genU genU"}}},
		"mid3": {{110, 0, anyStage, []string{"genF genF genF genF"}}, {130, 0, anyStage, []string{"genI genI genI genI", "genU genU genU genU"}}},
	}},
	// spec: ARB_shader_bit_encoding (GLSL 3.30's bit casts from 1.30 on)
	{ExtShaderBitEncoding, coreFrom(130, "floatBitsToInt", "floatBitsToUint", "intBitsToFloat", "uintBitsToFloat")},
	// spec: ARB_shading_language_packing (GLSL 4.20's packing functions from 1.30 on)
	{ExtShadingLanguagePacking, coreFrom(130, "packUnorm2x16", "packSnorm2x16", "unpackUnorm2x16", "unpackSnorm2x16",
		"packHalf2x16", "unpackHalf2x16", "packUnorm4x8", "packSnorm4x8", "unpackUnorm4x8", "unpackSnorm4x8")},
	// spec: EXT_shader_integer_mix (mix with a bool selector on int, uint and bool)
	{ExtShaderIntegerMix, map[string][]protoSet{
		"mix": {{130, 0, anyStage, []string{"genI genI genI genB", "genU genU genU genB", "genB genB genB genB"}}},
	}},
	// spec: MESA_shader_integer_functions (GLSL 4.00's integer functions, frexp
	// and ldexp from 1.30 on; its implicit int-to-uint conversion is in conv.go)
	{ExtShaderIntegerFunctions, coreFrom(130, "uaddCarry", "usubBorrow", "umulExtended", "imulExtended",
		"bitfieldExtract", "bitfieldInsert", "bitfieldReverse", "bitCount", "findLSB", "findMSB", "frexp", "ldexp")},
	// spec: ARB_gpu_shader5 "New Built-in Functions" (GLSL 4.00's fma,
	// frexp/ldexp, integer functions, 4x8 packing and GLSL 3.30's bit casts
	// from GLSL 1.50 on; its interpolateAt* functions are not offered here)
	{ExtGPUShader5, coreFrom(150, "fma", "frexp", "ldexp", "uaddCarry", "usubBorrow", "umulExtended", "imulExtended",
		"bitfieldExtract", "bitfieldInsert", "bitfieldReverse", "bitCount", "findLSB", "findMSB",
		"packUnorm4x8", "packSnorm4x8", "unpackUnorm4x8", "unpackSnorm4x8",
		"floatBitsToInt", "floatBitsToUint", "intBitsToFloat", "uintBitsToFloat")},
	// spec: ARB_derivative_control §8.13.1 (GLSL 4.50's fine and coarse
	// derivatives, fragment shaders only, in any desktop version)
	{ExtDerivativeControl, coreFrom(110, "dFdxFine", "dFdyFine", "dFdxCoarse", "dFdyCoarse", "fwidthFine", "fwidthCoarse")},
	// spec: ARB_gpu_shader5 §8.8, OES_shader_multisample_interpolation §8.13
	// (the interpolation functions in GLSL 1.50 and GLSL ES 3.00 fragment shaders)
	{extGPUShader5Interp, coreFrom(150, "interpolateAtCentroid", "interpolateAtSample", "interpolateAtOffset")},
	{ExtMultisampleInterpolES, esFrom(300, "interpolateAtCentroid", "interpolateAtSample", "interpolateAtOffset")},
	// spec: ARB_shader_group_vote "New Built-in Functions" (a bool in, a bool
	// out, every stage; the extension is written against GLSL 4.30 but
	// names no version, and piglit uses it from GLSL 1.50 on)
	{ExtShaderGroupVote, map[string][]protoSet{
		"anyInvocationARB":       {{110, 0, anyStage, []string{"b b"}}},
		"allInvocationsARB":      {{110, 0, anyStage, []string{"b b"}}},
		"allInvocationsEqualARB": {{110, 0, anyStage, []string{"b b"}}},
	}},
}

// coreFrom gives the core overloads of the named built-ins from GLSL version
// desk on (desktop only), for an extension that brings them earlier.
func coreFrom(desk int, names ...string) map[string][]protoSet {
	m := make(map[string][]protoSet, len(names))
	for _, n := range names {
		for _, ps := range builtinTable[n] {
			m[n] = append(m[n], protoSet{desk, 0, ps.stage, ps.protos})
		}
	}
	return m
}

// esFrom gives the core overloads of the named built-ins from GLSL ES version
// es on (ES only), for an ES extension that brings them earlier.
func esFrom(es int, names ...string) map[string][]protoSet {
	m := make(map[string][]protoSet, len(names))
	for _, n := range names {
		for _, ps := range builtinTable[n] {
			m[n] = append(m[n], protoSet{noDesktop, es, ps.stage, ps.protos})
		}
	}
	return m
}

// noDesktop is a protoSet's desktop version for an overload only GLSL ES has.
const noDesktop = 1 << 20

// builtinSigs returns the overloads of the built-in function name that exist in the
// checker's language version and stage.
func builtinSigs(name string, c *checker) []sig {
	fn := ast.LookupBuiltin(name)
	if fn == ast.FnNone {
		return nil
	}
	var out []sig
	sets := builtinTable[name]
	for _, e := range extBuiltinTable {
		if c.extEnabled(e.ext) {
			sets = append(sets[:len(sets):len(sets)], e.table[name]...)
		}
	}
	seen := map[string]bool{} // a proto core and an extension both give, once
	for _, ps := range sets {
		ok := c.atLeast(ps.desk, ps.es)
		if !ok && ps.desk == 110 && ps.stage == fragmentOnly && c.es && c.version == 100 {
			// dFdx, dFdy, fwidth with GL_OES_standard_derivatives.
			ok = c.extEnabled("GL_OES_standard_derivatives")
		}
		if !ok || !c.stageOK(ps.stage) {
			continue
		}
		for _, p := range ps.protos {
			if seen[p] {
				continue
			}
			seen[p] = true
			lo, hi := 1, 4
			if strings.Contains(p, "vec") {
				lo = 2
			}
			if !strings.Contains(p, "gen") && !strings.Contains(p, "vec") {
				hi = lo
			}
			for n := lo; n <= hi; n++ {
				// "genF genF genF" and "genF genF f" are both min(float, float)
				// at n = 1: keep one, or the call would be ambiguous.
				if sg := parseProto(fn, p, n); !slices.ContainsFunc(out, sg.same) {
					out = append(out, sg)
				}
			}
		}
	}
	switch name {
	case "matrixCompMult":
		if c.atLeast(110, 100) {
			for _, m := range matrixTypes(c) {
				out = append(out, sig{fn: fn, ret: m, params: []*ast.Type{m, m}})
			}
		}
	case "outerProduct":
		if c.atLeast(120, 300) {
			for _, m := range matrixTypes(c) {
				out = append(out, sig{fn: fn, ret: m, params: []*ast.Type{ast.Vector(ast.Float, m.Rows), ast.Vector(ast.Float, m.Cols)}})
			}
		}
	case "transpose":
		if c.atLeast(120, 300) {
			for _, m := range matrixTypes(c) {
				out = append(out, sig{fn: fn, ret: ast.Matrix(m.Rows, m.Cols), params: []*ast.Type{m}})
			}
		}
	case "determinant", "inverse":
		d := 150
		if name == "inverse" {
			d = 140
		}
		if c.atLeast(d, 300) {
			for n := 2; n <= 4; n++ {
				m := ast.Matrix(n, n)
				r := ast.Scalar(ast.Float)
				if name == "inverse" {
					r = m
				}
				out = append(out, sig{fn: fn, ret: r, params: []*ast.Type{m}})
			}
		}
	case "ftransform":
		if c.compat() && c.conf.Stage == ast.StageVertex {
			out = append(out, sig{fn: fn, ret: ast.Vector(ast.Float, 4)})
		}
	default:
		out = append(out, textureSigs(fn, c)...)
		out = append(out, computeSigs(fn, c)...)
		out = append(out, geometrySigs(fn, c)...)
	}
	return out
}

func matrixTypes(c *checker) []*ast.Type {
	var ms []*ast.Type
	for col := 2; col <= 4; col++ {
		for row := 2; row <= 4; row++ {
			if col != row && !c.atLeast(120, 300) {
				continue
			}
			ms = append(ms, ast.Matrix(col, row))
		}
	}
	return ms
}
