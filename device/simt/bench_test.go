package simt

import (
	"testing"

	"vortexgfx/isa/rv32"
)

// benchLoop is a compute-heavy integer loop: per iteration an add, a multiply, a
// shift, a xor, a load and a store, and the branch.
func benchLoop(b *testing.B, threads int) {
	m := NewFlatMemory(0, memSize)
	insts := cat(
		li(a0, 0), li(a1, 1), li(a2, 3),
		I(rv32.LUI, a3, 0, 1<<12), // 4096 iterations
		csrr(t2, CSRThreadID), I(rv32.SLLI, t2, t2, 2),
		// loop:
		R(rv32.ADD, a0, a0, a1),
		R(rv32.MUL, a1, a1, a2),
		I(rv32.SRLI, a4, a0, 3),
		R(rv32.XOR, a1, a1, a4),
		I(rv32.LW, a5, t2, dataBase),
		R(rv32.ADD, a5, a5, a0),
		S(rv32.SW, a5, t2, dataBase),
		I(rv32.ADDI, a3, a3, -1),
		B(rv32.BNE, a3, zero, -32),
		halt)
	for i, in := range insts {
		w, err := rv32.Encode(in)
		if err != nil {
			b.Fatal(err)
		}
		_ = m.Store(codeBase+uint32(4*i), 4, w)
	}
	c, err := New(Config{Warps: 1, Threads: threads}, m)
	if err != nil {
		b.Fatal(err)
	}
	mask := uint32(1<<threads - 1)
	b.ReportAllocs()
	b.ResetTimer()
	var n uint64
	for i := 0; i < b.N; i++ {
		before := c.ThreadInstructions()
		if err := c.Start(0, codeBase, mask); err != nil {
			b.Fatal(err)
		}
		if err := c.Run(); err != nil {
			b.Fatal(err)
		}
		n += c.ThreadInstructions() - before
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds()/1e6, "Mthreadinstr/s")
}

func BenchmarkLoop1Thread(b *testing.B)   { benchLoop(b, 1) }
func BenchmarkLoop8Threads(b *testing.B)  { benchLoop(b, 8) }
func BenchmarkLoop32Threads(b *testing.B) { benchLoop(b, 32) }
