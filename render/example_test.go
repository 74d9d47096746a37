package render_test

import (
	"context"
	"fmt"
	"image"
	"os"

	"vortexgfx/render"
	"vortexgfx/scene"
)

// Example draws one flat-coloured triangle into an image.Image on the reference
// path: the scene file, its mesh and its shaders come from memory through a
// scene.ReadFunc.
func Example() {
	files := map[string]string{
		"triangle.json": `{"width": 32, "height": 32,
			"clear": {"color": [0, 0, 0, 1]},
			"camera": {"projection": "orthographic", "xmag": 0.5, "ymag": 0.5, "near": -1, "far": 1},
			"draws": [{"mesh": {"file": "triangle.obj"},
				"vertex_shader": "flat.vert", "fragment_shader": "flat.frag",
				"uniforms": {"u_mvp": "mvp", "u_color": [1, 0.5, 0, 1]}}]}`,
		"triangle.obj": "v -0.5 -0.5 0\nv 0.5 -0.5 0\nv 0 0.5 0\nf 1 2 3\n",
		"flat.vert": `#version 130
uniform mat4 u_mvp;
in vec3 a_position;
void main() { gl_Position = u_mvp * vec4(a_position, 1.0); }`,
		"flat.frag": `#version 130
uniform vec4 u_color;
out vec4 colour;
void main() { colour = u_color; }`,
	}
	read := func(rel string) ([]byte, error) {
		if s, ok := files[rel]; ok {
			return []byte(s), nil
		}
		return nil, os.ErrNotExist
	}
	desc, err := scene.ParseDescription([]byte(files["triangle.json"]), "triangle.json", read)
	if err != nil {
		fmt.Println(err)
		return
	}
	frames, _, err := render.Render(context.Background(), desc, render.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	var img image.Image = frames[0].Image
	fmt.Println(img.Bounds())
	fmt.Println("centre:", img.At(16, 20))
	fmt.Println("corner:", img.At(1, 1))
	// Output:
	// (0,0)-(32,32)
	// centre: {255 128 0 255}
	// corner: {0 0 0 255}
}
