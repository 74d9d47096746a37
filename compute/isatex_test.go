package compute

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"vortexgfx/config"
	"vortexgfx/gl/format"
	"vortexgfx/gl/sampler"
)

// fetchCS reads texelFetch at per-invocation (x, y, lod), coordinates and
// levels inside and outside the texture, whole and as a swizzle of two
// components (result words the program never reads are not written).
const fetchCS = `#version 430
layout(local_size_x = 16) in;
layout(binding = 3) uniform sampler2D tex;
layout(std430, binding = 0) readonly buffer Coords { ivec4 c[]; } coords;
layout(std430, binding = 1) writeonly buffer Out { vec4 v[]; } outp;
void main() {
	uint i = gl_GlobalInvocationID.x;
	ivec4 c = coords.c[i];
	outp.v[2u*i] = texelFetch(tex, c.xy, c.z);
	outp.v[2u*i+1u] = vec4(texelFetch(tex, c.yx, c.w).ga, 0.25, 0.5);
}
`

// fetchTexture is a w×h texture of format f with its full chain of random
// texels, base level base and max level maxLevel.
func fetchTexture(t *testing.T, f format.Format, w, h, base, maxLevel int) *sampler.Texture {
	t.Helper()
	tx, err := sampler.NewTexture(sampler.Dim2D, f, w, h, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(uint64(w*h), uint64(f)))
	for l := range tx.Levels {
		lv := &tx.Levels[l]
		for y := range lv.H {
			for x := range lv.W {
				if err := tx.SetFloat(l, x, y, 0, [4]float32{r.Float32(), r.Float32() * 2, r.Float32(), r.Float32()}); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	tx.BaseLevel, tx.MaxLevel = base, maxLevel
	return tx
}

// runFetch dispatches fetchCS over n invocations on cores with tx bound and
// returns the output words and the device's stats.
func runFetch(t *testing.T, cores string, strict bool, tx *sampler.Texture, coords []uint32) ([]uint32, Stats, error) {
	t.Helper()
	d := openDevice(t, func(c *config.Config) { c.Device.Cores = cores })
	if strict {
		var err error
		if d, err = OpenWith(d.Config(), Options{Strict: true}); err != nil {
			t.Fatal(err)
		}
		defer d.Close()
	}
	p := compile(t, d, "fetch", fetchCS)
	if cores == config.CoresISA && !p.ISA() {
		t.Fatalf("fetchCS did not compile to machine code: %s", p.Fallback())
	}
	smp := sampler.DefaultSampler()
	tex, err := d.NewTexture(tx, &smp)
	if err != nil {
		t.Fatal(err)
	}
	n := len(coords) / 4
	in, _ := d.NewBuffer(words(coords...))
	out, _ := d.NewBufferSize(32 * n)
	err = d.Dispatch(p, [3]uint32{uint32(n / 16), 1, 1}, StorageBuffer(0, in), StorageBuffer(1, out), SampledTexture(3, tex))
	return u32s(out.Bytes()), d.Stats(), err
}

// TestISATexelFetchMatchesIR is the differential test of compute texelFetch
// as machine code: RGBA8, BGRA8 and RGBA32F textures (power-of-two and not),
// with base and max levels, fetched at coordinates and levels inside and
// outside the chain, give the IR executor's (the software sampler's) words
// bit for bit, and ran as machine code (no IR dispatch). A bound texture the
// machine code does not decode (R8, a swizzle) runs the program's IR kernel,
// counted in Stats.ISATextureIR, with the same words, and is ErrISARefused
// under Strict. spec: vortexpipe-driver.md §3.6; docs/ABI.md row 45
func TestISATexelFetchMatchesIR(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	coords := make([]uint32, 4*64)
	for i := range coords {
		if i%4 >= 2 {
			coords[i] = uint32(r.IntN(6) - 1) // levels -1..4
		} else {
			coords[i] = uint32(r.IntN(16) - 3) // -3..12
		}
	}
	for _, c := range []struct {
		name   string
		tex    func(t *testing.T) *sampler.Texture
		isaTex bool // the machine code reads it
	}{
		{"rgba8 8x4", func(t *testing.T) *sampler.Texture { return fetchTexture(t, format.RGBA8, 8, 4, 0, 1000) }, true},
		{"bgra8 8x4 base 1", func(t *testing.T) *sampler.Texture { return fetchTexture(t, format.BGRA8, 8, 4, 1, 1000) }, true},
		{"rgba32f 5x3 max 1", func(t *testing.T) *sampler.Texture { return fetchTexture(t, format.RGBA32F, 5, 3, 0, 1) }, true},
		{"rgba32f 16x2 base 2 max 1", func(t *testing.T) *sampler.Texture { return fetchTexture(t, format.RGBA32F, 16, 2, 2, 1) }, true},
		{"r8", func(t *testing.T) *sampler.Texture { return fetchTexture(t, format.R8, 8, 4, 0, 1000) }, false},
		{"rgba8 swizzled", func(t *testing.T) *sampler.Texture {
			tx := fetchTexture(t, format.RGBA8, 8, 4, 0, 1000)
			tx.Swizzle = [4]sampler.Swizzle{sampler.SwizzleB, sampler.SwizzleOne, sampler.SwizzleR, sampler.SwizzleZero}
			return tx
		}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			want, _, err := runFetch(t, config.CoresIR, false, c.tex(t), coords)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.ContainsFunc(want, func(w uint32) bool { return w != 0 && w != 0x3e800000 && w != 0x3f000000 }) {
				t.Fatal("every result word is zero: the comparison proves nothing")
			}
			got, st, err := runFetch(t, config.CoresISA, false, c.tex(t), coords)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				for i := range want {
					if got[i] != want[i] {
						t.Fatalf("word %d (invocation %d): machine code 0x%08x, IR 0x%08x", i, i/8, got[i], want[i])
					}
				}
			}
			if wantIR := uint64(0); !c.isaTex {
				wantIR = 1
				if st.ISATextureIR != wantIR {
					t.Errorf("%d dispatches on the IR kernel for the texture, want %d", st.ISATextureIR, wantIR)
				}
			} else if st.ISATextureIR != 0 || st.Instructions == 0 {
				t.Errorf("machine-code dispatch: %d on the IR kernel, %d instructions", st.ISATextureIR, st.Instructions)
			}
			_, _, err = runFetch(t, config.CoresISA, true, c.tex(t), coords)
			if c.isaTex && err != nil {
				t.Errorf("strict: %v", err)
			}
			if !c.isaTex && (!errors.Is(err, ErrISARefused) || !strings.Contains(err.Error(), "texelFetch")) {
				t.Errorf("strict: %v, want ErrISARefused naming texelFetch", err)
			}
		})
	}
}
