package lower

import (
	"vortexgfx/shader/glsl"
	"vortexgfx/shader/ir"
)

// The tests of this package compile from source with these helpers: they run
// the sequence of shader.Compile (front end, link, Lower), which this package
// cannot import (package shader imports it).

// compilePair compiles, links and lowers a vertex and a fragment shader.
func compilePair(vsName, vsSrc, fsName, fsSrc string, opts glsl.Options) (*Program, error) {
	vs, err := glsl.Compile(vsName, vsSrc, glsl.Vertex, opts)
	if err != nil {
		return nil, err
	}
	fs, err := glsl.Compile(fsName, fsSrc, glsl.Fragment, opts)
	if err != nil {
		return nil, err
	}
	lp, err := glsl.LinkShaders(vs, fs)
	if err != nil {
		return nil, err
	}
	return Lower(lp)
}

// compileStage compiles and lowers one shader on its own.
func compileStage(name, src string, stage glsl.Stage, opts glsl.Options) (*ir.Program, error) {
	s, err := glsl.Compile(name, src, stage, opts)
	if err != nil {
		return nil, err
	}
	lp, err := glsl.LinkShaders(s)
	if err != nil {
		return nil, err
	}
	p, err := Lower(lp)
	if err != nil {
		return nil, err
	}
	switch stage {
	case glsl.Vertex:
		return p.VS, nil
	case glsl.Compute:
		return p.CS, nil
	}
	return p.FS, nil
}

// compileCompute compiles and lowers one compute shader.
func compileCompute(name, src string, opts glsl.Options) (*ir.Program, error) {
	return compileStage(name, src, glsl.Compute, opts)
}
