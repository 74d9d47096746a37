package fecode

import (
	"encoding/binary"
	"sync"

	"vortexgfx/device/simt"
	"vortexgfx/isa/rv32"
)

// expand_k as machine code: one kernel for every program, driven by a word
// table the host appends to the Go kernel's arg block (slots 0-4: VS records,
// expand records, vertices, VS record words, masks; 5-12: the legacy clip
// planes). Slot ExpandTableSlot holds the expand record's word count n, and the
// slots after it the n table words, two a slot (low word first): each the byte
// offset in the vertex's VS record of the word to copy, or ExpandZero. Grid-
// strided over vertices, each lane writes record i word by word — the bytes the
// Go kernel writes for a table the program's expand ops give (shaderdev builds
// it; a record that needs arithmetic — noperspective varyings, legacy clip
// planes' float64 dot products — runs the Go kernel).
// spec: vortexpipe-driver.md §3.2 step 1, §3.8

// ExpandTableSlot is the arg slot after the Go kernel's block where the
// machine code's word table starts (shaderdev.ExpandArgSlots).
const ExpandTableSlot = 13

// ExpandZero is a table word for a record word expand_k zeroes.
const ExpandZero = 0xFFFF_FFFF

// ExpandArgs returns the Go kernel's arg block args (ExpandTableSlot slots)
// with the word table appended.
func ExpandArgs(args []byte, table []uint32) []byte {
	out := make([]byte, 8*ExpandTableSlot+8+4*len(table)+4*(len(table)&1))
	copy(out, args[:8*ExpandTableSlot])
	binary.LittleEndian.PutUint64(out[8*ExpandTableSlot:], uint64(len(table)))
	for k, w := range table {
		binary.LittleEndian.PutUint32(out[8*ExpandTableSlot+8+4*k:], w)
	}
	return out
}

var expandOnce struct {
	sync.Once
	code []byte
	err  error
}

// ExpandCode returns expand_k's machine code as a KernelCode payload,
// assembled once.
func ExpandCode() ([]byte, error) {
	expandOnce.Do(func() {
		w, err := assembleExpand()
		expandOnce.code, expandOnce.err = payload(w), err
	})
	return expandOnce.code, expandOnce.err
}

// Registers of expand_k.
const (
	eArgs, eRecs, eVerts, eCount, eOW, eN, eTable = 5, 6, 7, 8, 9, 10, 11
	eI, eStride, eMask, eCond                     = 12, 13, 14, 15
	eIn, eOut, eJ, eTP, eW, eT, eZero             = 16, 17, 18, 19, 20, 21, 22
)

// assembleExpand writes expand_k. The word loop's branches depend only on the
// table, the same for every lane, so the warp never diverges.
func assembleExpand() ([]uint32, error) {
	var p prog
	p.csr(eArgs, simt.CSRMscratch)
	p.lw(eRecs, eArgs, slot(0))
	p.lw(eVerts, eArgs, slot(1))
	p.lw(eCount, eArgs, slot(2))
	p.lw(eOW, eArgs, slot(3))
	p.i(rv32.SLLI, eOW, eOW, 2) // VS record bytes
	p.lw(eN, eArgs, slot(ExpandTableSlot))
	p.i(rv32.ADDI, eTable, eArgs, slot(ExpandTableSlot+1))
	p.Li(eZero, ExpandZero)
	p.csr(eI, csrBlockX)
	p.csr(eT, csrBlockDim)
	p.r(rv32.MUL, eI, eI, eT)
	p.csr(eW, csrThreadX)
	p.r(rv32.ADD, eI, eI, eW)
	p.csr(eStride, csrGridX)
	p.r(rv32.MUL, eStride, eStride, eT)
	p.csr(eMask, simt.CSRActiveThread)
	head, done, whead, wexit, store := p.NewLabel(), p.NewLabel(), p.NewLabel(), p.NewLabel(), p.NewLabel()
	p.Place(head)
	p.r(rv32.SLTU, eCond, eI, eCount)
	p.predicate(eCond, eMask, done)
	p.r(rv32.MUL, eIn, eI, eOW)
	p.r(rv32.ADD, eIn, eIn, eRecs)
	p.i(rv32.SLLI, eT, eN, 2) // expand record bytes
	p.r(rv32.MUL, eOut, eI, eT)
	p.r(rv32.ADD, eOut, eOut, eVerts)
	p.i(rv32.ADDI, eJ, 0, 0)
	p.i(rv32.ADDI, eTP, eTable, 0)
	p.Place(whead)
	p.Branch(rv32.BGEU, eJ, eN, wexit)
	p.lw(eT, eTP, 0)
	p.i(rv32.ADDI, eW, 0, 0)
	p.Branch(rv32.BEQ, eT, eZero, store)
	p.r(rv32.ADD, eT, eT, eIn)
	p.lw(eW, eT, 0)
	p.Place(store)
	p.sw(eW, eOut, 0)
	p.i(rv32.ADDI, eOut, eOut, 4)
	p.i(rv32.ADDI, eTP, eTP, 4)
	p.i(rv32.ADDI, eJ, eJ, 1)
	p.Jump(whead)
	p.Place(wexit)
	p.r(rv32.ADD, eI, eI, eStride)
	p.Jump(head)
	p.Place(done)
	p.halt()
	return p.Words()
}
