package program

import (
	"math"

	"vortexgfx/ref"
)

// The fixed-function vertex record a program without a vertex shader reads:
// gl_Vertex, gl_Color and gl_MultiTexCoord0, four words each.
const (
	FixedPosition    = 0
	FixedColor       = 4
	FixedTexCoord    = 8
	FixedVertexWords = 12
)

// FixedVertexState is the state GL's fixed-function vertex stage reads: the
// modelview-projection and modelview matrices (column-major), the user clip
// planes (eye space) and the current texture coordinates of units 1.. (unit
// 0's come with each vertex).
type FixedVertexState struct {
	MVP, ModelView [16]float32
	Clip           ClipState
	TexCoords      [8][4]float32
}

// FixedVertex returns GL's fixed-function vertex stage for a program with only
// a fragment shader: gl_Position = MVP·gl_Vertex, the enabled user clip planes
// dotted with the eye-space vertex, gl_Color and gl_TexCoord[] from the vertex
// colour and texture coordinates (the current ones past unit 0). Its clip
// distances are the enabled planes up to the highest. spec: GL 2.1 §2.11-§2.12
func (p *Program) FixedVertex(s FixedVertexState) ref.VertexShader {
	mvp, mv := s.MVP, s.ModelView
	nclip := 0
	for m := s.Clip.Enabled; m != 0; m >>= 1 {
		nclip++
	}
	planes := s.Clip.Planes
	texCoords := s.TexCoords
	nv := p.Varyings()
	col, hasCol := p.FragmentInput("gl_Color")
	tc, hasTC := p.FragmentInput("gl_TexCoord")
	return ref.VertexFunc{Out: ref.VertexLayout{Varyings: nv, ClipDistances: nclip}, Fn: func(b *ref.VertexBatch, _ ref.Textures) error {
		for v := 0; v < b.N; v++ {
			a := b.Attribs[v*b.AttribWords : (v+1)*b.AttribWords]
			var x [4]float32
			for k := 0; k < 4; k++ {
				x[k] = math.Float32frombits(a[FixedPosition+k])
			}
			for r := 0; r < 4; r++ {
				b.Position[v][r] = mvp[r]*x[0] + mvp[4+r]*x[1] + mvp[8+r]*x[2] + mvp[12+r]*x[3]
			}
			// User clip planes apply to the eye-space vertex (GL 2.1 §2.12).
			var eye [4]float32
			for r := 0; r < 4; r++ {
				eye[r] = mv[r]*x[0] + mv[4+r]*x[1] + mv[8+r]*x[2] + mv[12+r]*x[3]
			}
			for k := 0; k < nclip; k++ {
				pl := planes[k]
				b.ClipDist[v*nclip+k] = pl[0]*eye[0] + pl[1]*eye[1] + pl[2]*eye[2] + pl[3]*eye[3]
			}
			out := b.Varyings[v*nv : (v+1)*nv]
			if hasCol && col.Word+4 <= nv {
				copy(out[col.Word:col.Word+4], a[FixedColor:FixedColor+4])
			}
			if hasTC {
				for i := 0; i*4 < tc.Words && tc.Word+4*i+4 <= nv; i++ {
					w := tc.Word + 4*i
					if i == 0 {
						copy(out[w:w+4], a[FixedTexCoord:FixedTexCoord+4])
						continue
					}
					for k := 0; k < 4; k++ {
						out[w+k] = math.Float32bits(texCoords[i%len(texCoords)][k])
					}
				}
			}
		}
		return nil
	}}
}
