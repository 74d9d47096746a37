package shaderdev_test

import (
	"context"
	"encoding/binary"
	"math"
	"testing"

	"vortexgfx/abi"
	"vortexgfx/config"
	"vortexgfx/device/swom"
	"vortexgfx/gfx/session"
	"vortexgfx/gfx/shaderdev"
	"vortexgfx/gl/blend"
	"vortexgfx/gl/compare"
	"vortexgfx/gl/format"
	"vortexgfx/gl/msaa"
	"vortexgfx/ref"
	"vortexgfx/ref/program"
)

// unitTris are the two triangles every case draws, in order: a large one at
// window depth 0.6 with a colour gradient, then an overlapping one whose depth
// runs from 0.3 to 0.9 and whose alpha is 0.5; back, when set, makes the second
// one clockwise (back-facing).
func unitTris(back bool) [2][3][8]float32 {
	t := [2][3][8]float32{
		{{-0.9, -0.9, 0.2, 1, 0.9, 0.2, 0.1, 1}, {0.9, -0.8, 0.2, 1, 0.1, 0.8, 0.2, 1}, {-0.1, 0.9, 0.2, 1, 0.2, 0.3, 0.9, 0.8}},
		{{-0.6, 0.7, -0.4, 1, 0.1, 0.9, 0.9, 0.5}, {-0.3, -0.7, 0.8, 1, 0.9, 0.9, 0.1, 0.5}, {0.8, 0.1, 0.2, 1, 0.8, 0.1, 0.7, 0.5}},
	}
	if back {
		t[1][1], t[1][2] = t[1][2], t[1][1]
	}
	return t
}

// unitCase is one §3.7 / §3.4.1 row: the targets, the merger state of each
// draw (the reference gets the same state through refState), the routing the
// device must take and the tolerance.
type unitCase struct {
	name    string
	vs      string // unitsVS when empty
	fs      string
	colors  []format.Format
	depth   abi.OMDepthFormat
	noDepth bool
	samples int
	back    bool
	clear   [4]float32
	clearZ  float32
	clearS  uint8
	state   func(draw int, s *swom.State)
	swOM    bool
	swRast  bool
	tol     float64 // per channel, in the decoded value
	// readSamples makes renderDevice return the sample-major planes
	// (Device.ReadSamples) instead of the resolved targets.
	readSamples bool
	minSamples  int // Draw.MinSamples (sample shading)
	// maskOn and mask are Draw.SampleMaskEnable and Draw.SampleMask.
	maskOn bool
	mask   uint32
}

func (c *unitCase) vertex() string {
	if c.vs != "" {
		return c.vs
	}
	return unitsVS
}

// baseState is depth LESS with writes, no stencil, no blending, all channels.
func baseState(draw int, s *swom.State) {
	s.DepthTest, s.DepthFunc, s.DepthWrite = true, compare.Less, true
	for i := range s.Targets {
		s.Targets[i].Blend = swom.Blend{WriteMask: 0xF, EqRGB: blend.Add, EqA: blend.Add, SrcRGB: blend.One, SrcA: blend.One, DstRGB: blend.Zero, DstA: blend.Zero}
	}
	s.Front = swom.Face{Func: compare.Always, ReadMask: 0xFF, WriteMask: 0xFF}
	s.Back = s.Front
}

func blendAlpha(s *swom.State, i int) {
	s.Targets[i].Blend = swom.Blend{Enable: true, WriteMask: 0xF, EqRGB: blend.Add, EqA: blend.Add,
		SrcRGB: blend.SrcAlpha, SrcA: blend.One, DstRGB: blend.OneMinusSrcAlpha, DstA: blend.OneMinusSrcAlpha}
}

// refState sets ref's per-fragment state from the merger's (both use the gl
// enums).
func refState(s *swom.State, st *ref.State) {
	st.Depth.Test, st.Depth.Func, st.Depth.Write = s.DepthTest, s.DepthFunc, s.DepthWrite
	st.Depth.BoundsTest, st.Depth.BoundsMin, st.Depth.BoundsMax = s.DepthBounds, s.BoundsMin, s.BoundsMax
	st.Depth.Clamp = s.DepthClamp
	st.StencilTest = s.StencilTest
	for i, f := range []*swom.Face{&s.Front, &s.Back} {
		rf := ref.StencilFace{Func: f.Func, Ref: f.Ref, ReadMask: f.ReadMask, WriteMask: f.WriteMask,
			Fail: f.Fail, DepthFail: f.ZFail, Pass: f.ZPass}
		if i == 0 {
			st.StencilFront = rf
		} else {
			st.StencilBack = rf
		}
	}
	for i := range st.Blend {
		b := &s.Targets[i].Blend
		st.Blend[i] = ref.BlendState{Enable: b.Enable, SrcRGB: b.SrcRGB, DstRGB: b.DstRGB,
			SrcAlpha: b.SrcA, DstAlpha: b.DstA, EqRGB: b.EqRGB, EqAlpha: b.EqA, WriteMask: b.WriteMask}
	}
	st.BlendConstant = s.Constant
	st.LogicOpEnable, st.LogicOp = s.LogicOpEnable, s.LogicOp
	st.AlphaTest, st.AlphaFunc, st.AlphaRef = s.AlphaTest, s.AlphaFunc, s.AlphaRef
}

func refDepthFormat(c *unitCase) format.Format {
	if c.noDepth {
		return format.Invalid
	}
	return [...]format.Format{format.D24S8, format.D16, format.D32F, format.S8}[c.depth]
}

// vertexBytes packs a triangle as the program's attribute words.
func vertexBytes(p *program.Program, tri [3][8]float32) ([]uint32, []byte) {
	words := p.AttribWords()
	pos, _ := p.Attribute("a_pos")
	col, _ := p.Attribute("a_col")
	data := make([]uint32, 3*words)
	for i, v := range tri {
		for k := range 4 {
			data[i*words+pos.Word+k] = math.Float32bits(v[k])
			data[i*words+col.Word+k] = math.Float32bits(v[4+k])
		}
	}
	raw := make([]byte, 4*len(data))
	for i, w := range data {
		binary.LittleEndian.PutUint32(raw[4*i:], w)
	}
	return data, raw
}

// renderDevice draws the case on a device and returns each target's
// (resolved) bytes and the draws' stats.
func renderDevice(t *testing.T, c *unitCase, cfg config.Config, force shaderdev.Units) ([][]byte, []session.DrawStats) {
	t.Helper()
	p := link(t, c.vertex(), c.fs)
	sp, err := shaderdev.NewProgram("units."+c.name, p.IR)
	if err != nil {
		t.Fatal(err)
	}
	dev, err := shaderdev.OpenTargets(cfg, uW, uH, shaderdev.TargetConfig{Colors: c.colors, Depth: c.depth, NoDepth: c.noDepth, Samples: c.samples}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	if err := dev.AddProgram(sp); err != nil {
		t.Fatal(err)
	}
	dev.SetForceSW(force)
	for i := range c.colors {
		if err := dev.ClearTarget(i, c.clear); err != nil {
			t.Fatal(err)
		}
	}
	if !c.noDepth {
		if err := dev.ClearDepthStencil(c.clearZ, c.clearS); err != nil {
			t.Fatal(err)
		}
	}
	var stats []session.DrawStats
	for k, tri := range unitTris(c.back) {
		_, raw := vertexBytes(p, tri)
		attrs := make([]shaderdev.AttribBinding, len(sp.Attributes()))
		for i, s := range sp.Attributes() {
			attrs[i] = shaderdev.AttribBinding{Data: raw, Offset: uint64(4 * s.Word), Stride: uint64(4 * p.AttribWords())}
		}
		var ms swom.State
		baseState(k, &ms)
		if c.state != nil {
			c.state(k, &ms)
		}
		st, err := dev.Draw(&shaderdev.Draw{Program: sp, Attribs: attrs, Count: 3, Uniforms: p.Uniforms, Merge: ms, MinSamples: c.minSamples,
			SampleMaskEnable: c.maskOn, SampleMask: c.mask})
		if err != nil {
			t.Fatalf("draw %d: %v", k, err)
		}
		stats = append(stats, st)
	}
	out := make([][]byte, len(c.colors))
	for i := range c.colors {
		read := dev.ReadTarget
		if c.readSamples {
			read = dev.ReadSamples
		}
		if out[i], err = read(i); err != nil {
			t.Fatal(err)
		}
	}
	return out, stats
}

// renderRef draws the case on the reference renderer; S > 1 samples are drawn
// as S passes with the viewport shifted so that pixel centres land on the
// standard sample positions (gl/msaa) and box-resolved in float (render/'s
// method).
func renderRef(t *testing.T, c *unitCase) [][]byte {
	t.Helper()
	passes := renderRefPasses(t, c)
	S := len(passes)
	out := make([][]byte, len(c.colors))
	for i, f := range c.colors {
		bpp := f.Info().Bytes
		out[i] = make([]byte, uW*uH*bpp)
		for px := 0; px < uW*uH; px++ {
			if f.IsInteger() || S == 1 {
				copy(out[i][px*bpp:], passes[0].Color[i].Data[px*bpp:(px+1)*bpp])
				continue
			}
			var sum [4]float64
			for k := range S {
				v := format.ToFloat(f, format.Unpack(f, passes[k].Color[i].Data[px*bpp:]))
				for j := range sum {
					sum[j] += float64(v[j])
				}
			}
			var avg [4]float32
			for j := range avg {
				avg[j] = float32(sum[j] / float64(S))
			}
			format.Pack(f, out[i][px*bpp:], format.FromFloat(f, avg))
		}
	}
	return out
}

// renderRefSamples is renderRef's passes interleaved as the device's
// sample-major planes (texel (y·w + x)·S + k is pass k's pixel (x, y)), for
// comparing sample by sample with Device.ReadSamples.
func renderRefSamples(t *testing.T, c *unitCase) [][]byte {
	t.Helper()
	passes := renderRefPasses(t, c)
	S := len(passes)
	out := make([][]byte, len(c.colors))
	for i, f := range c.colors {
		bpp := f.Info().Bytes
		out[i] = make([]byte, uW*uH*S*bpp)
		for px := 0; px < uW*uH; px++ {
			for k := range S {
				copy(out[i][(px*S+k)*bpp:], passes[k].Color[i].Data[px*bpp:(px+1)*bpp])
			}
		}
	}
	return out
}

// renderRefPasses draws the case's sample passes on the reference renderer:
// one target per sample, pass k's pixel centres on sample k's position.
func renderRefPasses(t *testing.T, c *unitCase) []*ref.Target {
	t.Helper()
	p := link(t, c.vertex(), c.fs)
	S := max(c.samples, 1)
	passes := make([]*ref.Target, S)
	for k := range S {
		tg, err := ref.NewTarget(uW, uH, c.colors, refDepthFormat(c))
		if err != nil {
			t.Fatal(err)
		}
		for i, f := range c.colors {
			if f.IsInteger() {
				var v [4]uint32
				for j, x := range c.clear {
					v[j] = uint32(int32(x))
				}
				err = tg.ClearColorInt(i, v)
			} else {
				err = tg.ClearColor(i, c.clear)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		if !c.noDepth {
			if c.depth != abi.OMDepthS8 {
				if err := tg.ClearDepth(c.clearZ); err != nil {
					t.Fatal(err)
				}
			}
			if c.depth == abi.OMDepthD24S8 || c.depth == abi.OMDepthS8 {
				if err := tg.ClearStencil(c.clearS); err != nil {
					t.Fatal(err)
				}
			}
		}
		for d, tri := range unitTris(c.back) {
			data, _ := vertexBytes(p, tri)
			vs, err := p.NewVertexShader(context.Background(), program.VertexOptions{})
			if err != nil {
				t.Fatal(err)
			}
			fs, err := p.NewFragmentShader(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			st := ref.DefaultState(uW, uH)
			st.Vertex, st.Fragment, st.Interp = vs, fs, p.Interp(false)
			if S > 1 {
				sx, sy := msaa.Position(S, k)
				st.Viewport.X -= float32(sx-8) / 16
				st.Viewport.Y -= float32(sy-8) / 16
				if err := fs.SetSample(k, S, sx, sy); err != nil {
					t.Fatal(err)
				}
			}
			var ms swom.State
			baseState(d, &ms)
			if c.state != nil {
				c.state(d, &ms)
			}
			refState(&ms, &st)
			if err := ref.Draw(context.Background(), tg, &st, ref.VertexInput{Words: p.AttribWords(), Data: data}, ref.DrawParams{Topology: ref.Triangles, Count: 3}); err != nil {
				t.Fatal(err)
			}
		}
		passes[k] = tg
	}
	return passes
}

// compareTargets counts pixels of target f whose decoded channels differ by
// more than tol, and the pixels either image changed from the clear value.
func compareTargets(f format.Format, dev, want []byte, clear [4]float32, tol float64) (bad, drawn int, maxd float64) {
	bpp, n := f.Info().Bytes, f.Info().Components
	cl := make([]byte, bpp)
	format.Pack(f, cl, format.FromFloat(f, clear))
	for px := 0; px < len(dev)/bpp; px++ {
		a := format.ToFloat(f, format.Unpack(f, dev[px*bpp:]))
		b := format.ToFloat(f, format.Unpack(f, want[px*bpp:]))
		if string(want[px*bpp:(px+1)*bpp]) != string(cl) {
			drawn++
		}
		m := 0.0
		for j := 0; j < n; j++ {
			m = max(m, math.Abs(float64(a[j])-float64(b[j])))
		}
		maxd = max(maxd, m)
		if m > tol {
			bad++
		}
	}
	return bad, drawn, maxd
}
