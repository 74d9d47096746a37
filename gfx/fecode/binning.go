package fecode

import (
	"fmt"
	"sync"

	"vortexgfx/abi"
	"vortexgfx/device/simt"
	"vortexgfx/isa/rv32"
)

// binning_k as machine code: its six stages over the front-end arg block
// (abi.FrontEndArgs, the Go kernel's), dispatched on slot 0:
//
//   - BCOUNT, grid-strided over primitives: counts[i] = (x1−x0)·(y1−y0) of the
//     primitive's bbox span, clamped to the grid (frontend.BCount);
//   - BSCAN, on thread 0 of CTA 0: the exclusive prefix of counts into
//     offsets[0..prims] and the key count into the counters (frontend.BScan);
//   - BEMIT, grid-strided: each primitive's keys (bin << PipePrimBits | pid),
//     bins in row-major order, at its scanned offset (frontend.BEmit);
//   - BHIST and BSCATTER, bin-striped over CTA 0's threads as the Go stages
//     (thread t owns the bins b ≡ t mod threads and walks every key in order,
//     so each bin's pids keep submission order): BHIST zeroes its bins' hist
//     words and counts its keys there; BSCATTER zeroes them again and uses
//     them as its cursors (pid k of bin b at base[b] + hist[b]++), so hist
//     ends as BHIST left it, the Go kernel's bytes, without a cursor array;
//   - BBASE, on thread 0 of CTA 0: each bin's base and its 12-byte header
//     {bin_y << 16 | bin_x, offset, count} (frontend.BBase).
//
// The per-lane loops (the grid stride, BEMIT's bins, a thread's bins) narrow
// the warp with vx_pred and get their entry lanes back when the last lane
// leaves; a key's owner stores under vx_pred and vx_tmc restores the warp,
// so no branch diverges. spec: rasterizer.md §3.1; vortexpipe-driver.md §3.2

// BinningStage reports whether the machine code runs binning_k stage s, or
// why that launch runs the Go kernel (which reports a bad stage by name).
func BinningStage(s uint64) error {
	if s >= abi.FEStageBCount && s <= abi.FEStageBScatter {
		return nil
	}
	return fmt.Errorf("binning_k: machine code: stage %d is not a binning stage", s)
}

var binningOnce struct {
	sync.Once
	code []byte
	err  error
}

// BinningCode returns binning_k's machine code as a KernelCode payload,
// assembled once.
func BinningCode() ([]byte, error) {
	binningOnce.Do(func() {
		w, err := assembleBinning()
		binningOnce.code, binningOnce.err = payload(w), err
	})
	return binningOnce.code, binningOnce.err
}

// Registers of binning_k.
const (
	bArgs, bStage, bCols, bRows, bLog, bPrims, bCtr = 5, 6, 7, 8, 9, 10, 11
	bI, bStride, bMask, bCond                       = 12, 13, 14, 15
	bX0, bX1, bY0, bY1                              = 16, 17, 18, 19
	bT, bU, bV, bW                                  = 20, 21, 22, 23
	bX, bY, bAddr, bRow, bXMask, bYMask             = 24, 25, 26, 27, 28, 29
)

func slot(n int) int32 { return int32(n) * abi.ArgSlotBytes }

// assembleBinning writes binning_k's machine code.
func assembleBinning() ([]uint32, error) {
	var p prog
	p.csr(bArgs, simt.CSRMscratch)
	p.lw(bStage, bArgs, slot(0))
	p.lw(bCtr, bArgs, slot(14))
	p.lw(bPrims, bCtr, 4*abi.FECounterPrims)
	p.lw(bCols, bArgs, slot(16))
	p.lw(bRows, bArgs, slot(16)+4)
	p.lw(bLog, bArgs, slot(17))
	bcount, bscan, bemit, bbase, done, bad := p.NewLabel(), p.NewLabel(), p.NewLabel(), p.NewLabel(), p.NewLabel(), p.NewLabel()
	bstripe := p.NewLabel()
	for _, s := range []struct {
		stage uint64
		l     int
	}{{abi.FEStageBCount, bcount}, {abi.FEStageBScan, bscan}, {abi.FEStageBEmit, bemit}, {abi.FEStageBBase, bbase},
		{abi.FEStageBHist, bstripe}, {abi.FEStageBScatter, bstripe}} {
		p.Li(bT, uint32(s.stage))
		p.Branch(rv32.BEQ, bStage, bT, s.l)
	}
	p.Jump(bad)

	// gridLoop opens the grid-strided loop over i < prims and returns its
	// next (the caller jumps there at the end of the body).
	gridLoop := func() int {
		head, next := p.NewLabel(), p.NewLabel()
		p.csr(bI, csrBlockX)
		p.csr(bT, csrBlockDim)
		p.r(rv32.MUL, bI, bI, bT)
		p.csr(bU, csrThreadX)
		p.r(rv32.ADD, bI, bI, bU)
		p.csr(bStride, csrGridX)
		p.r(rv32.MUL, bStride, bStride, bT)
		p.csr(bMask, simt.CSRActiveThread)
		p.Place(head)
		p.r(rv32.SLTU, bCond, bI, bPrims)
		p.predicate(bCond, bMask, done)
		p.span()
		after := p.NewLabel()
		p.Jump(after)
		p.Place(next)
		p.r(rv32.ADD, bI, bI, bStride)
		p.Jump(head)
		p.Place(after)
		return next
	}

	// BCOUNT.
	p.Place(bcount)
	next := gridLoop()
	p.r(rv32.SUB, bT, bX1, bX0)
	p.r(rv32.SUB, bU, bY1, bY0)
	p.r(rv32.MUL, bT, bT, bU)
	p.lw(bU, bArgs, slot(18))
	p.i(rv32.SLLI, bV, bI, 2)
	p.r(rv32.ADD, bU, bU, bV)
	p.sw(bT, bU, 0)
	p.Jump(next)

	// BEMIT.
	p.Place(bemit)
	next = gridLoop()
	p.lw(bT, bArgs, slot(11)) // offsets
	p.i(rv32.SLLI, bV, bI, 2)
	p.r(rv32.ADD, bT, bT, bV)
	p.lw(bT, bT, 0)
	p.lw(bAddr, bArgs, slot(19)) // keys
	p.i(rv32.SLLI, bT, bT, 2)
	p.r(rv32.ADD, bAddr, bAddr, bT)
	yhead, yexit, xhead, xexit := p.NewLabel(), p.NewLabel(), p.NewLabel(), p.NewLabel()
	p.i(rv32.ADDI, bY, bY0, 0)
	p.csr(bYMask, simt.CSRActiveThread)
	p.Place(yhead)
	p.r(rv32.SLTU, bCond, bY, bY1)
	p.predicate(bCond, bYMask, yexit)
	p.r(rv32.MUL, bRow, bY, bCols)
	p.i(rv32.ADDI, bX, bX0, 0)
	p.csr(bXMask, simt.CSRActiveThread)
	p.Place(xhead)
	p.r(rv32.SLTU, bCond, bX, bX1)
	p.predicate(bCond, bXMask, xexit)
	p.r(rv32.ADD, bT, bRow, bX)
	p.i(rv32.SLLI, bT, bT, abi.PipePrimBits)
	p.r(rv32.OR, bT, bT, bI)
	p.sw(bT, bAddr, 0)
	p.i(rv32.ADDI, bAddr, bAddr, 4)
	p.i(rv32.ADDI, bX, bX, 1)
	p.Jump(xhead)
	p.Place(xexit)
	p.i(rv32.ADDI, bY, bY, 1)
	p.Jump(yhead)
	p.Place(yexit)
	p.Jump(next)

	// BSCAN: thread 0 of CTA 0.
	p.Place(bscan)
	p.single(done)
	p.lw(bX, bArgs, slot(11)) // offsets
	p.lw(bY, bArgs, slot(18)) // counts
	p.i(rv32.ADDI, bW, 0, 0)  // s
	p.i(rv32.ADDI, bI, 0, 0)
	shead, sexit := p.NewLabel(), p.NewLabel()
	p.Place(shead)
	p.Branch(rv32.BGEU, bI, bPrims, sexit)
	p.sw(bW, bX, 0)
	p.lw(bT, bY, 0)
	p.r(rv32.ADD, bW, bW, bT)
	p.i(rv32.ADDI, bX, bX, 4)
	p.i(rv32.ADDI, bY, bY, 4)
	p.i(rv32.ADDI, bI, bI, 1)
	p.Jump(shead)
	p.Place(sexit)
	p.sw(bW, bX, 0) // offsets[prims]
	p.sw(bW, bCtr, 4*abi.FECounterKeys)
	p.Jump(done)

	// BBASE: thread 0 of CTA 0.
	p.Place(bbase)
	p.single(done)
	p.r(rv32.MUL, bV, bCols, bRows) // bins
	p.lw(bX, bArgs, slot(20))       // hist
	p.lw(bY, bArgs, slot(21))       // base
	p.lw(bAddr, bArgs, slot(22))    // tbuf
	p.i(rv32.ADDI, bW, 0, 0)
	p.i(rv32.ADDI, bI, 0, 0)
	p.Li(bX1, 0xFFFF)
	bhead, bexit := p.NewLabel(), p.NewLabel()
	p.Place(bhead)
	p.Branch(rv32.BGEU, bI, bV, bexit)
	p.lw(bU, bX, 0)
	p.sw(bW, bY, 0)
	p.r(rv32.REMU, bT, bI, bCols)
	p.r(rv32.AND, bT, bT, bX1)
	p.r(rv32.DIVU, bY0, bI, bCols)
	p.r(rv32.AND, bY0, bY0, bX1)
	p.i(rv32.SLLI, bY0, bY0, 16)
	p.r(rv32.OR, bT, bT, bY0)
	p.sw(bT, bAddr, 0)
	p.sw(bW, bAddr, 4)
	p.sw(bU, bAddr, 8)
	p.r(rv32.ADD, bW, bW, bU)
	p.i(rv32.ADDI, bX, bX, 4)
	p.i(rv32.ADDI, bY, bY, 4)
	p.i(rv32.ADDI, bAddr, bAddr, abi.BinHeaderBytes)
	p.i(rv32.ADDI, bI, bI, 1)
	p.Jump(bhead)
	p.Place(bexit)
	p.Jump(done)

	// BHIST and BSCATTER: CTA 0's threads, bin-striped.
	p.Place(bstripe)
	p.csr(bT, csrBlockX)
	p.Branch(rv32.BNE, bT, 0, done)
	p.csr(bX0, csrThreadX)               // tid
	p.csr(bX1, csrBlockDim)              // threads
	p.r(rv32.MUL, bY0, bCols, bRows)     // bins
	p.lw(bY1, bCtr, 4*abi.FECounterKeys) // keys
	p.lw(bAddr, bArgs, slot(20))         // hist
	p.lw(bRow, bArgs, slot(21))          // base
	p.lw(bXMask, bArgs, slot(22))        // tbuf …
	p.Li(bT, abi.BinHeaderBytes)         //
	p.r(rv32.MUL, bT, bT, bY0)           //
	p.r(rv32.ADD, bXMask, bXMask, bT)    // … + bins·12: the pids
	zhead, zexit := p.NewLabel(), p.NewLabel()
	p.i(rv32.ADDI, bI, bX0, 0)
	p.csr(bMask, simt.CSRActiveThread)
	p.Place(zhead) // the thread's bins' hist words = 0
	p.r(rv32.SLTU, bCond, bI, bY0)
	p.predicate(bCond, bMask, zexit)
	p.i(rv32.SLLI, bT, bI, 2)
	p.r(rv32.ADD, bT, bT, bAddr)
	p.sw(0, bT, 0)
	p.r(rv32.ADD, bI, bI, bX1)
	p.Jump(zhead)
	p.Place(zexit)
	khead, kskip, kexit, counted := p.NewLabel(), p.NewLabel(), p.NewLabel(), p.NewLabel()
	p.lw(bX, bArgs, slot(19)) // keys
	p.i(rv32.ADDI, bI, 0, 0)
	p.Place(khead) // every lane walks every key: a uniform loop
	p.Branch(rv32.BGEU, bI, bY1, kexit)
	p.lw(bY, bX, 0)
	p.i(rv32.SRLI, bT, bY, abi.PipePrimBits) // bin
	p.r(rv32.REMU, bU, bT, bX1)
	p.r(rv32.XOR, bU, bU, bX0)
	p.i(rv32.SLTIU, bCond, bU, 1) // this lane owns the bin
	p.predicate(bCond, bMask, kskip)
	p.i(rv32.SLLI, bT, bT, 2)
	p.r(rv32.ADD, bV, bAddr, bT) // &hist[bin]
	p.lw(bW, bV, 0)
	p.Li(bU, uint32(abi.FEStageBHist))
	p.Branch(rv32.BEQ, bStage, bU, counted)
	p.r(rv32.ADD, bU, bRow, bT)
	p.lw(bU, bU, 0) // base[bin]
	p.r(rv32.ADD, bU, bU, bW)
	p.i(rv32.SLLI, bU, bU, 2)
	p.r(rv32.ADD, bU, bU, bXMask)
	p.i(rv32.SLLI, bT, bY, 32-abi.PipePrimBits)
	p.i(rv32.SRLI, bT, bT, 32-abi.PipePrimBits) // pid
	p.sw(bT, bU, 0)
	p.Place(counted)
	p.i(rv32.ADDI, bW, bW, 1)
	p.sw(bW, bV, 0)
	p.Emit(rv32.Inst{Op: rv32.VXTMC, Rs1: bMask}) // the whole warp again
	p.Place(kskip)
	p.i(rv32.ADDI, bX, bX, 4)
	p.i(rv32.ADDI, bI, bI, 1)
	p.Jump(khead)
	p.Place(kexit)
	p.Jump(done)

	p.Place(done)
	p.halt()
	// Not a binning stage: an illegal instruction, so the launch fails with
	// the core's error naming this pc (the host sends such a block to the Go
	// kernel instead, which names the stage: BinningStage).
	p.Place(bad)
	p.Word(0)
	return p.Words()
}

// span loads primitive bI's bbox and sets bX0, bX1, bY0, bY1 to its bin span,
// the ends clamped to the grid (frontend.BinGrid.span).
func (p *prog) span() {
	p.lw(bT, bArgs, slot(13)) // boxes
	p.i(rv32.SLLI, bU, bI, 4)
	p.r(rv32.ADD, bT, bT, bU)
	p.lw(bX0, bT, 0)  // L
	p.lw(bX1, bT, 4)  // R
	p.lw(bY0, bT, 8)  // T
	p.lw(bY1, bT, 12) // B
	p.i(rv32.ADDI, bU, 0, 1)
	p.r(rv32.SLL, bU, bU, bLog)
	p.i(rv32.ADDI, bU, bU, -1) // size − 1
	p.r(rv32.SRL, bX0, bX0, bLog)
	p.r(rv32.SRL, bY0, bY0, bLog)
	p.r(rv32.ADD, bX1, bX1, bU)
	p.r(rv32.SRL, bX1, bX1, bLog)
	p.r(rv32.ADD, bY1, bY1, bU)
	p.r(rv32.SRL, bY1, bY1, bLog)
	p.minu(bX1, bCols, bV, bW)
	p.minu(bY1, bRows, bV, bW)
}

// single leaves every warp but warp 0 of CTA 0 (to done: uniform branches)
// and narrows warp 0 to its lane 0.
func (p *prog) single(done int) {
	p.csr(bT, csrBlockX)
	p.Branch(rv32.BNE, bT, 0, done)
	p.csr(bT, simt.CSRCTAID+1) // CTA_RANK: the warp
	p.Branch(rv32.BNE, bT, 0, done)
	p.csr(bT, csrThreadX)
	p.i(rv32.SLTIU, bCond, bT, 1)
	p.csr(bMask, simt.CSRActiveThread)
	p.predicate(bCond, bMask, done)
}
