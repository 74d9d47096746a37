package pipe

import (
	"math"

	"vortexgfx/ref"
	"vortexgfx/ref/program"
	"vortexgfx/shader/ir"
)

// A pair with an unbound stage (BindVSState(nil) or BindFSState(nil)) is
// GL's fixed-function stage there: the reference renderer runs it
// (program.FixedVertex, program.FixedFragment); the device, which has no
// fixed-function stage, runs the program with that stage generated as GLSL
// (ffgen.go; GateNoVS where none can be). The
// fixed-function vertex stage reads gl_Vertex from vertex element 0,
// gl_Color from element 1 and gl_MultiTexCoord0 from element 2 when they
// exist, else the current colour and texture coordinates of the legacy
// state (SetLegacyState), and transforms by its matrices; its user clip
// planes are ClipState's in eye space. spec: GL 2.1 §2.11-§2.12, §3.8-§3.10;
// vortexpipe §1.5.1

// fixedSlots is the fixed-function vertex record (program.FixedVertex's
// layout) as attribute slots at vertex element locations 0, 1 and 2.
var fixedSlots = []ir.Slot{
	{Name: "gl_Vertex", Word: program.FixedPosition, Words: 4, Type: ir.F32, Location: 0},
	{Name: "gl_Color", Word: program.FixedColor, Words: 4, Type: ir.F32, Location: 1},
	{Name: "gl_MultiTexCoord0", Word: program.FixedTexCoord, Words: 4, Type: ir.F32, Location: 2},
}

// vertexAttrs is the attribute slots a draw of l reads from the vertex
// elements ve: the program's, or for the fixed-function vertex stage
// gl_Vertex and those of gl_Color and gl_MultiTexCoord0 an element feeds.
func (l *linked) vertexAttrs(ve *VertexElements) []ir.Slot {
	if l.vs != nil {
		return l.attrs
	}
	n := 1
	if ve != nil {
		n = max(n, min(len(ve.Elements), len(fixedSlots)))
	}
	return fixedSlots[:n]
}

// fixedDefaults fills the fixed-function vertex records of in with the
// current colour and texture coordinates for the slots no element feeds
// (from slot n of fixedSlots on).
func fixedDefaults(in *ref.VertexInput, n int, ls *LegacyState) {
	cur := [...][4]float32{program.FixedColor / 4: ls.Color, program.FixedTexCoord / 4: ls.TexCoords[0]}
	for _, s := range fixedSlots[n:] {
		v := cur[s.Word/4]
		for r := 0; r+in.Words <= len(in.Data); r += in.Words {
			for k := range 4 {
				in.Data[r+s.Word+k] = math.Float32bits(v[k])
			}
		}
	}
}

// legacyOrDefault is st's legacy state, GL's initial one when none is set.
func (st *BoundState) legacyOrDefault() *LegacyState {
	if st.Legacy != nil {
		return st.Legacy
	}
	d := DefaultLegacyState()
	return &d
}

// refStages sets the reference renderer's vertex and fragment stages of a
// draw of l: the program's, or the fixed-function ones for an unbound stage.
func refStages(s *ref.State, st *BoundState, l *linked) {
	if l.vs != nil {
		s.Vertex = l.vs
	} else {
		ls := st.legacyOrDefault()
		en := st.clipEnabled()
		s.Vertex = l.prog.FixedVertex(program.FixedVertexState{MVP: ls.ModelViewProjection(), ModelView: ls.ModelView,
			Clip: program.ClipState{Enabled: en, Planes: st.Clip.UCP}, TexCoords: ls.TexCoords})
		s.ClipDistances = en
	}
	if l.fs != nil {
		s.Fragment = l.fs
	} else {
		s.Fragment = l.prog.FixedFragment()
	}
}
