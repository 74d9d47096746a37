package arbasm

import (
	"fmt"
	"strings"
)

// result returns the GLSL statements that compute an instruction's vec4
// result r from its operands s0, s1, s2 (vec4s, or floats for the scalar
// instructions), exactly as the instruction's pseudo-code in the
// specification reads; where it says "undefined" (XPD's w, SCS's z and w)
// the component is 1 or 0 so that the output is deterministic. The
// approximations the specification allows (RoughApproxExp2, ApproxLog2...)
// are the full-precision functions. spec: ARB_vertex_program §2.14.5 (one
// subsection per instruction), ARB_fragment_program §3.11.5
func (e *emitter) result(in *inst) []string {
	one := func(expr string) []string { return []string{"vec4 r = " + expr + ";"} }
	switch in.op.name {
	case "ABS":
		return one("abs(s0)")
	case "ADD":
		return one("s0 + s1")
	case "SUB":
		return one("s0 - s1")
	case "MUL":
		return one("s0 * s1")
	case "MAD":
		return one("s0 * s1 + s2")
	case "MOV":
		return one("s0")
	case "MAX":
		return one("max(s0, s1)")
	case "MIN":
		return one("min(s0, s1)")
	case "FLR":
		return one("floor(s0)")
	case "FRC":
		return one("s0 - floor(s0)")
	case "SGE":
		return one("vec4(greaterThanEqual(s0, s1))")
	case "SLT":
		return one("vec4(lessThan(s0, s1))")
	case "DP3":
		return one("vec4(s0.x * s1.x + s0.y * s1.y + s0.z * s1.z)")
	case "DP4":
		return one("vec4(s0.x * s1.x + s0.y * s1.y + s0.z * s1.z + s0.w * s1.w)")
	case "DPH":
		// spec: ARB_vertex_program §2.14.5.6 (DPH): s0.xyz . s1.xyz + s1.w.
		return one("vec4(s0.x * s1.x + s0.y * s1.y + s0.z * s1.z + s1.w)")
	case "DST":
		// spec: ARB_vertex_program §2.14.5.7 (DST): (1, s0.y*s1.y, s0.z, s1.w).
		return one("vec4(1.0, s0.y * s1.y, s0.z, s1.w)")
	case "XPD":
		// spec: ARB_vertex_program §2.14.5.27 (XPD; w undefined: 1 here).
		return one("vec4(s0.y * s1.z - s0.z * s1.y, s0.z * s1.x - s0.x * s1.z, s0.x * s1.y - s0.y * s1.x, 1.0)")
	case "LRP":
		// spec: ARB_fragment_program §3.11.5.15 (LRP): s0*s1 + (1-s0)*s2.
		return one("s0 * s1 + (1.0 - s0) * s2")
	case "CMP":
		// spec: ARB_fragment_program §3.11.5.3 (CMP): per component, s0 < 0 ?
		// s1 : s2 (a select, so an infinity in the other operand is no
		// NaN).
		return one("vec4(s0.x < 0.0 ? s1.x : s2.x, s0.y < 0.0 ? s1.y : s2.y, s0.z < 0.0 ? s1.z : s2.z, s0.w < 0.0 ? s1.w : s2.w)")
	case "EX2":
		return one("vec4(exp2(s0))")
	case "LG2":
		return one("vec4(log2(s0))")
	case "RCP":
		return one("vec4(1.0 / s0)")
	case "RSQ":
		// spec: ARB_vertex_program §2.14.5.22 (RSQ): 1/sqrt(|s|), replicated.
		return one("vec4(inversesqrt(abs(s0)))")
	case "POW":
		return one("vec4(vx_pow(s0, s1))")
	case "COS":
		return one("vec4(cos(s0))")
	case "SIN":
		return one("vec4(sin(s0))")
	case "SCS":
		return one("vec4(cos(s0), sin(s0), 0.0, 0.0)")
	case "EXP":
		// spec: ARB_vertex_program §2.14.5.9 (EXP): (2^floor(s), s - floor(s),
		// 2^s, 1); x and y are exact, z the approximation.
		return []string{"float f = floor(s0);", "vec4 r = vec4(exp2(f), s0 - f, exp2(s0), 1.0);"}
	case "LOG":
		// spec: ARB_vertex_program §2.14.5.14 (LOG): with t = |s|,
		// (floor(log2 t), t / 2^floor(log2 t), log2 t, 1): x is the
		// exponent and y the mantissa in [1, 2), exact, so the exponent is
		// corrected where log2's rounding crosses an integer.
		return []string{
			"float t = abs(s0);",
			"float l = log2(t);",
			"float f = floor(l);",
			"if (exp2(f) > t) f -= 1.0; else if (exp2(f + 1.0) <= t) f += 1.0;",
			"vec4 r = vec4(f, t / exp2(f), l, 1.0);",
		}
	case "LIT":
		// spec: ARB_vertex_program §2.14.5.13 (LIT): x, y clamped to >= 0, w to
		// [-128, 128]; z = x > 0 ? y^w : 0 with 0^0 = 1.
		return []string{
			"float x = max(s0.x, 0.0);",
			"float y = max(s0.y, 0.0);",
			"float w = clamp(s0.w, -128.0, 128.0);",
			"vec4 r = vec4(1.0, x, x > 0.0 ? vx_pow(y, w) : 0.0, 1.0);",
		}
	case "SWZ":
		var c [4]string
		for i, x := range in.ext {
			switch {
			case x.zero:
				c[i] = "0.0"
			case x.one:
				c[i] = "1.0"
			default:
				c[i] = "s0." + string(compNames[x.comp])
			}
			if x.neg {
				c[i] = "-" + c[i]
			}
		}
		return one("vec4(" + strings.Join(c[:], ", ") + ")")
	case "TEX", "TXP", "TXB":
		return one(e.texture(in))
	}
	return one("s0")
}

// texture is the GLSL 1.20 lookup of a texture instruction: TEX takes the
// target's coordinates, TXP divides them (and a shadow reference) by w, TXB
// adds w as the LOD bias. A rectangle target has no bias form (it has no
// mipmaps, so the bias changes nothing). A cube map's TXP is its TEX (the
// division does not change a direction with w > 0).
// spec: ARB_fragment_program §3.11.5.30-32 (TEX, TXB, TXP), §3.11.6 (texture lookups),
// ARB_fragment_program_shadow (the compare reference is r, the third
// coordinate)
func (e *emitter) texture(in *inst) string {
	s := samplerName(in.unit)
	type forms struct{ fn, coord, proj string }
	f := map[texTarget]forms{
		tex1D:         {"texture1D", "s0.x", "texture1DProj"},
		tex2D:         {"texture2D", "s0.xy", "texture2DProj"},
		tex3D:         {"texture3D", "s0.xyz", "texture3DProj"},
		texCube:       {"textureCube", "s0.xyz", ""},
		texRect:       {"texture2DRect", "s0.xy", "texture2DRectProj"},
		texShadow1D:   {"shadow1D", "s0.xyz", "shadow1DProj"},
		texShadow2D:   {"shadow2D", "s0.xyz", "shadow2DProj"},
		texShadowRect: {"shadow2DRect", "s0.xyz", "shadow2DRectProj"},
	}[in.tex]
	switch {
	case in.op.name == "TXP" && f.proj != "":
		return fmt.Sprintf("%s(%s, s0)", f.proj, s)
	case in.op.name == "TXB" && in.tex != texRect && in.tex != texShadowRect:
		return fmt.Sprintf("%s(%s, %s, s0.w)", f.fn, s, f.coord)
	}
	return fmt.Sprintf("%s(%s, %s)", f.fn, s, f.coord)
}

// powHelper is the power function POW and LIT use: x^y with 0^0 = 1 (the
// specification's RoughApproxPower(0, 0)) and GLSL's pow elsewhere.
// spec: ARB_vertex_program §2.14.5.13 (LIT: "0^0 is defined to be 1"),
// §2.14.5.20 (POW)
const powHelper = "float vx_pow(float x, float y)\n{\n\treturn y == 0.0 ? 1.0 : pow(x, y);\n}\n"
