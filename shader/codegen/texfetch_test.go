package codegen

import (
	"math"
	"strings"
	"testing"

	"vortexgfx/abi"
	"vortexgfx/gl/format"
)

// TestFetchUNorm8: the machine code's unorm8 channel, fcvt.s.wu then fdiv.s by
// 255 (float32(b)/255, correctly rounded), is format.ToFloatRGBA8's
// float32(float64(b)/255) for every byte: the double rounding never differs.
func TestFetchUNorm8(t *testing.T) {
	for b := range 256 {
		want := format.ToFloatRGBA8(format.Raw{uint32(b)})[0]
		if got := float32(b) / 255; math.Float32bits(got) != math.Float32bits(want) {
			t.Errorf("byte %d: fdiv.s gives %v, ToFloatRGBA8 %v", b, got, want)
		}
	}
}

// TestFetchDescriptorRefusal: the descriptors the machine code's texelFetch
// reads, and each kind it does not, named.
func TestFetchDescriptorRefusal(t *testing.T) {
	ok := abi.SWTexDesc{Target: abi.SWTex2D, Format: abi.SWTexRGBA8, Levels: 2, Samples: 1, Width: 4, Height: 4, Depth: 1,
		Swizzle: [4]abi.SWTexSwizzle{abi.SWSwizzleR, abi.SWSwizzleG, abi.SWSwizzleB, abi.SWSwizzleA}}
	ok.Level[0].Addr, ok.Level[1].Addr = 0x1000, 0x1040
	for _, c := range []struct {
		name string
		mut  func(d *abi.SWTexDesc)
		want string
	}{
		{"rgba8", func(*abi.SWTexDesc) {}, ""},
		{"bgra8", func(d *abi.SWTexDesc) { d.Format = abi.SWTexBGRA8 }, ""},
		{"rgba32f", func(d *abi.SWTexDesc) { d.Format = abi.SWTexRGBA32F }, ""},
		{"r8", func(d *abi.SWTexDesc) { d.Format = abi.SWTexR8 }, "is not RGBA8, BGRA8 or RGBA32F"},
		{"3d", func(d *abi.SWTexDesc) { d.Target = abi.SWTex3D }, "is not 2D"},
		{"multisample", func(d *abi.SWTexDesc) { d.Samples = 4 }, "4 samples"},
		{"swizzle", func(d *abi.SWTexDesc) { d.Swizzle[0] = abi.SWSwizzleOne }, "swizzle"},
		{"no levels", func(d *abi.SWTexDesc) { d.Levels = 0 }, "0 levels"},
		{"above 4 GiB", func(d *abi.SWTexDesc) { d.Level[1].Addr = 1 << 32 }, "level 1 at 0x100000000"},
		{"across 4 GiB", func(d *abi.SWTexDesc) { d.Level[0].Addr = 1<<32 - 16 }, "level 0 at 0xfffffff0"},
	} {
		d := ok
		c.mut(&d)
		got := FetchDescriptorRefusal(&d)
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// TestCompileTexRefusals: the compute texture ops codegen does not compile are
// refused by name; texelFetch on a float 2D sampler compiles.
func TestCompileTexRefusals(t *testing.T) {
	src := func(decl, body string) string {
		return "#version 430\nlayout(local_size_x = 1) in;\nlayout(std430, binding = 0) buffer B { vec4 v; ivec4 iv; };\nuniform " + decl +
			";\nvoid main() { " + body + " }\n"
	}
	if _, err := Compile(compileCS(t, "fetch", src("sampler2D s", "v = texelFetch(s, iv.xy, iv.z);"))); err != nil {
		t.Fatalf("texelFetch: %v", err)
	}
	for _, c := range []struct{ name, decl, body, want string }{
		{"textureLod", "sampler2D s", "v = textureLod(s, v.xy, 0.0);", "texture op samplelod"},
		{"textureSize", "sampler2D s", "iv.xy = textureSize(s, 0);", "texture op size"},
		{"offset", "sampler2D s", "v = texelFetchOffset(s, iv.xy, 0, ivec2(1, 0));", "texel offset"},
		{"integer", "isampler2D s", "iv = texelFetch(s, iv.xy, 0);", "not a float 2D sampler"},
		{"3D", "sampler3D s", "v = texelFetch(s, iv.xyz, 0);", "not a float 2D sampler"},
	} {
		_, err := Compile(compileCS(t, c.name, src(c.decl, c.body)))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error naming %q", c.name, err, c.want)
		}
	}
}
