package pipe

import (
	"bytes"
	"encoding/binary"
	"testing"

	"vortexgfx/gl/format"
)

func TestImageOffset(t *testing.T) {
	d := TextureDesc{Target: Target2DArray, Format: format.RGBA8, Width: 8, Height: 4, Depth: 1, ArraySize: 3, Levels: 3}
	tests := []struct{ level, layer, off, size int }{
		{0, 0, 0, 128}, {0, 2, 256, 128}, {1, 0, 384, 32}, {1, 1, 416, 32}, {2, 2, 480 + 16, 8},
	}
	for _, tc := range tests {
		off, size, err := d.ImageOffset(tc.level, tc.layer)
		if err != nil || off != tc.off || size != tc.size {
			t.Errorf("ImageOffset(%d, %d) = %d, %d, %v; want %d, %d", tc.level, tc.layer, off, size, err, tc.off, tc.size)
		}
	}
	if n, _ := textureBytes(d); n != 480+24 {
		t.Errorf("textureBytes %d", n)
	}
	for _, bad := range [][2]int{{3, 0}, {0, 3}, {-1, 0}} {
		if _, _, err := d.ImageOffset(bad[0], bad[1]); err == nil {
			t.Errorf("ImageOffset%v accepted", bad)
		}
	}
	v := TextureDesc{Target: Target3D, Format: format.R8, Width: 4, Height: 4, Depth: 4, ArraySize: 1, Levels: 2}
	if off, size, err := v.ImageOffset(1, 1); err != nil || off != 64+4 || size != 4 {
		t.Errorf("3D slice: %d %d %v", off, size, err)
	}
}

// TestClear writes the framebuffer area of each attachment in its format and
// dirties the resident copy.
func TestClear(t *testing.T) {
	s := NewScreenWithCaps(fullCaps(), Options{})
	c := s.NewContext(ContextOptions{})
	rgba := testSurface(t, s, format.RGBA8, 4, 2)
	bgra := testSurface(t, s, format.BGRA8, 4, 2)
	zs := testSurface(t, s, format.D24S8, 4, 2)
	if err := c.SetFramebufferState(Framebuffer{Width: 3, Height: 2, Cbufs: []*Surface{rgba, bgra}, Zsbuf: zs}); err != nil {
		t.Fatal(err)
	}
	if err := c.Clear(ClearColor|ClearStencil, [4]float32{1, 0.5, 0, 1}, 0, 0x5A); err != nil {
		t.Fatal(err)
	}
	if err := c.Clear(ClearDepth, [4]float32{}, 1, 0); err != nil {
		t.Fatal(err)
	}
	px := make([]byte, 32)
	_ = rgba.Resource.Read(0, px)
	if !bytes.Equal(px[:4], []byte{255, 128, 0, 255}) || !bytes.Equal(px[12:16], []byte{0, 0, 0, 0}) || !bytes.Equal(px[16:20], []byte{255, 128, 0, 255}) {
		t.Errorf("RGBA8 clear %v", px)
	}
	_ = bgra.Resource.Read(0, px)
	if !bytes.Equal(px[:4], []byte{0, 128, 255, 255}) {
		t.Errorf("BGRA8 clear %v", px[:4])
	}
	_ = zs.Resource.Read(0, px)
	if w := binary.LittleEndian.Uint32(px); w != 0xFFFFFF5A {
		t.Errorf("D24S8 clear %#x (depth then stencil, each keeping the other)", w)
	}
	if err := s.NewContext(ContextOptions{}).Clear(ClearColor, [4]float32{}, 0, 0); err == nil {
		t.Error("clear without framebuffer accepted")
	}
}

// spec: vortexpipe §3.6 (RGBA8 decoded to A8R8G8B8 once at upload); facts §4
// (MIPOFF byte offsets, last level repeated)
func TestTexUpload(t *testing.T) {
	s := NewScreenWithCaps(fullCaps(), Options{})
	tex, err := s.CreateTexture(TextureDesc{Target: Target2D, Format: format.RGBA8, Width: 4, Height: 2, Depth: 1, ArraySize: 1, Levels: 2})
	if err != nil {
		t.Fatal(err)
	}
	src := make([]byte, tex.Size())
	for i := range src {
		src[i] = byte(i)
	}
	_ = tex.Write(0, src)
	img, off, err := TexUpload(tex)
	if err != nil {
		t.Fatal(err)
	}
	if len(img) != 40 || off[0] != 0 || off[1] != 32 || off[15] != 32 {
		t.Fatalf("len %d offsets %v", len(img), off)
	}
	if !bytes.Equal(img[:4], []byte{2, 1, 0, 3}) || !bytes.Equal(img[32:36], []byte{34, 33, 32, 35}) {
		t.Errorf("swizzle %v", img[:8])
	}
	npot, _ := s.CreateTexture(TextureDesc{Target: Target2D, Format: format.BGRA8, Width: 3, Height: 2, Depth: 1, ArraySize: 1, Levels: 1})
	if _, _, err := TexUpload(npot); err == nil {
		t.Error("NPOT texture laid out for the TEX unit")
	}
}

// spec: vortexpipe §2.5 ({base, stride, divisor}[8] by location)
func TestAttribTable(t *testing.T) {
	s := NewScreenWithCaps(fullCaps(), Options{})
	c := s.NewContext(ContextOptions{})
	b0, _ := s.CreateBuffer(64)
	b1, _ := s.CreateBuffer(64)
	ve, err := c.CreateVertexElementsState([]VertexElement{
		{SrcOffset: 0, BufferIndex: 0, Format: VertexFloat32x3},
		{SrcOffset: 12, BufferIndex: 0, Format: VertexFloat32x2},
		{SrcOffset: 4, BufferIndex: 1, Format: VertexUNorm8x4, InstanceDivisor: 1},
	})
	if err != nil {
		t.Fatal(err)
	}
	vbs := []VertexBuffer{{Buffer: b0, Offset: 8, Stride: 20}, {Buffer: b1, Stride: 4}}
	addr := func(r *Resource) (uint64, error) { return 0x1000 * uint64(r.ID()+1), nil }
	tab, err := AttribTable(ve, vbs, addr)
	if err != nil {
		t.Fatal(err)
	}
	u := func(loc, f int) uint64 { return binary.LittleEndian.Uint64(tab[24*loc+8*f:]) }
	want := [][3]uint64{{0x1008, 20, 0}, {0x1014, 20, 0}, {0x2004, 4, 1}, {0, 0, 0}}
	for loc, w := range want {
		if got := [3]uint64{u(loc, 0), u(loc, 1), u(loc, 2)}; got != w {
			t.Errorf("location %d = %#x, want %#x", loc, got, w)
		}
	}
	if len(tab) != 8*24 {
		t.Errorf("table %d bytes", len(tab))
	}
	if _, err := AttribTable(ve, vbs[:1], addr); err == nil {
		t.Error("unbound buffer accepted")
	}
	// Past vortexpipe's 8 entries the table grows to GL_MAX_VERTEX_ATTRIBS.
	for _, n := range []int{12, 16, 17} {
		els := make([]VertexElement, n)
		for i := range els {
			els[i] = VertexElement{SrcOffset: uint32(4 * i), Format: VertexFloat32x1}
		}
		wide, err := c.CreateVertexElementsState(els)
		if err != nil {
			t.Fatal(err)
		}
		tab, err := AttribTable(wide, vbs, addr)
		if n > 16 {
			if err == nil {
				t.Errorf("%d attributes accepted", n)
			}
			continue
		}
		if err != nil || len(tab) != 24*n || binary.LittleEndian.Uint64(tab[24*(n-1):]) != 0x1008+4*uint64(n-1) {
			t.Errorf("%d attributes: %d bytes, %v", n, len(tab), err)
		}
	}
	if _, err := c.CreateVertexElementsState([]VertexElement{{Format: 99}}); err == nil {
		t.Error("undefined vertex format accepted")
	}
}

// spec: vortex-hardware-facts §5 (OM D24S8: stencil [31:24], depth [23:0])
func TestD24S8Conversion(t *testing.T) {
	src := make([]byte, 8)
	format.PackDepth(format.D24S8, src, 0.5)
	format.PackStencil(format.D24S8, src, 0x7E)
	binary.LittleEndian.PutUint32(src[4:], 0xFFFFFF01)
	om := make([]byte, 8)
	D24S8ToOM(om, src)
	if w := binary.LittleEndian.Uint32(om); w != 0x7E800000 {
		t.Errorf("OM word %#x", w)
	}
	if w := binary.LittleEndian.Uint32(om[4:]); w != 0x01FFFFFF {
		t.Errorf("OM word %#x", w)
	}
	back := make([]byte, 8)
	OMToD24S8(back, om)
	if !bytes.Equal(back, src) {
		t.Errorf("round trip %x vs %x", back, src)
	}
}
