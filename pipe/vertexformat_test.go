package pipe

import "testing"

// TestVertexFormatSizes pins each vertex format's size in bytes and its
// component count: a format that reads more than its components would read
// past a tightly packed record's last vertex.
func TestVertexFormatSizes(t *testing.T) {
	for _, tc := range []struct {
		f            VertexFormat
		bytes, comps int
	}{
		{VertexFloat32x1, 4, 1}, {VertexFloat32x2, 8, 2}, {VertexFloat32x3, 12, 3}, {VertexFloat32x4, 16, 4},
		{VertexUNorm8x4, 4, 4},
		{VertexUInt32x1, 4, 1}, {VertexUInt32x2, 8, 2}, {VertexUInt32x3, 12, 3}, {VertexUInt32x4, 16, 4},
		{VertexSInt32x1, 4, 1}, {VertexSInt32x2, 8, 2}, {VertexSInt32x3, 12, 3}, {VertexSInt32x4, 16, 4},
	} {
		if b, c := elementBytes(tc.f), elementComponents(tc.f); b != tc.bytes || c != tc.comps {
			t.Errorf("format %d: %d bytes, %d components; want %d, %d", tc.f, b, c, tc.bytes, tc.comps)
		}
	}
	var c Context
	if _, err := c.CreateVertexElementsState([]VertexElement{{Format: VertexSInt32x3}}); err != nil {
		t.Errorf("SInt32x3 refused: %v", err)
	}
	if _, err := c.CreateVertexElementsState([]VertexElement{{Format: VertexSInt32x3 + 1}}); err == nil {
		t.Error("a format past the last was accepted")
	}
}
