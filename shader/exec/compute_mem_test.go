package exec

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"vortexgfx/shader/ir"
)

// TestComputeImageBlur blurs an rgba8 image with a 3x3 box filter (edges clamped)
// through imageLoad/imageStore into an rgba8 and an rgba32f image, and checks
// imageSize; the Go reference does the same float32 arithmetic and packing.
func TestComputeImageBlur(t *testing.T) {
	src := `#version 430
layout(local_size_x = 8, local_size_y = 4) in;
layout(rgba8, binding = 0) readonly uniform image2D src;
layout(rgba8, binding = 1) writeonly uniform image2D dst;
layout(rgba32f, binding = 2) writeonly uniform image2D dstf;
void main() {
	ivec2 size = imageSize(src);
	ivec2 p = ivec2(gl_GlobalInvocationID.xy);
	if (p.x >= size.x || p.y >= size.y) {
		return;
	}
	vec4 sum = vec4(0.0);
	for (int dy = -1; dy <= 1; dy++) {
		for (int dx = -1; dx <= 1; dx++) {
			sum += imageLoad(src, clamp(p + ivec2(dx, dy), ivec2(0), size - 1));
		}
	}
	imageStore(dst, p, sum / 9.0);
	imageStore(dstf, p, sum / 9.0);
}
`
	const w, h = 21, 13 // not multiples of the 8x4 workgroup
	rng := rand.New(rand.NewPCG(7, 8))
	img := make([]uint32, w*h)
	for i := range img {
		img[i] = rng.Uint32()
	}
	unpack := func(x, y, c int) float32 {
		x, y = min(max(x, 0), w-1), min(max(y, 0), h-1)
		return math.Float32frombits(ir.Eval(ir.UnpackUnorm4x8, uint32(c), img[y*w+x], 0, 0, 0))
	}
	for _, width := range widths {
		mem := newSliceMemory()
		mem.image[0], mem.extent[0] = img, [3]uint32{w, h, 1}
		mem.image[1], mem.extent[1] = make([]uint32, w*h), [3]uint32{w, h, 1}
		mem.image[2], mem.extent[2] = make([]uint32, 4*w*h), [3]uint32{w, h, 1}
		runGrid(t, compile(t, src, width), [3]uint32{(w + 7) / 8, (h + 3) / 4, 1}, mem)
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				var want [4]uint32
				for c := 0; c < 4; c++ {
					var s float32
					for dy := -1; dy <= 1; dy++ {
						for dx := -1; dx <= 1; dx++ {
							s += unpack(x+dx, y+dy, c)
						}
					}
					want[c] = math.Float32bits(s / 9)
				}
				packed := ir.Eval(ir.PackUnorm4x8, 0, want[0], want[1], want[2], want[3])
				if got := mem.image[1][y*w+x]; got != packed {
					t.Fatalf("width %d: rgba8 texel (%d,%d) = %08x, want %08x", width, x, y, got, packed)
				}
				if got := [4]uint32(mem.image[2][4*(y*w+x):]); got != want {
					t.Fatalf("width %d: rgba32f texel (%d,%d) = %v, want %v", width, x, y, got, want)
				}
			}
		}
	}
}

// TestComputeImageFormats stores and reloads every format, including out-of-range
// coordinates (dropped stores, zero loads) and image atomics.
func TestComputeImageFormats(t *testing.T) {
	src := `#version 430
layout(local_size_x = 1) in;
layout(rgba16f, binding = 0) uniform image2DArray h;
layout(r32f, binding = 1) uniform image3D f;
layout(rgba32ui, binding = 2) uniform uimage2D u;
layout(r32i, binding = 3) uniform iimage2D ai;
layout(r32ui, binding = 4) uniform uimage2D au;
layout(std430, binding = 5) buffer Out { vec4 hv; vec4 fv; uvec4 uv; vec4 oob; ivec4 atom; ivec3 hs; };
void main() {
	imageStore(h, ivec3(1, 0, 1), vec4(0.5, -2.0, 65504.0, 0.25));
	imageStore(h, ivec3(0, 0, 2), vec4(9.0)); // layer out of range: dropped
	hv = imageLoad(h, ivec3(1, 0, 1));
	imageStore(f, ivec3(1, 1, 1), vec4(3.5, 7.0, 7.0, 7.0));
	fv = imageLoad(f, ivec3(1, 1, 1));
	imageStore(u, ivec2(1, 1), uvec4(1u, 2u, 3u, 4u));
	imageStore(u, ivec2(-1, 0), uvec4(9u));
	uv = imageLoad(u, ivec2(1, 1));
	oob = imageLoad(h, ivec3(5, 0, 0)) + vec4(imageLoad(u, ivec2(0, 2)));
	int a = imageAtomicAdd(ai, ivec2(0, 0), 5);
	int b = imageAtomicMin(ai, ivec2(0, 0), -3);
	int c = imageAtomicCompSwap(ai, ivec2(0, 0), -3, 11);
	uint d = imageAtomicMax(au, ivec2(1, 0), 7u) + imageAtomicExchange(au, ivec2(9, 9), 1u);
	atom = ivec4(a, b, c, int(d));
	hs = imageSize(h);
}
`
	mem := newSliceMemory()
	mem.image[0], mem.extent[0] = make([]uint32, 2*2*1*2), [3]uint32{2, 1, 2}
	mem.image[1], mem.extent[1] = make([]uint32, 8), [3]uint32{2, 2, 2}
	mem.image[2], mem.extent[2] = make([]uint32, 4*4), [3]uint32{2, 2, 1}
	mem.image[3], mem.extent[3] = []uint32{2}, [3]uint32{1, 1, 1}
	mem.image[4], mem.extent[4] = []uint32{0, 3}, [3]uint32{2, 1, 1}
	mem.buf[5] = make([]uint32, 24)
	runGrid(t, compile(t, src, 1), [3]uint32{1, 1, 1}, mem)
	f := func(i int) float32 { return math.Float32frombits(mem.buf[5][i]) }
	if got := [4]float32{f(0), f(1), f(2), f(3)}; got != [4]float32{0.5, -2, 65504, 0.25} {
		t.Errorf("rgba16f round trip %v", got)
	}
	if got := [4]float32{f(4), f(5), f(6), f(7)}; got != [4]float32{3.5, 0, 0, 1} {
		t.Errorf("r32f load %v, want (3.5, 0, 0, 1)", got)
	}
	if got := [4]uint32(mem.buf[5][8:12]); got != [4]uint32{1, 2, 3, 4} {
		t.Errorf("rgba32ui round trip %v", got)
	}
	if got := [4]float32{f(12), f(13), f(14), f(15)}; got != [4]float32{} {
		t.Errorf("out-of-range loads %v, want zeros", got)
	}
	if got := [4]int32{int32(mem.buf[5][16]), int32(mem.buf[5][17]), int32(mem.buf[5][18]), int32(mem.buf[5][19])}; got != [4]int32{2, 7, -3, 3} {
		t.Errorf("image atomics returned %v, want [2 7 -3 3]", got)
	}
	if mem.image[3][0] != 11 || mem.image[4][1] != 7 {
		t.Errorf("image atomics left %d and %d, want 11 and 7", int32(mem.image[3][0]), mem.image[4][1])
	}
	if got := [3]uint32(mem.buf[5][20:23]); got != [3]uint32{2, 1, 2} {
		t.Errorf("imageSize %v", got)
	}
	for i, v := range mem.image[2][:4] {
		if v != 0 {
			t.Errorf("out-of-range store reached texel word %d", i)
		}
	}
}

// TestComputeLengthAndBounds checks .length() of a runtime array for several
// buffer sizes (including one shorter than the fixed part) and that out-of-bounds
// loads read 0 and stores are dropped (robust buffer access), with no panic.
func TestComputeLengthAndBounds(t *testing.T) {
	src := `#version 430
layout(local_size_x = 8) in;
layout(std430, binding = 0) buffer Data { uint head; vec3 pad; uvec2 items[]; } d;
layout(std430, binding = 1) buffer Out { int len; uint far; uint neg; uint inb; } o;
void main() {
	uint i = gl_LocalInvocationIndex;
	if (i == 0u) {
		o.len = d.items.length();
		o.far = d.items[1000000u].y;
		o.neg = d.items[uint(-1)].x;
		o.inb = d.items[0].y;
	}
	d.items[i * 3u].x = 100u + i; // some beyond the end: dropped
}
`
	// Fixed part: head (4) + pad (vec3 at 16, 12 bytes) = 28, items aligned to 8: 32.
	for _, tc := range []struct{ words, wantLen int }{{8, 0}, {6, 0}, {10, 1}, {13, 2}, {40, 16}} {
		mem := newSliceMemory()
		mem.buf[0] = make([]uint32, tc.words)
		for i := range mem.buf[0] {
			mem.buf[0][i] = 7
		}
		mem.buf[1] = make([]uint32, 4)
		runGrid(t, compile(t, src, 4), [3]uint32{1, 1, 1}, mem)
		if got := int32(mem.buf[1][0]); int(got) != tc.wantLen {
			t.Errorf("%d words: length() = %d, want %d", tc.words, got, tc.wantLen)
		}
		if mem.buf[1][1] != 0 || mem.buf[1][2] != 0 {
			t.Errorf("%d words: out-of-bounds loads read %d, %d", tc.words, mem.buf[1][1], mem.buf[1][2])
		}
		wantInb := uint32(0)
		if tc.words >= 10 {
			wantInb = 7
		}
		if mem.buf[1][3] != wantInb {
			t.Errorf("%d words: items[0].y = %d, want %d", tc.words, mem.buf[1][3], wantInb)
		}
		for i := 0; i < 8; i++ {
			w := 8 + 6*i // items[3i].x
			if w < tc.words && mem.buf[0][w] != uint32(100+i) {
				t.Errorf("%d words: items[%d].x = %d, want %d", tc.words, 3*i, mem.buf[0][w], 100+i)
			}
		}
	}
}

// TestComputeStd430Layout reads a struct-heavy std430 block written by the host
// at the offsets the layout rules give.
func TestComputeStd430Layout(t *testing.T) {
	src := `#version 430
layout(local_size_x = 2) in;
struct P { vec3 pos; float w; vec2 uv; };
layout(std430, binding = 0) readonly buffer In { mat3 m; float f[3]; P ps[]; } inb;
layout(std140, binding = 1) readonly buffer In140 { float g[2]; vec2 v; };
layout(std430, binding = 2) writeonly buffer O { vec4 r[]; };
void main() {
	uint i = gl_LocalInvocationIndex;
	r[i] = vec4(inb.m * inb.ps[i].pos, inb.ps[i].uv.y + inb.f[2] + g[1] + v.y);
}
`
	// std430: mat3 = 3 columns of 16 bytes (0..47); f[3] at 48 (stride 4) to 60;
	// P: pos at 0, w at 12, uv at 16, size 32 (align 16): ps at 64.
	in := make([]uint32, 16+2*8)
	fb := math.Float32bits
	for c := 0; c < 3; c++ {
		in[4*c+c] = fb(2) // m = 2 * identity
	}
	in[12+2] = fb(0.5)
	for i := 0; i < 2; i++ {
		p := 16 + 8*i
		in[p], in[p+1], in[p+2], in[p+3] = fb(float32(i+1)), fb(10), fb(100), fb(-1)
		in[p+4], in[p+5] = fb(-1), fb(float32(i)+0.25)
	}
	// std140: g[2] stride 16 (0, 16), v at 32.
	in140 := make([]uint32, 12)
	in140[4], in140[9] = fb(1000), fb(3000)
	mem := newSliceMemory()
	mem.buf[0], mem.buf[1], mem.buf[2] = in, in140, make([]uint32, 8)
	runGrid(t, compile(t, src, 2), [3]uint32{1, 1, 1}, mem)
	for i := 0; i < 2; i++ {
		want := [4]float32{2 * float32(i+1), 20, 200, float32(i) + 0.25 + 0.5 + 1000 + 3000}
		var got [4]float32
		for c := range got {
			got[c] = math.Float32frombits(mem.buf[2][4*i+c])
		}
		if got != want {
			t.Errorf("r[%d] = %v, want %v", i, got, want)
		}
	}
}

// TestComputeAtomicCounters hands out unique slots with atomicCounterIncrement.
func TestComputeAtomicCounters(t *testing.T) {
	src := `#version 430
layout(local_size_x = 16) in;
layout(binding = 0, offset = 4) uniform atomic_uint next;
layout(binding = 0) uniform atomic_uint down;
layout(std430, binding = 1) buffer Out { uint slot[]; };
void main() {
	uint i = atomicCounterIncrement(next);
	slot[i] = gl_GlobalInvocationID.x + 1u;
	atomicCounterDecrement(down);
}
`
	p, err := compileCompute("t.comp", src)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Counters) != 2 || p.Counters[0].Offset != 4 || p.Counters[1].Offset != 8 {
		t.Fatalf("counters %+v, want offsets 4 and 8", p.Counters)
	}
	for _, w := range widths {
		mem := newSliceMemory()
		mem.counter[0] = []uint32{0, 0, 1000}
		mem.buf[1] = make([]uint32, 64)
		runGrid(t, compile(t, src, w), [3]uint32{4, 1, 1}, mem)
		if mem.counter[0][1] != 64 || mem.counter[0][2] != 1000-64 {
			t.Fatalf("width %d: counters %v", w, mem.counter[0])
		}
		seen := map[uint32]bool{}
		for _, v := range mem.buf[1] {
			if v == 0 || v > 64 || seen[v] {
				t.Fatalf("width %d: slots %v are not a permutation of 1..64", w, mem.buf[1])
			}
			seen[v] = true
		}
	}
}

// failMemory fails every access, to check that memory errors surface.
type failMemory struct{ sliceMemory }

var errDevice = errors.New("device fault")

func (*failMemory) Store(ir.Space, uint32, []uint32, uint64, []uint32) error { return errDevice }

func TestComputeErrors(t *testing.T) {
	src := `#version 430
layout(local_size_x = 4) in;
layout(std430, binding = 0) buffer B { uint v[]; };
void main() { v[gl_LocalInvocationIndex] = 1u; }
`
	wg := compile(t, src, 4)
	fm := &failMemory{*newSliceMemory()}
	fm.buf[0] = make([]uint32, 4)
	if err := wg.Run(context.Background(), WorkgroupIDs{}, fm); !errors.Is(err, errDevice) {
		t.Errorf("memory error: %v", err)
	}
	p, err := compileCompute("spin.comp", "#version 430\nlayout(local_size_x = 8) in;\nshared uint s;\nvoid main() { while (s == 0u) { barrier(); } }\n")
	if err != nil {
		t.Fatal(err)
	}
	spin, err := NewWorkgroup(p, Config{Width: 4, MaxSteps: 10000})
	if err != nil {
		t.Fatal(err)
	}
	if err := spin.Run(context.Background(), WorkgroupIDs{}, newSliceMemory()); !errors.Is(err, ErrBudget) {
		t.Errorf("runaway shader: %v, want ErrBudget", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := spin.Run(ctx, WorkgroupIDs{}, newSliceMemory()); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// BenchmarkComputeSAXPY measures invocations per second of y = a*x + y over 64K
// elements in 256-invocation workgroups at the device warp width.
func BenchmarkComputeSAXPY(b *testing.B) {
	src := `#version 430
layout(local_size_x = 256) in;
uniform float a;
layout(std430, binding = 0) readonly buffer X { float x[]; };
layout(std430, binding = 1) buffer Y { float y[]; };
void main() {
	uint i = gl_GlobalInvocationID.x;
	y[i] = a * x[i] + y[i];
}
`
	const n = 1 << 16
	wg := compile(b, src, 32)
	if err := wg.SetUniforms([]uint32{math.Float32bits(2)}); err != nil {
		b.Fatal(err)
	}
	mem := newSliceMemory()
	mem.buf[0], mem.buf[1] = make([]uint32, n), make([]uint32, n)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		runGrid(b, wg, [3]uint32{n / 256, 1, 1}, mem)
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "invocations/s")
}

// TestComputeBlockAndCounterArrays runs arrays of buffer blocks (consecutive
// bindings) and of atomic counters (consecutive words).
func TestComputeBlockAndCounterArrays(t *testing.T) {
	src := `#version 430
layout(local_size_x = 4) in;
layout(std430, binding = 3) buffer B { uint v[]; } bufs[2];
layout(binding = 1, offset = 4) uniform atomic_uint c[3];
void main() {
	uint i = gl_LocalInvocationIndex;
	bufs[1].v[i] = bufs[0].v[i] * 10u + atomicCounterIncrement(c[i % 3u]);
}
`
	mem := newSliceMemory()
	mem.buf[3], mem.buf[4] = []uint32{1, 2, 3, 4}, make([]uint32, 4)
	mem.counter[1] = []uint32{0, 100, 200, 300}
	runGrid(t, compile(t, src, 4), [3]uint32{1, 1, 1}, mem)
	if want := []uint32{110, 220, 330, 141}; !slices.Equal(mem.buf[4], want) {
		t.Errorf("bufs[1] = %v, want %v", mem.buf[4], want)
	}
	if want := []uint32{0, 102, 201, 301}; !slices.Equal(mem.counter[1], want) {
		t.Errorf("counters %v, want %v", mem.counter[1], want)
	}
}

// TestComputeDynamicBlockIndex indexes an array of buffer blocks at run time
// (GLSL 4.00 on): loads, stores, an atomic and length() reach only the selected
// element's binding, and an index past the array is clamped to its last element.
func TestComputeDynamicBlockIndex(t *testing.T) {
	src := `#version 430
layout(local_size_x = 5) in;
layout(std430, binding = 0) buffer B { uint n; uint v[]; } bufs[3];
void main() {
	uint i = gl_LocalInvocationIndex;
	int k = int(i) % 4; // lane 3 indexes bufs[3]: clamped to bufs[2]
	bufs[k].v[i] = bufs[k].v.length() * 100u + bufs[k].v[i];
	atomicAdd(bufs[k].n, 1u);
}
`
	mem := newSliceMemory()
	mem.buf[0], mem.buf[1], mem.buf[2] = make([]uint32, 8), make([]uint32, 6), make([]uint32, 5)
	for b := 0; b < 3; b++ {
		for w := 1; w < len(mem.buf[uint32(b)]); w++ {
			mem.buf[uint32(b)][w] = uint32(10*b + w - 1)
		}
	}
	runGrid(t, compile(t, src, 5), [3]uint32{1, 1, 1}, mem)
	// bufs[0] (7 elements): lanes 0 and 4; bufs[1] (5): lane 1; bufs[2] (4):
	// lanes 2 and 3.
	want := map[uint32][]uint32{
		0: {2, 700, 1, 2, 3, 704, 5, 6},
		1: {1, 10, 511, 12, 13, 14},
		2: {2, 20, 21, 422, 423},
	}
	for b, w := range want {
		if !slices.Equal(mem.buf[b], w) {
			t.Errorf("bufs[%d] = %v, want %v", b, mem.buf[b], w)
		}
	}
}

// plainMemory hides every method but exec.Memory's.
type plainMemory struct{ Memory }

// TestComputeFormatlessImage stores through a writeonly image declared without a
// format into images of each float format (converted to the bound format).
func TestComputeFormatlessImage(t *testing.T) {
	src := `#version 430
layout(local_size_x = 2) in;
writeonly uniform image2D dst;
void main() {
	imageStore(dst, ivec2(gl_LocalInvocationIndex, 0), vec4(0.5, 0.25, 1.0, 2.0));
}
`
	h := func(a, b float32) uint32 {
		return ir.Eval(ir.PackHalf2x16, 0, math.Float32bits(a), math.Float32bits(b), 0, 0)
	}
	f := math.Float32bits
	for _, tc := range []struct {
		format ir.ImageFormat
		want   []uint32 // one texel
	}{
		{ir.FormatRGBA8, []uint32{0xff_ff_40_80}},
		{ir.FormatRGBA16F, []uint32{h(0.5, 0.25), h(1, 2)}},
		{ir.FormatRGBA32F, []uint32{f(0.5), f(0.25), f(1), f(2)}},
		{ir.FormatR32F, []uint32{f(0.5)}},
	} {
		mem := newSliceMemory()
		n := len(tc.want)
		mem.image[0], mem.extent[0], mem.format[0] = make([]uint32, 2*n), [3]uint32{2, 1, 1}, tc.format
		runGrid(t, compile(t, src, 2), [3]uint32{1, 1, 1}, mem)
		for i := 0; i < 2; i++ {
			if got := mem.image[0][i*n : (i+1)*n]; !slices.Equal(got, tc.want) {
				t.Errorf("%v texel %d = %08x, want %08x", tc.format, i, got, tc.want)
			}
		}
	}
	mem := newSliceMemory()
	mem.image[0], mem.extent[0] = make([]uint32, 2), [3]uint32{2, 1, 1}
	if err := compile(t, src, 2).Run(context.Background(), WorkgroupIDs{}, plainMemory{mem}); !errors.Is(err, ErrNoImageFormat) {
		t.Errorf("memory without formats: %v, want ErrNoImageFormat", err)
	}
}
