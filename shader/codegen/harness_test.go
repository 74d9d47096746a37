package codegen

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"math/rand"
	"testing"

	"vortexgfx/abi"
	"vortexgfx/shader"
	"vortexgfx/shader/exec"
	"vortexgfx/shader/glsl"
	"vortexgfx/shader/ir"
)

// hostMem is exec.Memory over the launch's buffers: the IR executor's side of the
// differential test sees the same bytes the kernel does.
type hostMem struct {
	bufs   map[Binding][]byte
	images map[Binding]ImageInfo
}

func key(space ir.Space, b uint32) Binding {
	switch space {
	case ir.SpaceCounter:
		return Binding{Kind: abi.DescAtomicCounter, Slot: b}
	case ir.SpaceImage:
		return Binding{Kind: abi.DescStorageImage, Slot: b}
	}
	return Binding{Kind: abi.DescStorageBuffer, Slot: b}
}

func (m *hostMem) ImageFormat(b uint32) ir.ImageFormat {
	return ir.ImageFormat(m.images[key(ir.SpaceImage, b)].Format)
}

func (m *hostMem) Load(space ir.Space, b uint32, addr []uint32, mask uint64, out []uint32) error {
	buf := m.bufs[key(space, b)]
	for mm := mask; mm != 0; mm &= mm - 1 {
		l := bits.TrailingZeros64(mm)
		out[l] = binary.LittleEndian.Uint32(buf[addr[l]:])
	}
	return nil
}

func (m *hostMem) Store(space ir.Space, b uint32, addr []uint32, mask uint64, val []uint32) error {
	buf := m.bufs[key(space, b)]
	for mm := mask; mm != 0; mm &= mm - 1 {
		l := bits.TrailingZeros64(mm)
		binary.LittleEndian.PutUint32(buf[addr[l]:], val[l])
	}
	return nil
}

func (m *hostMem) Atomic(op ir.AtomicOp, space ir.Space, b uint32, addr, val, cmp []uint32, mask uint64, out []uint32) error {
	buf := m.bufs[key(space, b)]
	for mm := mask; mm != 0; mm &= mm - 1 {
		l := bits.TrailingZeros64(mm)
		old := binary.LittleEndian.Uint32(buf[addr[l]:])
		binary.LittleEndian.PutUint32(buf[addr[l]:], ir.AtomicResult(op, old, val[l], cmp[l]))
		out[l] = old
	}
	return nil
}

func (m *hostMem) Size(space ir.Space, b uint32) uint32 { return uint32(len(m.bufs[key(space, b)])) }
func (m *hostMem) ImageExtent(b uint32) [3]uint32 {
	return m.images[key(ir.SpaceImage, b)].Extent
}

// compileCS compiles one GLSL compute shader to verified IR.
func compileCS(t testing.TB, name, src string) *ir.Program {
	t.Helper()
	cp, err := shader.Compile(shader.Source{Name: name, Stage: glsl.Compute, Text: src})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return cp.Stage(glsl.Compute)
}

// runIR runs l on the IR executor (the oracle), workgroup after workgroup.
func runIR(p *ir.Program, l *Launch) error {
	wg, err := exec.NewWorkgroup(p, exec.Config{Width: l.Threads})
	if err != nil {
		return err
	}
	uni := append([]uint32(nil), l.Uniforms...)
	if len(uni) == 0 {
		uni = []uint32{0}
	}
	if err := wg.SetUniforms(uni); err != nil {
		return err
	}
	mem := &hostMem{bufs: l.Buffers, images: l.Images}
	var grid [3]uint32
	for c := range grid {
		grid[c] = max(l.Groups[c], 1)
	}
	for z := uint32(0); z < grid[2]; z++ {
		for y := uint32(0); y < grid[1]; y++ {
			for x := uint32(0); x < grid[0]; x++ {
				ids := exec.WorkgroupIDs{ID: [3]uint32{x, y, z}, Num: grid, Base: l.Base}
				if err := wg.Run(context.Background(), ids, mem); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// specials are input words that reach the edge cases: zeros of both signs, ±1,
// INT_MIN/MAX, denormals, infinities, NaNs, halves (rounding ties), values beyond
// the int and uint ranges, 2^23 neighbours.
var specials = []uint32{
	0, 1, 0xffffffff, 0x80000000, 0x7fffffff, 2, 3, 31, 32, 33, 0xfffffffe,
	math.Float32bits(0.5), math.Float32bits(-0.5), math.Float32bits(1.5), math.Float32bits(-2.5),
	math.Float32bits(2.5), 0x80000001, 0x7f800000, 0xff800000, 0x7fc00000, 0x7fa00001,
	math.Float32bits(1e30), math.Float32bits(-1e30), math.Float32bits(3e9), math.Float32bits(-3e9),
	math.Float32bits(5e9), 0x00000001, 0x807fffff, math.Float32bits(8388609), math.Float32bits(-8388607.5),
	math.Float32bits(3.75), math.Float32bits(-7.25), math.Float32bits(1), math.Float32bits(-1),
	math.Float32bits(2147483520), math.Float32bits(-2147483648), math.Float32bits(4294967040), math.Float32bits(0.1),
}

// inputWords returns n deterministic words: the specials, then random words and
// random small floats and ints.
func inputWords(seed int64, n int) []uint32 {
	r := rand.New(rand.NewSource(seed))
	out := make([]uint32, n)
	for i := range out {
		switch {
		case i < len(specials):
			out[i] = specials[(uint64(i*7)+uint64(seed))%uint64(len(specials))]
		case i%3 == 0:
			out[i] = r.Uint32()
		case i%3 == 1:
			out[i] = math.Float32bits(float32(r.NormFloat64() * 100))
		default:
			out[i] = uint32(int32(r.Intn(201) - 100))
		}
	}
	return out
}

func wordsBytes(w []uint32) []byte {
	b := make([]byte, 4*len(w))
	for i, v := range w {
		binary.LittleEndian.PutUint32(b[4*i:], v)
	}
	return b
}

func isNaN(w uint32) bool { return w&0x7f800000 == 0x7f800000 && w&0x7fffff != 0 }

// compareBufs requires identical bytes; the one stated tolerance is that any NaN
// equals any NaN (RV32F returns the canonical NaN where the executor, in Go on the
// host, may keep a payload or the host's sign: see the package doc). It returns
// how many words were NaN on both sides with different bits.
func compareBufs(t *testing.T, what string, want, got map[Binding][]byte) int {
	t.Helper()
	nan := 0
	for b, w := range want {
		g := got[b]
		bad := 0
		for i := 0; i+4 <= len(w); i += 4 {
			x, y := binary.LittleEndian.Uint32(w[i:]), binary.LittleEndian.Uint32(g[i:])
			if x == y {
				continue
			}
			if isNaN(x) && isNaN(y) {
				nan++
				continue
			}
			if bad < 8 {
				t.Errorf("%s: binding %d word %d: executor %08x, machine code %08x", what, b.Slot, i/4, x, y)
			}
			bad++
		}
		if bad > 0 {
			t.Errorf("%s: binding %d: %d words differ", what, b.Slot, bad)
		}
	}
	return nan
}

func cloneBufs(m map[Binding][]byte) map[Binding][]byte {
	out := map[Binding][]byte{}
	for k, v := range m {
		out[k] = append([]byte(nil), v...)
	}
	return out
}

func describe(l *Launch) string {
	return fmt.Sprintf("%d-thread warps, groups %v, base %v", l.Threads, l.Groups, l.Base)
}
