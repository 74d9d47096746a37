package pipe

import "testing"

// FuzzIndexTranslation decodes arbitrary index bytes and translates them for every
// topology; bad input returns an error, never a panic, and a translated list only
// holds indices of the input.
func FuzzIndexTranslation(f *testing.F) {
	f.Add(byte(PrimTriangleStrip), byte(2), true, uint32(0xFFFF), []byte{0, 0, 1, 0, 2, 0, 0xFF, 0xFF, 3, 0})
	f.Add(byte(PrimTriangleFan), byte(1), false, uint32(0), []byte{0, 1, 2, 3, 4})
	f.Fuzz(func(t *testing.T, mode, size byte, restart bool, ri uint32, data []byte) {
		n := uint32(len(data))
		if size != 0 {
			n /= uint32(size)
		}
		idx, err := WidenIndices(data, int(size), 0, n)
		if err != nil {
			return
		}
		set := map[uint32]bool{}
		for _, v := range idx {
			set[v] = true
		}
		out, err := TriangleList(PrimMode(mode%8), idx, restart, ri, mode&8 != 0)
		if err != nil {
			return
		}
		if len(out)%3 != 0 {
			t.Fatalf("list of %d indices", len(out))
		}
		for _, v := range out {
			if !set[v] || restart && v == ri {
				t.Fatalf("index %d not from the input", v)
			}
		}
	})
}

// FuzzResolveDraws decodes arbitrary indirect buffers.
func FuzzResolveDraws(f *testing.F) {
	f.Add([]byte{3, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, uint32(0), uint32(16), uint32(1), false)
	f.Fuzz(func(t *testing.T, buf []byte, off, stride, count uint32, indexed bool) {
		if len(buf) == 0 || len(buf) > 4096 {
			return
		}
		s := NewScreenWithCaps(Caps{}, Options{})
		r, err := s.CreateBuffer(len(buf))
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Write(0, buf); err != nil {
			t.Fatal(err)
		}
		info := &DrawInfo{Indirect: &IndirectInfo{Buffer: r, Offset: off, Stride: stride, DrawCount: count % 4096}}
		if indexed {
			info.IndexSize = 4
		}
		draws, err := ResolveDraws(info)
		if err != nil {
			return
		}
		if uint32(len(draws)) > count%4096 {
			t.Fatalf("%d draws from a count of %d", len(draws), count%4096)
		}
	})
}

// FuzzParseForceSW parses arbitrary VORTEX_FORCE_SW values.
func FuzzParseForceSW(f *testing.F) {
	f.Add("tex|om")
	f.Add("all")
	f.Fuzz(func(t *testing.T, s string) {
		u, err := ParseForceSW(s)
		if err == nil && u&^UnitAll != 0 {
			t.Fatalf("%q: unit bits %#x", s, u)
		}
	})
}

// FuzzDrawVBO draws arbitrary index data, ranges, base vertices and instances
// over a 4-vertex buffer on either path: bad input returns an error, never a
// panic or a hang (indices past the buffer read zeros on the reference path;
// the device reads its own memory).
func FuzzDrawVBO(f *testing.F) {
	f.Add(byte(PrimTriangleStrip), byte(2), false, int32(0), uint32(0), uint32(4), uint32(1), []byte{0, 0, 1, 0, 2, 0, 3, 0})
	f.Add(byte(PrimTriangleFan|0x80), byte(1), true, int32(-1), uint32(1), uint32(5), uint32(3), []byte{0, 1, 2, 3, 0xFF, 1})
	f.Add(byte(PrimTriangles|0x80), byte(0), false, int32(2), uint32(0), uint32(6), uint32(2), []byte{})
	f.Add(byte(PrimLines), byte(4), false, int32(0), uint32(0), uint32(2), uint32(1), []byte{0, 0, 0, 0, 255, 255, 255, 255})
	f.Fuzz(func(t *testing.T, mode, size byte, restart bool, bias int32, start, count, inst uint32, idx []byte) {
		e := newDrawEnv(t, Options{ForceReference: mode&0x80 == 0}, false)
		e.program(t, testVS, testFS)
		e.posCol(t, quadVerts(0, [4]float32{1, 1, 1, 1}, -1, -1, 1, 1)...)
		info := &DrawInfo{Mode: PrimMode(mode & 7), IndexSize: int(size % 5), PrimitiveRestart: restart, RestartIndex: 0xFF,
			InstanceCount: inst % 4, Draws: []DrawRange{{Start: start % 64, Count: count % 64, IndexBias: bias % 8}}}
		if info.IndexSize != 0 && len(idx) > 0 {
			info.Index = e.bytes(t, idx)
		}
		_ = e.c.DrawVBO(info)
	})
}
