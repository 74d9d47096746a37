package compute

import (
	"fmt"

	"vortexgfx/shader/glsl"
	"vortexgfx/shader/lower"
)

// Source is one compute shader object: several link into one program.
type Source struct {
	Name string // labels errors ("name:line:col: error: ...")
	Text string
}

// Compile compiles GLSL compute shader source (#version 430 / 310 es and later)
// and makes it resident on d. Errors from the front end are ast.ErrorList values
// that print as "name:line:col: error: message".
func (d *Device) Compile(name, src string) (*Program, error) {
	return d.CompileWith([]Source{{Name: name, Text: src}}, glsl.Options{})
}

// CompileWith compiles and links several compute shader objects with the given
// front-end options and makes the program resident on d. Uniform initialisers
// become the program's initial uniform words.
func (d *Device) CompileWith(srcs []Source, opts glsl.Options) (*Program, error) {
	if len(srcs) == 0 {
		return nil, fmt.Errorf("compute: no shader source")
	}
	shaders := make([]*glsl.Shader, len(srcs))
	for i, s := range srcs {
		sh, err := glsl.Compile(s.Name, s.Text, glsl.Compute, opts)
		if err != nil {
			return nil, err
		}
		shaders[i] = sh
	}
	lp, err := glsl.LinkShaders(shaders...)
	if err != nil {
		return nil, err
	}
	lo, err := lower.Lower(lp)
	if err != nil {
		return nil, err
	}
	if lo.CS == nil {
		return nil, fmt.Errorf("compute: %s: the link produced no compute program", srcs[0].Name)
	}
	p, err := d.Load(srcs[0].Name, lo.CS)
	if err != nil {
		return nil, err
	}
	p.uniMu.Lock()
	copy(p.uniforms, lo.UniformDefaults)
	p.uniMu.Unlock()
	return p, nil
}
