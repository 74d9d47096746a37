package codegen

import (
	"encoding/binary"
	"math"
	"math/rand"
	"testing"

	"vortexgfx/device/simt"
	"vortexgfx/isa/rv32"
)

// TestLodKeyMachineCode runs lodKey and lodCount on a device/simt core for
// random gradient pairs (every exponent gap, subnormals, zeros, Inf, NaN, and
// values beside the thresholds) and requires the key to be lodKeyOf's — the
// exact float64 sum of the squares — and the count the bisection's.
func TestLodKeyMachineCode(t *testing.T) {
	const base, lanes = 0x80000000, 32
	var a asm
	tab := a.newLabel()
	r := [8]uint8(scratchX)
	in, out := uint8(8), uint8(9)
	a.csrr(in, simt.CSRThreadID)
	a.i(rv32.SLLI, in, in, 3)
	a.li(out, base+0x100000)
	a.r(rv32.ADD, in, in, out)
	a.lw(r[0], in, 0)
	a.lw(r[1], in, 4)
	lodKey(&a, r, 0)
	a.sw(r[0], in, 0x400)
	a.sw(r[1], in, 0x404)
	lodCount(&a, r[0], r[1], [6]uint8{r[2], r[3], r[4], r[5], r[6], r[7]}, tab)
	a.sw(r[2], in, 0x600)
	a.emit(rv32.Inst{Op: rv32.VXTMC, Rs1: rZero})
	lodTableWords(&a, tab)
	code, err := a.words()
	if err != nil {
		t.Fatal(err)
	}
	img := make([]byte, 4*len(code))
	for i, w := range code {
		binary.LittleEndian.PutUint32(img[4*i:], w)
	}
	rng := rand.New(rand.NewSource(3))
	val := func() float32 {
		switch rng.Intn(6) {
		case 0:
			return []float32{0, 1e-45, 3e-39, 0.5, 0.49999997, 65535.996, 65536, float32(math.Inf(1)), float32(math.NaN())}[rng.Intn(9)]
		case 1:
			th := lodTable()[rng.Intn(lodSteps)]
			return float32(math.Sqrt(math.Float64frombits(th))) * float32(1+rng.NormFloat64()*1e-6)
		}
		v := math.Float32frombits(rng.Uint32())
		if rng.Intn(2) == 0 {
			v = float32(math.Exp2(rng.Float64()*40 - 20))
		}
		return v
	}
	tbl := lodTable()
	for run := 0; run < 2000; run++ {
		mem := simt.NewFlatMemory(base, 0x110000)
		if err := mem.Write(base, img); err != nil {
			t.Fatal(err)
		}
		var g [lanes][2]float32
		buf := make([]byte, 8*lanes)
		for l := range g {
			g[l] = [2]float32{val(), val()}
			binary.LittleEndian.PutUint32(buf[8*l:], math.Float32bits(g[l][0]))
			binary.LittleEndian.PutUint32(buf[8*l+4:], math.Float32bits(g[l][1]))
		}
		if err := mem.Write(base+0x100000, buf); err != nil {
			t.Fatal(err)
		}
		core, err := simt.New(simt.Config{Warps: 1, Threads: lanes, MaxInstructions: 1 << 20}, mem)
		if err != nil {
			t.Fatal(err)
		}
		if err := core.SetCTA(0, simt.CTA{BlockDim: [3]uint32{lanes, 1, 1}, Entry: base}); err != nil {
			t.Fatal(err)
		}
		if err := core.Start(0, base, 1<<lanes-1); err != nil {
			t.Fatal(err)
		}
		if err := core.Run(); err != nil {
			t.Fatal(err)
		}
		o := mem.Data[0x100400:]
		for l := range g {
			key := uint64(binary.LittleEndian.Uint32(o[8*l:]))<<32 | uint64(binary.LittleEndian.Uint32(o[8*l+4:])) // hi, lo
			if want := lodKeyOf(g[l][0], g[l][1]); key != want {
				t.Fatalf("grads %v (%08x %08x): key %016x, want %016x", g[l], math.Float32bits(g[l][0]), math.Float32bits(g[l][1]), key, want)
			}
			n := binary.LittleEndian.Uint32(mem.Data[0x100600+8*l:])
			want := uint32(0)
			for want < lodTableLen && tbl[want] <= key {
				want++
			}
			if n != want {
				t.Fatalf("key %016x: count %d, want %d", key, n, want)
			}
		}
	}
}
