package fecode

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"vortexgfx/abi"
	"vortexgfx/device/simt"
	"vortexgfx/device/swom"
	"vortexgfx/gl/format"
	"vortexgfx/isa/rv32"
)

// allColorFormats are gl/format's colour formats.
func allColorFormats() []format.Format {
	var out []format.Format
	for f := format.Format(1); f.Valid(); f++ {
		if f.IsColor() {
			out = append(out, f)
		}
	}
	return out
}

// The machine code takes exactly the formats its arithmetic reproduces; the
// rest are refused with the reason (the launch then runs the Go kernel).
func TestResolveDescFormats(t *testing.T) {
	takes := map[format.Format]bool{format.RGBA8: true, format.BGRA8: true, format.R8: true, format.RG8: true, format.RGBA16: true}
	for _, f := range allColorFormats() {
		_, err := ResolveDesc(f, 4)
		want := takes[f] || f.IsInteger()
		if (err == nil) != want {
			t.Errorf("%s: ResolveDesc error %v, want taken=%v", f.Info().Name, err, want)
		}
		if err != nil && !strings.Contains(err.Error(), f.Info().Name) {
			t.Errorf("%s: the reason %q does not name the format", f.Info().Name, err)
		}
	}
	if _, err := ResolveDesc(format.RGBA8, 3); err == nil {
		t.Error("3 samples taken")
	}
	if _, err := ResolveDesc(format.D24S8, 4); err == nil {
		t.Error("a depth format taken")
	}
}

// fdiv.s's correctly rounded u/M is the Go decode's float32(float64(u)/M) for
// every unorm8 and unorm16 value (no double-rounding case), which the
// machine code's exactness rests on.
func TestUNormDecodeMatchesGo(t *testing.T) {
	for _, bits := range []int{8, 16} {
		m := uint32(1)<<bits - 1
		for u := uint32(0); u <= m; u++ {
			if got, want := float32(u)/float32(m), float32(float64(u)/float64(m)); got != want {
				t.Fatalf("unorm%d %d: fl32 %v, Go decode %v", bits, u, got, want)
			}
		}
	}
}

// runResolve runs the machine code over the sample-major texels src of format
// f, as grid CTAs of warps×threads lanes on one simt core, and returns the
// resolved plane and the instructions retired.
func runResolve(t *testing.T, f format.Format, S int, src []byte, grid, warps, threads int) ([]byte, uint64) {
	t.Helper()
	code, err := ResolveCode()
	if err != nil {
		t.Fatal(err)
	}
	desc, err := ResolveDesc(f, S)
	if err != nil {
		t.Fatal(err)
	}
	bpp := f.Info().Bytes
	n := len(src) / (S * bpp)
	const codeAt, argsAt, srcAt = 0x1000, 0x800, 0x10000
	dstAt := uint32(srcAt + (len(src)+255)&^255)
	mem := simt.NewFlatMemory(0, int(dstAt)+n*bpp+64)
	copy(mem.Data[codeAt:], code)
	copy(mem.Data[srcAt:], src)
	for k, v := range []uint32{srcAt, dstAt, uint32(n), uint32(S), uint32(f), desc} {
		binary.LittleEndian.PutUint64(mem.Data[argsAt+k*abi.ArgSlotBytes:], uint64(v))
	}
	core, err := runGrid(t, mem, codeAt, argsAt, grid, warps, threads)
	if err != nil {
		t.Fatalf("%s ×%d: %v", f.Info().Name, S, err)
	}
	return append([]byte(nil), mem.Data[dstAt:dstAt+uint32(n*bpp)]...), core.Cycles()
}

// goResolve is the Go kernel's per-pixel filter over the same plane.
func goResolve(f format.Format, S int, src []byte) []byte {
	bpp := f.Info().Bytes
	n := len(src) / (S * bpp)
	out := make([]byte, n*bpp)
	for i := range n {
		swom.Resolve(f, src[i*S*bpp:(i+1)*S*bpp], S, out[i*bpp:(i+1)*bpp])
	}
	return out
}

// planes are the sample planes a format is tried on: random bytes, sample
// sets at the box filter's rounding ties (the sum of a component's samples an
// odd multiple of S/2, where only exact arithmetic gives the Go kernel's
// answer) and, for unorm8 at 2 samples, every pair of values.
func planes(f format.Format, S int, rng *rand.Rand) [][]byte {
	in := f.Info()
	bpp := in.Bytes
	const px = 203 // not a multiple of any launch's lanes
	rnd := make([]byte, px*S*bpp)
	for i := range rnd {
		rnd[i] = byte(rng.Uint32())
	}
	out := [][]byte{rnd}
	if in.Kind != format.KindUNorm {
		return out
	}
	elem := in.Bits / 8
	m := 1<<in.Bits - 1
	ties := make([]byte, px*S*bpp)
	for p := range px {
		for c := range in.Components {
			// S values summing to (2q+1)·S/2: q+1 and q alternately, then
			// moved apart in pairs so the decoded values' errors differ.
			q := rng.IntN(m)
			vals := make([]int, S)
			for k := range vals {
				vals[k] = q + (k & 1)
			}
			for k := 0; k+1 < S; k += 2 {
				d := rng.IntN(min(vals[k], m-vals[k+1]) + 1)
				vals[k], vals[k+1] = vals[k]-d, vals[k+1]+d
			}
			if S == 1 {
				vals[0] = q
			}
			for k, v := range vals {
				o := (p*S+k)*bpp + c*elem
				ties[o] = byte(v)
				if elem == 2 {
					ties[o+1] = byte(v >> 8)
				}
			}
		}
	}
	out = append(out, ties)
	if elem == 1 && S == 2 {
		all := make([]byte, 0, 65536/in.Components*2*bpp)
		for v := 0; v < 65536; v += in.Components {
			for k := range 2 {
				for c := range in.Components {
					all = append(all, byte((v+c)>>(8*k)))
				}
			}
		}
		out = append(out, all)
	}
	return out
}

// The machine code writes the Go kernel's bytes for every format it takes and
// every sample count, over several launch shapes (the grid stride, a partial
// last warp, more lanes than pixels).
func TestResolveMatchesGoKernel(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 17))
	shapes := [][3]int{{1, 1, 1}, {2, 2, 4}, {3, 4, 8}, {1, 4, 32}}
	for _, f := range allColorFormats() {
		if _, err := ResolveDesc(f, 2); err != nil {
			continue
		}
		for _, S := range []int{1, 2, 4, 8, 16} {
			for pi, src := range planes(f, S, rng) {
				want := goResolve(f, S, src)
				for _, sh := range shapes {
					if testing.Short() && len(src) > 4096 && sh != shapes[2] {
						continue
					}
					got, _ := runResolve(t, f, S, src, sh[0], sh[1], sh[2])
					if i := firstDiff(got, want); i >= 0 {
						bpp := f.Info().Bytes
						p := i / bpp
						t.Fatalf("%s ×%d plane %d shape %v: pixel %d: machine code %x, Go kernel %x (samples %x)", f.Info().Name, S, pi, sh,
							p, got[p*bpp:(p+1)*bpp], want[p*bpp:(p+1)*bpp], src[p*S*bpp:(p+1)*S*bpp])
					}
				}
			}
		}
	}
}

func firstDiff(a, b []byte) int {
	for i := range a {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}

// The code is RV32IMAF + Vortex words the decoder takes back, ending in the
// warp halt, and it is assembled once.
func TestResolveCodeDecodes(t *testing.T) {
	code, err := ResolveCode()
	if err != nil {
		t.Fatal(err)
	}
	again, _ := ResolveCode()
	if &code[0] != &again[0] {
		t.Error("ResolveCode assembled twice")
	}
	var last rv32.Inst
	for o := 0; o < len(code); o += 4 {
		in, err := rv32.Decode(binary.LittleEndian.Uint32(code[o:]))
		if err != nil {
			t.Fatalf("word %d: %v", o/4, err)
		}
		last = in
	}
	if last.Op != rv32.VXTMC {
		t.Errorf("last instruction %v, want vx_tmc", last.Op)
	}
	fmt.Fprintf(testingWriter{t}, "msaa_resolve_k: %d words\n", len(code)/4)
}

type testingWriter struct{ t *testing.T }

func (w testingWriter) Write(b []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(b)))
	return len(b), nil
}

// ExpandArgs keeps the Go kernel's block and appends the word count and the
// table, two words a slot, low word first (an odd table padded).
func TestExpandArgsLayout(t *testing.T) {
	args := make([]byte, 8*ExpandTableSlot)
	for i := range args {
		args[i] = byte(i)
	}
	out := ExpandArgs(args, []uint32{7, ExpandZero, 9})
	if string(out[:len(args)]) != string(args) || len(out) != 8*(ExpandTableSlot+3) {
		t.Fatalf("%d bytes, the block changed or misses the table", len(out))
	}
	if n := binary.LittleEndian.Uint64(out[8*ExpandTableSlot:]); n != 3 {
		t.Errorf("word count %d", n)
	}
	for k, w := range []uint32{7, ExpandZero, 9, 0} {
		if got := binary.LittleEndian.Uint32(out[8*ExpandTableSlot+8+4*k:]); got != w {
			t.Errorf("table word %d = %#x, want %#x", k, got, w)
		}
	}
}
