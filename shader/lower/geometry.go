package lower

import (
	"fmt"

	"vortexgfx/shader/glsl/ast"
	"vortexgfx/shader/ir"
)

// Geometry programs. The input buffer of one invocation holds the vertex
// stage's output records of the input primitive's vertices, vertex i at
// words i*VS.OutputWords.., then gl_PrimitiveIDIn (ir.GeometryLayout). A
// per-vertex input array (a user array, an input block array, gl_in[]) is
// loaded element by element from the records: element i, word k of input
// v reads the matching vertex output's word k of vertex i (matching is the
// link's: by name, block name or location; gl_in's members read the vertex
// stage's gl_Position, gl_PointSize, gl_ClipDistance and, compatibility,
// colours and texture coordinates). Words no vertex output provides read
// zero. The outputs are laid out as the vertex stage's are (gl_Position
// first; gl_PrimitiveID and gl_Layer among the built-ins when written) and
// every EmitVertex stores them all and emits ir.Emit. spec: GLSL 1.50
// §4.3.4, §7.1, §8.10.

// layoutGeometry assigns the geometry program's input words (from the vertex
// program's output layout vsOut/vs) and output words, and returns the output
// words by name for the fragment stage.
func (l *lowerer) layoutGeometry(vsOut map[string]int, vs *ir.Program) map[string]int {
	p := l.p
	gl := l.lp.GeometryLayout
	in, _ := ir.PrimByName(gl.Input)
	out, _ := ir.PrimByName(gl.Output)
	stride := vs.OutputWords
	n := in.Vertices()
	p.Geometry = ir.GeometryLayout{In: in, Out: out, MaxVertices: uint32(max(gl.MaxVertices, 0)), VertexWords: uint32(stride),
		Invocations: uint32(max(gl.Invocations, 0))}
	for i := 0; i < n; i++ {
		p.Inputs = append(p.Inputs, ir.Slot{Name: fmt.Sprintf("vertex[%d]", i), Word: i * stride, Words: stride, Type: ir.F32, Location: -1})
	}
	pidWord := n * stride
	p.Inputs = append(p.Inputs, ir.Slot{Name: "gl_PrimitiveIDIn", Word: pidWord, Words: 1, Type: ir.I32, Location: -1})
	p.InputWords = pidWord + 1
	invWord := p.Geometry.InvocationIDWord()
	var invVar *ast.Var
	for _, v := range l.globals {
		if v.Kind == ast.VarIn && v.Builtin && v.Name == "gl_InvocationID" && v.Used {
			invVar = v
		}
	}
	if invVar != nil || gl.Invocations > 1 {
		p.Inputs = append(p.Inputs, ir.Slot{Name: "gl_InvocationID", Word: invWord, Words: 1, Type: ir.I32, Location: -1})
		p.InputWords = invWord + 1
	}
	if invVar != nil {
		l.inputs[invVar] = invWord
		l.inVars = append(l.inVars, invVar)
	}

	vsWords := map[string]int{}
	for _, s := range vs.Outputs {
		vsWords[s.Name] = s.Words
	}
	outOf := map[*ast.Var]*ast.Var{}
	for _, vy := range l.lp.GeometryInputs {
		outOf[vy.In] = vy.Out
	}
	// word returns the input word of word k of vertex i of the vertex output
	// name, -1 when the vertex stage has none.
	word := func(i int, name string, k int) int {
		w, ok := vsOut[name]
		if !ok || k >= vsWords[name] {
			return -1
		}
		return i*stride + w + k
	}
	l.geoIn = map[*ast.Var][]int{}
	var pos, psize *ast.Var
	var outs, legacyOuts []*ast.Var
	for _, v := range l.globals {
		switch {
		case v.Kind == ast.VarIn && v.Builtin && v.Name == "gl_PrimitiveIDIn":
			if v.Used {
				l.inputs[v] = pidWord
				l.inVars = append(l.inVars, v)
			}
		case v.Kind == ast.VarIn && v.Builtin && v.Name == "gl_in":
			if !v.Used || !v.Type.IsArray() || !v.Type.Elem.IsStruct() {
				continue
			}
			var ws []int
			for i := 0; i < v.Type.Len; i++ {
				for _, f := range v.Type.Elem.Struct.Fields {
					for k := 0; k < f.Type.Slots(); k++ {
						ws = append(ws, word(i, f.Name, k))
					}
				}
			}
			l.geoIn[v] = ws
			l.inVars = append(l.inVars, v)
		case v.Kind == ast.VarIn && !v.Builtin:
			if !v.Type.IsArray() {
				continue
			}
			name := v.Name
			o := outOf[v]
			if o != nil {
				name = o.Name
			}
			es := v.Type.Elem.Slots()
			ws := make([]int, 0, v.Type.Len*es)
			for i := 0; i < v.Type.Len; i++ {
				if o == nil && v.Block != nil && v.Type.Elem.IsStruct() {
					// An instance array of a block the vertex stage
					// declares unnamed: its members are outputs of their own.
					for _, f := range v.Type.Elem.Struct.Fields {
						for k := 0; k < f.Type.Slots(); k++ {
							ws = append(ws, word(i, f.Name, k))
						}
					}
					continue
				}
				for k := 0; k < es; k++ {
					ws = append(ws, word(i, name, k))
				}
			}
			l.geoIn[v] = ws
			l.inVars = append(l.inVars, v)
		case v.Kind == ast.VarOut && v.Name == "gl_Position":
			pos = v
		case v.Kind == ast.VarOut && v.Name == "gl_PointSize":
			if v.Used {
				psize = v
			}
		case v.Kind == ast.VarOut && !v.Builtin:
			outs = append(outs, v)
		case v.Kind == ast.VarOut && v.Used:
			legacyOuts = append(legacyOuts, v)
		}
	}
	return l.layoutPreRasterOutputs(pos, psize, outs, legacyOuts)
}

// loadGeometryInput loads the registers of a per-vertex input from the input
// words ws (one per register word; -1 leaves the register zero).
func (l *lowerer) loadGeometryInput(st *storage, bases []ast.Basic, ws []int) {
	for k, bs := range bases {
		if k >= len(ws) || ws[k] < 0 {
			continue
		}
		r := st.base + ir.Reg(k)
		if bs == ast.Bool {
			t := l.b.Imm(ir.LoadInput, l.b.Reg(ir.U32), uint32(ws[k]))
			l.b.OpTo(ir.Ne, r, t, l.b.ConstU(0))
			continue
		}
		l.b.Imm(ir.LoadInput, r, uint32(ws[k]))
	}
}

// geometryBuiltin lowers EmitVertex (store every output, then ir.Emit) and
// EndPrimitive (ir.EndPrim); ok is false for every other built-in.
// spec: GLSL 1.50 §8.10.
func (l *lowerer) geometryBuiltin(x *ast.Call) (value, bool) {
	switch x.Builtin {
	case ast.FnEmitVertex:
		l.storeOutputs()
		l.b.Ctl(ir.Emit)
	case ast.FnEndPrimitive:
		l.b.Ctl(ir.EndPrim)
	case ast.FnEmitStreamVertex, ast.FnEndStreamPrimitive:
		// Only stream 0 is rasterized and there is no transform feedback,
		// so the other streams' vertices go nowhere: stream 0 is
		// EmitVertex / EndPrimitive, the others emit nothing.
		// spec: ARB_gpu_shader5 §8.10, GL 4.6 §11.3.4.2
		if cv := x.Args[0].Value(); cv != nil && cv.Int(0) == 0 {
			if x.Builtin == ast.FnEmitStreamVertex {
				l.storeOutputs()
				l.b.Ctl(ir.Emit)
			} else {
				l.b.Ctl(ir.EndPrim)
			}
		}
	default:
		return value{}, false
	}
	return value{t: x.Type()}, true
}

// blockFromMembers lays out a fragment input block instance whose block the
// previous stage declares unnamed: each member reads the previous stage's
// output of the member's name (words no output provides read zero). It
// reports whether any member has such an output. spec: GLSL 1.50 §4.3.7
// (blocks match by block name).
func (l *lowerer) blockFromMembers(v *ast.Var, prevOut map[string]int, prevWords map[string]int) bool {
	var ws []int
	found := false
	for _, f := range v.Type.Struct.Fields {
		w, ok := prevOut[f.Name]
		for k := 0; k < f.Type.Slots(); k++ {
			if ok && k < prevWords[f.Name] {
				ws = append(ws, w+k)
				found = true
			} else {
				ws = append(ws, -1)
			}
		}
		if ok {
			n := min(f.Type.Slots(), prevWords[f.Name])
			l.p.Inputs = append(l.p.Inputs, ir.Slot{Name: v.Name + "." + f.Name, Word: w, Words: n, Type: slotType(f.Type),
				Location: -1, Flat: v.Qual.Interp == ast.InterpFlat || containsNonFloatWord(f.Type), NoPerspective: v.Qual.Interp == ast.InterpNoPerspective})
		}
	}
	if !found {
		return false
	}
	if l.geoIn == nil {
		l.geoIn = map[*ast.Var][]int{}
	}
	l.geoIn[v] = ws
	l.inVars = append(l.inVars, v)
	return true
}

// containsNonFloatWord reports whether a type holds an integer or bool word
// (such a varying is flat).
func containsNonFloatWord(t *ast.Type) bool {
	for _, b := range ast.WordBases(t) {
		if b != ast.Float {
			return true
		}
	}
	return false
}
