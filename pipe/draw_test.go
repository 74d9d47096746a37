package pipe

import (
	"encoding/binary"
	"reflect"
	"testing"
)

// spec: vortexpipe §3.1 (strips and fans → lists, restart resolved, provoking kept)
func TestTriangleList(t *testing.T) {
	const R = 0xFFFF
	tests := []struct {
		name    string
		mode    PrimMode
		idx     []uint32
		restart bool
		first   bool
		want    []uint32
	}{
		{"list", PrimTriangles, []uint32{0, 1, 2, 3, 4, 5, 6}, false, false, []uint32{0, 1, 2, 3, 4, 5}},
		{"strip GL", PrimTriangleStrip, []uint32{0, 1, 2, 3, 4}, false, false, []uint32{0, 1, 2, 2, 1, 3, 2, 3, 4}},
		{"strip Vulkan", PrimTriangleStrip, []uint32{0, 1, 2, 3, 4}, false, true, []uint32{0, 1, 2, 1, 3, 2, 2, 3, 4}},
		{"fan GL", PrimTriangleFan, []uint32{0, 1, 2, 3}, false, false, []uint32{0, 1, 2, 0, 2, 3}},
		{"fan Vulkan", PrimTriangleFan, []uint32{0, 1, 2, 3}, false, true, []uint32{1, 2, 0, 2, 3, 0}},
		{"strip short", PrimTriangleStrip, []uint32{0, 1}, false, false, []uint32{}},
		{"strip restart", PrimTriangleStrip, []uint32{0, 1, 2, 3, R, 4, 5, 6, 7}, true, false,
			[]uint32{0, 1, 2, 2, 1, 3, 4, 5, 6, 6, 5, 7}},
		{"strip restart parity resets", PrimTriangleStrip, []uint32{0, 1, 2, R, 3, 4, 5, 6}, true, false,
			[]uint32{0, 1, 2, 3, 4, 5, 5, 4, 6}},
		{"fan restart", PrimTriangleFan, []uint32{9, 1, 2, 3, R, 8, 4, 5}, true, false, []uint32{9, 1, 2, 9, 2, 3, 8, 4, 5}},
		{"list restart drops partial", PrimTriangles, []uint32{0, 1, 2, 3, R, 4, 5, 6, R, R}, true, false, []uint32{0, 1, 2, 4, 5, 6}},
		{"restart index not special without restart", PrimTriangles, []uint32{0, R, 2}, false, false, []uint32{0, R, 2}},
		{"empty", PrimTriangleFan, nil, true, false, []uint32{}},
	}
	for _, tc := range tests {
		got, err := TriangleList(tc.mode, tc.idx, tc.restart, R, tc.first)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !reflect.DeepEqual(got, tc.want) && !(len(got) == 0 && len(tc.want) == 0) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
	if _, err := TriangleList(PrimLines, []uint32{0, 1}, false, 0, false); err == nil {
		t.Error("lines accepted")
	}
}

// spec: vortexpipe §3.1 (u8/u16 widened to u32)
func TestWidenIndices(t *testing.T) {
	src := []byte{1, 2, 3, 4, 5, 6, 7, 8}
	tests := []struct {
		size         int
		start, count uint32
		want         []uint32
		err          bool
	}{
		{1, 2, 3, []uint32{3, 4, 5}, false},
		{2, 1, 2, []uint32{0x0403, 0x0605}, false},
		{4, 1, 1, []uint32{0x08070605}, false},
		{4, 1, 2, nil, true},
		{3, 0, 1, nil, true},
		{2, 0xFFFFFFFF, 2, nil, true},
	}
	for _, tc := range tests {
		got, err := WidenIndices(src, tc.size, tc.start, tc.count)
		if (err != nil) != tc.err || !tc.err && !reflect.DeepEqual(got, tc.want) {
			t.Errorf("WidenIndices(%d, %d, %d) = %v, %v", tc.size, tc.start, tc.count, got, err)
		}
	}
}

func putU32s(t *testing.T, r *Resource, off int, v ...uint32) {
	t.Helper()
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], x)
	}
	if err := r.Write(off, b); err != nil {
		t.Fatal(err)
	}
}

// spec: vortexpipe §3.1 (indirect resolved on the host, multi-draw split)
func TestResolveDraws(t *testing.T) {
	s := NewScreenWithCaps(fullCaps(), Options{})
	multi := &DrawInfo{StartInstance: 2, InstanceCount: 3, Draws: []DrawRange{{0, 3, 0}, {6, 9, -2}}}
	got, err := ResolveDraws(multi)
	if err != nil {
		t.Fatal(err)
	}
	want := []DirectDraw{{0, 3, 0, 2, 3}, {6, 9, -2, 2, 3}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("multi-draw %v", got)
	}
	buf, _ := s.CreateBuffer(128)
	putU32s(t, buf, 4, 3, 1, 10, 0) // non-indexed record at 4
	putU32s(t, buf, 24, 6, 2, 0, 5) // stride 20
	got, err = ResolveDraws(&DrawInfo{Indirect: &IndirectInfo{Buffer: buf, Offset: 4, Stride: 20, DrawCount: 2}})
	if err != nil {
		t.Fatal(err)
	}
	want = []DirectDraw{{Start: 10, Count: 3, InstanceCount: 1}, {Start: 0, Count: 6, InstanceCount: 2, StartInstance: 5}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("indirect %v", got)
	}
	putU32s(t, buf, 64, 12, 1, 3, 0xFFFFFFFE, 7) // indexed record, base vertex -2
	cnt, _ := s.CreateBuffer(4)
	putU32s(t, cnt, 0, 1)
	got, err = ResolveDraws(&DrawInfo{IndexSize: 2, Indirect: &IndirectInfo{Buffer: buf, Offset: 64, DrawCount: 5, CountBuffer: cnt}})
	if err != nil {
		t.Fatal(err)
	}
	want = []DirectDraw{{Start: 3, Count: 12, BaseVertex: -2, InstanceCount: 1, StartInstance: 7}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("indexed indirect with count buffer %v", got)
	}
	bad := []*IndirectInfo{
		{Buffer: buf, Offset: 120, DrawCount: 1},
		{Buffer: buf, Stride: 6, DrawCount: 1},
		{Buffer: nil, DrawCount: 1},
		{Buffer: buf, DrawCount: 1 << 21},
	}
	for i, in := range bad {
		if _, err := ResolveDraws(&DrawInfo{Indirect: in}); err == nil {
			t.Errorf("bad indirect %d accepted", i)
		}
	}
}

// TestPlanIndices: the device plan carries the translated list, read from the
// index buffer at the draw's start.
func TestPlanIndices(t *testing.T) {
	s := NewScreenWithCaps(fullCaps(), Options{})
	c := s.NewContext(ContextOptions{})
	st := eligible(t, s)
	_ = c.BindVSState(st.VS)
	_ = c.BindFSState(st.FS)
	if err := c.SetFramebufferState(st.FB); err != nil {
		t.Fatal(err)
	}
	ib, _ := s.CreateBuffer(16)
	if err := ib.Write(0, []byte{0, 0, 5, 0, 6, 0, 7, 0, 0xFF, 0xFF, 8, 0, 9, 0, 10, 0}); err != nil {
		t.Fatal(err)
	}
	plan, err := c.Plan(&DrawInfo{Mode: PrimTriangleFan, IndexSize: 2, Index: ib, PrimitiveRestart: true, RestartIndex: 0xFFFF,
		InstanceCount: 1, Draws: []DrawRange{{Start: 1, Count: 7, IndexBias: 100}}})
	if err != nil {
		t.Fatal(err)
	}
	want := []uint32{5, 6, 7, 8, 9, 10}
	if len(plan) != 1 || !reflect.DeepEqual(plan[0].Indices, want) || plan[0].Draw.BaseVertex != 100 {
		t.Errorf("plan %+v", plan)
	}
	plan, err = c.Plan(&DrawInfo{Mode: PrimTriangles, InstanceCount: 1, Draws: []DrawRange{{Count: 6}}})
	if err != nil || plan[0].Indices != nil {
		t.Errorf("non-indexed list needs no indices: %+v %v", plan, err)
	}
	if _, err := c.Plan(&DrawInfo{Mode: PrimTriangles, IndexSize: 2, IndexData: []byte{1, 0}, InstanceCount: 1, Draws: []DrawRange{{Count: 3}}}); err == nil {
		t.Error("short index data accepted")
	}
}
