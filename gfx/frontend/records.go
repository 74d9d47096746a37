package frontend

import (
	"encoding/binary"
	"math"

	"vortexgfx/abi"
)

// PutVertex writes v as a setup_vertex_t record (the draw3d vertex).
// spec: vortex-hardware-facts §3.2
func PutVertex(b []byte, v *Vertex) {
	f := [10]float32{v.Pos[0], v.Pos[1], v.Pos[2], v.Pos[3], v.Color[0], v.Color[1], v.Color[2], v.Color[3], v.TexCoord[0], v.TexCoord[1]}
	for i, x := range f {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
}

func getVertex(b []byte, v *Vertex) {
	g := func(i int) float32 { return math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:])) }
	v.Pos = [4]float32{g(0), g(1), g(2), g(3)}
	v.Color = [4]float32{g(4), g(5), g(6), g(7)}
	v.TexCoord = [2]float32{g(8), g(9)}
}

// CompiledVertexBytes is one expand_k output record (the setup input of a
// compiled program's draw): clip-space position xyzw, the 12 varying planes in
// abi.VaryingPlane order, then the abi.FlatSideWords flat words, all 32-bit
// words. A program with more flat words (abi.SideFlatWords) or varyings
// beyond the planes has longer records: the flat region grows, and the extra
// varyings follow it. spec: vortexpipe §3.2 step 1
const CompiledVertexBytes = 4 * (4 + abi.NumVaryingPlanes + abi.FlatSideWords)

// CompiledFlatOffset is the byte offset of the flat words in an expand_k record.
const CompiledFlatOffset = 4 * (4 + abi.NumVaryingPlanes)

// PutCompiledVertex writes v's position and its NVar packed varyings as an
// expand_k record (unused planes are zero).
func PutCompiledVertex(b []byte, v *Vertex) {
	for i, x := range v.Pos {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	for i := range v.Var {
		x := float32(0)
		if i < v.NVar {
			x = v.Var[i]
		}
		binary.LittleEndian.PutUint32(b[16+4*i:], math.Float32bits(x))
	}
}

func getCompiledVertex(b []byte, n int, v *Vertex) {
	w := b[:4*(4+n)] // one bounds check for the words read
	if hostLittleEndian {
		// The record's words are the fields' memory: two copies.
		copy(floatBytes(v.Pos[:]), w[:16])
		copy(floatBytes(v.Var[:n]), w[16:])
		clear(v.Var[n:])
		v.Color, v.TexCoord, v.bary, v.NVar = [4]float32{}, [2]float32{}, [3]float32{}, n
		return
	}
	for i := range v.Pos {
		v.Pos[i] = math.Float32frombits(binary.LittleEndian.Uint32(w[4*i:]))
	}
	for i := range n {
		v.Var[i] = math.Float32frombits(binary.LittleEndian.Uint32(w[16+4*i:]))
	}
	clear(v.Var[n:])
	v.Color, v.TexCoord, v.bary, v.NVar = [4]float32{}, [2]float32{}, [3]float32{}, n
}
