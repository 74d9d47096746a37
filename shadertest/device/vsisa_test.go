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
