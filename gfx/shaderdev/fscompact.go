package shaderdev

import "vortexgfx/shader/ir"

// A RASTER wave's lanes are whole quads, the uncovered lanes helpers that
// run only so that derivatives see their neighbours (vortexpipe §3.4). A
// fragment program in which no lane can see another — no derivative, no
// gl_HelperInvocation, no texture operation (an implicit LOD is a
// derivative), no storage access — computes each covered lane's outputs
// from that lane's inputs alone, so the wrapper may run it on the covered
// lanes only, packed in lane order into a narrower executor: every
// exported word, and the order the lanes reach the OM in, is the same, and
// the helpers' work is skipped (most lanes of small primitives' waves are
// helpers). The wrapper's device accesses do not change either: a quad's
// lanes share their primitive, so the covered lanes load the same
// primitives in the same order, and a program with flat inputs (read per
// lane from the side array) keeps the whole quads. The wave itself (its
// lanes, FRAG_POS/FRAG_PID, counters and cycles) is RASTER's and unchanged.

// fsLaneFree reports whether the fragment program's lanes are independent
// (see above): every operation in its code and functions is pure
// arithmetic, structured control flow, a load or store of the lane's own
// inputs, outputs, registers or the uniforms, discard, or the export.
func fsLaneFree(p *ir.Program) bool {
	ok := func(code []ir.Inst) bool {
		for i := range code {
			switch op := code[i].Op; {
			case op.IsPure(), op.IsControl():
			case op == ir.Nop, op == ir.LoadInput, op == ir.StoreOutput, op == ir.LoadUniform,
				op == ir.LoadUniformIdx, op == ir.ArrayLoad, op == ir.ArrayStore, op == ir.Discard, op == ir.Export:
			default:
				return false
			}
		}
		return true
	}
	if !ok(p.Code) {
		return false
	}
	for _, f := range p.Funcs {
		if !ok(f.Code) {
			return false
		}
	}
	return true
}

// compactFSLanes decides Program.fsCompact once the fragment inputs are
// mapped: a lane-free program (fsLaneFree) that reads no gl_HelperInvocation,
// gl_PointCoord or flat input runs RASTER waves on their covered lanes only.
func (sp *Program) compactFSLanes() {
	sp.fsCompact = fsLaneFree(sp.prog.FS) && sp.helper < 0 && sp.pointCoord < 0 &&
		len(sp.fsFlatIn) == 0 && len(sp.fsFlatInBack) == 0
}
