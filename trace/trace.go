// Package trace reads CGLTrace files: the boost-XML archives of recorded draw calls
// (clip-space vertices, colours, texture coordinates, textures and fixed-function
// state) that Vortex's gfx_draw3d test replays against its golden images.
//
// spec: vortex-hardware-facts §8 (trace format); cocogfx include/cgltrace.hpp.
package trace

import (
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
)

// ErrBadTrace is wrapped by every error that reports a malformed trace.
var ErrBadTrace = errors.New("trace: malformed CGLTrace")

// Pos is a clip-space position (post-transform).
type Pos struct{ X, Y, Z, W float32 }

// Color is an RGBA float colour.
type Color struct{ R, G, B, A float32 }

// TexCoord is a texture coordinate.
type TexCoord struct{ U, V float32 }

// Vertex is one trace vertex. spec: facts §8
type Vertex struct {
	Pos      Pos
	Color    Color
	TexCoord TexCoord
}

// Primitive is one triangle: three vertex ids (keys of DrawCall.Vertices).
type Primitive struct{ I0, I1, I2 uint32 }

// Viewport is the recorded viewport; gfx_draw3d ignores it except near/far.
type Viewport struct {
	Left, Right, Top, Bottom int32
	Near, Far                float32
}

// States is the fixed-function state of one draw call, in the trace's own enums
// (see enums.go for the translation to Vortex codes). spec: facts §8
type States struct {
	ColorEnabled     bool
	ColorFormat      PixelFormat
	ColorWriteMask   uint32
	DepthTest        bool
	DepthWriteMask   bool
	DepthFormat      PixelFormat
	DepthFunc        Compare
	StencilTest      bool
	StencilFunc      Compare
	StencilZPass     StencilOp
	StencilZFail     StencilOp
	StencilFail      StencilOp
	StencilRef       uint8
	StencilMask      uint8
	StencilWriteMask uint8
	TextureEnabled   bool
	TextureEnvColor  Color
	TextureEnvMode   EnvMode
	TextureMinFilter Filter
	TextureMagFilter Filter
	TextureAddressU  Address
	TextureAddressV  Address
	BlendEnabled     bool
	BlendSrc         BlendOp
	BlendDst         BlendOp
}

// DrawCall is one recorded draw. spec: facts §8
type DrawCall struct {
	States     States
	TextureID  uint32
	Vertices   map[uint32]Vertex
	Primitives []Primitive
	Viewport   Viewport
}

// Texture is one recorded texture: level 0 pixels, rows top to bottom, in Format.
type Texture struct {
	Format        PixelFormat
	Width, Height uint32
	Pixels        []byte
}

// Trace is a whole CGLTrace.
type Trace struct {
	DrawCalls []DrawCall
	Textures  map[uint32]Texture
}

// Load reads and parses a trace file.
func Load(path string) (*Trace, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("trace: %w", err)
	}
	defer f.Close()
	t, err := Parse(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}

// maxItems bounds every declared count so a corrupt count cannot make us allocate
// unboundedly; real traces hold a few thousand items.
const maxItems = 1 << 24

// Parse decodes a CGLTrace archive. A malformed trace returns an error wrapping
// ErrBadTrace that names the element path.
func Parse(r io.Reader) (*Trace, error) {
	root, err := parseXML(r)
	if err != nil {
		return nil, err
	}
	ct := root.child("cgltrace")
	if root.Name != "boost_serialization" || ct == nil {
		return nil, badf("/%s: no <cgltrace> archive", root.Name)
	}
	p := "/boost_serialization/cgltrace"
	t := &Trace{Textures: map[uint32]Texture{}}
	dcs := ct.child("drawcalls")
	if dcs == nil {
		return nil, badf("%s: missing <drawcalls>", p)
	}
	items, err := dcs.items(p + "/drawcalls")
	if err != nil {
		return nil, err
	}
	for i, it := range items {
		dc, err := parseDrawCall(it, fmt.Sprintf("%s/drawcalls/item[%d]", p, i))
		if err != nil {
			return nil, err
		}
		t.DrawCalls = append(t.DrawCalls, dc)
	}
	if txs := ct.child("textures"); txs != nil {
		items, err := txs.items(p + "/textures")
		if err != nil {
			return nil, err
		}
		for i, it := range items {
			ip := fmt.Sprintf("%s/textures/item[%d]", p, i)
			id, err := it.u32("first", ip)
			if err != nil {
				return nil, err
			}
			tx, err := parseTexture(it.child("second"), ip+"/second")
			if err != nil {
				return nil, err
			}
			if _, dup := t.Textures[id]; dup {
				return nil, badf("%s: duplicate texture id %d", ip, id)
			}
			t.Textures[id] = tx
		}
	}
	for i := range t.DrawCalls {
		dc := &t.DrawCalls[i]
		if dc.States.TextureEnabled {
			if _, ok := t.Textures[dc.TextureID]; !ok {
				return nil, badf("%s/drawcalls/item[%d]/texture_id: texture %d is not in <textures>", p, i, dc.TextureID)
			}
		}
	}
	return t, nil
}

func badf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrBadTrace, fmt.Sprintf(format, args...))
}

func parseDrawCall(n *node, p string) (DrawCall, error) {
	var dc DrawCall
	var err error
	st := n.child("states")
	if st == nil {
		return dc, badf("%s: missing <states>", p)
	}
	if dc.States, err = parseStates(st, p+"/states"); err != nil {
		return dc, err
	}
	if dc.TextureID, err = n.u32("texture_id", p); err != nil {
		return dc, err
	}
	vs := n.child("vertices")
	if vs == nil {
		return dc, badf("%s: missing <vertices>", p)
	}
	vitems, err := vs.items(p + "/vertices")
	if err != nil {
		return dc, err
	}
	dc.Vertices = make(map[uint32]Vertex, len(vitems))
	for i, it := range vitems {
		ip := fmt.Sprintf("%s/vertices/item[%d]", p, i)
		id, err := it.u32("first", ip)
		if err != nil {
			return dc, err
		}
		v, err := parseVertex(it.child("second"), ip+"/second")
		if err != nil {
			return dc, err
		}
		if _, dup := dc.Vertices[id]; dup {
			return dc, badf("%s: duplicate vertex id %d", ip, id)
		}
		dc.Vertices[id] = v
	}
	ps := n.child("primitives")
	if ps == nil {
		return dc, badf("%s: missing <primitives>", p)
	}
	pitems, err := ps.items(p + "/primitives")
	if err != nil {
		return dc, err
	}
	dc.Primitives = make([]Primitive, 0, len(pitems))
	for i, it := range pitems {
		ip := fmt.Sprintf("%s/primitives/item[%d]", p, i)
		var idx [3]uint32
		for k, name := range [3]string{"i0", "i1", "i2"} {
			if idx[k], err = it.u32(name, ip); err != nil {
				return dc, err
			}
			if _, ok := dc.Vertices[idx[k]]; !ok {
				return dc, badf("%s/%s: vertex index %d out of range (no such vertex)", ip, name, idx[k])
			}
		}
		dc.Primitives = append(dc.Primitives, Primitive{idx[0], idx[1], idx[2]})
	}
	vp := n.child("viewport")
	if vp == nil {
		return dc, badf("%s: missing <viewport>", p)
	}
	vpp := p + "/viewport"
	var ints [4]int32
	for k, name := range [4]string{"left", "right", "top", "bottom"} {
		if ints[k], err = vp.i32(name, vpp); err != nil {
			return dc, err
		}
	}
	dc.Viewport = Viewport{Left: ints[0], Right: ints[1], Top: ints[2], Bottom: ints[3]}
	if dc.Viewport.Near, err = vp.f32("near", vpp, true); err != nil {
		return dc, err
	}
	if dc.Viewport.Far, err = vp.f32("far", vpp, true); err != nil {
		return dc, err
	}
	return dc, nil
}

func parseVertex(n *node, p string) (Vertex, error) {
	var v Vertex
	if n == nil {
		return v, badf("%s: missing", p)
	}
	pos, col, tc := n.child("pos"), n.child("color"), n.child("texcoord")
	if pos == nil || col == nil || tc == nil {
		return v, badf("%s: vertex needs <pos>, <color> and <texcoord>", p)
	}
	var err error
	fs := []struct {
		n   *node
		el  string
		dst *float32
		sub string
	}{
		{pos, "x", &v.Pos.X, "pos"}, {pos, "y", &v.Pos.Y, "pos"}, {pos, "z", &v.Pos.Z, "pos"}, {pos, "w", &v.Pos.W, "pos"},
		{col, "r", &v.Color.R, "color"}, {col, "g", &v.Color.G, "color"}, {col, "b", &v.Color.B, "color"}, {col, "a", &v.Color.A, "color"},
		{tc, "u", &v.TexCoord.U, "texcoord"}, {tc, "v", &v.TexCoord.V, "texcoord"},
	}
	for _, f := range fs {
		if *f.dst, err = f.n.f32(f.el, p+"/"+f.sub, true); err != nil {
			return v, err
		}
	}
	return v, nil
}

func parseColor(n *node, p string) (Color, error) {
	var c Color
	if n == nil {
		return c, badf("%s: missing", p)
	}
	var err error
	for _, f := range []struct {
		el  string
		dst *float32
	}{{"r", &c.R}, {"g", &c.G}, {"b", &c.B}, {"a", &c.A}} {
		if *f.dst, err = n.f32(f.el, p, true); err != nil {
			return c, err
		}
	}
	return c, nil
}

func parseStates(n *node, p string) (States, error) {
	var s States
	var err error
	b := func(el string, dst *bool) {
		if err == nil {
			*dst, err = n.boolean(el, p)
		}
	}
	u := func(el string, dst *uint32) {
		if err == nil {
			*dst, err = n.u32(el, p)
		}
	}
	u8 := func(el string, dst *uint8) {
		if err == nil {
			var v uint32
			v, err = n.u32(el, p)
			if err == nil && v > 0xFF {
				err = badf("%s/%s: %d does not fit 8 bits", p, el, v)
			}
			*dst = uint8(v)
		}
	}
	e := func(el string, limit uint32, dst *uint32) {
		if err == nil {
			*dst, err = n.u32(el, p)
			if err == nil && *dst >= limit {
				err = badf("%s/%s: enum value %d out of range [0, %d)", p, el, *dst, limit)
			}
		}
	}
	var cf, df, dfn, sfn, szp, szf, sfl, env, minf, magf, au, av, bs, bd uint32
	b("color_enabled", &s.ColorEnabled)
	u("color_format", &cf)
	u("color_writemask", &s.ColorWriteMask)
	b("depth_test", &s.DepthTest)
	b("depth_writemask", &s.DepthWriteMask)
	u("depth_format", &df)
	e("depth_func", uint32(numCompare), &dfn)
	b("stencil_test", &s.StencilTest)
	e("stencil_func", uint32(numCompare), &sfn)
	e("stencil_zpass", uint32(numStencilOp), &szp)
	e("stencil_zfail", uint32(numStencilOp), &szf)
	e("stencil_fail", uint32(numStencilOp), &sfl)
	u8("stencil_ref", &s.StencilRef)
	u8("stencil_mask", &s.StencilMask)
	u8("stencil_writemask", &s.StencilWriteMask)
	b("texture_enabled", &s.TextureEnabled)
	if err != nil {
		return s, err
	}
	if s.TextureEnvColor, err = parseColor(n.child("texture_envcolor"), p+"/texture_envcolor"); err != nil {
		return s, err
	}
	e("texture_envmode", uint32(numEnvMode), &env)
	e("texture_minfilter", uint32(numFilter), &minf)
	e("texture_magfilter", uint32(numFilter), &magf)
	e("texture_addressU", uint32(numAddress), &au)
	e("texture_addressV", uint32(numAddress), &av)
	b("blend_enabled", &s.BlendEnabled)
	e("blend_src", uint32(numBlendOp), &bs)
	e("blend_dst", uint32(numBlendOp), &bd)
	if err != nil {
		return s, err
	}
	s.ColorFormat, s.DepthFormat, s.DepthFunc = PixelFormat(cf), PixelFormat(df), Compare(dfn)
	s.StencilFunc, s.StencilZPass, s.StencilZFail, s.StencilFail = Compare(sfn), StencilOp(szp), StencilOp(szf), StencilOp(sfl)
	s.TextureEnvMode, s.TextureMinFilter, s.TextureMagFilter = EnvMode(env), Filter(minf), Filter(magf)
	s.TextureAddressU, s.TextureAddressV = Address(au), Address(av)
	s.BlendSrc, s.BlendDst = BlendOp(bs), BlendOp(bd)
	return s, nil
}

func parseTexture(n *node, p string) (Texture, error) {
	var t Texture
	if n == nil {
		return t, badf("%s: missing", p)
	}
	f, err := n.u32("format", p)
	if err != nil {
		return t, err
	}
	t.Format = PixelFormat(f)
	bpp := t.Format.BytesPerPixel()
	if bpp == 0 {
		return t, badf("%s/format: unsupported pixel format %d", p, f)
	}
	if t.Width, err = n.u32("width", p); err != nil {
		return t, err
	}
	if t.Height, err = n.u32("height", p); err != nil {
		return t, err
	}
	if t.Width == 0 || t.Height == 0 || t.Width > 1<<15 || t.Height > 1<<15 {
		return t, badf("%s: texture size %dx%d out of range", p, t.Width, t.Height)
	}
	size, err := n.u32("size", p)
	if err != nil {
		return t, err
	}
	if uint64(size) != uint64(t.Width)*uint64(t.Height)*uint64(bpp) {
		return t, badf("%s/size: %d bytes, want %dx%dx%d", p, size, t.Width, t.Height, bpp)
	}
	px := n.child("pixels")
	if px == nil {
		return t, badf("%s: missing <pixels>", p)
	}
	clean := strings.Map(func(r rune) rune {
		if r == ' ' || r == '\n' || r == '\r' || r == '\t' {
			return -1
		}
		return r
	}, px.Text)
	raw, err := base64.StdEncoding.DecodeString(clean)
	if err != nil {
		return t, badf("%s/pixels: bad base64: %v", p, err)
	}
	if len(raw) != int(size) {
		return t, badf("%s/pixels: %d bytes decoded, <size> says %d", p, len(raw), size)
	}
	t.Pixels = raw
	return t, nil
}

// items returns the <item> children of a boost collection, checking <count>.
func (n *node) items(p string) ([]*node, error) {
	cnt, err := n.u32("count", p)
	if err != nil {
		return nil, err
	}
	if cnt > maxItems {
		return nil, badf("%s/count: %d items is too many", p, cnt)
	}
	var out []*node
	for _, k := range n.Kids {
		if k.Name == "item" {
			out = append(out, k)
		}
	}
	if uint32(len(out)) != cnt {
		return nil, badf("%s: <count> says %d items, found %d", p, cnt, len(out))
	}
	return out, nil
}

func (n *node) text(el, p string) (string, error) {
	c := n.child(el)
	if c == nil {
		return "", badf("%s: missing <%s>", p, el)
	}
	return strings.TrimSpace(c.Text), nil
}

func (n *node) u32(el, p string) (uint32, error) {
	s, err := n.text(el, p)
	if err != nil {
		return 0, err
	}
	v, err := strconv.ParseUint(s, 10, 32)
	if err != nil {
		return 0, badf("%s/%s: %q is not an unsigned 32-bit integer", p, el, s)
	}
	return uint32(v), nil
}

func (n *node) i32(el, p string) (int32, error) {
	s, err := n.text(el, p)
	if err != nil {
		return 0, err
	}
	v, err := strconv.ParseInt(s, 10, 32)
	if err != nil {
		return 0, badf("%s/%s: %q is not a 32-bit integer", p, el, s)
	}
	return int32(v), nil
}

func (n *node) boolean(el, p string) (bool, error) {
	s, err := n.text(el, p)
	if err != nil {
		return false, err
	}
	switch s {
	case "0":
		return false, nil
	case "1":
		return true, nil
	}
	return false, badf("%s/%s: %q is not a boolean (0 or 1)", p, el, s)
}

// f32 parses a float the way std::istream >> float does (correctly rounded to
// float32). Non-finite values are refused when finite is set.
func (n *node) f32(el, p string, finite bool) (float32, error) {
	s, err := n.text(el, p)
	if err != nil {
		return 0, err
	}
	v, err := strconv.ParseFloat(s, 32)
	if err != nil {
		return 0, badf("%s/%s: %q is not a float", p, el, s)
	}
	if finite && (math.IsNaN(v) || math.IsInf(v, 0)) {
		return 0, badf("%s/%s: non-finite value %q", p, el, s)
	}
	return float32(v), nil
}
