package scene

import (
	"embed"
	"fmt"
	"path"
	"path/filepath"
	"strings"
)

//go:embed demo/demo.json demo/lit.vert demo/blinn.frag demo/model.vert demo/pbr.frag
var demoFS embed.FS

// DemoSceneFile is the embedded demo scene's path inside DemoFiles.
const DemoSceneFile = "demo/demo.json"

// DemoFiles returns the embedded files (the demo scene JSON, its GLSL 1.30
// shaders and the built-in model shader, model.vert and pbr.frag), for tools that show or copy them.
func DemoFiles() embed.FS { return demoFS }

// Demo returns the embedded demo scene: a procedurally generated torus knot
// with a generated brick texture, lit by a textured Blinn-Phong shader
// (GLSL 1.30), 640×480 with 4× MSAA, turning 3° per frame.
func Demo() (*Description, error) {
	data, err := demoFS.ReadFile(DemoSceneFile)
	if err != nil {
		return nil, err
	}
	read := func(rel string) ([]byte, error) { return demoFS.ReadFile(path.Join("demo", rel)) }
	return ParseDescription(data, DemoSceneFile, read)
}

// embeddedPrefix marks the paths of the embedded shaders in messages and stats.
const embeddedPrefix = "embedded:"

// firstCameraNode returns the first node with a camera in depth-first order
// from the roots, or -1.
func firstCameraNode(s *Scene) int {
	var visit func(n int) int
	visit = func(n int) int {
		if s.Nodes[n].Camera >= 0 {
			return n
		}
		for _, c := range s.Nodes[n].Children {
			if f := visit(c); f >= 0 {
				return f
			}
		}
		return -1
	}
	for _, r := range s.Roots {
		if f := visit(r); f >= 0 {
			return f
		}
	}
	return -1
}

// LoadModel loads a mesh file by its extension: .obj with LoadOBJ, .gltf
// and .glb with LoadGLTF.
func LoadModel(file string) (*Scene, error) {
	switch strings.ToLower(filepath.Ext(file)) {
	case ".obj":
		return LoadOBJ(file)
	case ".gltf", ".glb":
		return LoadGLTF(file)
	}
	return nil, fmt.Errorf("%s: not a mesh file (want .obj, .gltf or .glb)", file)
}
