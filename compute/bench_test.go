package compute

import (
	"testing"

	"vortexgfx/config"
)

// BenchmarkInvocations measures compute invocations per second through the whole
// dispatch path: one dispatch of 1024 workgroups × 64 invocations (a load, a
// multiply-add, a store each), one frame per iteration.
func BenchmarkInvocations(b *testing.B) {
	d := openDevice(b, nil)
	const n, groups = 64, 1024
	p, err := d.Load("double", doubleIR(n))
	if err != nil {
		b.Fatal(err)
	}
	in, _ := d.NewBuffer(words(ramp(n * groups)...))
	out, _ := d.NewBufferSize(4 * n * groups)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := d.Dispatch(p, [3]uint32{groups, 1, 1}, StorageBuffer(0, in), StorageBuffer(2, out)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)*n*groups/b.Elapsed().Seconds(), "invocations/s")
}

// BenchmarkDispatches measures small dispatches per second and doorbells per
// frame: a frame of 100 one-workgroup dispatches of 16 invocations, submitted as
// one batch.
func BenchmarkDispatches(b *testing.B) {
	d := openDevice(b, nil)
	const n, perFrame = 16, 100
	p, err := d.Load("double", doubleIR(n))
	if err != nil {
		b.Fatal(err)
	}
	in, _ := d.NewBuffer(words(ramp(n)...))
	out, _ := d.NewBufferSize(4 * n)
	before := d.Stats()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f := d.NewFrame()
		for j := 0; j < perFrame; j++ {
			if err := f.Dispatch(p, [3]uint32{1, 1, 1}, StorageBuffer(0, in), StorageBuffer(2, out)); err != nil {
				b.Fatal(err)
			}
		}
		if _, err := f.Submit(); err != nil {
			b.Fatal(err)
		}
	}
	after := d.Stats()
	b.ReportMetric(float64(b.N)*perFrame/b.Elapsed().Seconds(), "dispatches/s")
	b.ReportMetric(float64(after.Doorbells-before.Doorbells)/float64(b.N), "doorbells/frame")
	b.ReportMetric(float64(after.Launches-before.Launches)/float64(b.N), "launches/frame")
}

// BenchmarkSAXPY measures a compiled GLSL kernel, y = a·x + y over 64 Ki
// floats (1024 workgroups of 64), one dispatch per frame with x resident.
func BenchmarkSAXPY(b *testing.B) {
	d := openDevice(b, nil)
	p, err := d.Compile("saxpy", `#version 430
layout(local_size_x = 64) in;
uniform float a;
layout(std430, binding = 0) readonly buffer X { float x[]; };
layout(std430, binding = 1) buffer Y { float y[]; };
void main() { uint i = gl_GlobalInvocationID.x; y[i] = a * x[i] + y[i]; }
`)
	if err != nil {
		b.Fatal(err)
	}
	const n = 64 << 10
	if err := p.SetUniformValue("a", true, []uint32{0x40000000}); err != nil {
		b.Fatal(err)
	}
	x, _ := d.NewBuffer(words(ramp(n)...))
	y, _ := d.NewBufferSize(4 * n)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := d.Dispatch(p, [3]uint32{n / 64, 1, 1}, StorageBuffer(0, x), StorageBuffer(1, y)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)*n/b.Elapsed().Seconds(), "invocations/s")
}

// BenchmarkShared measures invocations per second of a workgroup that goes
// through shared memory (the CTA's local memory): one dispatch of 256 workgroups ×
// 64 invocations, each storing to shared, a barrier, a shared load and a store.
func BenchmarkShared(b *testing.B) {
	d := openDevice(b, nil)
	const n, groups = 64, 256
	p, err := d.Load("reverse", reverseIR(n))
	if err != nil {
		b.Fatal(err)
	}
	out, _ := d.NewBufferSize(4 * n * groups)
	cnt, _ := d.NewBufferSize(4)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := d.Dispatch(p, [3]uint32{groups, 1, 1}, StorageBuffer(3, out), StorageBuffer(1, cnt)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)*n*groups/b.Elapsed().Seconds(), "invocations/s")
}

// BenchmarkSAXPYISA is BenchmarkSAXPY as machine code ([device] cores = "isa"),
// with the SIMT cores' thread-instructions per second of wall time (all cores
// of the device, on the host's goroutines).
func BenchmarkSAXPYISA(b *testing.B) {
	d := openDevice(b, func(c *config.Config) { c.Device.Cores = config.CoresISA })
	p, err := d.Compile("saxpy", `#version 430
layout(local_size_x = 64) in;
uniform float a;
layout(std430, binding = 0) readonly buffer X { float x[]; };
layout(std430, binding = 1) buffer Y { float y[]; };
void main() { uint i = gl_GlobalInvocationID.x; y[i] = a * x[i] + y[i]; }
`)
	if err != nil {
		b.Fatal(err)
	}
	if !p.ISA() {
		b.Fatalf("not machine code: %s", p.Fallback())
	}
	const n = 64 << 10
	if err := p.SetUniformValue("a", true, []uint32{0x40000000}); err != nil {
		b.Fatal(err)
	}
	x, _ := d.NewBuffer(words(ramp(n)...))
	y, _ := d.NewBufferSize(4 * n)
	before := d.Stats()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := d.Dispatch(p, [3]uint32{n / 64, 1, 1}, StorageBuffer(0, x), StorageBuffer(1, y)); err != nil {
			b.Fatal(err)
		}
	}
	st := d.Stats()
	b.ReportMetric(float64(b.N)*n/b.Elapsed().Seconds(), "invocations/s")
	b.ReportMetric(float64(st.ThreadInstructions-before.ThreadInstructions)/b.Elapsed().Seconds()/1e6, "Mthreadinstr/s")
	b.ReportMetric(float64(st.ThreadInstructions-before.ThreadInstructions)/float64(b.N*n), "thread-instr/invocation")
}
