package pipe_test

import (
	"fmt"
	"log"

	"vortexgfx/pipe"
	"vortexgfx/ref/format"
)

// ExampleContext_Plan routes a triangle strip to the device (translated to a list)
// and a point draw to the reference renderer, then prints the fallback report.
func ExampleContext_Plan() {
	screen := pipe.NewScreenWithCaps(pipe.Caps{Threads: 16, Warps: 4, HasTEX: true, HasRASTER: true, HasOM: true}, pipe.Options{})
	ctx := screen.NewContext(pipe.ContextOptions{})

	vs, err := ctx.CreateShaderState(pipe.ShaderDesc{Stage: pipe.StageVertex, GLSL: "#version 450\n...",
		Info: pipe.ShaderInfo{Compiled: true, VaryingVec4s: 1}}, nil)
	if err != nil {
		log.Fatal(err)
	}
	fs, err := ctx.CreateShaderState(pipe.ShaderDesc{Stage: pipe.StageFragment, GLSL: "#version 450\n...",
		Info: pipe.ShaderInfo{Compiled: true, ColorOutputs: 1}}, nil)
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

	plan, err = ctx.Plan(&pipe.DrawInfo{Mode: pipe.PrimPoints, InstanceCount: 1, Draws: []pipe.DrawRange{{Count: 10}}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("points: reference", plan[0].Decision.Reference, plan[0].Decision.Gates)
	for _, line := range ctx.Stats().Report() {
		fmt.Println(line)
	}
	// Output:
	// strip: reference false key {sw_tex:false sw_om:false sw_raster:false samples:1 bgra:0x1} indices [0 1 2 2 1 3]
	// points: reference true [line/point topology (POINTS)]
	// fallback: line/point topology: 1
}
