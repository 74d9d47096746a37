package sampler

import (
	"errors"
	"testing"

	"vortexgfx/gl/format"
)

// TestGatherLaneOffset: a gather with per-lane offsets (ARB_gpu_shader5's
// textureGatherOffset with a run-time offset) reads each lane's footprint
// moved by that lane's own offset, exactly as the same constant offset does;
// lane offsets on any other op, or fewer than the lanes, are refused.
func TestGatherLaneOffset(t *testing.T) {
	tx := mustTex(t, Dim2D, format.RGBA8UI, 4, 2, 1, 0)
	for y := range 2 {
		for x := range 4 {
			_ = tx.SetInt(0, x, y, 0, [4]uint32{uint32(x + 10*y), 1, 2, 3})
		}
	}
	s := nearestS(ClampToEdge)
	offs := [][2]int32{{0, 0}, {-1, 0}, {1, 0}, {2, -1}}
	out := make([][4]uint32, 4)
	coord := [][4]float32{{0.5, 0.5}, {0.5, 0.5}, {0.5, 0.5}, {0.5, 0.5}}
	req := Request{Op: OpGather, N: 4, Coord: coord, LaneOffset: offs}
	if err := Sample(tx, &s, &req, out); err != nil {
		t.Fatal(err)
	}
	for l, o := range offs {
		one := make([][4]uint32, 1)
		c := Request{Op: OpGather, N: 1, Coord: coord[:1], Offset: [3]int32{o[0], o[1], 0}}
		if err := Sample(tx, &s, &c, one); err != nil {
			t.Fatal(err)
		}
		if out[l] != one[0] {
			t.Errorf("lane %d offset %v: %v, the constant offset gives %v", l, o, out[l], one[0])
		}
	}
	if out[1] != [4]uint32{10, 11, 1, 0} {
		t.Errorf("lane 1 (offset -1, 0): %v, want [10 11 1 0]", out[1])
	}
	bad := Request{Op: OpSample, N: 1, Coord: coord[:1], LaneOffset: offs[:1]}
	if err := Sample(tx, &s, &bad, out); !errors.Is(err, ErrBadRequest) {
		t.Errorf("lane offsets on a sample: %v, want ErrBadRequest", err)
	}
	short := Request{Op: OpGather, N: 4, Coord: coord, LaneOffset: offs[:2]}
	if err := Sample(tx, &s, &short, out); !errors.Is(err, ErrBadRequest) {
		t.Errorf("2 lane offsets for 4 lanes: %v, want ErrBadRequest", err)
	}
}
