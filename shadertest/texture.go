package shadertest

import (
	"fmt"
	"strings"
)

// TexTarget is a texture target of parse_tex_target.
type TexTarget int

// Texture targets.
const (
	Tex1D TexTarget = iota
	Tex2D
	Tex3D
	TexRect
	TexCube
	Tex1DArray
	Tex2DArray
	TexCubeArray
)

var texTargetNames = [...]string{"1D", "2D", "3D", "Rect", "Cube", "1DArray", "2DArray", "CubeArray"}

// String returns the name used in test files and messages.
func (t TexTarget) String() string {
	if t >= 0 && int(t) < len(texTargetNames) {
		return texTargetNames[t]
	}
	return "?"
}

func texTargetByName(s string) (TexTarget, bool) {
	for i, n := range texTargetNames {
		if n == s {
			return TexTarget(i), true
		}
	}
	return 0, false
}

// TextureKind is the generator of a texture command.
type TextureKind int

// Texture generators of shader_runner (piglit-util-gl.c).
const (
	TexRGBW          TextureKind = iota // texture rgbw unit (w, h) [format]
	TexRGBW1D                           // texture rgbw 1D unit
	TexRGBW3D                           // texture rgbw 3D unit
	TexRGBW2DArray                      // texture rgbw 2DArray unit (w, h, layers)
	TexRGBW1DArray                      // texture rgbw 1DArray unit (w, layers)
	TexCheckerboard                     // texture checkerboard unit level (w, h) (black) (white)
	TexQuads                            // texture quads unit level (w, h) (sw, sh) (bl) (br) (tl) (tr)
	TexMiptree                          // texture miptree unit
	TexShadow2D                         // texture shadow2D unit (w, h)
	TexShadowRect                       // texture shadowRect unit (w, h)
	TexShadow1D                         // texture shadow1D unit (w)
	TexShadow1DArray                    // texture shadow1DArray unit (w, layers)
	TexShadow2DArray                    // texture shadow2DArray unit (w, h, layers)
	TexInteger                          // texture integer unit (w, h) (b, a) format: texel (x, y, b, a)
	TexJunk2DArray                      // texture junk 2DArray unit (w, h, layers): undefined contents (zeros here)
	TexStorage                          // texture storage unit TARGET FORMAT (levels w [h [d]]): glTexStorage, undefined contents (zeros here)
)

// TextureCmd is a texture command.
type TextureCmd struct {
	Kind  TextureKind
	Unit  int
	Level int
	// W, H, D are the size (D: layers) as given.
	W, H, D int
	// SW, SH are the quads square size.
	SW, SH int
	// Format is the optional internal format of texture rgbw.
	Format string
	// Colors are the checkerboard (black, white) or quads (bl, br, tl, tr)
	// colours; texture integer's constant b and a are Colors[0][0:2].
	Colors [4][4]float32
	// Target and Levels are texture storage's target and level count.
	Target TexTarget
	Levels int
}

// maxTexSize bounds generated textures so that a hostile file cannot ask
// for gigabytes.
const maxTexSize = 16384

func (f *File) parseTexture(c *Command, t string, fail func(string, ...any)) bool {
	if _, ok := parseStr(t, "texture "); !ok {
		if _, ok := parseStr(t, "resident "); ok {
			c.Op, c.Name = OpUnsupported, "resident texture"
			f.Commands = append(f.Commands, *c)
			return true
		}
		return false
	}
	emit := func(tc *TextureCmd) bool {
		if tc.Unit < 0 || tc.Unit >= 32 {
			fail("texture unit %d out of range", tc.Unit)
			return true
		}
		if tc.W <= 0 || tc.H <= 0 || tc.D <= 0 || tc.W > maxTexSize || tc.H > maxTexSize || tc.D > 2048 || tc.W*tc.H*tc.D > 1<<26 {
			fail("bad texture size %dx%dx%d", tc.W, tc.H, tc.D)
			return true
		}
		if tc.Level < 0 || tc.Level > 14 {
			fail("bad texture level %d", tc.Level)
			return true
		}
		c.Op, c.Texture = OpTexture, tc
		f.Commands = append(f.Commands, *c)
		return true
	}
	unsupported := func(name string) bool {
		c.Op, c.Name = OpUnsupported, name
		f.Commands = append(f.Commands, *c)
		return true
	}
	if _, n := scanf(t, "texture rgbw %d ( %d"); n == 2 {
		it, n := scanf(t, "texture rgbw %d ( %d , %d ) %s")
		if n < 3 {
			fail("invalid texture rgbw command")
			return true
		}
		tc := &TextureCmd{Kind: TexRGBW, Unit: int(it[0].i), W: int(it[1].i), H: int(it[2].i), D: 1}
		if n >= 4 {
			tc.Format = it[3].s
		}
		return emit(tc)
	}
	if _, ok := parseStr(t, "texture integer "); ok {
		// piglit_integer_texture: R = x, G = y, B = b, A = a in an integer format.
		it, n := scanf(t, "texture integer %d ( %d , %d ) ( %d , %d ) %s")
		if n != 6 {
			fail("invalid texture integer command")
			return true
		}
		tc := &TextureCmd{Kind: TexInteger, Unit: int(it[0].i), W: int(it[1].i), H: int(it[2].i), D: 1, Format: it[5].s}
		if integerComponents(tc.Format) == 0 {
			fail("texture integer takes a 32-bit integer format (GL_R32I, GL_RG32I, GL_RGB32I, GL_RGBA32I), not %s", tc.Format)
			return true
		}
		// The texels are kept as float32: every value must be exact there.
		b, a := it[3].i, it[4].i
		abs := func(v int64) int64 { return max(v, -v) }
		if w, h := int64(max(tc.W, 1)), int64(max(tc.H, 1)); abs(b) >= 1<<24 || abs(a) >= 1<<24 ||
			w-1+(h-1)*abs(b)+abs(a)+abs(b) >= 1<<24 {
			fail("texture integer values beyond ±2^24 (b %d, a %d)", b, a)
			return true
		}
		tc.Colors[0][0], tc.Colors[0][1] = float32(b), float32(a)
		return emit(tc)
	}
	if it, n := scanf(t, "texture miptree %d"); n == 1 {
		return emit(&TextureCmd{Kind: TexMiptree, Unit: int(it[0].i), W: 8, H: 8, D: 1})
	}
	if it, n := scanf(t, "texture checkerboard %d %d ( %d , %d ) ( %f , %f , %f , %f ) ( %f , %f , %f , %f )"); n == 12 {
		tc := &TextureCmd{Kind: TexCheckerboard, Unit: int(it[0].i), Level: int(it[1].i), W: int(it[2].i), H: int(it[3].i), D: 1}
		tc.SW, tc.SH = tc.W/2, tc.H/2
		if tc.SW == 0 || tc.SH == 0 {
			fail("checkerboard of %dx%d has empty squares", tc.W, tc.H)
			return true
		}
		for i := range 8 {
			tc.Colors[i/4][i%4] = float32(it[4+i].f)
		}
		return emit(tc)
	}
	if it, n := scanf(t, "texture quads %d %d ( %d , %d ) ( %d , %d ) ( %f , %f , %f , %f ) ( %f , %f , %f , %f ) ( %f , %f , %f , %f ) ( %f , %f , %f , %f )"); n == 22 {
		tc := &TextureCmd{Kind: TexQuads, Unit: int(it[0].i), Level: int(it[1].i), W: int(it[2].i), H: int(it[3].i), D: 1,
			SW: int(it[4].i), SH: int(it[5].i)}
		if tc.SW <= 0 || tc.SH <= 0 {
			fail("quads of size %dx%d", tc.SW, tc.SH)
			return true
		}
		for i := range 16 {
			tc.Colors[i/4][i%4] = float32(it[6+i].f)
		}
		return emit(tc)
	}
	if it, n := scanf(t, "texture junk 2DArray %d ( %d , %d , %d )"); n == 4 {
		return emit(&TextureCmd{Kind: TexJunk2DArray, Unit: int(it[0].i), W: int(it[1].i), H: int(it[2].i), D: int(it[3].i)})
	}
	if _, ok := parseStr(t, "texture junk 2DArray"); ok {
		return unsupported("texture junk")
	}
	if _, ok := parseStr(t, "texture storage "); ok {
		return f.parseTexStorage(t, emit, fail)
	}
	if it, n := scanf(t, "texture rgbw 1D %d"); n == 1 {
		return emit(&TextureCmd{Kind: TexRGBW1D, Unit: int(it[0].i), W: 4, H: 1, D: 1})
	}
	if it, n := scanf(t, "texture rgbw 3D %d"); n == 1 {
		return emit(&TextureCmd{Kind: TexRGBW3D, Unit: int(it[0].i), W: 2, H: 2, D: 2})
	}
	if it, n := scanf(t, "texture rgbw 2DArray %d ( %d , %d , %d )"); n == 4 {
		return emit(&TextureCmd{Kind: TexRGBW2DArray, Unit: int(it[0].i), W: int(it[1].i), H: int(it[2].i), D: int(it[3].i)})
	}
	if it, n := scanf(t, "texture rgbw 1DArray %d ( %d , %d )"); n == 3 {
		return emit(&TextureCmd{Kind: TexRGBW1DArray, Unit: int(it[0].i), W: int(it[1].i), H: 1, D: int(it[2].i)})
	}
	for _, v := range []struct {
		format string
		kind   TextureKind
		n      int
	}{
		{"texture shadow2D %d ( %d , %d )", TexShadow2D, 3},
		{"texture shadowRect %d ( %d , %d )", TexShadowRect, 3},
		{"texture shadow1D %d ( %d )", TexShadow1D, 2},
		{"texture shadow1DArray %d ( %d , %d )", TexShadow1DArray, 3},
		{"texture shadow2DArray %d ( %d , %d , %d )", TexShadow2DArray, 4},
	} {
		if it, n := scanf(t, v.format); n == v.n {
			tc := &TextureCmd{Kind: v.kind, Unit: int(it[0].i), W: int(it[1].i), H: 1, D: 1}
			switch v.kind {
			case TexShadow2D, TexShadowRect:
				tc.H = int(it[2].i)
			case TexShadow1DArray:
				tc.D = int(it[2].i)
			case TexShadow2DArray:
				tc.H, tc.D = int(it[2].i), int(it[3].i)
			}
			return emit(tc)
		}
	}
	return false
}

// TexParamCmd is a texparameter command: TARGET PARAM VALUE.
type TexParamCmd struct {
	Target TexTarget
	// Param is compare_func, depth_mode, min, mag, wrap_s, wrap_t, wrap_r,
	// lod_bias, max_level, base_level, border_color or swizzle_r.
	Param string
	// Value is the enum word of the enumerated parameters.
	Value string
	// Float is lod_bias; Int is max_level/base_level; Color is
	// border_color.
	Float float64
	Int   int
	Color [4]float32
}

var texParamEnums = map[string][]string{
	"compare_func": {"greater", "gequal", "less", "lequal", "equal", "notequal", "never", "always"},
	"depth_mode":   {"intensity", "luminance", "alpha", "red"},
	"min":          {"nearest_mipmap_nearest", "linear_mipmap_nearest", "nearest_mipmap_linear", "linear_mipmap_linear", "nearest", "linear"},
	"mag":          {"nearest", "linear"},
	"wrap_s":       {"repeat", "clamp_to_edge", "clamp_to_border"},
	"wrap_t":       {"repeat", "clamp_to_edge", "clamp_to_border"},
	"wrap_r":       {"repeat", "clamp_to_edge", "clamp_to_border"},
	"swizzle_r":    {"red", "green", "blue", "alpha"},
}

// parseTexParameter is shader_runner's handle_texparameter.
func parseTexParameter(s string) (*TexParamCmd, error) {
	w, rest, ok := parseWord(s)
	target, ok2 := texTargetByName(w)
	if !ok || !ok2 {
		return nil, fmt.Errorf("bad texture target %q", w)
	}
	p := &TexParamCmd{Target: target}
	for _, name := range []string{"compare_func", "depth_mode", "min", "mag", "wrap_s", "wrap_t", "wrap_r"} {
		if r, ok := parseStr(rest, name+" "); ok {
			return p.enum(name, r)
		}
	}
	if r, ok := parseStr(rest, "lod_bias "); ok {
		v, _, ok := strtod(r, 0)
		if !ok {
			v = 0
		}
		p.Param, p.Float = "lod_bias", v
		return p, nil
	}
	for _, name := range []string{"max_level", "base_level"} {
		if r, ok := parseStr(rest, name+" "); ok {
			v, _, _ := strtol(r, 0, 10)
			p.Param, p.Int = name, int(int32(v))
			return p, nil
		}
	}
	if r, ok := parseStr(rest, "border_color "); ok {
		it, n := scanf(r, "%f %f %f %f")
		if n != 4 {
			return nil, fmt.Errorf("could not parse border_color texture parameter")
		}
		for i := range 4 {
			p.Color[i] = float32(it[i].f)
		}
		p.Param = "border_color"
		return p, nil
	}
	if r, ok := parseStr(rest, "swizzle_r "); ok {
		return p.enum("swizzle_r", r)
	}
	return nil, fmt.Errorf("unknown texture parameter in %q", strings.TrimSpace(rest))
}

func (p *TexParamCmd) enum(name, rest string) (*TexParamCmd, error) {
	v, _, ok := parseWord(rest)
	if !ok || !oneOf(v, texParamEnums[name]) {
		return nil, fmt.Errorf("bad %s %q", name, strings.TrimSpace(rest))
	}
	p.Param, p.Value = name, v
	return p, nil
}

// integerComponents is the channel count of texture integer's formats (the
// 32-bit signed ones piglit_integer_texture takes), 0 for any other.
func integerComponents(format string) int {
	switch format {
	case "GL_R32I":
		return 1
	case "GL_RG32I":
		return 2
	case "GL_RGB32I":
		return 3
	case "GL_RGBA32I":
		return 4
	}
	return 0
}
