package scene

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"image/png"
	"io"
	"math"
)

// glbWriter accumulates the BIN chunk and the JSON document of a GLB.
type glbWriter struct {
	doc gltfDoc
	bin []byte
}

// view appends data as a new bufferView (4-byte aligned) and returns its index.
func (w *glbWriter) view(data []byte, target int) int {
	for len(w.bin)%4 != 0 {
		w.bin = append(w.bin, 0)
	}
	w.doc.BufferViews = append(w.doc.BufferViews, gltfBufferView{
		Buffer: 0, ByteOffset: int64(len(w.bin)), ByteLength: int64(len(data)), Target: target,
	})
	w.bin = append(w.bin, data...)
	return len(w.doc.BufferViews) - 1
}

func (w *glbWriter) floatAccessor(vals []float32, typ string, minmax bool) int {
	b := make([]byte, 0, 4*len(vals))
	for _, v := range vals {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(v))
	}
	cols, rows := typeShape(typ)
	comps := cols * rows
	bv := w.view(b, gltfArrayBuffer)
	a := gltfAccessor{BufferView: &bv, ComponentType: gltfFloat, Count: int64(len(vals) / comps), Type: typ}
	if minmax {
		a.Min = make([]float64, comps)
		a.Max = make([]float64, comps)
		for i, v := range vals {
			k := i % comps
			if i < comps || float64(v) < a.Min[k] {
				a.Min[k] = float64(v)
			}
			if i < comps || float64(v) > a.Max[k] {
				a.Max[k] = float64(v)
			}
		}
	}
	w.doc.Accessors = append(w.doc.Accessors, a)
	return len(w.doc.Accessors) - 1
}

func (w *glbWriter) textureInfo(r *TextureRef, kind string) *gltfTextureInfo {
	if r == nil {
		return nil
	}
	ti := &gltfTextureInfo{Index: r.Texture, TexCoord: r.TexCoord}
	s := r.Scale
	switch kind {
	case "normal":
		ti.Scale = &s
	case "occlusion":
		ti.Strength = &s
	}
	return ti
}

func ptr[T any](v T) *T { return &v }

// EncodeGLB writes s as a self-contained GLB: one buffer (the BIN chunk),
// float positions/normals/texcoords/tangents and uint32 indices, one glTF
// mesh per node (its primitives are the node's meshes), PNG images in
// bufferViews, one sampler per texture, cameras and the node hierarchy.
// Meshes that no node holds become glTF meshes without a node.
// spec: glTF 2.0 §4 (GLB), §3.6 (binary data).
func EncodeGLB(s *Scene) ([]byte, error) {
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("glb: %w", err)
	}
	w := &glbWriter{}
	w.doc.Asset = gltfAsset{Version: "2.0", Generator: "vortexgfx scene"}
	for i := range s.Textures {
		t := &s.Textures[i]
		var b bytes.Buffer
		if err := png.Encode(&b, t.Image); err != nil {
			return nil, fmt.Errorf("glb: textures[%d]: %w", i, err)
		}
		bv := w.view(b.Bytes(), 0)
		w.doc.Images = append(w.doc.Images, gltfImage{Name: t.Name, MimeType: "image/png", BufferView: &bv})
		w.doc.Samplers = append(w.doc.Samplers, gltfSampler{
			MagFilter: int(t.Sampler.MagFilter), MinFilter: int(t.Sampler.MinFilter),
			WrapS: int(t.Sampler.WrapS), WrapT: int(t.Sampler.WrapT),
		})
		w.doc.Textures = append(w.doc.Textures, gltfTexture{Name: t.Name, Sampler: ptr(i), Source: ptr(i)})
	}
	for i := range s.Materials {
		m := &s.Materials[i]
		gm := gltfMaterial{
			Name: m.Name,
			PbrMetallicRoughness: &gltfPBR{
				BaseColorFactor:          m.BaseColorFactor[:],
				BaseColorTexture:         w.textureInfo(m.BaseColorTexture, ""),
				MetallicFactor:           ptr(m.MetallicFactor),
				RoughnessFactor:          ptr(m.RoughnessFactor),
				MetallicRoughnessTexture: w.textureInfo(m.MetallicRoughnessTexture, ""),
			},
			NormalTexture:    w.textureInfo(m.NormalTexture, "normal"),
			OcclusionTexture: w.textureInfo(m.OcclusionTexture, "occlusion"),
			EmissiveTexture:  w.textureInfo(m.EmissiveTexture, ""),
			EmissiveFactor:   m.EmissiveFactor[:],
			AlphaMode:        m.AlphaMode.String(),
			DoubleSided:      m.DoubleSided,
		}
		if m.AlphaMode == AlphaMask {
			gm.AlphaCutoff = ptr(m.AlphaCutoff)
		}
		w.doc.Materials = append(w.doc.Materials, gm)
	}
	prims := make([]gltfPrimitive, len(s.Meshes))
	for i := range s.Meshes {
		m := &s.Meshes[i]
		if m.VertexCount() == 0 || len(m.Indices) == 0 {
			return nil, fmt.Errorf("glb: meshes[%d]: %w", i, ErrEmptyMesh)
		}
		p := gltfPrimitive{Attributes: map[string]int{}}
		p.Attributes["POSITION"] = w.floatAccessor(m.Positions, "VEC3", true)
		p.Attributes["NORMAL"] = w.floatAccessor(m.Normals, "VEC3", false)
		if m.Texcoords != nil {
			p.Attributes["TEXCOORD_0"] = w.floatAccessor(m.Texcoords, "VEC2", false)
		}
		if m.Tangents != nil {
			p.Attributes["TANGENT"] = w.floatAccessor(m.Tangents, "VEC4", false)
		}
		ib := make([]byte, 0, 4*len(m.Indices))
		for _, x := range m.Indices {
			ib = binary.LittleEndian.AppendUint32(ib, x)
		}
		bv := w.view(ib, gltfElementArrayBuffer)
		w.doc.Accessors = append(w.doc.Accessors, gltfAccessor{BufferView: &bv, ComponentType: gltfUnsignedInt, Count: int64(len(m.Indices)), Type: "SCALAR"})
		p.Indices = ptr(len(w.doc.Accessors) - 1)
		if m.Material >= 0 {
			p.Material = ptr(m.Material)
		}
		prims[i] = p
	}
	for i := range s.Cameras {
		c := &s.Cameras[i]
		gc := gltfCamera{Name: c.Name}
		if c.Type == CameraOrthographic {
			gc.Type = "orthographic"
			gc.Orthographic = &gltfOrtho{Xmag: c.XMag, Ymag: c.YMag, Znear: c.ZNear, Zfar: c.ZFar}
		} else {
			gc.Type = "perspective"
			gc.Perspective = &gltfPerspective{AspectRatio: c.AspectRatio, Yfov: c.YFov, Znear: c.ZNear}
			if c.ZFar != 0 {
				gc.Perspective.Zfar = ptr(c.ZFar)
			}
		}
		w.doc.Cameras = append(w.doc.Cameras, gc)
	}
	for i := range s.Nodes {
		n := &s.Nodes[i]
		gn := gltfNode{Name: n.Name, Children: n.Children}
		if n.HasMatrix {
			gn.Matrix = n.Matrix[:]
		} else {
			gn.Translation, gn.Rotation, gn.Scale = n.Translation[:], n.Rotation[:], n.Scale[:]
		}
		if n.Camera >= 0 {
			gn.Camera = ptr(n.Camera)
		}
		if len(n.Meshes) > 0 {
			gm := gltfMesh{Name: s.Meshes[n.Meshes[0]].Name}
			for _, mi := range n.Meshes {
				gm.Primitives = append(gm.Primitives, prims[mi])
			}
			w.doc.Meshes = append(w.doc.Meshes, gm)
			gn.Mesh = ptr(len(w.doc.Meshes) - 1)
		}
		w.doc.Nodes = append(w.doc.Nodes, gn)
	}
	held := make([]bool, len(s.Meshes))
	for i := range s.Nodes {
		for _, mi := range s.Nodes[i].Meshes {
			held[mi] = true
		}
	}
	for i, h := range held {
		if !h {
			// A mesh no node holds is kept as a glTF mesh without a node.
			w.doc.Meshes = append(w.doc.Meshes, gltfMesh{Name: s.Meshes[i].Name, Primitives: []gltfPrimitive{prims[i]}})
		}
	}
	w.doc.Scenes = []gltfScene{{Nodes: s.Roots}}
	w.doc.Scene = ptr(0)
	if len(w.bin) > 0 {
		w.doc.Buffers = []gltfBuffer{{ByteLength: int64(len(w.bin))}}
	}
	js, err := json.Marshal(&w.doc)
	if err != nil {
		return nil, fmt.Errorf("glb: %w", err)
	}
	return appendGLB(nil, js, w.bin), nil
}

// WriteGLB writes EncodeGLB(s) to out.
func WriteGLB(out io.Writer, s *Scene) error {
	b, err := EncodeGLB(s)
	if err != nil {
		return err
	}
	_, err = out.Write(b)
	return err
}
