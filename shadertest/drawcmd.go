package shadertest

import (
	"strings"
)

// This file holds the draw and probe commands of [test].

// RectCmd is a draw rect command.
type RectCmd struct {
	X, Y, W, H float32
	// Ortho maps x, y, w, h from window pixels to NDC first.
	Ortho bool
	// Patch draws GL_PATCHES of 4 vertices instead of a triangle strip.
	Patch bool
	// Tex supplies texture coordinates (draw rect tex).
	Tex            bool
	TX, TY, TW, TH float32
	// Instances is the instance count (1 when not instanced).
	Instances int
	// FixedFunction marks draw instanced rect, which always feeds
	// gl_Vertex (draw_instanced_rect uses glVertexPointer).
	FixedFunction bool
}

// ArraysCmd is draw arrays / draw elements.
type ArraysCmd struct {
	Mode         Primitive
	First, Count int
	Instances    int
	BaseInstance int
	// BaseVertex is draw elements' base vertex.
	BaseVertex int
	Elements   bool
}

// ProbeKind distinguishes single-pixel, rectangle and whole-window probes.
type ProbeKind int

// Probe kinds.
const (
	ProbePixel ProbeKind = iota
	ProbeRect
	ProbeAll
)

// ProbeCmd is a colour or depth probe.
type ProbeCmd struct {
	Kind ProbeKind
	// Components is 3 (rgb) or 4 (rgba).
	Components int
	// Relative marks coordinates given as fractions of the window.
	Relative bool
	// Warn marks probe warn all rgba: a mismatch is a warning, not a failure.
	Warn bool
	// X, Y, W, H are window coordinates for absolute probes.
	X, Y, W, H int
	// RX, RY, RW, RH are the fractions of relative probes.
	RX, RY, RW, RH float32
	// Expected is the expected colour (or Expected[0] the depth).
	Expected [4]float32
	// Int marks an integer probe (relative probe rect rgba int) and
	// ExpectedInt its expected integers.
	Int         bool
	ExpectedInt [4]int32
}

func (f *File) parseDrawRect(c *Command, t string, fail func(string, ...any)) bool {
	four := func(rest string, r *RectCmd) bool {
		v, _ := parseFloats(rest, 4)
		if len(v) < 4 {
			fail("want 4 numbers, got %d", len(v))
			return false
		}
		r.X, r.Y, r.W, r.H = v[0], v[1], v[2], v[3]
		return true
	}
	emit := func(r *RectCmd) bool {
		c.Op, c.Rect = OpDrawRect, r
		f.Commands = append(f.Commands, *c)
		return true
	}
	if rest, ok := parseStr(t, "draw rect tex "); ok {
		v, _ := parseFloats(rest, 8)
		if len(v) < 8 {
			fail("want 8 numbers, got %d", len(v))
			return true
		}
		return emit(&RectCmd{X: v[0], Y: v[1], W: v[2], H: v[3], Tex: true, TX: v[4], TY: v[5], TW: v[6], TH: v[7], Instances: 1})
	}
	for _, v := range []struct {
		lit          string
		ortho, patch bool
	}{{"draw rect ortho patch ", true, true}, {"draw rect ortho ", true, false}, {"draw rect patch ", false, true}, {"draw rect ", false, false}} {
		if rest, ok := parseStr(t, v.lit); ok {
			r := &RectCmd{Ortho: v.ortho, Patch: v.patch, Instances: 1}
			if !four(rest, r) {
				return true
			}
			return emit(r)
		}
	}
	for _, v := range []struct {
		lit          string
		ortho, patch bool
	}{{"draw instanced rect ortho patch ", true, true}, {"draw instanced rect ortho ", true, false}, {"draw instanced rect ", false, false}} {
		if rest, ok := parseStr(t, v.lit); ok {
			it, n := scanf(rest, "%d %f %f %f %f")
			if n != 5 {
				fail("want an instance count and 4 numbers")
				return true
			}
			r := &RectCmd{Ortho: v.ortho, Patch: v.patch, Instances: int(it[0].i),
				X: float32(it[1].f), Y: float32(it[2].f), W: float32(it[3].f), H: float32(it[4].f),
				FixedFunction: !v.ortho && !v.patch}
			return emit(r)
		}
	}
	return false
}

func (f *File) parseDrawArrays(c *Command, t string, fail func(string, ...any)) bool {
	mode := func(s string) (Primitive, bool) {
		p, ok := primitiveByName(s)
		if !ok {
			fail("unknown drawing mode %q", s)
		}
		return p, ok
	}
	emit := func(a *ArraysCmd) bool {
		op := OpDrawArrays
		if a.Elements {
			op = OpDrawElements
		}
		c.Op, c.Draw = op, a
		f.Commands = append(f.Commands, *c)
		return true
	}
	if it, n := scanf(t, "draw arrays instanced %s %d %d %d"); n == 4 {
		m, ok := mode(it[0].s)
		if !ok {
			return true
		}
		return emit(&ArraysCmd{Mode: m, First: int(it[1].i), Count: int(it[2].i), Instances: int(it[3].i)})
	}
	if it, n := scanf(t, "draw arrays instanced base %s %d %d %d %d"); n == 5 {
		m, ok := mode(it[0].s)
		if !ok {
			return true
		}
		return emit(&ArraysCmd{Mode: m, First: int(it[1].i), Count: int(it[2].i), Instances: int(it[3].i), BaseInstance: int(it[4].i)})
	}
	if it, n := scanf(t, "draw arrays %s %d %d"); n == 3 {
		m, ok := mode(it[0].s)
		if !ok {
			return true
		}
		return emit(&ArraysCmd{Mode: m, First: int(it[1].i), Count: int(it[2].i), Instances: 1})
	}
	if it, n := scanf(t, "draw elements %s %d %d"); n == 3 {
		m, ok := mode(it[0].s)
		if !ok {
			return true
		}
		return emit(&ArraysCmd{Mode: m, Count: int(it[1].i), BaseVertex: int(it[2].i), Instances: 1, Elements: true})
	}
	return false
}

func (f *File) parseProbe(c *Command, t string, fail func(string, ...any)) bool {
	emit := func(p *ProbeCmd, op Op) bool {
		c.Op, c.Probe = op, p
		f.Commands = append(f.Commands, *c)
		return true
	}
	pixel := func(rest string, comps int) bool {
		v, _ := parseFloats(rest, 2+comps)
		if len(v) < 2+comps {
			fail("want %d numbers, got %d", 2+comps, len(v))
			return true
		}
		p := &ProbeCmd{Kind: ProbePixel, Components: comps, X: int(v[0]), Y: int(v[1]), W: 1, H: 1}
		copy(p.Expected[:], v[2:])
		return emit(p, OpProbe)
	}
	if rest, ok := parseStr(t, "probe rgba "); ok {
		return pixel(rest, 4)
	}
	if rest, ok := parseStr(t, "probe depth "); ok {
		v, _ := parseFloats(rest, 3)
		if len(v) < 3 {
			fail("want 3 numbers, got %d", len(v))
			return true
		}
		p := &ProbeCmd{Kind: ProbePixel, Components: 1, X: int(v[0]), Y: int(v[1]), W: 1, H: 1}
		p.Expected[0] = v[2]
		return emit(p, OpProbeDepth)
	}
	for _, p := range []string{"probe atomic counter", "probe ssbo "} {
		if _, ok := parseStr(t, p); ok {
			c.Op, c.Name = OpUnsupported, strings.TrimSpace(p)
			f.Commands = append(f.Commands, *c)
			return true
		}
	}
	if it, n := scanf(t, "relative probe rgba ( %f , %f ) ( %f , %f , %f , %f )"); n == 6 {
		p := &ProbeCmd{Kind: ProbePixel, Components: 4, Relative: true, RX: float32(it[0].f), RY: float32(it[1].f)}
		for i := range 4 {
			p.Expected[i] = float32(it[2+i].f)
		}
		return emit(p, OpProbe)
	}
	if rest, ok := parseStr(t, "probe rgb "); ok {
		return pixel(rest, 3)
	}
	if it, n := scanf(t, "relative probe rgb ( %f , %f ) ( %f , %f , %f )"); n == 5 {
		p := &ProbeCmd{Kind: ProbePixel, Components: 3, Relative: true, RX: float32(it[0].f), RY: float32(it[1].f)}
		for i := range 3 {
			p.Expected[i] = float32(it[2+i].f)
		}
		return emit(p, OpProbe)
	}
	if it, n := scanf(t, "probe rect rgba ( %d , %d , %d , %d ) ( %f , %f , %f , %f )"); n == 8 {
		p := &ProbeCmd{Kind: ProbeRect, Components: 4, X: int(it[0].i), Y: int(it[1].i), W: int(it[2].i), H: int(it[3].i)}
		for i := range 4 {
			p.Expected[i] = float32(it[4+i].f)
		}
		return emit(p, OpProbe)
	}
	// probe rect rgb is not in shader_runner (it would be an unknown
	// command there); the README lists it, so it is accepted here.
	if it, n := scanf(t, "probe rect rgb ( %d , %d , %d , %d ) ( %f , %f , %f )"); n == 7 {
		p := &ProbeCmd{Kind: ProbeRect, Components: 3, X: int(it[0].i), Y: int(it[1].i), W: int(it[2].i), H: int(it[3].i)}
		for i := range 3 {
			p.Expected[i] = float32(it[4+i].f)
		}
		return emit(p, OpProbe)
	}
	for _, comps := range []int{3, 4} {
		format := "relative probe rect rgb ( %f , %f , %f , %f ) ( %f , %f , %f )"
		if comps == 4 {
			format = "relative probe rect rgba ( %f , %f , %f , %f ) ( %f , %f , %f , %f )"
		}
		if it, n := scanf(t, format); n == 4+comps {
			p := &ProbeCmd{Kind: ProbeRect, Components: comps, Relative: true,
				RX: float32(it[0].f), RY: float32(it[1].f), RW: float32(it[2].f), RH: float32(it[3].f)}
			for i := range comps {
				p.Expected[i] = float32(it[4+i].f)
			}
			return emit(p, OpProbe)
		}
	}
	if it, n := scanf(t, "relative probe rect rgba int ( %f , %f , %f , %f ) ( %d , %d , %d , %d )"); n == 8 {
		// piglit_probe_rect_rgba_int: exact integers of an integer
		// attachment (framebuffer.go's IntReader).
		p := &ProbeCmd{Kind: ProbeRect, Components: 4, Relative: true, Int: true,
			RX: float32(it[0].f), RY: float32(it[1].f), RW: float32(it[2].f), RH: float32(it[3].f)}
		for i := range 4 {
			p.ExpectedInt[i] = int32(it[4+i].i)
		}
		return emit(p, OpProbe)
	}
	if rest, ok := parseStr(t, "polygon mode "); ok {
		// glPolygonMode(face, mode): Name the face, Value the mode.
		// spec: GL 4.6 §14.6.4
		face, rest, ok1 := parseWord(rest)
		mode, rest, ok2 := parseWord(rest)
		switch {
		case !ok1 || !ok2 || strings.TrimSpace(rest) != "":
			fail("want polygon mode FACE MODE")
		case !oneOf(face, []string{"GL_FRONT", "GL_BACK", "GL_FRONT_AND_BACK"}):
			fail("bad polygon mode face %q", face)
		case !oneOf(mode, []string{"GL_FILL", "GL_LINE", "GL_POINT"}):
			fail("bad polygon mode %q", mode)
		default:
			c.Op, c.Name, c.Value = OpPolygonMode, face, mode
			f.Commands = append(f.Commands, *c)
		}
		return true
	}
	all := func(rest string, comps int, warn bool) bool {
		v, _ := parseFloats(rest, comps)
		if len(v) < comps {
			fail("want %d numbers, got %d", comps, len(v))
			return true
		}
		p := &ProbeCmd{Kind: ProbeAll, Components: comps, Warn: warn}
		copy(p.Expected[:], v)
		return emit(p, OpProbe)
	}
	if rest, ok := parseStr(t, "probe all rgba "); ok {
		return all(rest, 4, false)
	}
	if rest, ok := parseStr(t, "probe warn all rgba "); ok {
		return all(rest, 4, true)
	}
	if rest, ok := parseStr(t, "probe all rgb"); ok {
		return all(rest, 3, false)
	}
	return false
}
