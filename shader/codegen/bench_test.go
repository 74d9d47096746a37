package codegen

import (
	"testing"

	"vortexgfx/abi"
)

// benchKernel runs a corpus kernel on device/simt b.N times and reports the kernel's
// static size, the thread-instructions per dispatch and device/simt's rate.
func benchKernel(b *testing.B, name string, threads int) {
	var c = corpus[0]
	for _, x := range corpus {
		if x.name == name {
			c = x
		}
	}
	k, err := Compile(compileCS(b, c.name, c.src))
	if err != nil {
		b.Fatal(err)
	}
	bufs := map[Binding][]byte{
		{Kind: abi.DescStorageBuffer, Slot: 0}: wordsBytes(inputWords(int64(len(c.name)), 64)),
		{Kind: abi.DescStorageBuffer, Slot: 1}: make([]byte, 4*2048),
	}
	l := &Launch{Groups: c.groups, Threads: threads, Uniforms: c.uniforms, Buffers: bufs}
	b.ReportAllocs()
	b.ResetTimer()
	var n uint64
	for i := 0; i < b.N; i++ {
		st, err := Run(k, l)
		if err != nil {
			b.Fatal(err)
		}
		n = st.ThreadInstructions
	}
	b.ReportMetric(float64(len(k.Code)), "instructions")
	b.ReportMetric(float64(n), "thread-instr/dispatch")
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mthreadinstr/s")
}

func BenchmarkLoops8(b *testing.B)       { benchKernel(b, "loops", 8) }
func BenchmarkFloatArith8(b *testing.B)  { benchKernel(b, "float_arith", 8) }
func BenchmarkShared8(b *testing.B)      { benchKernel(b, "shared_barrier", 8) }
func BenchmarkDivergence8(b *testing.B)  { benchKernel(b, "divergence", 8) }
func BenchmarkLoops32(b *testing.B)      { benchKernel(b, "loops", 32) }
func BenchmarkFloatArith32(b *testing.B) { benchKernel(b, "float_arith", 32) }

// benchExec runs the same dispatch on the IR executor, for comparison.
func benchExec(b *testing.B, name string, threads int) {
	var c = corpus[0]
	for _, x := range corpus {
		if x.name == name {
			c = x
		}
	}
	p := compileCS(b, c.name, c.src)
	bufs := map[Binding][]byte{
		{Kind: abi.DescStorageBuffer, Slot: 0}: wordsBytes(inputWords(int64(len(c.name)), 64)),
		{Kind: abi.DescStorageBuffer, Slot: 1}: make([]byte, 4*2048),
	}
	l := &Launch{Groups: c.groups, Threads: threads, Uniforms: c.uniforms, Buffers: bufs}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if err := runIR(p, l); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkExecLoops8(b *testing.B)      { benchExec(b, "loops", 8) }
func BenchmarkExecFloatArith8(b *testing.B) { benchExec(b, "float_arith", 8) }
