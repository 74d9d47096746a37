package scene

import "encoding/json"

// gltfExtensions is an object's "extensions": name → the extension's JSON.
type gltfExtensions map[string]json.RawMessage

// JSON shapes of glTF 2.0 (the subset this package reads and writes).
// extras are ignored as glTF allows; extensions are kept raw (json.RawMessage)
// so that the loader decodes the ones it implements and names the rest in a
// warning (gltf_ext.go). Optional indices are pointers so that "absent" and 0
// differ.
// spec: glTF 2.0 §5 (properties reference).

type gltfDoc struct {
	Asset              gltfAsset        `json:"asset"`
	ExtensionsUsed     []string         `json:"extensionsUsed,omitempty"`
	ExtensionsRequired []string         `json:"extensionsRequired,omitempty"`
	Scene              *int             `json:"scene,omitempty"`
	Scenes             []gltfScene      `json:"scenes,omitempty"`
	Nodes              []gltfNode       `json:"nodes,omitempty"`
	Meshes             []gltfMesh       `json:"meshes,omitempty"`
	Accessors          []gltfAccessor   `json:"accessors,omitempty"`
	BufferViews        []gltfBufferView `json:"bufferViews,omitempty"`
	Buffers            []gltfBuffer     `json:"buffers,omitempty"`
	Materials          []gltfMaterial   `json:"materials,omitempty"`
	Textures           []gltfTexture    `json:"textures,omitempty"`
	Images             []gltfImage      `json:"images,omitempty"`
	Samplers           []gltfSampler    `json:"samplers,omitempty"`
	Cameras            []gltfCamera     `json:"cameras,omitempty"`
	Skins              []gltfSkin       `json:"skins,omitempty"`
	Animations         []gltfAnimation  `json:"animations,omitempty"`
	Extensions         gltfExtensions   `json:"extensions,omitempty"`
}

type gltfAsset struct {
	Version    string `json:"version"`
	MinVersion string `json:"minVersion,omitempty"`
	Generator  string `json:"generator,omitempty"`
}

type gltfScene struct {
	Name  string `json:"name,omitempty"`
	Nodes []int  `json:"nodes,omitempty"`
}

type gltfNode struct {
	Name        string         `json:"name,omitempty"`
	Children    []int          `json:"children,omitempty"`
	Mesh        *int           `json:"mesh,omitempty"`
	Camera      *int           `json:"camera,omitempty"`
	Matrix      []float32      `json:"matrix,omitempty"`
	Translation []float32      `json:"translation,omitempty"`
	Rotation    []float32      `json:"rotation,omitempty"`
	Scale       []float32      `json:"scale,omitempty"`
	Skin        *int           `json:"skin,omitempty"`
	Weights     []float32      `json:"weights,omitempty"`
	Extensions  gltfExtensions `json:"extensions,omitempty"`
}

type gltfMesh struct {
	Name       string          `json:"name,omitempty"`
	Primitives []gltfPrimitive `json:"primitives"`
	Weights    []float32       `json:"weights,omitempty"`
}

type gltfPrimitive struct {
	Attributes map[string]int   `json:"attributes"`
	Indices    *int             `json:"indices,omitempty"`
	Material   *int             `json:"material,omitempty"`
	Mode       *int             `json:"mode,omitempty"`
	Targets    []map[string]int `json:"targets,omitempty"`
	Extensions gltfExtensions   `json:"extensions,omitempty"`
}

type gltfAccessor struct {
	BufferView    *int        `json:"bufferView,omitempty"`
	ByteOffset    int64       `json:"byteOffset,omitempty"`
	ComponentType int         `json:"componentType"`
	Normalized    bool        `json:"normalized,omitempty"`
	Count         int64       `json:"count"`
	Type          string      `json:"type"`
	Max           []float64   `json:"max,omitempty"`
	Min           []float64   `json:"min,omitempty"`
	Sparse        *gltfSparse `json:"sparse,omitempty"`
}

type gltfSparse struct {
	Count   int64 `json:"count"`
	Indices struct {
		BufferView    int   `json:"bufferView"`
		ByteOffset    int64 `json:"byteOffset,omitempty"`
		ComponentType int   `json:"componentType"`
	} `json:"indices"`
	Values struct {
		BufferView int   `json:"bufferView"`
		ByteOffset int64 `json:"byteOffset,omitempty"`
	} `json:"values"`
}

type gltfBufferView struct {
	Buffer     int   `json:"buffer"`
	ByteOffset int64 `json:"byteOffset,omitempty"`
	ByteLength int64 `json:"byteLength"`
	ByteStride int64 `json:"byteStride,omitempty"`
	Target     int   `json:"target,omitempty"`
}

type gltfBuffer struct {
	URI        string `json:"uri,omitempty"`
	ByteLength int64  `json:"byteLength"`
}

type gltfTextureInfo struct {
	Index      int            `json:"index"`
	TexCoord   int            `json:"texCoord,omitempty"`
	Scale      *float32       `json:"scale,omitempty"`
	Strength   *float32       `json:"strength,omitempty"`
	Extensions gltfExtensions `json:"extensions,omitempty"`
}

type gltfPBR struct {
	BaseColorFactor          []float32        `json:"baseColorFactor,omitempty"`
	BaseColorTexture         *gltfTextureInfo `json:"baseColorTexture,omitempty"`
	MetallicFactor           *float32         `json:"metallicFactor,omitempty"`
	RoughnessFactor          *float32         `json:"roughnessFactor,omitempty"`
	MetallicRoughnessTexture *gltfTextureInfo `json:"metallicRoughnessTexture,omitempty"`
}

type gltfMaterial struct {
	Name                 string           `json:"name,omitempty"`
	PbrMetallicRoughness *gltfPBR         `json:"pbrMetallicRoughness,omitempty"`
	NormalTexture        *gltfTextureInfo `json:"normalTexture,omitempty"`
	OcclusionTexture     *gltfTextureInfo `json:"occlusionTexture,omitempty"`
	EmissiveTexture      *gltfTextureInfo `json:"emissiveTexture,omitempty"`
	EmissiveFactor       []float32        `json:"emissiveFactor,omitempty"`
	AlphaMode            string           `json:"alphaMode,omitempty"`
	AlphaCutoff          *float32         `json:"alphaCutoff,omitempty"`
	DoubleSided          bool             `json:"doubleSided,omitempty"`
	Extensions           gltfExtensions   `json:"extensions,omitempty"`
}

type gltfTexture struct {
	Name       string         `json:"name,omitempty"`
	Sampler    *int           `json:"sampler,omitempty"`
	Source     *int           `json:"source,omitempty"`
	Extensions gltfExtensions `json:"extensions,omitempty"`
}

type gltfImage struct {
	Name       string `json:"name,omitempty"`
	URI        string `json:"uri,omitempty"`
	MimeType   string `json:"mimeType,omitempty"`
	BufferView *int   `json:"bufferView,omitempty"`
}

type gltfSampler struct {
	MagFilter int `json:"magFilter,omitempty"`
	MinFilter int `json:"minFilter,omitempty"`
	WrapS     int `json:"wrapS,omitempty"`
	WrapT     int `json:"wrapT,omitempty"`
}

type gltfCamera struct {
	Name         string           `json:"name,omitempty"`
	Type         string           `json:"type"`
	Perspective  *gltfPerspective `json:"perspective,omitempty"`
	Orthographic *gltfOrtho       `json:"orthographic,omitempty"`
}

type gltfPerspective struct {
	AspectRatio float32  `json:"aspectRatio,omitempty"`
	Yfov        float32  `json:"yfov"`
	Zfar        *float32 `json:"zfar,omitempty"`
	Znear       float32  `json:"znear"`
}

type gltfOrtho struct {
	Xmag  float32 `json:"xmag"`
	Ymag  float32 `json:"ymag"`
	Zfar  float32 `json:"zfar"`
	Znear float32 `json:"znear"`
}

type gltfSkin struct {
	Name                string `json:"name,omitempty"`
	InverseBindMatrices *int   `json:"inverseBindMatrices,omitempty"`
	Skeleton            *int   `json:"skeleton,omitempty"`
	Joints              []int  `json:"joints"`
}

type gltfAnimation struct {
	Name     string                 `json:"name,omitempty"`
	Channels []gltfAnimationChannel `json:"channels"`
	Samplers []gltfAnimationSampler `json:"samplers"`
}

type gltfAnimationChannel struct {
	Sampler int `json:"sampler"`
	Target  struct {
		Node       *int           `json:"node,omitempty"`
		Path       string         `json:"path"`
		Extensions gltfExtensions `json:"extensions,omitempty"`
	} `json:"target"`
}

type gltfAnimationSampler struct {
	Input         int    `json:"input"`
	Output        int    `json:"output"`
	Interpolation string `json:"interpolation,omitempty"`
}

// glTF enums. spec: glTF 2.0 §3.6.2.2 (component types), §3.7.2.1 (modes).
const (
	gltfByte          = 5120
	gltfUnsignedByte  = 5121
	gltfShort         = 5122
	gltfUnsignedShort = 5123
	gltfUnsignedInt   = 5125
	gltfFloat         = 5126

	gltfArrayBuffer        = 34962
	gltfElementArrayBuffer = 34963
)

func componentSize(ct int) int {
	switch ct {
	case gltfByte, gltfUnsignedByte:
		return 1
	case gltfShort, gltfUnsignedShort:
		return 2
	case gltfUnsignedInt, gltfFloat:
		return 4
	}
	return 0
}

// typeShape returns the columns and rows of an accessor type (SCALAR is 1×1).
func typeShape(t string) (cols, rows int) {
	switch t {
	case "SCALAR":
		return 1, 1
	case "VEC2":
		return 1, 2
	case "VEC3":
		return 1, 3
	case "VEC4":
		return 1, 4
	case "MAT2":
		return 2, 2
	case "MAT3":
		return 3, 3
	case "MAT4":
		return 4, 4
	}
	return 0, 0
}

var modeNames = [...]string{"POINTS", "LINES", "LINE_LOOP", "LINE_STRIP", "TRIANGLES", "TRIANGLE_STRIP", "TRIANGLE_FAN"}
