package device

import (
	"strings"
	"testing"

	"vortexgfx/gfx/session"
)

// TestRecordVertexStage: the record counts where each device draw's vertex
// stage ran on a cores = "isa" device, groups codegen's refusals by reason
// without the program name and pc, and adds them to the summary line only
// when there are any (the IR path's line is unchanged).
func TestRecordVertexStage(t *testing.T) {
	var r Record
	r.DeviceDraws = 4
	if s := r.String(); strings.Contains(s, "vertex stage") {
		t.Errorf("no machine-code draws, yet the summary names the vertex stage: %s", s)
	}
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
	want := "; vertex stage as machine code in 2 draws, on the IR executor in 2: 2× IR op tex is not implemented by the machine-code backend"
	if s := o.String(); !strings.HasSuffix(s, want) {
		t.Errorf("summary %q, want it to end %q", s, want)
	}
}
