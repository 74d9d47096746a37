package texunit

import (
	"testing"

	"vortexgfx/gl/sampler"
	"vortexgfx/shader/exec"
	"vortexgfx/shader/ir"
)

// request builds a 4-lane exec request whose lane l holds coordinates
// (l, 10+l, 20+l, 30+l), integer coordinates l·k, lod 0.5·l and compare 0.25·l.
func request(op ir.TexOp, kind ir.SamplerKind) *exec.TexRequest {
	const w = 4
	r := &exec.TexRequest{Op: op, Binding: ir.SamplerBinding{Kind: kind}, Mask: 0xF, Width: w, NCoord: 3}
	for k := 0; k < 4; k++ {
		r.Coord[k], r.ICoord[k], r.Out[k] = make([]float32, w), make([]int32, w), make([]uint32, w)
		for l := 0; l < w; l++ {
			r.Coord[k][l] = float32(10*k + l)
			r.ICoord[k][l] = int32(l * (k + 1))
		}
	}
	r.Lod, r.ILod, r.Compare = make([]float32, w), make([]int32, w), make([]float32, w)
	for l := 0; l < w; l++ {
		r.Lod[l], r.ILod[l], r.Compare[l] = 0.5*float32(l), int32(l), 0.25*float32(l)
	}
	return r
}

// TestRequestMapping pins the exec → reference request mapping the reference
// renderer and the device's software sampler share: lane packing, the op and
// LOD mode per instruction, the 1D shadow coordinate, the fetch level or
// sample, and the query-levels result move.
// spec: vortexpipe-driver §2.3.2, §3.6
func TestRequestMapping(t *testing.T) {
	lanes := []int{3, 1}
	for _, tc := range []struct {
		name  string
		op    ir.TexOp
		kind  ir.SamplerKind
		setup func(r *exec.TexRequest)
		check func(t *testing.T, q *sampler.Request)
	}{
		{"implicit LOD", ir.TexSample, ir.Sampler2D, nil, func(t *testing.T, q *sampler.Request) {
			if q.Op != sampler.OpSample || q.LOD != sampler.LODNone || q.N != 2 || q.Coord[0] != [4]float32{3, 13, 23, 0} || q.Coord[1][0] != 1 {
				t.Errorf("%+v", q)
			}
		}},
		{"explicit LOD", ir.TexSampleLod, ir.Sampler2D, func(r *exec.TexRequest) { r.HasLod = true }, func(t *testing.T, q *sampler.Request) {
			if q.LOD != sampler.LODExplicit || q.LODValue[0] != 1.5 || q.LODValue[1] != 0.5 {
				t.Errorf("%+v", q)
			}
		}},
		{"query LOD", ir.TexQueryLod, ir.Sampler2D, nil, func(t *testing.T, q *sampler.Request) {
			if q.Op != sampler.OpQueryLod {
				t.Errorf("op %v", q.Op)
			}
		}},
		{"1D shadow", ir.TexSample, ir.Sampler1DShadow, func(r *exec.TexRequest) { r.HasRef = true }, func(t *testing.T, q *sampler.Request) {
			if q.Coord[0][1] != 0 || q.Ref[0] != 0.75 || q.Ref[1] != 0.25 {
				t.Errorf("%+v", q)
			}
		}},
		{"fetch with level", ir.TexFetch, ir.Sampler2D, func(r *exec.TexRequest) { r.HasLod = true }, func(t *testing.T, q *sampler.Request) {
			if q.Op != sampler.OpFetch || q.IntCoord[0] != [4]int32{3, 6, 9, 3} {
				t.Errorf("%+v", q)
			}
		}},
		{"fetch a sample", ir.TexFetch, ir.Sampler2DMS, func(r *exec.TexRequest) { r.HasLod = true }, func(t *testing.T, q *sampler.Request) {
			if q.Op != sampler.OpFetchSample || q.IntCoord[1][3] != 1 {
				t.Errorf("%+v", q)
			}
		}},
		{"size without a level", ir.TexSize, ir.Sampler2D, nil, func(t *testing.T, q *sampler.Request) {
			if q.Op != sampler.OpSize || q.IntCoord[0] != [4]int32{} {
				t.Errorf("%+v", q)
			}
		}},
		{"gather offsets", ir.TexGather, ir.Sampler2D, func(r *exec.TexRequest) {
			r.HasOffsets, r.Offsets = true, [4][2]int32{{1, 0}, {0, 1}, {-1, 0}, {0, -1}}
		}, func(t *testing.T, q *sampler.Request) {
			if q.Op != sampler.OpGather || !q.UseGatherOffsets || q.GatherOffsets[3] != [2]int32{0, -1} {
				t.Errorf("%+v", q)
			}
		}},
	} {
		var u Unit
		r := request(tc.op, tc.kind)
		if tc.setup != nil {
			tc.setup(r)
		}
		q, out, err := u.Request(r, lanes)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if len(out) != len(lanes) {
			t.Fatalf("%s: %d result slots", tc.name, len(out))
		}
		t.Run(tc.name, func(t *testing.T) { tc.check(t, q) })
	}
}

// TestScatter checks that results reach only the listed lanes and that
// textureQueryLevels moves the level count into the first word.
func TestScatter(t *testing.T) {
	var u Unit
	r := request(ir.TexQueryLevels, ir.Sampler2D)
	lanes := []int{2}
	_, out, err := u.Request(r, lanes)
	if err != nil {
		t.Fatal(err)
	}
	out[0] = [4]uint32{8, 8, 1, 4}
	u.Scatter(r, lanes)
	if r.Out[0][2] != 4 || r.Out[1][2] != 8 || r.Out[0][0] != 0 {
		t.Errorf("out %v", r.Out)
	}
	if _, _, err := u.Request(&exec.TexRequest{Op: ir.TexOp(255)}, nil); err == nil {
		t.Error("an unknown op was accepted")
	}
}
