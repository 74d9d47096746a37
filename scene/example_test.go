package scene_test

import (
	"fmt"
	"log"

	"vortexgfx/scene"
)

// Loading the embedded demo scene and resolving one frame's uniforms.
func ExampleDemo() {
	d, err := scene.Demo()
	if err != nil {
		log.Fatal(err)
	}
	dr := &d.Draws[0]
	fmt.Printf("%dx%d msaa %d: %s, %d triangles, texture %s\n",
		d.Width, d.Height, d.MSAA, dr.Name, dr.Mesh.TriangleCount(), dr.Textures[0].Texture.Name)
	for _, u := range d.UniformValues(0, 10) {
		fmt.Printf("%s: %d floats\n", u.Name, len(u.Value))
	}
	// Output:
	// 640x480 msaa 4: torus knot, 12288 triangles, texture brick
	// u_ambient: 3 floats
	// u_camera_pos: 3 floats
	// u_light_color: 3 floats
	// u_light_dir: 3 floats
	// u_model: 16 floats
	// u_mvp: 16 floats
	// u_normal_matrix: 9 floats
	// u_shininess: 1 floats
	// u_specular: 1 floats
}

// Writing a scene as GLB and reading it back.
func ExampleEncodeGLB() {
	s := scene.SingleMeshScene([]scene.Mesh{*scene.Cube()}, nil, nil)
	glb, err := scene.EncodeGLB(s)
	if err != nil {
		log.Fatal(err)
	}
	back, err := scene.DecodeGLTF(glb, "cube.glb", nil)
	if err != nil {
		log.Fatal(err)
	}
	m := &back.Meshes[0]
	fmt.Println(m.VertexCount(), "vertices,", m.TriangleCount(), "triangles")
	// Output: 24 vertices, 12 triangles
}

// The bench matrices of frame 19 at 512×512.
func ExampleBenchMatrices() {
	mvp, _ := scene.BenchMatrices(19, 512, 512)
	c := mvp.MulVec4([4]float32{0, 0, 0, 1})
	fmt.Printf("origin in clip space: (%.3f, %.3f, %.3f, %.3f)\n", c[0], c[1], c[2], c[3])
	// Output: origin in clip space: (0.000, 0.000, 1.838, 2.000)
}
