// Package simt models one Vortex SIMT core executing real RISC-V machine code:
// W warps of T threads, each warp with its own pc, thread mask, IPDOM stack and
// per-lane integer and float registers, running RV32IMAF and the Vortex
// extensions (package rv32) over a Memory (1/2/4-byte accesses at 32-bit
// addresses; FlatMemory for programs and tests, and an adapter over device/mem's
// Memory is a few lines).
//
// Warp control follows SimX (spec: vortex-hardware-facts.md §6; the kernel SDK's
// vx_intrinsics.h): warp-uniform operands come from the highest active lane;
// vx_tmc sets the mask (0 halts the warp); vx_wspawn starts warps 1..n-1 at a pc
// with lane 0; vx_split pushes {mask, pc+4} when the predicate diverges, runs the
// smaller half first and returns the old stack depth; vx_join switches to the other
// half, then restores the mask; vx_pred narrows the mask (or takes the fallback
// mask when no lane passes); vx_bar blocks a warp until the named number of warps
// have arrived at the barrier id; vote and shuffle operate on the running lanes,
// and a shuffle whose source lane is not running returns the reader's own value.
// The graphics ops call a Graphics the caller supplies.
//
// Divergence without split/join. Code from a stock compiler branches where lanes
// disagree. The core then splits the warp into lane groups: the running group
// continues on one side, the other group is suspended with its pc and call depth
// (a call through a link register, ra or t0, counts +1 and a return -1, by
// the RISC-V return-address hints). Before every instruction, if a
// suspended group has at least the running group's priority — a deeper call depth,
// or the same depth and a lower or equal pc — it runs instead, and groups at the
// same pc and depth merge. Deepest-first keeps lanes that returned from a call
// waiting for the lanes still inside it; lowest-pc-first reconverges the usual
// if/else and loop shapes at their join. An indirect jump whose targets differ
// splits one group per target. Every lane's own results are those of running it
// alone; the grouping only decides what the warp-wide ops (tmc, vote, shuffle,
// ACTIVE_THREADS) see, and inside a diverged region they act on the running group
// (vx_tmc cannot claim a suspended group's lanes). Lanes that spin on each other
// through memory inside a diverged region can livelock, since the suspended group
// does not run until the running one yields; the instruction budget ends that.
//
// CSRs: thread/warp/core ids and counts, ACTIVE_WARPS/THREADS, MHARTID, misa,
// mscratch (the kernel argument pointer), mcycle/minstret and their h halves (and
// the user aliases), fflags/frm/fcsr (one fcsr per warp, as in the RTL), the KMU's
// CTA CSRs 0xCD0-0xCE1 from a per-warp CTA, FRAG_POS/FRAG_PID (0xCE2/0xCE3) from a
// per-warp FragSource, and plain storage for mstatus, mtvec, mepc, mcause, mtval,
// mie and mip. mcycle counts the core's issued instructions (one per cycle);
// minstret counts the warp's. An unknown CSR, or a write to a read-only one, is an
// illegal-instruction fault.
//
// Floating point is exact IEEE single precision: every rounding mode (dyn from
// frm), fflags accrued exactly (tininess after rounding), canonical NaNs, fmin/fmax
// per F 2.2, saturating fcvt, and a fused multiply-add rounded once (see fpu.go for
// why float64 arithmetic with a sign-of-error term is exact). FLEN is 32, so there
// is no NaN boxing. Memory is sequentially consistent; lr/sc reservations are per
// lane and broken by another lane's sc or AMO to the word (not by plain stores).
// A SharedMemory (a device's memory, reached by other cores at once) has every
// AMO and SC taken under its lock, and an SC there also fails when the word no
// longer holds what its LR read.
//
// Faults — misaligned or unmapped accesses, illegal instructions, wild jumps,
// unknown CSRs, ecall, a barrier deadlock — stop Run with a *Fault naming pc, warp,
// lane and address; MaxInstructions bounds a runaway program (ErrBudget).
// Semihost implements RISC-V semihosting for picolibc programs. Run is
// deterministic: warps issue round-robin in warp order, 64 instructions a turn.
//
// A launcher runs a CTA by New, then per warp SetCTA, SetMScratch and SetFrag,
// Start (pc and mask), Run, and reads Stats (minstret, cycles); one that reuses a
// core for many CTAs (keeping its decoded code) gives each run SetBudget. Not modelled:
// timing (caches, pipelines, latencies), interrupts and traps (a fault ends the
// run instead of jumping to mtvec), privilege levels, virtual memory.
package simt
