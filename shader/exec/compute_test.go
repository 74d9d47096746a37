package exec

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"vortexgfx/shader"
	"vortexgfx/shader/glsl"
	"vortexgfx/shader/ir"
)

// compileCompute compiles one compute shader through the compiler's door.
func compileCompute(name, src string) (*ir.Program, error) {
	cp, err := shader.Compile(shader.Source{Name: name, Stage: glsl.Compute, Text: src})
	if err != nil {
		return nil, err
	}
	return cp.IR.CS, nil
}

// compile compiles a compute shader and prepares a Workgroup at the given width.
func compile(t testing.TB, src string, width int) *Workgroup {
	t.Helper()
	p, err := compileCompute("t.comp", src)
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	wg, err := NewWorkgroup(p, Config{Width: width})
	if err != nil {
		t.Fatalf("workgroup: %v", err)
	}
	return wg
}

// runGrid runs every workgroup of the grid in order on one Workgroup, as a device
// dispatch runs them (in some order).
func runGrid(t testing.TB, wg *Workgroup, groups [3]uint32, mem Memory) {
	t.Helper()
	ids := WorkgroupIDs{Num: groups}
	for z := uint32(0); z < groups[2]; z++ {
		for y := uint32(0); y < groups[1]; y++ {
			for x := uint32(0); x < groups[0]; x++ {
				ids.ID = [3]uint32{x, y, z}
				if err := wg.Run(context.Background(), ids, mem); err != nil {
					t.Fatalf("group %v: %v", ids.ID, err)
				}
			}
		}
	}
}

// widths are the warp widths every compute test runs at: the scalar reference, a
// width that does not divide the workgroups and the device-like widths.
var widths = []int{1, 3, 4, 8, 32}

func TestComputeBuiltinIDs(t *testing.T) {
	src := `#version 430
layout(local_size_x = 4, local_size_y = 2, local_size_z = 2) in;
layout(std430, binding = 0) buffer Out { uvec4 v[]; } o;
void main() {
	uvec3 n = gl_NumWorkGroups * gl_WorkGroupSize;
	uint i = (gl_GlobalInvocationID.z * n.y + gl_GlobalInvocationID.y) * n.x + gl_GlobalInvocationID.x;
	o.v[i] = uvec4(gl_WorkGroupID.x | gl_WorkGroupID.y << 8 | gl_WorkGroupID.z << 16,
		gl_LocalInvocationID.x | gl_LocalInvocationID.y << 8 | gl_LocalInvocationID.z << 16,
		gl_LocalInvocationIndex, uint(o.v.length()));
}
`
	groups := [3]uint32{3, 2, 2}
	for _, w := range widths {
		mem := newSliceMemory()
		n := 12 * 4 * 4
		mem.buf[0] = make([]uint32, 4*n)
		runGrid(t, compile(t, src, w), groups, mem)
		for i := 0; i < n; i++ {
			gx, gy, gz := uint32(i%12), uint32(i/12%4), uint32(i/48)
			lx, ly, lz := gx%4, gy%2, gz%2
			want := [4]uint32{gx/4 | gy/2<<8 | gz/2<<16, lx | ly<<8 | lz<<16, (lz*2+ly)*4 + lx, uint32(n)}
			if got := [4]uint32(mem.buf[0][4*i : 4*i+4]); got != want {
				t.Fatalf("width %d: invocation %d wrote %v, want %v", w, i, got, want)
			}
		}
	}
}

// TestComputePrefixScan is an inclusive Hillis-Steele scan of each 256-element
// block in shared memory (log2(256) barrier-separated steps, double-buffered).
func TestComputePrefixScan(t *testing.T) {
	src := `#version 430
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer In { uint data[]; };
layout(std430, binding = 1) writeonly buffer Out { uint scan[]; };
shared uint buf[2][256];
void main() {
	uint i = gl_LocalInvocationIndex;
	uint g = gl_GlobalInvocationID.x;
	int cur = 0;
	buf[0][i] = data[g];
	barrier();
	for (uint off = 1u; off < 256u; off <<= 1) {
		uint v = buf[cur][i];
		if (i >= off) {
			v += buf[cur][i - off];
		}
		buf[1 - cur][i] = v;
		cur = 1 - cur;
		barrier();
	}
	scan[g] = buf[cur][i];
}
`
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 4 * 256
	for _, w := range widths {
		mem := newSliceMemory()
		in := make([]uint32, n)
		for i := range in {
			in[i] = rng.Uint32() % 1000
		}
		mem.buf[0], mem.buf[1] = in, make([]uint32, n)
		runGrid(t, compile(t, src, w), [3]uint32{n / 256, 1, 1}, mem)
		var sum uint32
		for i, v := range in {
			if i%256 == 0 {
				sum = 0
			}
			sum += v
			if mem.buf[1][i] != sum {
				t.Fatalf("width %d: scan[%d] = %d, want %d", w, i, mem.buf[1][i], sum)
			}
		}
	}
}

// TestComputeReduction sums floats per workgroup with a shared-memory tree
// reduction; the Go reference adds in the same tree order, so results are exact.
func TestComputeReduction(t *testing.T) {
	src := `#version 430
layout(local_size_x = 128) in;
layout(std430, binding = 0) readonly buffer In { float x[]; };
layout(std430, binding = 1) buffer Out { uint total; float partial[]; } o;
shared float s[128];
void main() {
	uint i = gl_LocalInvocationIndex;
	s[i] = x[gl_GlobalInvocationID.x];
	barrier();
	for (uint h = 64u; h > 0u; h >>= 1) {
		if (i < h) {
			s[i] += s[i + h];
		}
		barrier();
	}
	if (i == 0u) {
		o.partial[gl_WorkGroupID.x] = s[0];
		atomicAdd(o.total, uint(s[0]));
	}
}
`
	const groups = 6
	rng := rand.New(rand.NewPCG(3, 4))
	in := make([]uint32, groups*128)
	vals := make([]float32, len(in))
	for i := range in {
		vals[i] = float32(rng.IntN(2000)) / 8
		in[i] = math.Float32bits(vals[i])
	}
	var wantPartial [groups]float32
	var wantTotal uint32
	for g := 0; g < groups; g++ {
		s := append([]float32(nil), vals[g*128:(g+1)*128]...)
		for h := 64; h > 0; h >>= 1 {
			for i := 0; i < h; i++ {
				s[i] += s[i+h]
			}
		}
		wantPartial[g] = s[0]
		wantTotal += uint32(s[0])
	}
	for _, w := range widths {
		mem := newSliceMemory()
		mem.buf[0] = in
		mem.buf[1] = make([]uint32, 1+groups)
		runGrid(t, compile(t, src, w), [3]uint32{groups, 1, 1}, mem)
		if mem.buf[1][0] != wantTotal {
			t.Errorf("width %d: total %d, want %d", w, mem.buf[1][0], wantTotal)
		}
		for g := 0; g < groups; g++ {
			if got := math.Float32frombits(mem.buf[1][1+g]); got != wantPartial[g] {
				t.Errorf("width %d: partial[%d] = %v, want %v", w, g, got, wantPartial[g])
			}
		}
	}
}

// TestComputeHistogram counts bytes into 16 bins twice: with atomics straight on
// the buffer, and into a shared histogram merged with one atomic per bin.
func TestComputeHistogram(t *testing.T) {
	src := `#version 430
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { uint v[]; };
layout(std430, binding = 1) buffer Global { uint direct[16]; uint merged[16]; int signedMin; int signedMax; };
shared uint local[16];
void main() {
	uint i = gl_LocalInvocationIndex;
	if (i < 16u) {
		local[i] = 0u;
	}
	barrier();
	uint x = v[gl_GlobalInvocationID.x];
	uint bin = x % 16u;
	atomicAdd(direct[bin], 1u);
	atomicAdd(local[bin], 1u);
	atomicMin(signedMin, int(x) - 500);
	atomicMax(signedMax, int(x) - 500);
	barrier();
	if (i < 16u) {
		atomicAdd(merged[i], local[i]);
	}
}
`
	rng := rand.New(rand.NewPCG(5, 6))
	const n = 64 * 10
	in := make([]uint32, n)
	var want [16]uint32
	minV, maxV := int32(0), int32(0)
	for i := range in {
		in[i] = uint32(rng.IntN(1000))
		want[in[i]%16]++
		minV = min(minV, int32(in[i])-500)
		maxV = max(maxV, int32(in[i])-500)
	}
	for _, w := range widths {
		mem := newSliceMemory()
		mem.buf[0] = in
		mem.buf[1] = make([]uint32, 34)
		runGrid(t, compile(t, src, w), [3]uint32{n / 64, 1, 1}, mem)
		for b := 0; b < 16; b++ {
			if mem.buf[1][b] != want[b] || mem.buf[1][16+b] != want[b] {
				t.Fatalf("width %d: bin %d direct %d merged %d, want %d", w, b, mem.buf[1][b], mem.buf[1][16+b], want[b])
			}
		}
		if int32(mem.buf[1][32]) != minV || int32(mem.buf[1][33]) != maxV {
			t.Fatalf("width %d: min %d max %d, want %d %d", w, int32(mem.buf[1][32]), int32(mem.buf[1][33]), minV, maxV)
		}
	}
}

// lockedMemory serialises a sliceMemory for workgroups running on several
// goroutines.
type lockedMemory struct {
	mu sync.Mutex
	m  *sliceMemory
}

func (l *lockedMemory) Load(s ir.Space, b uint32, addr []uint32, mask uint64, out []uint32) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.m.Load(s, b, addr, mask, out)
}

func (l *lockedMemory) Store(s ir.Space, b uint32, addr []uint32, mask uint64, val []uint32) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.m.Store(s, b, addr, mask, val)
}

func (l *lockedMemory) Atomic(op ir.AtomicOp, s ir.Space, b uint32, addr, val, cmp []uint32, mask uint64, out []uint32) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.m.Atomic(op, s, b, addr, val, cmp, mask, out)
}

func (l *lockedMemory) Size(s ir.Space, b uint32) uint32 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.m.Size(s, b)
}

func (l *lockedMemory) ImageExtent(b uint32) [3]uint32 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.m.ImageExtent(b)
}

// TestWorkgroupsConcurrent runs the workgroups of a scan-and-histogram dispatch on
// several goroutines, one Workgroup each, and checks the bytes equal a sequential
// run: workgroups share nothing but the Memory (run with -race).
func TestWorkgroupsConcurrent(t *testing.T) {
	src := `#version 430
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint hist[8]; uint data[]; };
shared uint s[64];
void main() {
	uint i = gl_LocalInvocationIndex;
	s[i] = data[gl_GlobalInvocationID.x];
	barrier();
	for (uint off = 1u; off < 64u; off <<= 1) {
		uint v = i >= off ? s[i - off] : 0u;
		barrier();
		s[i] += v;
		barrier();
	}
	data[gl_GlobalInvocationID.x] = s[i];
	atomicAdd(hist[s[i] % 8u], 1u);
}
`
	const groups = 16
	fresh := func() *sliceMemory {
		m := newSliceMemory()
		m.buf[0] = make([]uint32, 8+64*groups)
		for i := range m.buf[0][8:] {
			m.buf[0][8+i] = uint32(i*7) % 13
		}
		return m
	}
	seq := fresh()
	runGrid(t, compile(t, src, 8), [3]uint32{groups, 1, 1}, seq)
	par := &lockedMemory{m: fresh()}
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for g := 0; g < 4; g++ {
		w := compile(t, src, 8)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for x := uint32(g); x < groups; x += 4 {
				if err := w.Run(context.Background(), WorkgroupIDs{ID: [3]uint32{x, 0, 0}, Num: [3]uint32{groups, 1, 1}}, par); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if !slices.Equal(seq.buf[0], par.m.buf[0]) {
		t.Fatalf("concurrent run differs from the sequential one")
	}
}

// TestComputeRunNoAlloc checks that a warm Workgroup.Run of a compiled shader with
// shared memory, barriers, buffer loads and stores and atomics allocates nothing.
func TestComputeRunNoAlloc(t *testing.T) {
	src := `#version 430
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint total; uint data[]; };
shared uint s[64];
void main() {
	uint i = gl_LocalInvocationIndex;
	s[i] = data[gl_GlobalInvocationID.x];
	barrier();
	if (i == 0u) {
		uint sum = 0u;
		for (int k = 0; k < 64; k++) {
			sum += s[k];
		}
		atomicAdd(total, sum);
	}
}
`
	wg := compile(t, src, 16)
	mem := newSliceMemory()
	mem.buf[0] = make([]uint32, 1+64)
	ids := WorkgroupIDs{Num: [3]uint32{1, 1, 1}}
	ctx := context.Background()
	if a := testing.AllocsPerRun(10, func() { _ = wg.Run(ctx, ids, mem) }); a != 0 {
		t.Errorf("Run allocates %v times per call", a)
	}
}
