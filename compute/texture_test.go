package compute

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"vortexgfx/config"
	"vortexgfx/gl/format"
	"vortexgfx/gl/sampler"
)

// texCS samples one 2D texture four ways per invocation: implicit LOD (the base
// level: a compute shader has no derivatives, GLSL 4.60 §8.9), an explicit LOD,
// texelFetch at level 1 and textureSize of level 1.
const texCS = `#version 430
layout(local_size_x = 16) in;
layout(binding = 3) uniform sampler2D tex;
layout(std430, binding = 0) readonly buffer Coords { vec2 c[]; } coords;
layout(std430, binding = 1) writeonly buffer Out { vec4 v[]; } outp;
void main() {
	uint i = gl_GlobalInvocationID.x;
	vec2 p = coords.c[i];
	outp.v[4u*i+0u] = texture(tex, p);
	outp.v[4u*i+1u] = textureLod(tex, p, 1.3);
	outp.v[4u*i+2u] = texelFetch(tex, ivec2(int(i % 4u), int(i / 4u % 2u)), 1);
	outp.v[4u*i+3u] = vec4(vec2(textureSize(tex, 1)), 0.0, 1.0);
}
`

// randomTexture is an 8×4 RGBA32F texture with its full mip chain of random
// texels.
func randomTexture(t *testing.T, seed uint64) *sampler.Texture {
	t.Helper()
	tx, err := sampler.NewTexture(sampler.Dim2D, format.RGBA32F, 8, 4, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(seed, 2))
	for l := range tx.Levels {
		lv := &tx.Levels[l]
		for y := range lv.H {
			for x := range lv.W {
				c := [4]float32{r.Float32(), r.Float32(), r.Float32(), r.Float32()}
				if err := tx.SetFloat(l, x, y, 0, c); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	return tx
}

// TestTextureMatchesReference runs texCS on the device and checks every result
// word against gl/sampler on the host: the device's software sampler and the
// reference share one implementation, so they agree bit for bit.
// spec: vortexpipe §2.3.3, §3.6; GLSL 4.60 §8.9
func TestTextureMatchesReference(t *testing.T) {
	linear := sampler.DefaultSampler()
	linear.MinFilter, linear.MagFilter, linear.MipFilter = sampler.Linear, sampler.Linear, sampler.MipLinear
	clampNearest := sampler.DefaultSampler()
	clampNearest.MinFilter, clampNearest.MagFilter, clampNearest.MipFilter = sampler.Nearest, sampler.Nearest, sampler.MipNearest
	clampNearest.WrapS, clampNearest.WrapT = sampler.ClampToEdge, sampler.ClampToEdge
	clampNearest.LODBias = 0.75
	for _, tc := range []struct {
		name string
		smp  sampler.Sampler
		base int // the texture's base level: implicit LOD samples it
	}{
		{"default", sampler.DefaultSampler(), 0},
		{"linear", linear, 0},
		{"linear base 1", linear, 1},
		{"nearest clamp bias", clampNearest, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := openDevice(t, nil)
			p := compile(t, d, "tex", texCS)
			tx := randomTexture(t, 7)
			tx.BaseLevel = tc.base
			tex, err := d.NewTexture(tx, &tc.smp)
			if err != nil {
				t.Fatal(err)
			}
			const n = 32
			r := rand.New(rand.NewPCG(3, 4))
			coords := make([][4]float32, n)
			cw := make([]float32, 0, 2*n)
			for i := range coords {
				coords[i] = [4]float32{r.Float32()*1.5 - 0.25, r.Float32()*1.5 - 0.25}
				cw = append(cw, coords[i][0], coords[i][1])
			}
			in, _ := d.NewBuffer(f32Bytes(cw))
			out, _ := d.NewBufferSize(4 * 16 * n)
			if err := d.Dispatch(p, [3]uint32{n / 16, 1, 1}, StorageBuffer(0, in), StorageBuffer(1, out), SampledTexture(3, tex)); err != nil {
				t.Fatal(err)
			}
			got := u32s(out.Bytes())
			nonzero := 0
			for _, w := range got {
				if w != 0 {
					nonzero++
				}
			}
			if nonzero < len(got)/2 {
				t.Fatalf("only %d of %d result words are non-zero", nonzero, len(got))
			}
			want := make([][4]uint32, n)
			lod := make([]float32, n)
			for i := range lod {
				lod[i] = 1.3
			}
			icoord := make([][4]int32, n)
			size := make([][4]int32, n)
			for i := range icoord {
				icoord[i] = [4]int32{int32(i % 4), int32(i / 4 % 2), 0, 1}
				size[i] = [4]int32{3: 1}
			}
			for k, req := range []sampler.Request{
				{Op: sampler.OpSample, N: n, Coord: coords, LOD: sampler.LODNone},
				{Op: sampler.OpSample, N: n, Coord: coords, LOD: sampler.LODExplicit, LODValue: lod},
				{Op: sampler.OpFetch, N: n, IntCoord: icoord},
				{Op: sampler.OpSize, N: n, IntCoord: size},
			} {
				if err := sampler.Sample(tx, &tc.smp, &req, want); err != nil {
					t.Fatal(err)
				}
				for i := range n {
					w := want[i]
					if req.Op == sampler.OpSize { // vec4(vec2(size), 0, 1)
						w = [4]uint32{math.Float32bits(float32(int32(w[0]))), math.Float32bits(float32(int32(w[1]))), 0, math.Float32bits(1)}
					}
					g := [4]uint32(got[16*i+4*k:])
					if g != w {
						t.Fatalf("invocation %d, result %d (%v): device %v, reference %v", i, k, req.Op, f32s(g), f32s(w))
					}
				}
			}
			if up := tex.Buffer().Uploads(); up != 1 {
				t.Errorf("texture uploaded %d times, want once", up)
			}
			if err := d.Dispatch(p, [3]uint32{n / 16, 1, 1}, StorageBuffer(0, in), StorageBuffer(1, out), SampledTexture(3, tex)); err != nil {
				t.Fatal(err)
			}
			if up, rb := tex.Buffer().Uploads(), tex.Buffer().Readbacks(); up != 1 || rb != 0 {
				t.Errorf("after a second dispatch: texture uploaded %d times and read back %d, want 1 and 0", up, rb)
			}
		})
	}
}

func f32Bytes(v []float32) []byte {
	w := make([]uint32, len(v))
	for i, f := range v {
		w[i] = math.Float32bits(f)
	}
	return words(w...)
}

func f32s(w [4]uint32) [4]float32 {
	var f [4]float32
	for i, v := range w {
		f[i] = math.Float32frombits(v)
	}
	return f
}

// TestTextureBindingErrors checks the refusals: no texture on the sampler's
// unit, and sampling under VM (the software sampler views device memory).
func TestTextureBindingErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		mut  func(*config.Config)
		bind bool
		want error
	}{
		{"unbound", nil, false, ErrBinding},
		{"vm", func(c *config.Config) { c.CP.VM = true }, true, ErrUnsupported},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := openDevice(t, tc.mut)
			p := compile(t, d, "tex", texCS)
			smp := sampler.DefaultSampler()
			tex, err := d.NewTexture(randomTexture(t, 1), &smp)
			if err != nil {
				t.Fatal(err)
			}
			in, _ := d.NewBufferSize(8 * 16)
			out, _ := d.NewBufferSize(64 * 16)
			bs := []Binding{StorageBuffer(0, in), StorageBuffer(1, out)}
			if tc.bind {
				bs = append(bs, SampledTexture(3, tex))
			} else {
				bs = append(bs, SampledTexture(2, tex)) // the wrong unit
			}
			err = d.Dispatch(p, [3]uint32{1, 1, 1}, bs...)
			if !errors.Is(err, tc.want) {
				t.Fatalf("err %v, want %v", err, tc.want)
			}
		})
	}
	d := openDevice(t, nil)
	if _, err := d.NewTexture(nil, nil); err == nil {
		t.Error("nil texture accepted")
	}
}

// TestTextureIndirectAcrossCores checks that a sampling program gives the same
// bytes dispatched directly on one core and indirectly (each CTA walking
// workgroups) on eight cores.
func TestTextureIndirectAcrossCores(t *testing.T) {
	const n = 64
	cw := make([]float32, 2*n)
	r := rand.New(rand.NewPCG(5, 6))
	for i := range cw {
		cw[i] = r.Float32()
	}
	run := func(mut func(*config.Config), indirect bool) []byte {
		d := openDevice(t, mut)
		p := compile(t, d, "tex", texCS)
		smp := sampler.DefaultSampler()
		smp.MinFilter, smp.MagFilter = sampler.Linear, sampler.Linear
		tex, err := d.NewTexture(randomTexture(t, 9), &smp)
		if err != nil {
			t.Fatal(err)
		}
		in, _ := d.NewBuffer(f32Bytes(cw))
		out, _ := d.NewBufferSize(4 * 16 * n)
		bs := []Binding{StorageBuffer(0, in), StorageBuffer(1, out), SampledTexture(3, tex)}
		if indirect {
			rec, _ := d.NewBuffer(words(n/16, 1, 1))
			err = d.DispatchIndirect(p, rec, 0, bs...)
		} else {
			err = d.Dispatch(p, [3]uint32{n / 16, 1, 1}, bs...)
		}
		if err != nil {
			t.Fatal(err)
		}
		return out.Bytes()
	}
	want := run(func(c *config.Config) { c.Device.CoresPerSocket, c.Device.SocketsPerCluster = 1, 1 }, false)
	got := run(func(c *config.Config) { c.Device.Clusters = 2 }, true)
	if string(got) != string(want) {
		t.Fatal("8-core indirect dispatch differs from the 1-core direct one")
	}
}
