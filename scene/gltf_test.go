package scene

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"math"
	"os"
	"strings"
	"testing"
)

// testScene builds a small textured scene: a quad (two triangles) under a
// translated, rotated parent, a camera node and a checker texture.
func testScene(t testing.TB) *Scene {
	img := image.NewNRGBA(image.Rect(0, 0, 4, 2))
	for y := 0; y < 2; y++ {
		for x := 0; x < 4; x++ {
			img.SetNRGBA(x, y, color.NRGBA{uint8(60 * x), uint8(100 * y), 200, uint8(255 - x)})
		}
	}
	quad := Mesh{
		Name:      "quad",
		Positions: []float32{-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0},
		Normals:   []float32{0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1},
		Texcoords: []float32{0, 1, 1, 1, 1, 0, 0, 0},
		Tangents:  []float32{1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1},
		Indices:   []uint32{0, 1, 2, 0, 2, 3},
		Material:  0,
	}
	mat := DefaultMaterial()
	mat.Name = "checker"
	mat.BaseColorFactor = [4]float32{1, 0.5, 0.25, 1}
	mat.BaseColorTexture = &TextureRef{Texture: 0, Scale: 1}
	mat.NormalTexture = &TextureRef{Texture: 0, Scale: 0.5}
	mat.MetallicFactor, mat.RoughnessFactor = 0, 0.25
	mat.AlphaMode, mat.AlphaCutoff, mat.DoubleSided = AlphaMask, 0.3, true
	parent := NewNode("parent")
	parent.Translation = [3]float32{1, 2, 3}
	parent.Rotation = [4]float32{0, float32(math.Sin(math.Pi / 4)), 0, float32(math.Cos(math.Pi / 4))}
	parent.Children = []int{1}
	child := NewNode("child")
	child.Meshes = []int{0}
	child.HasMatrix = true
	child.Matrix = ScaleMat(2, 2, 2)
	cam := NewNode("camera")
	cam.Camera = 0
	cam.Translation = [3]float32{0, 0, 5}
	return &Scene{
		Meshes:    []Mesh{quad},
		Materials: []Material{mat},
		Textures:  []Texture{{Name: "checker", Image: img, Sampler: Sampler{WrapClampToEdge, WrapMirroredRepeat, FilterNearest, FilterLinear}}},
		Cameras:   []Camera{{Name: "cam", Type: CameraPerspective, YFov: 0.8, ZNear: 0.1, ZFar: 100}},
		Nodes:     []Node{parent, child, cam},
		Roots:     []int{0, 2},
	}
}

func TestGLBRoundTrip(t *testing.T) {
	s := testScene(t)
	glb, err := EncodeGLB(s)
	if err != nil {
		t.Fatal(err)
	}
	if len(glb)%4 != 0 || binary.LittleEndian.Uint32(glb[8:]) != uint32(len(glb)) {
		t.Fatalf("GLB length %d, header says %d", len(glb), binary.LittleEndian.Uint32(glb[8:]))
	}
	got, err := DecodeGLTF(glb, "rt.glb", nil)
	if err != nil {
		t.Fatal(err)
	}
	m, w := &got.Meshes[0], &s.Meshes[0]
	if !equalF32(m.Positions, w.Positions) || !equalF32(m.Normals, w.Normals) || !equalF32(m.Texcoords, w.Texcoords) ||
		!equalF32(m.Tangents, w.Tangents) || !equalU32(m.Indices, w.Indices) || m.Material != 0 {
		t.Errorf("mesh differs: %+v", m)
	}
	gm, wm := got.Materials[0], s.Materials[0]
	if gm.BaseColorFactor != wm.BaseColorFactor || *gm.BaseColorTexture != *wm.BaseColorTexture || *gm.NormalTexture != *wm.NormalTexture ||
		gm.MetallicFactor != 0 || gm.RoughnessFactor != 0.25 || gm.AlphaMode != AlphaMask || gm.AlphaCutoff != 0.3 || !gm.DoubleSided {
		t.Errorf("material %+v", gm)
	}
	tex := got.Textures[0]
	if tex.Sampler != s.Textures[0].Sampler || !bytes.Equal(tex.Image.Pix, s.Textures[0].Image.Pix) {
		t.Errorf("texture sampler %+v or pixels differ", tex.Sampler)
	}
	if got.Cameras[0] != s.Cameras[0] {
		t.Errorf("camera %+v", got.Cameras[0])
	}
	inst, want := got.Instances(), s.Instances()
	if len(inst) != 1 || inst[0].Model != want[0].Model {
		t.Errorf("instances %+v, want %+v", inst, want)
	}
	// The child's world matrix is T(1,2,3)·Ry(90°)·S(2): (1,0,0) → (1,2,1).
	p := inst[0].Model.MulPoint(Vec3{1, 0, 0})
	if d := p.Sub(Vec3{1, 2, 1}).Len(); d > 1e-5 {
		t.Errorf("world (1,0,0) = %v, want (1,2,1)", p)
	}
}

// gltfDocWithBuffer returns glTF JSON text whose buffer 0 is bin as a data URI.
func gltfDocWithBuffer(bin []byte, body string) string {
	uri := "data:application/octet-stream;base64," + base64.StdEncoding.EncodeToString(bin)
	return fmt.Sprintf(`{"asset":{"version":"2.0"},"buffers":[{"uri":%q,"byteLength":%d}],%s}`, uri, len(bin), body)
}

func le(vals ...any) []byte {
	var b bytes.Buffer
	for _, v := range vals {
		binary.Write(&b, binary.LittleEndian, v)
	}
	return b.Bytes()
}

func TestGLTFAccessors(t *testing.T) {
	// Positions: 4 vertices as normalized shorts interleaved with a pad
	// (byteStride 8); texcoords as normalized ubytes; indices as ubytes
	// for a strip; sparse replaces vertex 3's position.
	var bin []byte
	pos := [][3]int16{{0, 0, 0}, {32767, 0, 0}, {0, 32767, 0}, {32767, 32767, -32768}}
	for _, p := range pos {
		bin = append(bin, le(p[0], p[1], p[2], int16(7))...)
	}
	uvOff := len(bin)
	bin = append(bin, 0, 0, 255, 0, 0, 255, 255, 255)
	idxOff := len(bin)
	bin = append(bin, 0, 1, 2, 3)
	spOff := len(bin)
	bin = append(bin, le(uint16(3))...)
	bin = append(bin, 0, 0)
	spValOff := len(bin)
	bin = append(bin, le(int16(16384), int16(16384), int16(0))...)
	bin = append(bin, 0, 0)
	body := fmt.Sprintf(`
	"bufferViews":[{"buffer":0,"byteLength":32,"byteStride":8},{"buffer":0,"byteOffset":%d,"byteLength":8},
		{"buffer":0,"byteOffset":%d,"byteLength":4},{"buffer":0,"byteOffset":%d,"byteLength":2},
		{"buffer":0,"byteOffset":%d,"byteLength":6}],
	"accessors":[
		{"bufferView":0,"componentType":5122,"normalized":true,"count":4,"type":"VEC3",
		 "sparse":{"count":1,"indices":{"bufferView":3,"componentType":5123},"values":{"bufferView":4}}},
		{"bufferView":1,"componentType":5121,"normalized":true,"count":4,"type":"VEC2"},
		{"bufferView":2,"componentType":5121,"count":4,"type":"SCALAR"}],
	"meshes":[{"primitives":[{"attributes":{"POSITION":0,"TEXCOORD_0":1},"indices":2,"mode":5}]}],
	"nodes":[{"mesh":0}]`, uvOff, idxOff, spOff, spValOff)
	s, err := DecodeGLTF([]byte(gltfDocWithBuffer(bin, body)), "acc.gltf", nil)
	if err != nil {
		t.Fatal(err)
	}
	m := &s.Meshes[0]
	// Strip 0 1 2 3 → (0,1,2) (2,1,3); no normals → flat, 6 vertices.
	if m.TriangleCount() != 2 || m.VertexCount() != 6 {
		t.Fatalf("%d triangles %d vertices", m.TriangleCount(), m.VertexCount())
	}
	wantPos := []Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 1, 0}, {1, 0, 0}, {float32(16384.0 / 32767), float32(16384.0 / 32767), 0}}
	for i, w := range wantPos {
		if p := m.Position(i); p != w {
			t.Errorf("position %d = %v, want %v", i, p, w)
		}
	}
	if uv := m.Texcoord(5); uv != [2]float32{1, 1} {
		t.Errorf("texcoord of vertex 3 = %v", uv)
	}
	if n := m.Normal(0); n != (Vec3{0, 0, 1}) {
		t.Errorf("flat normal %v", n)
	}
}

func TestStripFan(t *testing.T) {
	if got := stripToList([]uint32{0, 1, 2, 3, 4}); !equalU32(got, []uint32{0, 1, 2, 2, 1, 3, 2, 3, 4}) {
		t.Errorf("strip %v", got)
	}
	if got := fanToList([]uint32{0, 1, 2, 3}); !equalU32(got, []uint32{0, 1, 2, 0, 2, 3}) {
		t.Errorf("fan %v", got)
	}
}

func TestGLTFExternalFiles(t *testing.T) {
	bin := le(float32(0), float32(0), float32(0), float32(1), float32(0), float32(0), float32(0), float32(1), float32(0))
	var jb bytes.Buffer
	img := image.NewRGBA(image.Rect(0, 0, 2, 2))
	img.Set(0, 0, color.RGBA{255, 0, 0, 255})
	if err := jpeg.Encode(&jb, img, nil); err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{"sub dir/tri.bin": bin, "t.jpg": jb.Bytes()}
	read := func(rel string) ([]byte, error) {
		if b, ok := files[rel]; ok {
			return b, nil
		}
		return nil, os.ErrNotExist
	}
	js := `{"asset":{"version":"2.0"},"buffers":[{"uri":"sub%20dir/tri.bin","byteLength":36}],
	"bufferViews":[{"buffer":0,"byteLength":36}],
	"accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,0]}],
	"images":[{"uri":"t.jpg"}],"textures":[{"source":0}],"materials":[{"pbrMetallicRoughness":{"baseColorTexture":{"index":0}}}],
	"meshes":[{"primitives":[{"attributes":{"POSITION":0},"material":0}]}],
	"cameras":[{"type":"orthographic","orthographic":{"xmag":1,"ymag":1,"znear":0,"zfar":10}}],
	"nodes":[{"mesh":0,"children":[1]},{"camera":0}],"scenes":[{"nodes":[0]}]}`
	s, err := DecodeGLTF([]byte(js), "ext.gltf", read)
	if err != nil {
		t.Fatal(err)
	}
	if s.Meshes[0].TriangleCount() != 1 || s.Textures[0].Image.Bounds().Dx() != 2 || s.Textures[0].Sampler != DefaultSampler() {
		t.Errorf("mesh %+v texture %v", s.Meshes[0], s.Textures[0].Image.Bounds())
	}
	if s.Cameras[0].Type != CameraOrthographic || len(s.Roots) != 1 {
		t.Errorf("camera %+v roots %v", s.Cameras[0], s.Roots)
	}
}

func TestGLTFErrors(t *testing.T) {
	tri := le(float32(0), float32(0), float32(0), float32(1), float32(0), float32(0), float32(0), float32(1), float32(0))
	okView := `"bufferViews":[{"buffer":0,"byteLength":36}]`
	okAcc := `"accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"}]`
	prim := func(p string) string { return `"meshes":[{"primitives":[` + p + `]}]` }
	tests := []struct {
		name, doc, want string
	}{
		{"bad json", `{"asset":`, "bad.gltf: JSON"},
		{"version", `{"asset":{"version":"1.0"}}`, "bad.gltf: asset.version"},
		{"required ext", `{"asset":{"version":"2.0"},"extensionsRequired":["KHR_draco_mesh_compression"]}`, "extensionsRequired"},
		{"accessor range", gltfDocWithBuffer(tri, okView+`,"accessors":[{"bufferView":0,"componentType":5126,"count":4,"type":"VEC3"}],`+prim(`{"attributes":{"POSITION":0}}`)),
			"bad.gltf: accessors[0]: needs bytes [0, 48) of bufferView 0, which has 36"},
		{"accessor index", gltfDocWithBuffer(tri, okView+","+okAcc+","+prim(`{"attributes":{"POSITION":3}}`)),
			"meshes[0].primitives[0].attributes.POSITION: accessor 3 out of range"},
		{"bufferView range", gltfDocWithBuffer(tri, `"bufferViews":[{"buffer":0,"byteOffset":4,"byteLength":36}],`+okAcc+","+prim(`{"attributes":{"POSITION":0}}`)),
			"bufferViews[0]: bytes [4, +36) outside buffer 0"},
		{"buffer index", gltfDocWithBuffer(tri, `"bufferViews":[{"buffer":2,"byteLength":36}],`+okAcc+","+prim(`{"attributes":{"POSITION":0}}`)),
			"bufferViews[0].buffer: bad.gltf: buffers[2]: out of range"},
		{"bad base64", `{"asset":{"version":"2.0"},"buffers":[{"uri":"data:application/octet-stream;base64,@@@","byteLength":3}],` +
			okView + "," + okAcc + "," + prim(`{"attributes":{"POSITION":0}}`) + "}", "buffers[0].uri: bad base64"},
		{"short buffer", `{"asset":{"version":"2.0"},"buffers":[{"uri":"data:application/octet-stream;base64,AAAA","byteLength":36}],` +
			okView + "," + okAcc + "," + prim(`{"attributes":{"POSITION":0}}`) + "}", "buffers[0].byteLength: 36 but only 3 bytes"},
		{"no file access", `{"asset":{"version":"2.0"},"buffers":[{"uri":"x.bin","byteLength":36}],` +
			okView + "," + okAcc + "," + prim(`{"attributes":{"POSITION":0}}`) + "}", "buffers[0].uri: external file"},
		{"mode", gltfDocWithBuffer(tri, okView+","+okAcc+","+prim(`{"attributes":{"POSITION":0},"mode":9}`)),
			"meshes[0].primitives[0].mode: 9 is not a glTF primitive mode"},
		{"index range", gltfDocWithBuffer(append(tri, 0, 1, 5, 0), `"bufferViews":[{"buffer":0,"byteLength":36},{"buffer":0,"byteOffset":36,"byteLength":3}],`+
			`"accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"},{"bufferView":1,"componentType":5121,"count":3,"type":"SCALAR"}],`+
			prim(`{"attributes":{"POSITION":0},"indices":1}`)), "meshes[0].primitives[0].indices (accessor 1) element 2: index 5 out of range (3 vertices)"},
		{"component type", gltfDocWithBuffer(tri, okView+`,"accessors":[{"bufferView":0,"componentType":5124,"count":3,"type":"VEC3"}],`+prim(`{"attributes":{"POSITION":0}}`)),
			"accessors[0].componentType: 5124"},
		{"type", gltfDocWithBuffer(tri, okView+`,"accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC2"}],`+prim(`{"attributes":{"POSITION":0}}`)),
			"has type VEC2, want VEC3"},
		{"stride", gltfDocWithBuffer(tri, `"bufferViews":[{"buffer":0,"byteLength":36,"byteStride":6}],`+okAcc+","+prim(`{"attributes":{"POSITION":0}}`)),
			"bufferViews[0].byteStride: 6"},
		{"sparse index", gltfDocWithBuffer(append(tri, 9, 0, 0, 0), `"bufferViews":[{"buffer":0,"byteLength":36},{"buffer":0,"byteOffset":36,"byteLength":4}],`+
			`"accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","sparse":{"count":1,"indices":{"bufferView":1,"componentType":5121},"values":{"bufferView":0}}}],`+
			prim(`{"attributes":{"POSITION":0}}`)), "accessors[0].sparse.indices[0]: 9 out of range"},
		{"node mesh", gltfDocWithBuffer(tri, okView+","+okAcc+","+prim(`{"attributes":{"POSITION":0}}`)+`,"nodes":[{"mesh":1}]`), "nodes[0].mesh: 1 out of range"},
		{"node cycle", `{"asset":{"version":"2.0"},"nodes":[{"children":[1]},{"children":[0]}],"scenes":[{"nodes":[]}]}`, "cycle"},
		{"node self", `{"asset":{"version":"2.0"},"nodes":[{"children":[0]}]}`, "nodes[0].children: node 0 already has a parent"},
		{"texture", `{"asset":{"version":"2.0"},"materials":[{"pbrMetallicRoughness":{"baseColorTexture":{"index":2}}}]}`,
			"materials[0].pbrMetallicRoughness.baseColorTexture.index: 2 out of range"},
		{"image", `{"asset":{"version":"2.0"},"images":[{"uri":"data:image/png;base64,AAAA"}],"textures":[{"source":0}]}`, "images[0]"},
		{"camera", `{"asset":{"version":"2.0"},"cameras":[{"type":"perspective","perspective":{"yfov":0,"znear":0.1}}]}`, "cameras[0].perspective"},
		{"sampler", `{"asset":{"version":"2.0"},"samplers":[{"wrapS":5}],"images":[{"uri":"data:image/png;base64,AAAA"}],"textures":[{"source":0,"sampler":0}]}`, "images[0]"},
		{"scene", `{"asset":{"version":"2.0"},"scene":3,"scenes":[{}]}`, "bad.gltf: scene: 3 out of range"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := DecodeGLTF([]byte(tc.doc), "bad.gltf", nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestGLBErrors(t *testing.T) {
	good, err := EncodeGLB(testScene(t))
	if err != nil {
		t.Fatal(err)
	}
	mut := func(f func(b []byte) []byte) []byte { return f(bytes.Clone(good)) }
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"short header", good[:10], ""},
		{"version", mut(func(b []byte) []byte { b[4] = 1; return b }), "GLB: version 1"},
		{"length", mut(func(b []byte) []byte { return b[:len(b)-4] }), "GLB: header length"},
		{"chunk overrun", mut(func(b []byte) []byte { binary.LittleEndian.PutUint32(b[12:], 1<<30); return b }), "GLB: chunk 0 at byte 12: length 1073741824 overruns"},
		{"first chunk", mut(func(b []byte) []byte { binary.LittleEndian.PutUint32(b[16:], glbChunkBIN); return b }), "chunk 0 has type"},
		{"truncated bin", mut(func(b []byte) []byte {
			jl := binary.LittleEndian.Uint32(b[12:])
			b = b[:20+jl+4]
			binary.LittleEndian.PutUint32(b[8:], uint32(len(b)))
			return b
		}), "truncated chunk header"},
		{"missing bin", mut(func(b []byte) []byte {
			jl := binary.LittleEndian.Uint32(b[12:])
			b = b[:20+jl]
			binary.LittleEndian.PutUint32(b[8:], uint32(len(b)))
			return b
		}), "buffers[0]: no uri and no GLB BIN chunk"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := DecodeGLTF(tc.data, "bad.glb", nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "bad.glb") {
				t.Errorf("error %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func FuzzDecodeGLB(f *testing.F) {
	good, err := EncodeGLB(testScene(f))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(good[:64])
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := DecodeGLTF(data, "fuzz.glb", nil)
		if err != nil {
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("decoded scene invalid: %v", err)
		}
		s.Instances()
	})
}

func FuzzDecodeGLTF(f *testing.F) {
	tri := le(float32(0), float32(0), float32(0), float32(1), float32(0), float32(0), float32(0), float32(1), float32(0), uint16(0), uint16(1), uint16(2))
	f.Add([]byte(gltfDocWithBuffer(tri, `"bufferViews":[{"buffer":0,"byteLength":36},{"buffer":0,"byteOffset":36,"byteLength":6}],`+
		`"accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"},{"bufferView":1,"componentType":5123,"count":3,"type":"SCALAR"}],`+
		`"meshes":[{"primitives":[{"attributes":{"POSITION":0},"indices":1,"mode":6}]}],"nodes":[{"mesh":0,"rotation":[0,0,0,1]}],"scenes":[{"nodes":[0]}]`)))
	f.Add([]byte(`{"asset":{"version":"2.0"},"nodes":[{"children":[1]},{"matrix":[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := DecodeGLTF(data, "fuzz.gltf", nil)
		if err != nil {
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("decoded scene invalid: %v", err)
		}
		s.Instances()
	})
}

func TestAccessorComponents(t *testing.T) {
	// spec: glTF 2.0 §3.11 (normalized integers: max(c/127, -1), c/255, max(c/32767, -1), c/65535).
	tests := []struct {
		ct         int
		normalized bool
		bytes      []byte
		want       float64
	}{
		{gltfByte, false, []byte{0x80}, -128},
		{gltfByte, true, []byte{0x80}, -1},
		{gltfByte, true, []byte{0x81}, -1},
		{gltfByte, true, []byte{127}, 1},
		{gltfUnsignedByte, false, []byte{200}, 200},
		{gltfUnsignedByte, true, []byte{51}, 0.2},
		{gltfShort, false, le(int16(-300)), -300},
		{gltfShort, true, le(int16(-32768)), -1},
		{gltfShort, true, le(int16(16384)), 16384.0 / 32767},
		{gltfUnsignedShort, false, le(uint16(65535)), 65535},
		{gltfUnsignedShort, true, le(uint16(65535)), 1},
		{gltfUnsignedInt, false, le(uint32(4000000000)), 4000000000},
		{gltfFloat, false, le(float32(-2.5)), -2.5},
	}
	for _, tc := range tests {
		lay := accessorLayout{ct: tc.ct, comps: 1, rows: 1, colStride: componentSize(tc.ct), elemSize: componentSize(tc.ct), normalized: tc.normalized}
		if got := lay.component(tc.bytes, 0); got != tc.want {
			t.Errorf("component type %d normalized %v % x = %g, want %g", tc.ct, tc.normalized, tc.bytes, got, tc.want)
		}
	}
	// Matrix columns of 1- and 2-byte components start on 4-byte boundaries.
	l := &gltfLoader{name: "x"}
	for _, tc := range []struct {
		ct        int
		typ       string
		elemSize  int
		colStride int
	}{
		{gltfUnsignedByte, "MAT2", 8, 4}, {gltfUnsignedByte, "MAT3", 12, 4}, {gltfShort, "MAT3", 24, 8},
		{gltfFloat, "MAT4", 64, 16}, {gltfUnsignedByte, "VEC3", 3, 3}, {gltfShort, "MAT2", 8, 4},
	} {
		lay, err := l.layout(&gltfAccessor{ComponentType: tc.ct, Type: tc.typ}, "a")
		if err != nil || lay.elemSize != tc.elemSize || lay.colStride != tc.colStride {
			t.Errorf("%d %s: element %d column %d (%v), want %d %d", tc.ct, tc.typ, lay.elemSize, lay.colStride, err, tc.elemSize, tc.colStride)
		}
	}
}

func TestComputeTangents(t *testing.T) {
	s := testScene(t)
	m := s.Meshes[0]
	want := append([]float32(nil), m.Tangents...) // (1,0,0,1): u along +x, glTF v down the image
	m.Tangents = nil
	if err := m.ComputeTangents(); err != nil {
		t.Fatal(err)
	}
	if !near(m.Tangents, want, 1e-6) {
		t.Errorf("quad tangents %v, want %v", m.Tangents, want)
	}
	// Mirrored texcoords flip the handedness.
	m.Texcoords = []float32{1, 1, 0, 1, 0, 0, 1, 0}
	if err := m.ComputeTangents(); err != nil {
		t.Fatal(err)
	}
	if !near(m.Tangents[:4], []float32{-1, 0, 0, -1}, 1e-6) {
		t.Errorf("mirrored tangent %v", m.Tangents[:4])
	}
	// Degenerate texcoords still give unit tangents perpendicular to the normal.
	m.Texcoords = make([]float32, 8)
	if err := m.ComputeTangents(); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < m.VertexCount(); i++ {
		tv := Vec3{m.Tangents[4*i], m.Tangents[4*i+1], m.Tangents[4*i+2]}
		if l := tv.Len(); l < 0.9999 || l > 1.0001 || tv.Dot(m.Normal(i)) != 0 {
			t.Errorf("degenerate tangent %v", tv)
		}
	}
	m.Texcoords = nil
	if err := m.ComputeTangents(); err != ErrNoTexcoords {
		t.Errorf("no texcoords: %v", err)
	}
	// The GLB loader computes tangents for a normal-mapped primitive without TANGENT.
	s.Meshes[0].Tangents = nil
	glb, err := EncodeGLB(s)
	if err != nil {
		t.Fatal(err)
	}
	back, err := DecodeGLTF(glb, "t.glb", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !near(back.Meshes[0].Tangents, want, 1e-6) {
		t.Errorf("loaded tangents %v", back.Meshes[0].Tangents)
	}
}
