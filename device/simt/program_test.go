package simt

import (
	"encoding/binary"
	"testing"

	"vortexgfx/isa/image"
	"vortexgfx/isa/rv32"
)

func imageOf(t *testing.T, base uint32, insts ...rv32.Inst) *image.Image {
	t.Helper()
	var code []byte
	for _, in := range insts {
		w, err := rv32.Encode(in)
		if err != nil {
			t.Fatal(err)
		}
		code = binary.LittleEndian.AppendUint32(code, w)
	}
	return &image.Image{Entry: base, Segments: []image.Segment{{Addr: base, Data: code, MemSize: uint32(len(code))}}}
}

// A program that halts its only warp (vx_tmc 0) ends without an exit code; the
// warp starts with lane 0 only, whatever the width.
func TestRunProgramHaltWithoutExit(t *testing.T) {
	im := imageOf(t, 0x80000000, csrr(a0, CSRActiveThread), I(rv32.LUI, a1, 0, -0x80000000),
		S(rv32.SW, a0, a1, 0x100), halt)
	res, err := RunProgram(im, ProgramOptions{Threads: 8, MemoryBytes: 1 << 16})
	if err != nil || res.Exited {
		t.Fatalf("res %+v err %v", res, err)
	}
	if got := word(t, res.Core.Memory(), 0x80000100); got != 1 {
		t.Errorf("ACTIVE_THREADS at start = %x, want 1", got)
	}
	if st := res.Core.Stats(0); st.Instret != 4 {
		t.Errorf("stats %+v, want 4 instructions", st)
	}
}

func TestTraceSeesEveryIssue(t *testing.T) {
	m := prog(t, li(a0, 1), li(a1, 2), halt)
	c := newCore(t, m, 1, 1)
	var pcs []uint32
	c.Trace = func(w int, pc uint32) { pcs = append(pcs, pc) }
	run(t, c, 1)
	if len(pcs) != 3 || pcs[0] != codeBase || pcs[2] != codeBase+8 {
		t.Errorf("traced %x", pcs)
	}
}
