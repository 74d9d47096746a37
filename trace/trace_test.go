package trace

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vortexgfx/abi"
)

func small(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "small.cgltrace"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestParseSmall(t *testing.T) {
	tr, err := Parse(bytes.NewReader(small(t)))
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.DrawCalls) != 1 {
		t.Fatalf("%d draw calls", len(tr.DrawCalls))
	}
	dc := tr.DrawCalls[0]
	st := dc.States
	if !st.DepthTest || st.DepthFunc != CompareLEqual || !st.BlendEnabled || st.BlendSrc != BlendSrcAlpha ||
		st.BlendDst != BlendOneMinusSrcAlpha || st.TextureEnvMode != EnvModulate || st.TextureMagFilter != FilterLinear ||
		st.StencilMask != 255 || st.ColorWriteMask != 0xFFFFFFFF || st.TextureEnvColor.A != 1 {
		t.Errorf("states %+v", st)
	}
	if dc.TextureID != 7 || len(dc.Vertices) != 3 || dc.Vertices[5].Color.A != 0.5 || dc.Vertices[5].TexCoord.U != 0.5 {
		t.Errorf("draw %+v", dc)
	}
	if dc.Primitives[0] != (Primitive{0, 1, 5}) || dc.Viewport.Right != 800 || dc.Viewport.Far != 1 {
		t.Errorf("prims %v viewport %+v", dc.Primitives, dc.Viewport)
	}
	tx := tr.Textures[7]
	if tx.Format != FormatA8L8 || tx.Width != 2 || !bytes.Equal(tx.Pixels, []byte{0x10, 0xff, 0x20, 0x80, 0x30, 0x40, 0x40, 0x00}) {
		t.Errorf("texture %+v", tx)
	}
}

// TestBadTraces: malformed input returns an ErrBadTrace naming the element.
func TestBadTraces(t *testing.T) {
	good := string(small(t))
	cases := []struct {
		name, from, to, want string
	}{
		{"truncated", good[len(good)/2:], "", "unexpected EOF"},
		{"bad base64", "<pixels>\n", "<pixels>\n!!!!", "pixels: bad base64"},
		{"short pixels", "<size>8</size>", "<size>12</size>", "size: 12 bytes"},
		{"index out of range", "<i2>5</i2>", "<i2>9</i2>", "i2: vertex index 9 out of range"},
		{"nan position", "<x>0.5</x>", "<x>nan</x>", "pos/x: non-finite"},
		{"inf position", "<y>0.5</y>", "<y>inf</y>", "pos/y: non-finite"},
		{"bad float", "<z>0.25</z><w>1</w></pos><color><r>1</r>", "<z>0.2.5</z><w>1</w></pos><color><r>1</r>", "pos/z: \"0.2.5\" is not a float"},
		{"bad bool", "<depth_test>1</depth_test>", "<depth_test>2</depth_test>", "depth_test: \"2\" is not a boolean"},
		{"enum range", "<depth_func>3</depth_func>", "<depth_func>8</depth_func>", "depth_func: enum value 8 out of range"},
		{"count mismatch", "<count>3</count>", "<count>4</count>", "vertices: <count> says 4 items, found 3"},
		{"missing texture", "<texture_id>7</texture_id>", "<texture_id>8</texture_id>", "texture 8 is not in <textures>"},
		{"missing states", "<states class_id=\"3\" tracking_level=\"0\" version=\"0\">", "<stotes>", "XML syntax error"},
		{"missing viewport", "<viewport class_id", "<viewpart class_id", "XML syntax error"},
		{"xml syntax", "<r>1</r>", "<r>1</g>", "XML syntax error"},
		{"bad format", "<format>3</format>", "<format>99</format>", "unsupported pixel format 99"},
		{"not an archive", good, "<html></html>", "no <cgltrace>"},
		{"empty", good, "", "empty document"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var in string
			if c.name == "truncated" {
				in = good[:len(good)/2]
			} else {
				if !strings.Contains(good, c.from) {
					t.Fatalf("seed lacks %q", c.from)
				}
				in = strings.Replace(good, c.from, c.to, 1)
			}
			_, err := Parse(strings.NewReader(in))
			if err == nil {
				t.Fatal("no error")
			}
			if !errors.Is(err, ErrBadTrace) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q, want ErrBadTrace mentioning %q", err, c.want)
			}
		})
	}
}

// TestEnums pins the CGLTrace → Vortex translations (gfx_draw3d's tables).
// spec: vortex-hardware-facts §5 (compare order), §8
func TestEnums(t *testing.T) {
	cmp := []struct {
		in   Compare
		want abi.CompareFunc
	}{
		{CompareNever, abi.CmpNever}, {CompareLess, abi.CmpLess}, {CompareEqual, abi.CmpEqual},
		{CompareLEqual, abi.CmpLEqual}, {CompareGreater, abi.CmpGreater}, {CompareNotEqual, abi.CmpNotEqual},
		{CompareGEqual, abi.CmpGEqual}, {CompareAlways, abi.CmpAlways},
	}
	for _, c := range cmp {
		if got := c.in.ToOM(); got != c.want {
			t.Errorf("compare %d → %v, want %v", c.in, got, c.want)
		}
	}
	ops := []struct {
		in   StencilOp
		want abi.StencilOp
	}{
		{StencilKeep, abi.StencilKeep}, {StencilReplace, abi.StencilReplace}, {StencilIncr, abi.StencilIncr},
		{StencilDecr, abi.StencilDecr}, {StencilZero, abi.StencilZero}, {StencilInvert, abi.StencilInvert},
	}
	for _, c := range ops {
		if got := c.in.ToOM(); got != c.want {
			t.Errorf("stencil op %d → %d, want %d", c.in, got, c.want)
		}
	}
	blends := []struct {
		in   BlendOp
		want abi.BlendFactor
	}{
		{BlendZero, abi.BlendZero}, {BlendOne, abi.BlendOne}, {BlendSrcColor, abi.BlendSrcRGB},
		{BlendOneMinusSrcColor, abi.BlendOneMinusSrcRGB}, {BlendSrcAlpha, abi.BlendSrcA},
		{BlendOneMinusSrcAlpha, abi.BlendOneMinusSrcA}, {BlendDstAlpha, abi.BlendDstA},
		{BlendOneMinusDstAlpha, abi.BlendOneMinusDstA}, {BlendDstColor, abi.BlendDstRGB},
		{BlendOneMinusDstColor, abi.BlendOneMinusDstRGB}, {BlendSrcAlphaSaturate, abi.BlendAlphaSat},
	}
	for _, c := range blends {
		if got := c.in.ToOM(); got != c.want {
			t.Errorf("blend %d → %d, want %d", c.in, got, c.want)
		}
	}
	fmts := []struct {
		in   PixelFormat
		want abi.TexFormat
		bpp  int
	}{
		{FormatA8R8G8B8, abi.TexA8R8G8B8, 4}, {FormatR5G6B5, abi.TexR5G6B5, 2}, {FormatA1R5G5B5, abi.TexA1R5G5B5, 2},
		{FormatA4R4G4B4, abi.TexA4R4G4B4, 2}, {FormatA8L8, abi.TexA8L8, 2}, {FormatL8, abi.TexL8, 1}, {FormatA8, abi.TexA8, 1},
	}
	for _, c := range fmts {
		got, err := c.in.ToTex()
		if err != nil || got != c.want || c.in.BytesPerPixel() != c.bpp {
			t.Errorf("format %d → %v (%v), bpp %d; want %v, %d", c.in, got, err, c.in.BytesPerPixel(), c.want, c.bpp)
		}
	}
	if _, err := FormatR8G8B8.ToTex(); err == nil {
		t.Error("R8G8B8 has no TEX format but translated")
	}
}

// TestSharedTraces parses the shared traces when present.
func TestSharedTraces(t *testing.T) {
	dir := filepath.Join("..", "..", "shared", "data", "cgltrace")
	files, _ := filepath.Glob(filepath.Join(dir, "*.cgltrace"))
	if len(files) == 0 {
		t.Skip("../shared/data absent")
	}
	for _, f := range files {
		tr, err := Load(f)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if len(tr.DrawCalls) == 0 {
			t.Errorf("%s: no draw calls", f)
		}
	}
}

// TestParseWQuad: testdata/wquad.cgltrace, the two-triangle quad whose w is
// 1 + x/2 (cmd/vortex's fill-rule tests replay it), is a trace with no
// textures and its vertices as written.
func TestParseWQuad(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "wquad.cgltrace"))
	if err != nil {
		t.Fatal(err)
	}
	tr, err := Parse(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.DrawCalls) != 1 || len(tr.Textures) != 0 {
		t.Fatalf("%d draw calls, %d textures", len(tr.DrawCalls), len(tr.Textures))
	}
	dc := tr.DrawCalls[0]
	if len(dc.Primitives) != 2 || dc.Primitives[1] != (Primitive{2, 1, 3}) || dc.States.DepthTest || dc.States.TextureEnabled {
		t.Errorf("draw %+v", dc)
	}
	if v := dc.Vertices[1].Pos; v.X != 1.3125 || v.Y != -1.3125 || v.W != 1.5 {
		t.Errorf("vertex 1 at %+v", v)
	}
}

func FuzzParse(f *testing.F) {
	f.Add(small(f))
	if b, err := os.ReadFile(filepath.Join("testdata", "wquad.cgltrace")); err == nil {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		tr, err := Parse(bytes.NewReader(b))
		if err != nil {
			if !errors.Is(err, ErrBadTrace) {
				t.Fatalf("error %v does not wrap ErrBadTrace", err)
			}
			return
		}
		for _, dc := range tr.DrawCalls {
			for _, p := range dc.Primitives {
				for _, i := range [3]uint32{p.I0, p.I1, p.I2} {
					if _, ok := dc.Vertices[i]; !ok {
						t.Fatalf("primitive references missing vertex %d", i)
					}
				}
			}
		}
	})
}
