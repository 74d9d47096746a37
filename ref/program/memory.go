package program

import (
	"vortexgfx/shader/exec"
	"vortexgfx/shader/ir"
)

// Storage buffers, atomic counter buffers and storage images in the vertex and
// fragment stages. The program's stages reach them through one exec.Memory the
// driver sets per draw (SetMemory): the same interface, bindings and word
// layout (ir.SpaceBuffer, ir.SpaceCounter, ir.SpaceImage by binding point) as
// compute dispatches use, so a buffer a compute program and a draw both bind
// is one set of bytes. spec: vortexpipe-driver §2.5 (descriptors by binding).
//
// GL's rules the stages keep:
//   - helper invocations and discarded or demoted fragments never store or do
//     atomics (shader/exec masks those lanes: GLSL 4.60 §7.1.2;
//     ARB_shader_image_load_store "helper pixels");
//   - a fragment program with side effects (a store or an atomic) runs for
//     every fragment the early tests pass, before the late depth test, so the
//     renderer may not skip quads its depth test rejects (EarlyDepthSafe is
//     false): without layout(early_fragment_tests) GL runs the depth test
//     after the shader. spec: GL 4.6 §14.9 and §15.2.4 (early fragment tests);
//   - the order of side effects across invocations is unspecified in GL; here
//     it is fixed so a draw's results do not depend on the worker count:
//     vertices in the order the renderer shades them serially (VertexCloner
//     declines such a program), fragments in primitive order, within a
//     primitive in the renderer's serial quad order, lanes of a warp in
//     ascending order (SideEffects makes ref shade such a draw on one worker).

// SetMemory sets the storage the stages' memory instructions address (nil:
// none; a program with a memory instruction then fails with exec.ErrNoMemory
// rather than reading zeros). It takes effect at the next batch a stage runs.
func (p *Program) SetMemory(mem exec.Memory) { p.mem = mem }

// Memory returns the storage SetMemory set.
func (p *Program) Memory() exec.Memory { return p.mem }

// UsesMemory reports whether a vertex or fragment stage of p has a storage
// buffer, atomic counter or image instruction (loads included).
func (p *Program) UsesMemory() bool {
	for _, s := range []*ir.Program{p.IR.VS, p.IR.FS} {
		if s != nil && usesMemory(s) {
			return true
		}
	}
	return false
}

// usesMemory reports whether prog has an instruction addressing a Memory.
func usesMemory(prog *ir.Program) bool {
	return prog.AnyInst(func(in *ir.Inst) bool {
		switch in.Op {
		case ir.MemLoad, ir.MemStore, ir.MemAtomic, ir.MemSize:
			return ir.Space(in.Len) != ir.SpaceShared
		case ir.ImageExtent, ir.ImageFormatOf:
			return true
		}
		return false
	})
}

// SideEffects implements ref.FragmentOrdered: a fragment program that stores
// or does atomics has effects whose order is observable, so ref shades its
// draws on one worker in its serial order.
func (f *FragmentShader) SideEffects() bool { return !effectFree(f.p.IR.FS) }
