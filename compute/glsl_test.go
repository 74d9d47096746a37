package compute

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"vortexgfx/config"
	"vortexgfx/shader/ir"
)

func compile(t testing.TB, d *Device, name, src string) *Program {
	t.Helper()
	p, err := d.Compile(name, src)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return p
}

func randWords(seed uint64, n int, limit uint32) []uint32 {
	r := rand.New(rand.NewPCG(seed, 1))
	v := make([]uint32, n)
	for i := range v {
		v[i] = r.Uint32N(limit)
	}
	return v
}

// The three passes of a two-level inclusive prefix scan: each workgroup scans
// its 64 elements in shared memory (Hillis–Steele, barriers between steps) and
// writes its total; one workgroup scans the totals; every element then adds its
// group's preceding total.
const (
	scanLocal = `#version 430
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { uint v[]; } data;
layout(std430, binding = 1) writeonly buffer Sums { uint s[]; } sums;
shared uint tmp[64];
void main() {
	uint i = gl_LocalInvocationIndex;
	uint g = gl_GlobalInvocationID.x;
	tmp[i] = data.v[g];
	barrier();
	for (uint off = 1u; off < 64u; off *= 2u) {
		uint x = i >= off ? tmp[i - off] : 0u;
		barrier();
		tmp[i] += x;
		barrier();
	}
	data.v[g] = tmp[i];
	if (i == 63u)
		sums.s[gl_WorkGroupID.x] = tmp[63];
}
`
	scanSums = `#version 430
layout(local_size_x = 64) in;
layout(std430, binding = 1) buffer Sums { uint s[]; } sums;
shared uint tmp[64];
void main() {
	uint i = gl_LocalInvocationIndex;
	uint n = uint(sums.s.length());
	tmp[i] = i < n ? sums.s[i] : 0u;
	barrier();
	for (uint off = 1u; off < 64u; off *= 2u) {
		uint x = i >= off ? tmp[i - off] : 0u;
		barrier();
		tmp[i] += x;
		barrier();
	}
	if (i < n)
		sums.s[i] = tmp[i];
}
`
	scanAdd = `#version 430
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { uint v[]; } data;
layout(std430, binding = 1) readonly buffer Sums { uint s[]; } sums;
void main() {
	uint w = gl_WorkGroupID.x;
	if (w > 0u)
		data.v[gl_GlobalInvocationID.x] += sums.s[w - 1u];
}
`
)

// TestPrefixScan: a 3-pass scan of 2048 words as one frame (one doorbell),
// compared with a plain Go running sum.
func TestPrefixScan(t *testing.T) { bothCores(t, testPrefixScan) }

func testPrefixScan(t *testing.T, cores string) {
	d := openCores(t, cores, nil)
	local, sums, add := compile(t, d, "scan_local", scanLocal), compile(t, d, "scan_sums", scanSums), compile(t, d, "scan_add", scanAdd)
	const n, groups = 2048, 2048 / 64
	in := randWords(1, n, 1000)
	data, _ := d.NewBuffer(words(in...))
	part, _ := d.NewBufferSize(4 * groups)
	f := d.NewFrame()
	f.Dispatch(local, [3]uint32{groups, 1, 1}, StorageBuffer(0, data), StorageBuffer(1, part))
	f.Dispatch(sums, [3]uint32{1, 1, 1}, StorageBuffer(1, part))
	f.Dispatch(add, [3]uint32{groups, 1, 1}, StorageBuffer(0, data), StorageBuffer(1, part))
	st, err := f.Submit()
	if err != nil {
		t.Fatal(err)
	}
	if st.Doorbells != 1 {
		t.Errorf("%d doorbells for the frame", st.Doorbells)
	}
	got := u32s(data.Bytes())
	var run uint32
	for i, v := range in {
		run += v
		if got[i] != run {
			t.Fatalf("scan[%d] = %d, want %d", i, got[i], run)
		}
	}
}

// TestReduction: each workgroup sums 256 floats (4 per invocation) by a tree
// in shared memory with barriers, writes its partial sum and adds it to a total
// with an integer atomic on the fixed-point value; compared with Go.
func TestReduction(t *testing.T) { bothCores(t, testReduction) }

func testReduction(t *testing.T, cores string) {
	d := openCores(t, cores, nil)
	p := compile(t, d, "reduce", `#version 430
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { float x[]; };
layout(std430, binding = 1) buffer Out { uint total; float partial[]; };
shared float acc[64];
void main() {
	uint i = gl_LocalInvocationIndex;
	uint base = gl_WorkGroupID.x * 256u;
	float s = 0.0;
	for (uint k = 0u; k < 4u; k++)
		s += x[base + i + 64u * k];
	acc[i] = s;
	barrier();
	for (uint stride = 32u; stride > 0u; stride /= 2u) {
		if (i < stride)
			acc[i] += acc[i + stride];
		barrier();
	}
	if (i == 0u) {
		partial[gl_WorkGroupID.x] = acc[0];
		atomicAdd(total, uint(acc[0]));
	}
}
`)
	const groups = 40
	r := rand.New(rand.NewPCG(2, 3))
	xs := make([]float32, groups*256)
	raw := make([]uint32, len(xs))
	for i := range xs {
		xs[i] = float32(r.IntN(100)) // integers: every order of float sums is exact
		raw[i] = math.Float32bits(xs[i])
	}
	in, _ := d.NewBuffer(words(raw...))
	out, _ := d.NewBufferSize(4 + 4*groups)
	if err := d.Dispatch(p, [3]uint32{groups, 1, 1}, StorageBuffer(0, in), StorageBuffer(1, out)); err != nil {
		t.Fatal(err)
	}
	got := u32s(out.Bytes())
	var total uint32
	for g := 0; g < groups; g++ {
		var s float32
		for _, v := range xs[g*256 : (g+1)*256] {
			s += v
		}
		if f := math.Float32frombits(got[1+g]); f != s {
			t.Fatalf("partial[%d] = %v, want %v", g, f, s)
		}
		total += uint32(s)
	}
	if got[0] != total {
		t.Fatalf("total = %d, want %d", got[0], total)
	}
}

// TestHistogram: 64 bins counted with atomicAdd in shared memory per workgroup,
// then merged into the buffer with atomicAdd; an atomic counter counts the
// values above 200. Compared with Go, on 1 and 4 cores.
func TestHistogram(t *testing.T) { bothCores(t, testHistogram) }

func testHistogram(t *testing.T, cores string) {
	src := `#version 430
layout(local_size_x = 32, local_size_y = 2) in;
layout(std430, binding = 0) readonly buffer In { uint v[]; };
layout(std430, binding = 1) buffer Hist { uint bins[64]; };
layout(binding = 0, offset = 4) uniform atomic_uint big;
shared uint local_bins[64];
void main() {
	uint i = gl_LocalInvocationIndex;
	local_bins[i] = 0u;
	barrier();
	uint x = v[gl_WorkGroupID.x * 64u + i];
	atomicAdd(local_bins[x % 64u], 1u);
	if (x > 200u)
		atomicCounterIncrement(big);
	barrier();
	atomicAdd(bins[i], local_bins[i]);
}
`
	const groups = 50
	in := randWords(4, groups*64, 256)
	var want [64]uint32
	var big uint32
	for _, x := range in {
		want[x%64]++
		if x > 200 {
			big++
		}
	}
	for _, ncores := range []int{1, 4} {
		d := openCores(t, cores, func(c *config.Config) {
			if ncores == 1 {
				c.Device.CoresPerSocket, c.Device.SocketsPerCluster = 1, 1
			}
		})
		p := compile(t, d, "hist", src)
		buf, _ := d.NewBuffer(words(in...))
		hist, _ := d.NewBufferSize(4 * 64)
		ctr, _ := d.NewBufferSize(8)
		if err := d.Dispatch(p, [3]uint32{groups, 1, 1}, StorageBuffer(0, buf), StorageBuffer(1, hist), AtomicCounters(0, ctr)); err != nil {
			t.Fatal(err)
		}
		got := u32s(hist.Bytes())
		for b := range want {
			if got[b] != want[b] {
				t.Fatalf("%d cores: bin %d = %d, want %d", ncores, b, got[b], want[b])
			}
		}
		if c := u32s(ctr.Bytes()); c[1] != big || c[0] != 0 {
			t.Fatalf("%d cores: counter words %v, want [0 %d]", ncores, c, big)
		}
	}
}

// TestImageBlur: a 3×3 box blur of an r32f image into another through
// imageLoad/imageStore (clamped at the edges), 8×8 workgroups over a 37×29
// image; then an rgba8 image inverted in place. Compared with Go.
func TestImageBlur(t *testing.T) { bothCores(t, testImageBlur) }

func testImageBlur(t *testing.T, cores string) {
	d := openCores(t, cores, nil)
	p := compile(t, d, "blur", `#version 430
layout(local_size_x = 8, local_size_y = 8) in;
layout(r32f, binding = 0) readonly uniform image2D src;
layout(r32f, binding = 1) writeonly uniform image2D dst;
void main() {
	ivec2 size = imageSize(src);
	ivec2 p = ivec2(gl_GlobalInvocationID.xy);
	if (p.x >= size.x || p.y >= size.y)
		return;
	float s = 0.0;
	for (int dy = -1; dy <= 1; dy++)
		for (int dx = -1; dx <= 1; dx++)
			s += imageLoad(src, clamp(p + ivec2(dx, dy), ivec2(0), size - 1)).r;
	imageStore(dst, p, vec4(s / 9.0));
}
`)
	const w, h = 37, 29
	px := make([]float32, w*h)
	raw := make([]uint32, w*h)
	for i := range px {
		px[i] = float32((i*37)%101) / 7
		raw[i] = math.Float32bits(px[i])
	}
	src, err := d.NewImage(ir.FormatR32F, w, h, 1, words(raw...))
	if err != nil {
		t.Fatal(err)
	}
	dst, _ := d.NewImage(ir.FormatR32F, w, h, 1, nil)
	if err := d.Dispatch(p, [3]uint32{(w + 7) / 8, (h + 7) / 8, 1}, StorageImage(0, src), StorageImage(1, dst)); err != nil {
		t.Fatal(err)
	}
	if src.Buffer().Readbacks() != 0 || dst.Buffer().Readbacks() != 1 {
		t.Errorf("read-backs: src %d (readonly), dst %d", src.Buffer().Readbacks(), dst.Buffer().Readbacks())
	}
	got := u32s(dst.Buffer().Bytes())
	cl := func(v, hi int) int { return min(max(v, 0), hi-1) }
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			var s float32
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					s += px[cl(y+dy, h)*w+cl(x+dx, w)]
				}
			}
			if want := s / 9; math.Float32frombits(got[y*w+x]) != want {
				t.Fatalf("(%d,%d) = %v, want %v", x, y, math.Float32frombits(got[y*w+x]), want)
			}
		}
	}
	inv := compile(t, d, "invert", `#version 430
layout(local_size_x = 4, local_size_y = 4) in;
layout(rgba8, binding = 2) uniform image2D img;
void main() {
	ivec2 p = ivec2(gl_GlobalInvocationID.xy);
	imageStore(img, p, vec4(1.0) - imageLoad(img, p));
}
`)
	bytes := make([]byte, 8*8*4)
	for i := range bytes {
		bytes[i] = byte(i * 3)
	}
	img, _ := d.NewImage(ir.FormatRGBA8, 8, 8, 1, bytes)
	if err := d.Dispatch(inv, [3]uint32{2, 2, 1}, StorageImage(2, img)); err != nil {
		t.Fatal(err)
	}
	for i, b := range img.Buffer().Bytes() {
		if b != 255-bytes[i] {
			t.Fatalf("rgba8 byte %d = %d, want %d", i, b, 255-bytes[i])
		}
	}
}

// TestGLSLRefusedAndUniforms: a 128-invocation workgroup on a 64-thread device
// is refused; uniforms reach the kernel through arg slot 0, and a dispatch
// keeps the values current when it was recorded.
func TestGLSLRefusedAndUniforms(t *testing.T) {
	d := openDevice(t, nil)
	big := compile(t, d, "big", "#version 430\nlayout(local_size_x = 64, local_size_y = 2) in;\nlayout(std430, binding = 0) buffer B { uint v[]; };\nvoid main() { v[gl_LocalInvocationIndex] = 1u; }\n")
	buf, _ := d.NewBufferSize(4 * 128)
	if err := d.Dispatch(big, [3]uint32{1, 1, 1}, StorageBuffer(0, buf)); !errors.Is(err, ErrWorkgroupTooLarge) {
		t.Fatalf("128 invocations on a 64-wide device: %v", err)
	}
	shared := compile(t, d, "shared", "#version 430\nlayout(local_size_x = 1) in;\nshared uint big[8192];\nlayout(std430, binding = 0) buffer B { uint v[]; };\nvoid main() { big[7] = 1u; v[0] = big[7]; }\n")
	if err := d.Dispatch(shared, [3]uint32{1, 1, 1}, StorageBuffer(0, buf)); err == nil || !strings.Contains(err.Error(), "32768 bytes of shared variables exceed the core's 16384 bytes") {
		t.Fatalf("32 KiB of shared variables on a 16 KiB core: %v", err)
	}
	p := compile(t, d, "uni", `#version 430
layout(local_size_x = 16) in;
uniform uint scale;
uniform vec2 offs = vec2(0.5, 2.0);
layout(std430, binding = 3) buffer B { float v[]; };
void main() { v[gl_GlobalInvocationID.x] = float(gl_GlobalInvocationID.x * scale) + offs.y; }
`)
	out, _ := d.NewBufferSize(4 * 16 * 2)
	f := d.NewFrame()
	if err := p.SetUniform("scale", []uint32{3}); err != nil {
		t.Fatal(err)
	}
	f.DispatchBase(p, [3]uint32{0, 0, 0}, [3]uint32{1, 1, 1}, StorageBuffer(3, out))
	p.SetUniform("scale", []uint32{5})
	f.DispatchBase(p, [3]uint32{1, 0, 0}, [3]uint32{1, 1, 1}, StorageBuffer(3, out))
	if _, err := f.Submit(); err != nil {
		t.Fatal(err)
	}
	got := u32s(out.Bytes())
	for i := 0; i < 32; i++ {
		s := uint32(3)
		if i >= 16 {
			s = 5
		}
		if want := float32(uint32(i)*s) + 2; math.Float32frombits(got[i]) != want {
			t.Fatalf("v[%d] = %v, want %v", i, math.Float32frombits(got[i]), want)
		}
	}
	if err := p.SetUniform("nope", []uint32{1}); err == nil {
		t.Error("unknown uniform accepted")
	}
}

// TestFormatlessImage: a writeonly image without a format qualifier stores in
// the bound image's format, which the kernel reads from the image descriptor.
func TestFormatlessImage(t *testing.T) {
	d := openDevice(t, nil)
	p := compile(t, d, "fill", `#version 430
layout(local_size_x = 4, local_size_y = 4) in;
writeonly uniform image2D img;
void main() {
	ivec2 q = ivec2(gl_GlobalInvocationID.xy);
	imageStore(img, q, vec4(float(q.x) / 4.0, float(q.y) / 4.0, 0.25, 1.0));
}
`)
	for _, f := range []ir.ImageFormat{ir.FormatRGBA8, ir.FormatRGBA32F} {
		img, err := d.NewImage(f, 4, 4, 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := d.Dispatch(p, [3]uint32{1, 1, 1}, StorageImage(0, img)); err != nil {
			t.Fatalf("%v: %v", f, err)
		}
		b := img.Buffer().Bytes()
		for y := 0; y < 4; y++ {
			for x := 0; x < 4; x++ {
				want := [4]float32{float32(x) / 4, float32(y) / 4, 0.25, 1}
				for k := range 4 {
					var got float32
					if f == ir.FormatRGBA8 {
						got = float32(b[(y*4+x)*4+k]) / 255
						if d := got - want[k]; d > 0.51/255 || d < -0.51/255 {
							t.Fatalf("%v (%d,%d)[%d] = %v, want %v", f, x, y, k, got, want[k])
						}
						continue
					}
					got = math.Float32frombits(u32s(b)[(y*4+x)*4+k])
					if got != want[k] {
						t.Fatalf("%v (%d,%d)[%d] = %v, want %v", f, x, y, k, got, want[k])
					}
				}
			}
		}
	}
}
