package fecode

import (
	"fmt"
	"sync"

	"vortexgfx/abi"
	"vortexgfx/device/simt"
	"vortexgfx/gl/format"
	"vortexgfx/gl/msaa"
	"vortexgfx/isa/rv32"
	"vortexgfx/shader/codegen"
)

// msaa_resolve_k as machine code. The arg block is the Go kernel's (slots 0-4:
// the sample-major plane, the resolved plane, pixels, samples, format) plus slot
// ResolveDescSlot, the layout word ResolveDesc gives (the Go kernel ignores it).
// Grid-strided over pixels as the Go kernel, each lane writes the bytes
// device/swom.Resolve writes:
//
//   - an integer format, or one sample: sample 0's texel, byte by byte;
//   - unorm8 and unorm16 components (RGBA8, BGRA8, R8, RG8, RGBA16): each
//     component's samples decoded as fl32(u / M) (M = 2^bits-1; fdiv.s is
//     correctly rounded, which equals the Go decode's float32(float64(u)/M) for
//     every u: TestUNormDecodeMatchesGo), summed exactly as a float pair (Knuth's
//     two-sum: every decoded value is a multiple of 2^-39 below 1, so the pair's
//     low word never rounds), rounded once to float32 and divided by the sample
//     count (a power of two: exact) — the Go kernel's float32(Σ/n) with its sum in
//     float64 (exact there too) — then encoded as floor(v·M + 0.5), computed from
//     the nearest integer c of fl(v·M) and the exact signs of v·M − (c ± 0.5)
//     (fmsub.s: one rounding, so the sign is exact), which is UNorm's float64
//     formula exactly.
//
// sRGB, snorm and float formats the machine code does not take (their decode or
// sum needs float64): ResolveDesc says so and the launch runs the Go kernel.
// spec: vortexpipe-driver.md §3.4.1 (msaa_resolve_k)

// ResolveDescSlot is the arg slot holding the machine code's layout word.
const ResolveDescSlot = 5

// ResolveArgSlots is the machine-code resolve's arg block length in slots.
const ResolveArgSlots = ResolveDescSlot + 1

// Layout word fields (ResolveDesc): bytes per texel [7:0], components [15:8],
// bytes per component [23:16], mode [31:24].
const (
	resolveCopy  = 0 // sample 0's texel
	resolveUNorm = 1 // the exact unorm box filter
)

// ResolveDesc returns the layout word the machine-code resolve needs for
// samples-sample texels of format f, or why it cannot resolve them (the launch
// then runs the Go kernel).
func ResolveDesc(f format.Format, samples int) (uint32, error) {
	if !f.IsColor() || !msaa.Valid(samples) {
		return 0, fmt.Errorf("msaa_resolve_k: machine code: %d samples of format %v", samples, f)
	}
	in := f.Info()
	desc := uint32(in.Bytes) | uint32(in.Components)<<8 | uint32(in.Bits/8)<<16
	switch {
	case f.IsInteger() || samples == 1:
		return desc | resolveCopy<<24, nil
	case in.Kind == format.KindUNorm && !in.SRGB && (in.Bits == 8 || in.Bits == 16) && in.Bytes == in.Components*in.Bits/8:
		return desc | resolveUNorm<<24, nil
	case in.SRGB:
		return 0, fmt.Errorf("msaa_resolve_k: machine code: %s: the sRGB decode is a float64 pow", in.Name)
	default:
		return 0, fmt.Errorf("msaa_resolve_k: machine code: %s: the box filter of this format needs float64", in.Name)
	}
}

var resolveOnce struct {
	sync.Once
	code []byte
	n    int
	err  error
}

// ResolveCode returns msaa_resolve_k's machine code as a KernelCode payload
// (little-endian words), assembled once.
func ResolveCode() ([]byte, error) {
	resolveOnce.Do(func() {
		w, err := assembleResolve()
		if err != nil {
			resolveOnce.err = err
			return
		}
		resolveOnce.code, resolveOnce.n = payload(w), len(w)
	})
	return resolveOnce.code, resolveOnce.err
}

// payload lays code words out little-endian.
func payload(w []uint32) []byte {
	b := make([]byte, 4*len(w))
	for i, v := range w {
		b[4*i], b[4*i+1], b[4*i+2], b[4*i+3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
	}
	return b
}

// Integer registers of the resolve (RISC-V numbers; the program calls nothing).
const (
	xArgs, xSrc, xDst, xN, xS, xDesc = 5, 6, 7, 8, 9, 10
	xBpp, xElem, xMode               = 11, 13, 14
	xI, xStride, xMask, xCond        = 15, 16, 17, 18
	xPix, xOut, xOff, xK, xAddr      = 19, 20, 21, 22, 23
	xT, xU, xV, xTexel               = 24, 25, 26, 27
)

// Float registers: constants, the sum pair, temporaries.
const (
	fZero, fMax, fHalf, fS = 0, 1, 2, 3
	fHi, fLo, fA, fSum     = 4, 5, 6, 7
	fB, fT, fE, fAvg       = 8, 9, 10, 11
	fP, fC, fCH, fR        = 12, 13, 14, 15
)

// CTA CSRs (simt.CSRCTAID + field).
const (
	csrThreadX  = simt.CSRCTAID + 3
	csrBlockX   = simt.CSRCTAID + 6
	csrBlockDim = simt.CSRCTAID + 9
	csrGridX    = simt.CSRCTAID + 12
)

// assembleResolve writes msaa_resolve_k. Every branch but the loop's exit
// (vx_pred) depends only on the arg block, so the warp never diverges.
func assembleResolve() ([]uint32, error) {
	var a codegen.Asm
	r := func(op rv32.Op, rd, rs1, rs2 uint8) { a.Emit(rv32.Inst{Op: op, Rd: rd, Rs1: rs1, Rs2: rs2}) }
	i := func(op rv32.Op, rd, rs1 uint8, imm int32) { a.Emit(rv32.Inst{Op: op, Rd: rd, Rs1: rs1, Imm: imm}) }
	st := func(op rv32.Op, rs, base uint8) { a.Emit(rv32.Inst{Op: op, Rs1: base, Rs2: rs}) }
	csr := func(rd uint8, n uint16) { a.Emit(rv32.Inst{Op: rv32.CSRRS, Rd: rd, CSR: n}) }
	fr := func(op rv32.Op, rd, rs1, rs2 uint8) {
		a.Emit(rv32.Inst{Op: op, Rd: rd, Rs1: rs1, Rs2: rs2, RM: rv32.RNE})
	}
	fcmp := func(op rv32.Op, rd, rs1, rs2 uint8) { a.Emit(rv32.Inst{Op: op, Rd: rd, Rs1: rs1, Rs2: rs2}) }
	fmsub := func(rd, rs1, rs2, rs3 uint8) {
		a.Emit(rv32.Inst{Op: rv32.FMSUBS, Rd: rd, Rs1: rs1, Rs2: rs2, Rs3: rs3, RM: rv32.RNE})
	}
	fmvwx := func(rd, rs uint8) { a.Emit(rv32.Inst{Op: rv32.FMVWX, Rd: rd, Rs1: rs}) }

	// The arg block: the low word of each slot.
	csr(xArgs, simt.CSRMscratch)
	for _, s := range []struct {
		rd   uint8
		slot int32
	}{{xSrc, 0}, {xDst, 1}, {xN, 2}, {xS, 3}, {xDesc, ResolveDescSlot}} {
		i(rv32.LW, s.rd, xArgs, s.slot*abi.ArgSlotBytes)
	}
	i(rv32.ANDI, xBpp, xDesc, 0xff)
	i(rv32.SRLI, xElem, xDesc, 16)
	i(rv32.ANDI, xElem, xElem, 0xff)
	i(rv32.SRLI, xMode, xDesc, 24)
	// fMax = 2^(8·elem) - 1, fHalf = 0.5, fS = samples, fZero = +0.
	i(rv32.SLLI, xT, xElem, 3)
	i(rv32.ADDI, xU, 0, 1)
	r(rv32.SLL, xU, xU, xT)
	i(rv32.ADDI, xU, xU, -1)
	fr(rv32.FCVTSWU, fMax, xU, 0)
	a.Li(xT, 0x3f00_0000)
	fmvwx(fHalf, xT)
	fr(rv32.FCVTSWU, fS, xS, 0)
	fmvwx(fZero, 0)
	r(rv32.MUL, xTexel, xS, xBpp) // one pixel's samples
	// i = BLOCK_ID_X·BLOCK_DIM_X + THREAD_ID_X; stride = GRID_DIM_X·BLOCK_DIM_X.
	csr(xI, csrBlockX)
	csr(xT, csrBlockDim)
	r(rv32.MUL, xI, xI, xT)
	csr(xU, csrThreadX)
	r(rv32.ADD, xI, xI, xU)
	csr(xStride, csrGridX)
	r(rv32.MUL, xStride, xStride, xT)
	csr(xMask, simt.CSRActiveThread)

	head, done, next, cp := a.NewLabel(), a.NewLabel(), a.NewLabel(), a.NewLabel()
	a.Place(head)
	r(rv32.SLTU, xCond, xI, xN)
	// Lanes past the end drop out; when none is left the entry lanes come back
	// (all with xCond 0), so the exit branch is uniform.
	a.Emit(rv32.Inst{Op: rv32.VXPRED, Rs1: xCond, Rs2: xMask})
	a.Branch(rv32.BEQ, xCond, 0, done)
	r(rv32.MUL, xPix, xI, xTexel)
	r(rv32.ADD, xPix, xPix, xSrc)
	r(rv32.MUL, xOut, xI, xBpp)
	r(rv32.ADD, xOut, xOut, xDst)
	i(rv32.ADDI, xT, 0, 1)
	a.Branch(rv32.BGEU, xT, xS, cp) // one sample
	a.Branch(rv32.BEQ, xMode, 0, cp)

	// The unorm box filter, component by component (xOff: its byte offset).
	comp, samp, half, loaded, shalf, stored := a.NewLabel(), a.NewLabel(), a.NewLabel(), a.NewLabel(), a.NewLabel(), a.NewLabel()
	i(rv32.ADDI, xOff, 0, 0)
	a.Place(comp)
	fmvwx(fHi, 0)
	fmvwx(fLo, 0)
	r(rv32.ADD, xAddr, xPix, xOff)
	i(rv32.ADDI, xK, 0, 0)
	a.Place(samp)
	i(rv32.ADDI, xT, 0, 1)
	a.Branch(rv32.BNE, xElem, xT, half)
	i(rv32.LBU, xU, xAddr, 0)
	a.Jump(loaded)
	a.Place(half)
	i(rv32.LHU, xU, xAddr, 0)
	a.Place(loaded)
	fr(rv32.FCVTSWU, fA, xU, 0)
	fr(rv32.FDIVS, fA, fA, fMax)
	// two-sum: fSum = fl(hi + a), fE its exact error; lo += fE exactly.
	fr(rv32.FADDS, fSum, fHi, fA)
	fr(rv32.FSUBS, fB, fSum, fHi)
	fr(rv32.FSUBS, fT, fSum, fB)
	fr(rv32.FSUBS, fT, fHi, fT)
	fr(rv32.FSUBS, fE, fA, fB)
	fr(rv32.FADDS, fE, fT, fE)
	fr(rv32.FADDS, fLo, fLo, fE)
	a.Emit(rv32.Inst{Op: rv32.FSGNJS, Rd: fHi, Rs1: fSum, Rs2: fSum})
	r(rv32.ADD, xAddr, xAddr, xBpp)
	i(rv32.ADDI, xK, xK, 1)
	a.Branch(rv32.BLTU, xK, xS, samp)
	// v = fl(hi + lo) / S; out = floor(v·M + 0.5).
	fr(rv32.FADDS, fAvg, fHi, fLo)
	fr(rv32.FDIVS, fAvg, fAvg, fS)
	fr(rv32.FMULS, fP, fAvg, fMax)
	a.Emit(rv32.Inst{Op: rv32.FCVTWS, Rd: xV, Rs1: fP, RM: rv32.RNE})
	fr(rv32.FCVTSW, fC, xV, 0)
	fr(rv32.FADDS, fCH, fC, fHalf)
	fmsub(fR, fAvg, fMax, fCH) // v·M − (c + 0.5) ≥ 0: one more
	fcmp(rv32.FLES, xT, fZero, fR)
	r(rv32.ADD, xV, xV, xT)
	fr(rv32.FSUBS, fCH, fC, fHalf)
	fmsub(fR, fAvg, fMax, fCH) // v·M − (c − 0.5) < 0: one less
	fcmp(rv32.FLTS, xT, fR, fZero)
	r(rv32.SUB, xV, xV, xT)
	r(rv32.ADD, xAddr, xOut, xOff)
	i(rv32.ADDI, xT, 0, 1)
	a.Branch(rv32.BNE, xElem, xT, shalf)
	st(rv32.SB, xV, xAddr)
	a.Jump(stored)
	a.Place(shalf)
	st(rv32.SH, xV, xAddr)
	a.Place(stored)
	r(rv32.ADD, xOff, xOff, xElem)
	a.Branch(rv32.BLTU, xOff, xBpp, comp)
	a.Jump(next)

	// Sample 0's texel, byte by byte.
	cbyte := a.NewLabel()
	a.Place(cp)
	i(rv32.ADDI, xOff, 0, 0)
	a.Place(cbyte)
	r(rv32.ADD, xAddr, xPix, xOff)
	i(rv32.LBU, xU, xAddr, 0)
	r(rv32.ADD, xAddr, xOut, xOff)
	st(rv32.SB, xU, xAddr)
	i(rv32.ADDI, xOff, xOff, 1)
	a.Branch(rv32.BLTU, xOff, xBpp, cbyte)

	a.Place(next)
	r(rv32.ADD, xI, xI, xStride)
	a.Jump(head)
	a.Place(done)
	a.Emit(rv32.Inst{Op: rv32.VXTMC, Rs1: 0}) // halt the warp
	return a.Words()
}
