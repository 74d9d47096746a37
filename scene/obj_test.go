package scene

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"strings"
	"testing"
)

func TestDecodeOBJ(t *testing.T) {
	tests := []struct {
		name      string
		src       string
		meshes    int
		triangles []int
		vertices  []int
		check     func(t *testing.T, s *Scene)
	}{
		{
			name:      "triangle without normals gets the face normal",
			src:       "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n",
			meshes:    1,
			triangles: []int{1},
			vertices:  []int{3},
			check: func(t *testing.T, s *Scene) {
				for i := 0; i < 3; i++ {
					if n := s.Meshes[0].Normal(i); n != (Vec3{0, 0, 1}) {
						t.Errorf("normal %d = %v", i, n)
					}
				}
			},
		},
		{
			name:      "quad is fan-triangulated and corners merged",
			src:       "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\n",
			meshes:    1,
			triangles: []int{2},
			vertices:  []int{4},
			check: func(t *testing.T, s *Scene) {
				want := []uint32{0, 1, 2, 0, 2, 3}
				if !equalU32(s.Meshes[0].Indices, want) {
					t.Errorf("indices %v, want %v", s.Meshes[0].Indices, want)
				}
			},
		},
		{
			name: "negative indices and v/vt/vn",
			src: "v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvt 0 1\nvn 0 0 1\n" +
				"f -3/-3/-1 -2/-2/-1 -1/-1/-1\n",
			meshes:    1,
			triangles: []int{1},
			vertices:  []int{3},
			check: func(t *testing.T, s *Scene) {
				m := &s.Meshes[0]
				if uv := m.Texcoord(1); uv != [2]float32{1, 0} {
					t.Errorf("texcoord 1 = %v", uv)
				}
			},
		},
		{
			name: "smooth normal is the normalised sum of unnormalised face normals",
			// Two triangles share vertex 1: one of area 0.5 facing +z,
			// one of area 2 facing +x: sum (4, 0, 1)·... → normalize(2, 0, 0.5·...).
			src:       "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 2 0\nv 0 0 2\nf 1 2 3\nf 1 4 5\n",
			meshes:    1,
			triangles: []int{2},
			vertices:  []int{5},
			check: func(t *testing.T, s *Scene) {
				// Face 1 normal (0,0,1); face 2: (0,2,0)×(0,0,2) = (4,0,0).
				want := Vec3{4, 0, 1}.Normalize()
				if n := s.Meshes[0].Normal(0); n != want {
					t.Errorf("shared normal %v, want %v", n, want)
				}
			},
		},
		{
			name:      "v//vn and mixed corners",
			src:       "v 0 0 0\nv 1 0 0\nv 0 1 0\nvn 1 0 0\nf 1//1 2 3\n",
			meshes:    1,
			triangles: []int{1},
			vertices:  []int{3},
			check: func(t *testing.T, s *Scene) {
				if n := s.Meshes[0].Normal(0); n != (Vec3{1, 0, 0}) {
					t.Errorf("explicit normal %v", n)
				}
				if n := s.Meshes[0].Normal(1); n != (Vec3{0, 0, 1}) {
					t.Errorf("computed normal %v", n)
				}
			},
		},
		{
			name: "groups and materials split meshes",
			src: "v 0 0 0\nv 1 0 0\nv 0 1 0\no a\nusemtl red\nf 1 2 3\nusemtl blue\nf 1 2 3\n" +
				"o b\nusemtl red\nf 3 2 1\no a\nusemtl red\nf 1 3 2 # comment\n",
			meshes:    3,
			triangles: []int{2, 1, 1},
			vertices:  []int{3, 3, 3},
			check: func(t *testing.T, s *Scene) {
				if len(s.Materials) != 2 || s.Materials[s.Meshes[0].Material].Name != "red" ||
					s.Materials[s.Meshes[1].Material].Name != "blue" || s.Meshes[2].Name != "b" {
					t.Errorf("materials %+v meshes %q %q", s.Materials, s.Meshes[0].Name, s.Meshes[2].Name)
				}
			},
		},
		{
			name:      "byte-order mark",
			src:       "\xEF\xBB\xBFv 0 0 0\nv 1 0 0\nv 0 1 0\nf -3 -2 -1\n",
			meshes:    1,
			triangles: []int{1},
			vertices:  []int{3},
		},
		{
			name:      "CRLF, tabs, w coordinates and ignored statements",
			src:       "# hi\r\nv\t0 0 0 1\r\nv 1 0 0 1\r\nv 0 1 0\r\ns off\r\nl 1 2\r\nf 1 2 3\r\n",
			meshes:    1,
			triangles: []int{1},
			vertices:  []int{3},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := DecodeOBJ(strings.NewReader(tc.src), "test.obj", nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(s.Meshes) != tc.meshes {
				t.Fatalf("%d meshes, want %d", len(s.Meshes), tc.meshes)
			}
			for i := range s.Meshes {
				if s.Meshes[i].TriangleCount() != tc.triangles[i] || s.Meshes[i].VertexCount() != tc.vertices[i] {
					t.Errorf("mesh %d: %d triangles %d vertices, want %d %d", i,
						s.Meshes[i].TriangleCount(), s.Meshes[i].VertexCount(), tc.triangles[i], tc.vertices[i])
				}
			}
			if tc.check != nil {
				tc.check(t, s)
			}
		})
	}
}

func TestDecodeOBJErrors(t *testing.T) {
	tests := []struct {
		src, want string
	}{
		{"v 0 0\n", "test.obj:1: v: want 3 numbers, got 2"},
		{"v 0 0 x\n", `test.obj:1: v: bad number "x"`},
		{"v 0 0 nan\n", "non-finite"},
		{"v 0 0 0\nf 1 2 3\n", "test.obj:2: f: position index 2 out of range (1 defined)"},
		{"v 0 0 0\nv 0 0 0\nv 0 0 0\nf 1 2 0\n", "test.obj:4: f: position index 0"},
		{"v 0 0 0\nv 0 0 0\nv 0 0 0\nf 1 2 -4\n", "position index -4 out of range"},
		{"v 0 0 0\nv 0 0 0\nv 0 0 0\nf 1/1 2 3\n", "texcoord index 1 out of range (0 defined)"},
		{"v 0 0 0\nv 0 0 0\nv 0 0 0\nf 1//2 2 3\n", "normal index 2 out of range"},
		{"v 0 0 0\nv 0 0 0\nf 1 2\n", "test.obj:3: f: face with 2 corners"},
		{"v 0 0 0\nv 0 0 0\nv 0 0 0\nf 1/1/1/1 2 3\n", "bad face corner"},
		{"v 0 0 0\nv 0 0 0\nv 0 0 0\nf a 2 3\n", `bad position index "a"`},
		{"mtllib missing.mtl\n", "test.obj: mtllib missing.mtl"},
	}
	for _, tc := range tests {
		read := func(rel string) ([]byte, error) { return nil, fmt.Errorf("open %s: not found", rel) }
		_, err := DecodeOBJ(strings.NewReader(tc.src), "test.obj", read)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want it to contain %q", tc.src, err, tc.want)
		}
	}
}

func pngBytes(t testing.TB, w, h int) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.SetNRGBA(x, y, color.NRGBA{uint8(x * 40), uint8(y * 40), 7, 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestOBJMaterials(t *testing.T) {
	files := map[string][]byte{
		"m.mtl": []byte("newmtl shiny\nKd 0.5 0.25 1\nNs 98\nd 0.5\nKe 1 0 0\nmap_Kd -clamp on -s 1 1 tex.png\n" +
			"newmtl plain\nTr 0.25\nPm 0.5\nPr 0.75\n"),
		"tex.png": pngBytes(t, 2, 3),
	}
	read := func(rel string) ([]byte, error) {
		if b, ok := files[rel]; ok {
			return b, nil
		}
		return nil, os.ErrNotExist
	}
	src := "mtllib m.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl shiny\nf 1 2 3\nusemtl plain\nf 1 2 3\n"
	s, err := DecodeOBJ(strings.NewReader(src), "t.obj", read)
	if err != nil {
		t.Fatal(err)
	}
	m := s.Materials[s.Meshes[0].Material]
	if m.BaseColorFactor != [4]float32{0.5, 0.25, 1, 0.5} || m.AlphaMode != AlphaBlend || m.RoughnessFactor != 0.14142136 ||
		m.EmissiveFactor != [3]float32{1, 0, 0} || m.BaseColorTexture == nil {
		t.Fatalf("shiny = %+v", m)
	}
	tex := s.Textures[m.BaseColorTexture.Texture]
	if tex.Sampler.WrapS != WrapClampToEdge || tex.Image.Bounds().Dy() != 3 {
		t.Errorf("texture %+v", tex.Sampler)
	}
	// Flipped: row 0 holds the PNG's bottom row (y=2 → green 80).
	if g := tex.Image.NRGBAAt(0, 0).G; g != 80 {
		t.Errorf("row 0 green %d, want 80 (flipped)", g)
	}
	p := s.Materials[s.Meshes[1].Material]
	if p.BaseColorFactor[3] != 0.75 || p.MetallicFactor != 0.5 || p.RoughnessFactor != 0.75 {
		t.Errorf("plain = %+v", p)
	}
	bad := map[string]string{
		"newmtl a\nKd 1 x 1\n":        "m.mtl:2: Kd: bad number",
		"newmtl a\nmap_Kd -zz 1 t\n":  "m.mtl:2: map_Kd: unknown texture option -zz",
		"newmtl a\nmap_Kd nope.png\n": "m.mtl:2: map_Kd",
		"newmtl\n":                    "m.mtl:1: newmtl: missing name",
	}
	for mtl, want := range bad {
		files["m.mtl"] = []byte(mtl)
		_, err := DecodeOBJ(strings.NewReader(src), "t.obj", read)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "t.obj") {
			t.Errorf("%q: error %v, want %q", mtl, err, want)
		}
	}
}

func FuzzDecodeOBJ(f *testing.F) {
	f.Add([]byte("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"))
	f.Add([]byte("v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvn 0 0 1\nf -3/1/1 -2/1/1 -1/1/1 1/1/1\n"))
	f.Add([]byte("o x\nusemtl m\nv 1e30 1e30 1e30\nv -1e30 1 1\nv 0 0 0\nf 1//1 2 3\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := DecodeOBJ(bytes.NewReader(data), "fuzz.obj", nil)
		if err != nil {
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("decoded scene invalid: %v", err)
		}
	})
}

func FuzzParseMTL(f *testing.F) {
	f.Add([]byte("newmtl a\nKd 1 0.5 0\nKe 0 0 0\nNs 10\nd 0.5\nTr 0.1\nPr 0.3\nPm 0.2\nmap_Kd -bm 1 -o 0 0 t.png\n"))
	f.Add([]byte("Kd 1 1 1\nnewmtl b\nbump -clamp on n.png\nmap_Pr r.png\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		read := func(string) ([]byte, error) { return pngBytes(t, 2, 2), nil }
		var mats []Material
		var texs []Texture
		if err := parseMTL(data, "fuzz.mtl", read, &mats, &texs, map[string]int{}); err != nil {
			return
		}
		for _, m := range mats {
			for _, r := range []*TextureRef{m.BaseColorTexture, m.NormalTexture, m.EmissiveTexture, m.MetallicRoughnessTexture} {
				if r != nil && (r.Texture < 0 || r.Texture >= len(texs)) {
					t.Fatalf("texture ref %d of %d", r.Texture, len(texs))
				}
			}
		}
	})
}

func TestToNRGBA(t *testing.T) {
	want := color.NRGBA{200, 100, 50, 128}
	rgba := image.NewRGBA(image.Rect(2, 3, 5, 5))
	rgba.Set(3, 4, want)
	gray := image.NewGray(image.Rect(0, 0, 2, 2))
	gray.SetGray(1, 1, color.Gray{77})
	pal := image.NewPaletted(image.Rect(0, 0, 2, 2), color.Palette{color.NRGBA{1, 2, 3, 255}, want})
	pal.SetColorIndex(1, 1, 1)
	ycc := image.NewYCbCr(image.Rect(0, 0, 2, 2), image.YCbCrSubsampleRatio420)
	for i := range ycc.Y {
		ycc.Y[i] = 128
	}
	for i := range ycc.Cb {
		ycc.Cb[i], ycc.Cr[i] = 128, 128
	}
	nrgba64 := image.NewNRGBA64(image.Rect(0, 0, 1, 1))
	nrgba64.Set(0, 0, want)
	tests := []struct {
		name string
		img  image.Image
		x, y int
		want color.NRGBA
	}{
		{"rgba offset bounds", rgba, 1, 1, color.NRGBAModel.Convert(rgba.At(3, 4)).(color.NRGBA)},
		{"gray", gray, 1, 1, color.NRGBA{77, 77, 77, 255}},
		{"paletted", pal, 1, 1, want},
		{"ycbcr", ycc, 1, 1, color.NRGBA{128, 128, 128, 255}},
		{"generic", nrgba64, 0, 0, want},
	}
	// Unpremultiplication matches color.NRGBAModel for every value and alpha.
	all := image.NewRGBA(image.Rect(0, 0, 256, 256))
	for a := 0; a < 256; a++ {
		for v := 0; v <= a; v++ {
			all.SetRGBA(v, a, color.RGBA{uint8(v), uint8(v), uint8(v), uint8(a)})
		}
	}
	conv := ToNRGBA(all)
	for a := 0; a < 256; a++ {
		for v := 0; v <= a; v++ {
			if got, want := conv.NRGBAAt(v, a), color.NRGBAModel.Convert(all.At(v, a)); got != want {
				t.Fatalf("RGBA %d/%d: %v, want %v", v, a, got, want)
			}
		}
	}
	for _, tc := range tests {
		got := ToNRGBA(tc.img)
		if got.Bounds().Min != (image.Point{}) {
			t.Errorf("%s: bounds %v", tc.name, got.Bounds())
		}
		if c := got.NRGBAAt(tc.x, tc.y); c != tc.want {
			t.Errorf("%s: pixel %v, want %v", tc.name, c, tc.want)
		}
	}
}
