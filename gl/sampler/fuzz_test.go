package sampler

import (
	"encoding/binary"
	"math"
	"testing"

	"vortexgfx/gl/compare"
	"vortexgfx/gl/format"
)

// FuzzSample builds a small texture, sampler state and one request of every
// operation from bytes (coordinates, derivatives, LODs and references are
// arbitrary float bits incl. NaN and infinity). Sample must return an error
// or a result; it must never panic.
func FuzzSample(f *testing.F) {
	f.Add([]byte{2, 1, 3, 2, 1, 0, 1, 1, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0x3f, 0, 0, 0, 0x3f})
	f.Add([]byte{4, 6, 1, 1, 6, 2, 1, 0, 3, 3, 16, 1, 5, 0, 0, 0x80, 0x3f, 0, 0, 0x80, 0xbf, 0, 0, 0, 0})
	f.Add([]byte{7, 16, 4, 4, 12, 1, 1, 2, 4, 1, 8, 1, 2, 0xff, 0xff, 0xff, 0x7f, 0, 0, 0x80, 0x7f})
	f.Add([]byte{3, 8, 5, 3, 7, 0, 0, 1, 0, 2, 0, 0, 7, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) < 13 {
			return
		}
		dim := Dim(b[0]%7 + 1)
		fm := format.Format(b[1]%27 + 1)
		w, h, d := int(b[2]%9)+1, int(b[3]%9)+1, int(b[4]%13)+1
		switch dim {
		case Dim1D:
			h, d = 1, 1
		case Dim2D:
			d = 1
		case Dim1DArray:
			h = 1
		case DimCube:
			h, d = w, 6
		case DimCubeArray:
			h, d = w, 6*(d%3+1)
		}
		tx, err := NewTexture(dim, fm, w, h, d, 0)
		if (dim == Dim2D || dim == Dim2DArray) && b[5]&8 != 0 {
			tx, err = NewMultisampleTexture(dim, fm, w, h, d, 4)
		}
		if err != nil {
			return
		}
		if b[6]&32 != 0 { // pitched rows and slices
			for i := range tx.Levels {
				l := &tx.Levels[i]
				bpp := fm.Info().Bytes * max(tx.Samples, 1)
				l.RowPitch = l.W*bpp + 3
				l.SlicePitch = l.RowPitch*l.H + 5
				l.Data = make([]byte, l.SlicePitch*l.D)
			}
		}
		for i := range tx.Levels {
			for k := range tx.Levels[i].Data {
				tx.Levels[i].Data[k] = byte(k*31 + i)
			}
		}
		tx.BaseLevel, tx.MaxLevel = int(b[5]%4)-1, int(b[6]%5)-1
		tx.Swizzle = [4]Swizzle{Swizzle(b[7] % 7), SwizzleG, Swizzle(b[7] / 7 % 7), SwizzleA}
		s := Sampler{MinFilter: Filter(b[8] & 1), MagFilter: Filter(b[8] >> 1 & 1), MipFilter: MipFilter(b[8] >> 2 % 4),
			WrapS: Wrap(b[9] % 8), WrapT: Wrap(b[9] / 8 % 8), WrapR: Wrap(b[9] / 64 % 8),
			MaxAnisotropy: float32(b[10]), CompareEnable: b[11]&1 != 0, Compare: compare.Func(b[11] >> 1 % 9),
			CubeSeamless: b[11]&64 != 0, MinLOD: -1000, MaxLOD: 1000, LODBias: float32(int8(b[12])) / 16}
		rest := b[13:]
		fl := func(i int) float32 {
			if 4*i+4 > len(rest) {
				return float32(i) * 0.37
			}
			return math.Float32frombits(binary.LittleEndian.Uint32(rest[4*i:]))
		}
		const n = 4
		req := Request{N: n, Coord: make([][4]float32, n), IntCoord: make([][4]int32, n), Ref: make([]float32, n),
			LODValue: make([]float32, n), DPdx: make([][3]float32, n), DPdy: make([][3]float32, n),
			Offset: [3]int32{int32(int8(b[12])) % 9, 1, -1}, GatherComp: int(b[12] % 4), UseGatherOffsets: b[12]&16 != 0}
		for l := range n {
			req.Coord[l] = [4]float32{fl(l), fl(l + 1), fl(l + 2), fl(l + 3)}
			req.IntCoord[l] = [4]int32{int32(fl(l)), int32(l) - 1, int32(b[l%len(b)]) - 3, int32(l) - 1}
			req.Ref[l], req.LODValue[l] = fl(l+4), fl(l+5)
			req.DPdx[l], req.DPdy[l] = [3]float32{fl(l + 6), fl(l + 7), fl(l)}, [3]float32{fl(l + 8), fl(l + 1), fl(l + 9)}
		}
		out := make([][4]uint32, n)
		for _, op := range []Op{OpSample, OpFetch, OpSize, OpGather, OpFetchSample, OpQueryLod} {
			for _, lod := range []LODMode{LODNone, LODGrad, LODExplicit} {
				req.Op, req.LOD = op, lod
				_ = Sample(tx, &s, &req, out)
			}
		}
	})
}
