package pipe_test

import (
	"encoding/binary"
	"fmt"
	"image"
	"log"
	"math"

	"vortexgfx/config"
	"vortexgfx/gl/format"
	"vortexgfx/pipe"
)

// ExampleContext_Plan routes a triangle strip to the device (translated to a
// list), a line strip to the device's software raster (translated to
// segments) and a point draw to the device, then prints the routing report.
func ExampleContext_Plan() {
	screen := pipe.NewScreenWithCaps(pipe.Caps{Threads: 16, Warps: 4, HasTEX: true, HasRASTER: true, HasOM: true}, pipe.Options{})
	ctx := screen.NewContext(pipe.ContextOptions{})

	vs, err := ctx.CreateShaderState(pipe.ShaderDesc{Stage: pipe.StageVertex, GLSL: vsSource}, nil)
	if err != nil {
		log.Fatal(err)
	}
	fs, err := ctx.CreateShaderState(pipe.ShaderDesc{Stage: pipe.StageFragment, GLSL: fsSource}, nil)
	if err != nil {
		log.Fatal(err)
	}
	_ = ctx.BindVSState(vs)
	_ = ctx.BindFSState(fs)
	rt, err := screen.CreateTexture(pipe.TextureDesc{Target: pipe.Target2D, Format: format.BGRA8,
		Width: 64, Height: 64, Depth: 1, ArraySize: 1, Levels: 1})
	if err != nil {
		log.Fatal(err)
	}
	if err := ctx.SetFramebufferState(pipe.Framebuffer{Width: 64, Height: 64, Cbufs: []*pipe.Surface{{Resource: rt}}}); err != nil {
		log.Fatal(err)
	}

	plan, err := ctx.Plan(&pipe.DrawInfo{Mode: pipe.PrimTriangleStrip, InstanceCount: 1,
		Draws: []pipe.DrawRange{{Start: 0, Count: 4}}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("strip: reference", plan[0].Decision.Reference, "key", plan[0].Decision.Key, "indices", plan[0].Indices)

	plan, err = ctx.Plan(&pipe.DrawInfo{Mode: pipe.PrimLineStrip, InstanceCount: 1, Draws: []pipe.DrawRange{{Count: 4}}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("line strip: reference", plan[0].Decision.Reference, plan[0].Decision.Routes, "indices", plan[0].Indices)
	plan, err = ctx.Plan(&pipe.DrawInfo{Mode: pipe.PrimPoints, InstanceCount: 1, Draws: []pipe.DrawRange{{Count: 3}}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("points: reference", plan[0].Decision.Reference, "key", plan[0].Decision.Key, "indices", plan[0].Indices)
	for _, line := range ctx.Stats().Report() {
		fmt.Println(line)
	}
	// Output:
	// strip: reference false key {sw_tex:false sw_om:false sw_raster:false samples:1 bgra:0x1} indices [0 1 2 2 1 3]
	// line strip: reference false [lines (software raster, the reference line rule) (LINE_STRIP) software raster implies software merger] indices [0 1 1 2 2 3]
	// points: reference false key {sw_tex:false sw_om:false sw_raster:false samples:1 bgra:0x1} indices [0 1 2]
	// routed: software raster implies software merger: 1
	// routed: lines (software raster, the reference line rule): 1
}

// The example's shaders: a 2D position and a colour per vertex.
const (
	vsSource = `#version 330
layout(location = 0) in vec2 pos;
layout(location = 1) in vec3 col;
out vec3 v_col;
void main() { gl_Position = vec4(pos, 0.0, 1.0); v_col = col; }
`
	fsSource = `#version 330
in vec3 v_col;
out vec4 o_col;
void main() { o_col = vec4(v_col, 1.0); }
`
)

// ExampleContext_DrawVBO opens a screen on the default device model, compiles a
// vertex and a fragment shader, draws one triangle on the device (STRICT: a
// fallback would be an error) and reads the image back.
func ExampleContext_DrawVBO() {
	screen, err := pipe.OpenScreen(config.Default(), pipe.Options{Strict: true})
	if err != nil {
		log.Fatal(err)
	}
	defer screen.Close()
	ctx := screen.NewContext(pipe.ContextOptions{})
	vs, err := ctx.CreateShaderState(pipe.ShaderDesc{Stage: pipe.StageVertex, Name: "tri.vert", GLSL: vsSource}, nil)
	if err != nil {
		log.Fatal(err)
	}
	fs, err := ctx.CreateShaderState(pipe.ShaderDesc{Stage: pipe.StageFragment, Name: "tri.frag", GLSL: fsSource}, nil)
	if err != nil {
		log.Fatal(err)
	}
	_ = ctx.BindVSState(vs)
	_ = ctx.BindFSState(fs)

	rt, err := screen.CreateTexture(pipe.TextureDesc{Target: pipe.Target2D, Format: format.RGBA8,
		Width: 32, Height: 32, Depth: 1, ArraySize: 1, Levels: 1})
	if err != nil {
		log.Fatal(err)
	}
	if err := ctx.SetFramebufferState(pipe.Framebuffer{Width: 32, Height: 32, Cbufs: []*pipe.Surface{{Resource: rt}}}); err != nil {
		log.Fatal(err)
	}

	// x, y, r, g, b per vertex.
	verts := []float32{
		-1, -1, 1, 0, 0,
		1, -1, 0, 1, 0,
		-1, 1, 0, 0, 1,
	}
	vb, err := screen.CreateBuffer(4 * len(verts))
	if err != nil {
		log.Fatal(err)
	}
	b := make([]byte, 4*len(verts))
	for i, f := range verts {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	_ = vb.Write(0, b)
	ve, err := ctx.CreateVertexElementsState([]pipe.VertexElement{
		{SrcOffset: 0, Format: pipe.VertexFloat32x2},
		{SrcOffset: 8, Format: pipe.VertexFloat32x3},
	})
	if err != nil {
		log.Fatal(err)
	}
	ctx.BindVertexElementsState(ve)
	ctx.SetVertexBuffers([]pipe.VertexBuffer{{Buffer: vb, Stride: 20}})

	if err := ctx.Clear(pipe.ClearColor, [4]float32{0, 0, 0, 1}, 1, 0); err != nil {
		log.Fatal(err)
	}
	if err := ctx.DrawVBO(&pipe.DrawInfo{Mode: pipe.PrimTriangles, InstanceCount: 1,
		Draws: []pipe.DrawRange{{Count: 3}}}); err != nil {
		log.Fatal(err)
	}
	img, err := ctx.ReadPixels(0)
	if err != nil {
		log.Fatal(err)
	}
	// Image row 0 is the top: the triangle covers the lower-left half.
	for _, p := range []image.Point{{1, 30}, {8, 20}, {20, 24}, {20, 8}} {
		fmt.Println(p, img.NRGBAAt(p.X, p.Y))
	}
	st := ctx.Stats()
	fmt.Println("device draws", st.Device, "reference draws", st.Reference)
	// Output:
	// (1,30) {231 12 12 255}
	// (8,20) {96 68 92 255}
	// (20,24) {32 163 60 255}
	// (20,8) {0 0 0 255}
	// device draws 1 reference draws 0
}
