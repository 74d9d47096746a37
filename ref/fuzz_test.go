package ref

import (
	"context"
	"encoding/binary"
	"math"
	"testing"

	"vortexgfx/gl/format"
)

// FuzzDraw decodes a draw from bytes: a header (topology, index type,
// first, count, base vertex, instances, state bits) followed by vertex
// words (x, y, z, w, one varying, one clip distance, any bit pattern incl.
// NaN and infinity) and an index buffer. Draw must return an error or
// render; it must never panic or hang.
func FuzzDraw(f *testing.F) {
	seed := func(top, it byte, first, count uint8, base int8, inst uint8, bits uint8, verts []float32, idx []byte) []byte {
		b := []byte{top, it, first, count, byte(base), inst, bits, byte(len(verts) / 6)}
		for _, v := range verts {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(v))
		}
		return append(b, idx...)
	}
	tri := []float32{-1, -1, 0, 1, 0.5, 1, 1, -1, 0, 1, 0.5, 1, 0, 1, 0, 1, 0.5, 1}
	f.Add(seed(byte(Triangles), byte(IndexNone), 0, 3, 0, 1, 0, tri, nil))
	f.Add(seed(byte(TriangleStrip), byte(Index8), 0, 4, 0, 2, 0xFF, tri, []byte{0, 1, 0xFF, 2}))
	f.Add(seed(byte(LineLoop), byte(Index16), 1, 2, 1, 1, 0x0F, tri, []byte{0, 0, 1, 0, 0, 0}))
	f.Add(seed(byte(Points), byte(IndexNone), 0, 3, 0, 1, 0xF0, []float32{0, 0, 0, 0, 0, 0, float32(math.NaN()), 0, 0, 1, 0, 0, 1e30, -1e30, 5, 1e-30, 0, -1}, nil))
	f.Add(seed(byte(TriangleFan), byte(Index32), 0, 2, -3, 0, 0x33, tri, []byte{1, 0, 0, 0, 2, 0, 0, 0}))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 8 {
			return
		}
		h, data := data[:8], data[8:]
		nv := min(int(h[7]), len(data)/24)
		in := VertexInput{Words: 6}
		for i := range nv * 6 {
			in.Data = append(in.Data, binary.LittleEndian.Uint32(data[4*i:]))
		}
		idx := data[nv*24:]
		bits := h[6]
		vs := VertexFunc{Out: VertexLayout{Varyings: 1, ClipDistances: 1, PointSize: bits&1 != 0}, Fn: func(b *VertexBatch, _ Textures) error {
			for v := range b.N {
				a := b.Attribs[v*6:]
				for i := range 4 {
					b.Position[v][i] = math.Float32frombits(a[i])
				}
				b.Varyings[v] = a[4]
				b.ClipDist[v] = math.Float32frombits(a[5])
				b.PointSize[v] = math.Float32frombits(a[4]) * 10
			}
			return nil
		}}
		tg, err := NewTarget(17, 11, []format.Format{format.RGBA8, format.RGBA16F}, format.D24S8)
		if err != nil {
			t.Fatal(err)
		}
		s := DefaultState(17, 11)
		s.Vertex, s.Fragment = vs, colorFS
		s.Depth.Test, s.Depth.Clamp = bits&2 != 0, bits&4 != 0
		s.StencilTest = bits&8 != 0
		s.ClipDistances = bits >> 4 & 1
		s.ClipZeroToOne = bits&32 != 0
		s.PrimitiveRestart, s.RestartIndex = bits&64 != 0, FixedRestartIndex(IndexType(h[1]%4))
		s.Cull = CullMode(bits >> 6 & 3)
		s.LineWidth = float32(bits & 7)
		if bits&128 != 0 {
			s.Interp = []Interp{Flat}
		}
		p := DrawParams{Topology: Topology(h[0] % 11), IndexType: IndexType(h[1] % 5), First: int(h[2] % 16), Count: int(h[3]),
			Indices: idx, BaseVertex: int32(int8(h[4])), Instances: int(h[5] % 4)}
		_ = Draw(context.Background(), tg, &s, in, p)
	})
}
