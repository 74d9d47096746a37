package draw3d

import (
	"testing"

	"vortexgfx/abi"
	"vortexgfx/device/raster"
	"vortexgfx/trace"
)

func smallTrace() *trace.Trace {
	v := func(x, y float32) trace.Vertex {
		return trace.Vertex{Pos: trace.Pos{X: x, Y: y, Z: 0.5, W: 1}, Color: trace.Color{R: 1, G: 1, B: 1, A: 1}}
	}
	dc := trace.DrawCall{
		States: trace.States{ColorEnabled: true, ColorWriteMask: 0xFFFFFFFF, DepthTest: true, DepthWriteMask: true,
			DepthFunc: trace.CompareLEqual, StencilTest: true, StencilFunc: trace.CompareAlways,
			StencilZPass: trace.StencilReplace, StencilZFail: trace.StencilIncr, StencilFail: trace.StencilKeep,
			StencilRef: 3, StencilMask: 0xFF, StencilWriteMask: 0xFF, TextureEnabled: true,
			TextureEnvMode: trace.EnvModulate, TextureMinFilter: trace.FilterLinear, TextureMagFilter: trace.FilterNearest,
			TextureAddressU: trace.AddressClamp, TextureAddressV: trace.AddressWrap},
		TextureID:  1,
		Vertices:   map[uint32]trace.Vertex{0: v(-1, -1), 1: v(1, -1), 2: v(-1, 1)},
		Primitives: []trace.Primitive{{I0: 0, I1: 1, I2: 2}},
		Viewport:   trace.Viewport{Right: 800, Bottom: 600, Far: 1},
	}
	return &trace.Trace{DrawCalls: []trace.DrawCall{dc},
		Textures: map[uint32]trace.Texture{1: {Format: trace.FormatA8L8, Width: 4, Height: 2, Pixels: make([]byte, 16)}}}
}

// TestHostFlowQuirks pins the draw3d host flow's DCR programming, quirks
// included. spec: vortex-hardware-facts §8, §9 item 3
func TestHostFlowQuirks(t *testing.T) {
	_, stats, err := Host{Width: 16, Height: 16, Raster: raster.Config{Workers: 1}}.Replay(smallTrace())
	if err != nil {
		t.Fatal(err)
	}
	w := stats[0].Writes
	count := map[abi.DCR]int{}
	last := map[abi.DCR]uint32{}
	for _, x := range w {
		count[x.Addr]++
		last[x.Addr] = x.Value
	}
	if count[abi.DCROMStencilZPass] != 2 || count[abi.DCROMStencilZFail] != 0 || last[abi.DCROMStencilZPass] != uint32(abi.StencilIncr) {
		t.Errorf("stencil ZFAIL quirk: ZPASS written %d times (last %d), ZFAIL %d times", count[abi.DCROMStencilZPass], last[abi.DCROMStencilZPass], count[abi.DCROMStencilZFail])
	}
	if last[abi.DCRTexFilter] != 0 {
		t.Errorf("filter %d: must follow magfilter (NEAREST) only", last[abi.DCRTexFilter])
	}
	if u, v := abi.UnpackTexWrap(last[abi.DCRTexWrap]); u != abi.WrapClamp || v != abi.WrapClamp {
		t.Errorf("wrap (%d,%d): wrap_v must follow addressU", u, v)
	}
	if count[abi.DCRTexMipOff(0)] != 1 || count[abi.DCRTexMipOff(2)] != 1 || count[abi.DCRTexMipOff(3)] != 0 {
		t.Errorf("MIPOFF written for levels that do not exist (4x2 has 3): %v", count)
	}
	if last[abi.DCROMEarlyZSafe] != 0 {
		t.Error("EARLYZ_SAFE armed with stencil enabled")
	}
	if last[abi.DCRRasterScissorX] != 16<<16 || last[abi.DCRRasterPBufStride] != abi.PrimBytes || last[abi.DCROMCBufPitch] != 64 {
		t.Errorf("raster/OM geometry %v", last)
	}
	if last[abi.DCRRasterFragEntryLo] == 0 {
		t.Error("FRAG_ENTRY not armed")
	}
}

// TestClearAndFlip: untouched pixels keep the clear colour; the saved image is
// the colour buffer flipped vertically.
func TestClearAndFlip(t *testing.T) {
	tr := smallTrace()
	tr.DrawCalls[0].States.TextureEnabled = false
	tr.DrawCalls[0].States.StencilTest = false
	img, _, err := Host{Width: 8, Height: 8}.Replay(tr)
	if err != nil {
		t.Fatal(err)
	}
	// NDC (−1,−1), (1,−1), (−1,1) is the lower-left half with y up: colour
	// buffer rows 0.. (y-down mapping), so after the flip it is the image's
	// bottom-left.
	if img.Pix[7*8+0] != 0xFFFFFFFF || img.Pix[0*8+7] != ClearColor {
		t.Errorf("bottom-left %08x top-right %08x", img.Pix[7*8], img.Pix[7])
	}
}

func TestFragArgsRoundTrip(t *testing.T) {
	a := abi.Draw3DFragArgs{DepthEnabled: true, TexEnabled: true, TexModulate: true, PrimAddr: 0x1234_5678_9A, NumPrims: 77}
	got, err := abi.UnpackDraw3DFragArgs(a.Pack())
	if err != nil || got != a {
		t.Errorf("round trip %+v (%v), want %+v", got, err, a)
	}
	b := a.Pack()
	b[12] = 2
	if _, err := abi.UnpackDraw3DFragArgs(b); err == nil {
		t.Error("flag 2 accepted")
	}
	if _, err := abi.UnpackDraw3DFragArgs(b[:8]); err == nil {
		t.Error("short block accepted")
	}
}

func FuzzDecodeFragArgs(f *testing.F) {
	f.Add(abi.Draw3DFragArgs{ColorEnabled: true, PrimAddr: 64, NumPrims: 3}.Pack())
	f.Fuzz(func(t *testing.T, b []byte) {
		a, err := abi.UnpackDraw3DFragArgs(b)
		if err != nil {
			return
		}
		if back, err := abi.UnpackDraw3DFragArgs(a.Pack()); err != nil || back != a {
			t.Fatalf("re-encode %+v → %+v (%v)", a, back, err)
		}
	})
}
