package device

import (
	"strings"
	"testing"

	"vortexgfx/gfx/session"
)

// TestRecordVertexStage: the record counts where each device draw's vertex
// stage ran on a cores = "isa" device, groups codegen's refusals by reason
// without the program name and pc, and leaves the one-line summary as it
// was (vortex shadertest prints the counts on lines of their own).
func TestRecordVertexStage(t *testing.T) {
	var r Record
	r.DeviceDraws = 4
	r.vertexStage(session.Route{VSISA: true})
	r.vertexStage(session.Route{VSISA: true, Why: []string{"tex: x"}})
	for _, pc := range []string{"3", "17"} {
		r.vertexStage(session.Route{Why: []string{"om: variant key", "vs: IR executor: p1.vs: codegen: main@" + pc + ": IR op tex is not implemented by the machine-code backend"}})
	}
	r.vertexStage(session.Route{Why: []string{"om: variant key"}}) // the IR path: not counted
	var o Record
	o.add(&r)
	if o.VSISA != 2 || o.VSIR != 2 || o.VSWhy["IR op tex is not implemented by the machine-code backend"] != 2 || len(o.VSWhy) != 1 {
		t.Errorf("counted %d machine code, %d IR, reasons %v", o.VSISA, o.VSIR, o.VSWhy)
	}
	if s := o.String(); strings.Contains(s, "vertex stage") {
		t.Errorf("the summary line names the vertex stage (the CLI prints it on lines of its own): %s", s)
	}
}

// TestRecordFragmentStage: the record counts where each device draw's
// fragment stage ran, groups the fallbacks by reason (without program and
// pc) and sums the draws' machine-code instruction counts.
func TestRecordFragmentStage(t *testing.T) {
	var r Record
	r.DeviceDraws = 4
	r.vertexStage(session.Route{VSISA: true, FSISA: true})
	r.ISA = r.ISA.Add(&session.ISAStats{VSWarpInstructions: 10, VSThreadInstructions: 40, FSWarpInstructions: 7, FSThreadInstructions: 20})
	r.vertexStage(session.Route{VSISA: true, Why: []string{"fs: IR executor: p1.fs: codegen: fragment-stage textures are not compiled to machine code yet"}})
	r.vertexStage(session.Route{VSISA: true, Why: []string{"om: variant key", "fs: IR executor: the software merger is the Go wrapper's"}})
	r.vertexStage(session.Route{Why: []string{"vs: IR executor: p2.vs: codegen: main@4: IR op tex is not implemented by the machine-code backend",
		"fs: IR executor: p2.fs: codegen: main@9: IR op tex is not implemented by the machine-code backend"}})
	r.ISA = r.ISA.Add(&session.ISAStats{VSWarpInstructions: 1, VSThreadInstructions: 2})
	r.ISA = r.ISA.Add(nil)
	var o Record
	o.add(&r)
	if o.VSISA != 3 || o.VSIR != 1 || o.FSISA != 1 || o.FSIR != 3 {
		t.Errorf("vs %d/%d, fs %d/%d machine code/IR; want 3/1, 1/3", o.VSISA, o.VSIR, o.FSISA, o.FSIR)
	}
	want := map[string]int{"fragment-stage textures are not compiled to machine code yet": 1,
		"the software merger is the Go wrapper's": 1, "IR op tex is not implemented by the machine-code backend": 1}
	if len(o.FSWhy) != len(want) {
		t.Errorf("fs reasons %v, want %v", o.FSWhy, want)
	}
	for k, n := range want {
		if o.FSWhy[k] != n {
			t.Errorf("fs reasons %v, want %v", o.FSWhy, want)
		}
	}
	if is := o.ISA; is == nil || *is != (session.ISAStats{VSWarpInstructions: 11, VSThreadInstructions: 42, FSWarpInstructions: 7, FSThreadInstructions: 20}) {
		t.Errorf("instruction counts %+v", is)
	}
}
