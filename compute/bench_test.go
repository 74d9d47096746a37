package compute

import (
	"testing"
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
