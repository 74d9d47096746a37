package render

import (
	"context"
	"os"
	"testing"
	"time"

	"vortexgfx/scene"
)

// fuzzFiles are the files a fuzzed scene may name.
var fuzzFiles = map[string]string{
	"v.vert":   testVert,
	"f.frag":   testFrag,
	"t.obj":    "v -0.5 -0.5 0\nv 0.5 -0.5 0\nv 0 0.5 0\nvt 0 0\nvt 1 0\nvt 0.5 1\nf 1/1 2/2 3/3\n",
	"l.vert":   "#version 130\nuniform mat4 u_mvp;\nuniform mat3 u_n;\nin vec3 a_position;\nin vec3 a_normal;\nout vec3 n;\nvoid main() { n = u_n * a_normal; gl_Position = u_mvp * vec4(a_position, 1.0); }\n",
	"l.frag":   "#version 130\nuniform sampler2D u_tex;\nuniform bool u_flag;\nin vec3 n;\nout vec4 c;\nvoid main() { c = u_flag ? texture(u_tex, n.xy) : vec4(normalize(n), 1.0); }\n",
	"bad.vert": "#version 130\nvoid main() { gl_Position = nope; }\n",
}

// FuzzRenderScene parses arbitrary scene files (meshes and shaders from
// fuzzFiles) and renders the ones that parse at 8x8: bad input must give an
// error, never a panic or a hang.
func FuzzRenderScene(f *testing.F) {
	f.Add([]byte(sceneJSON(`"u_mvp": "mvp", "u_color": [1, 0, 0, 1], "u_mode": 2`)))
	f.Add([]byte(`{"width": 8, "height": 8, "msaa": 4, "camera": {"projection": "perspective", "yfov_deg": 60, "near": 0.1, "far": 5,
		"view": [{"translate": [0, 0, -1.5]}]}, "draws": [{"mesh": {"file": "t.obj"}, "vertex_shader": "l.vert",
		"fragment_shader": "l.frag", "uniforms": {"u_mvp": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1], "u_n": "normal_matrix", "u_flag": true},
		"textures": [{"uniform": "u_tex", "generator": "checker", "size": 8}],
		"state": {"depth_test": true, "cull": "back", "blend": {"enable": true, "src": "src_alpha", "dst": "one_minus_src_alpha"}}}]}`))
	f.Add([]byte(`{"width": 8, "height": 8, "camera": {"projection": "orthographic", "xmag": 1, "ymag": 1, "near": -1, "far": 1},
		"draws": [{"mesh": {"generator": "cube"}, "vertex_shader": "bad.vert", "fragment_shader": "f.frag"}]}`))
	f.Add([]byte(`{"width": 8, "height": 8, "msaa": 2, "draws": []}`))
	read := func(rel string) ([]byte, error) {
		if s, ok := fuzzFiles[rel]; ok {
			return []byte(s), nil
		}
		return nil, os.ErrNotExist
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := scene.ParseDescription(data, "fuzz.json", read)
		if err != nil {
			return
		}
		tris := 0
		for _, dr := range d.Draws {
			if dr.Mesh != nil {
				tris += dr.Mesh.TriangleCount()
			}
		}
		if tris > 20000 || len(d.Draws) > 8 {
			return // the large generators are correct input, just slow
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_, _, _ = Render(ctx, d, Options{Width: 8, Height: 8, Frames: 2, Stats: true, Heatmap: true})
	})
}
