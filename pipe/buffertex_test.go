package pipe

import (
	"errors"
	"image"
	"testing"

	"vortexgfx/gl/format"
)

// bufferTexFS reads texel floor(x) of the buffer texture for each pixel
// column, and writes the texture's width in blue: columns past the last texel
// read zero. spec: GL 4.6 §8.9; GLSL 1.40 §8.7 (texelFetch, textureSize)
const bufferTexFS = `#version 140
uniform samplerBuffer tb;
uniform usamplerBuffer ub;
out vec4 o_col;
void main() {
	int x = int(gl_FragCoord.x);
	vec4 t = texelFetch(tb, x);
	uvec4 u = texelFetch(ub, x / 2);
	o_col = vec4(t.r, float(u.g) / 255.0, float(textureSize(tb)) / 32.0, t.a);
}`

// drawBufferTexture draws a full-target quad reading two buffer textures over
// one buffer: 20 RGBA8 texels at offset 8 (unit 0) and its first 16 bytes as
// RGBA8UI (unit 1), after writing a byte ramp into the buffer.
func drawBufferTexture(t *testing.T, o Options) (*drawEnv, *image.NRGBA) {
	t.Helper()
	e := newDrawEnv(t, o, false)
	e.program(t, texVS, bufferTexFS)
	buf, err := e.s.CreateBuffer(8 + 20*4)
	if err != nil {
		t.Fatal(err)
	}
	px := make([]byte, buf.Size())
	for i := range px {
		px[i] = byte(i*29 + 7)
	}
	if err := buf.Write(0, px); err != nil {
		t.Fatal(err)
	}
	tb, err := e.c.CreateBufferView(buf, format.RGBA8, 8, 20*4)
	if err != nil {
		t.Fatal(err)
	}
	ub, err := e.c.CreateBufferView(buf, format.RGBA8UI, 0, 16)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.c.SetSamplerViews(0, []*SamplerView{tb, ub}); err != nil {
		t.Fatal(err)
	}
	if err := e.c.SetUniformI("ub", 1); err != nil {
		t.Fatal(err)
	}
	var v []float32
	for _, p := range [][2]float32{{-1, -1}, {1, -1}, {-1, 1}, {1, 1}} {
		v = append(v, p[0], p[1], 0, 1, 0, 0)
	}
	vb := e.floats(t, v...)
	if err := e.drawUVStrip(vb); err != nil {
		t.Fatal(err)
	}
	return e, e.image(t)
}

// TestBufferTexture draws with buffer textures on the device (STRICT: the
// software sampler takes them) and on the reference renderer, and checks both
// images byte for byte against the buffer's bytes.
func TestBufferTexture(t *testing.T) {
	dev, a := drawBufferTexture(t, Options{Strict: true})
	_, b := drawBufferTexture(t, Options{ForceReference: true})
	if r := dev.c.LastDeviceDraw().Route; !r.SWTex {
		t.Errorf("TEX route %+v, want the software sampler", r)
	}
	texel := func(i int) [4]byte {
		var c [4]byte
		for k := range c {
			c[k] = byte((i*4+k)*29 + 7)
		}
		return c
	}
	for y := 0; y < a.Rect.Dy(); y++ {
		for x := 0; x < a.Rect.Dx(); x++ {
			var want [4]byte
			if x < 20 {
				c := texel(2 + x) // offset 8 bytes = 2 texels
				want[0], want[3] = c[0], c[3]
			}
			if x/2 < 4 {
				want[1] = texel(x / 2)[1]
			}
			want[2] = 159 // textureSize 20: unorm8 of 20/32 = 159.375 rounds to 159
			for _, img := range []struct {
				name string
				im   *image.NRGBA
			}{{"device", a}, {"reference", b}} {
				o := img.im.PixOffset(x, img.im.Rect.Dy()-1-y)
				if got := [4]byte(img.im.Pix[o : o+4]); got != want {
					t.Fatalf("%s pixel (%d, %d) = %v, want %v", img.name, x, y, got, want)
				}
			}
		}
	}
}

// TestBufferViewErrors checks that bad buffer views are errors naming what.
func TestBufferViewErrors(t *testing.T) {
	e := newDrawEnv(t, Options{}, false)
	buf, err := e.s.CreateBuffer(64)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		res      *Resource
		f        format.Format
		off, siz int
	}{
		{"texture", e.rt, format.RGBA8, 0, 16},
		{"depth format", buf, format.D32F, 0, 16},
		{"past the end", buf, format.RGBA8, 60, 8},
		{"negative offset", buf, format.RGBA8, -4, 8},
		{"no texel", buf, format.RGBA32F, 0, 8},
	} {
		if _, err := e.c.CreateBufferView(tc.res, tc.f, tc.off, tc.siz); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
	if _, err := e.c.CreateBufferView(nil, format.RGBA8, 0, 4); err == nil || errors.Is(err, ErrDestroyed) {
		t.Errorf("nil buffer: %v", err)
	}
}

// TestBufferTextureCache: draws share a buffer view's texture while the
// buffer is unchanged, and a write gives the next draw a new one holding the
// new bytes (the one an earlier draw took keeps the old).
func TestBufferTextureCache(t *testing.T) {
	e := newDrawEnv(t, Options{}, false)
	buf, err := e.s.CreateBuffer(16)
	if err != nil {
		t.Fatal(err)
	}
	v, err := e.c.CreateBufferView(buf, format.R8, 0, 16)
	if err != nil {
		t.Fatal(err)
	}
	a, err := bufferTexture(v)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := bufferTexture(v); b != a {
		t.Error("an unchanged buffer's texture was rebuilt")
	}
	if err := buf.Write(3, []byte{9}); err != nil {
		t.Fatal(err)
	}
	b, err := bufferTexture(v)
	if err != nil || b == a || b.Levels[0].Data[3] != 9 || a.Levels[0].Data[3] != 0 {
		t.Errorf("after a write: new %v (byte %d), old byte %d, %v", b != a, b.Levels[0].Data[3], a.Levels[0].Data[3], err)
	}
}
