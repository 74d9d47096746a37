package scene

import (
	"embed"
	"path"
)

//go:embed demo/demo.json demo/blinn.vert demo/blinn.frag
var demoFS embed.FS

// DemoSceneFile is the embedded demo scene's path inside DemoFiles.
const DemoSceneFile = "demo/demo.json"

// DemoFiles returns the embedded demo files (scene JSON and GLSL 1.30
// shaders), for tools that want to show or copy them.
func DemoFiles() embed.FS { return demoFS }

// Demo returns the embedded demo scene: a procedurally generated torus knot
// with a generated brick texture, lit by a textured Blinn-Phong shader
// (GLSL 1.30), 640×480 with 4× MSAA, turning 3° per frame.
// spec: issue 7 "Scenes" (embedded demo scene).
func Demo() (*Description, error) {
	data, err := demoFS.ReadFile(DemoSceneFile)
	if err != nil {
		return nil, err
	}
	read := func(rel string) ([]byte, error) { return demoFS.ReadFile(path.Join("demo", rel)) }
	return ParseDescription(data, DemoSceneFile, read)
}
