package simt

import (
	"sync"
	"testing"

	"vortexgfx/isa/rv32"
)

// lockedMemory is a FlatMemory several cores share: a SharedMemory.
type lockedMemory struct {
	*FlatMemory
	mu    sync.Mutex
	locks int
}

func (m *lockedMemory) LockAtomic()   { m.mu.Lock(); m.locks++ }
func (m *lockedMemory) UnlockAtomic() { m.mu.Unlock() }

// Cores running at once on a SharedMemory keep atomics atomic: every core's
// amoadd and lr/sc increments of two shared words all land.
func TestSharedMemoryAtomicsAcrossCores(t *testing.T) {
	const iters, cores, lanes = 200, 4, 4
	flat := prog(t, cat(
		li(a0, dataBase), li(a1, 1), li(t1, iters),
		// loop: amoadd [a0] += 1; lr/sc [a0+0x100] += 1; t1--; bnez t1 loop
		rv32.Inst{Op: rv32.AMOADDW, Rd: a2, Rs1: a0, Rs2: a1},
		I(rv32.ADDI, a3, a0, 0x100),
		rv32.Inst{Op: rv32.LRW, Rd: a4, Rs1: a3},
		I(rv32.ADDI, a4, a4, 1),
		rv32.Inst{Op: rv32.SCW, Rd: a5, Rs1: a3, Rs2: a4},
		B(rv32.BNE, a5, zero, -12),
		I(rv32.ADDI, t1, t1, -1),
		B(rv32.BNE, t1, zero, -28),
		halt)...)
	m := &lockedMemory{FlatMemory: flat}
	var wg sync.WaitGroup
	errs := make([]error, cores)
	for i := range cores {
		c, err := New(Config{Warps: 1, Threads: lanes, MaxInstructions: 10_000_000}, m)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Start(0, codeBase, 1<<lanes-1); err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = c.Run() }()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("core %d: %v", i, err)
		}
	}
	want := uint32(iters * cores * lanes)
	m.mu.Lock()
	defer m.mu.Unlock()
	if got := word(t, m, dataBase); got != want {
		t.Errorf("amoadd total %d, want %d", got, want)
	}
	if got := word(t, m, dataBase+0x100); got != want {
		t.Errorf("lr/sc total %d, want %d", got, want)
	}
	if m.locks == 0 {
		t.Error("the core never took the atomic lock")
	}
}

// On a SharedMemory an SC fails when the word changed since the LR (another
// core's plain store is invisible to the reservation); on a private memory the
// reservation alone decides, as before.
func TestSharedMemorySCChecksTheValue(t *testing.T) {
	code := cat(
		li(a0, dataBase), li(a1, 7),
		rv32.Inst{Op: rv32.LRW, Rd: a2, Rs1: a0},
		S(rv32.SW, a1, a0, 0), // a plain store changes the word
		rv32.Inst{Op: rv32.SCW, Rd: a3, Rs1: a0, Rs2: a1},
		S(rv32.SW, a3, a0, 4),
		halt)
	for _, tc := range []struct {
		shared bool
		want   uint32
	}{{false, 0}, {true, 1}} {
		var mem Memory = prog(t, code...)
		if tc.shared {
			mem = &lockedMemory{FlatMemory: mem.(*FlatMemory)}
		}
		c := newCore(t, mem, 1, 1)
		run(t, c, 1)
		if got := word(t, mem, dataBase+4); got != tc.want {
			t.Errorf("shared %v: sc returned %d, want %d", tc.shared, got, tc.want)
		}
	}
}

// SetBudget gives each run of a reused core its own instruction budget.
func TestSetBudgetPerRun(t *testing.T) {
	m := prog(t, li(a0, 3), I(rv32.ADDI, a0, a0, -1), B(rv32.BNE, a0, zero, -4), halt)
	c := newCore(t, m, 1, 1)
	for i := range 3 {
		c.SetBudget(8) // li + 3 × (addi, bne) + halt = 8
		if err := c.Start(0, codeBase, 1); err != nil {
			t.Fatal(err)
		}
		if err := c.Run(); err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
	}
	c.SetBudget(7)
	_ = c.Start(0, codeBase, 1)
	if err := c.Run(); err == nil {
		t.Error("a 7-instruction budget ran an 8-instruction program")
	}
}
