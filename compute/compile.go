package compute

import (
	"errors"
	"fmt"

	"vortexgfx/shader/glsl"
	"vortexgfx/shader/lower"
)

// ErrUnsupported is a program the device path does not run (the message says
// what); a caller may fall back or skip.
var ErrUnsupported = errors.New("compute: not supported on the device")

// Source is one compute shader object: several link into one program.
type Source struct {
	Name string // labels errors ("name:line:col: error: ...")
	Text string
}

// Compile compiles GLSL compute shader source (#version 430 / 310 es and later)
// and makes it resident on d. Errors from the front end are ast.ErrorList values
// that print as "name:line:col: error: message". spec: vortexpipe §2.2 (the
// compute stage becomes kernel_main, one thread per work-item), §2.5
func (d *Device) Compile(name, src string) (*Program, error) {
	return d.CompileWith([]Source{{Name: name, Text: src}}, glsl.Options{})
}

// CompileWith compiles and links several compute shader objects with the given
// front-end options and makes the program resident on d. spec: vortexpipe §2.5
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
	return d.LoadLinked(srcs[0].Name, lp)
}

// LoadLinked lowers a linked compute program and makes it resident on d.
// Uniform initialisers become the initial uniform words, and uniforms can be
// set by their GL names (SetUniformValue).
func (d *Device) LoadLinked(name string, lp *glsl.Program) (*Program, error) {
	if lp == nil || lp.Compute == nil {
		return nil, fmt.Errorf("compute: %s: the link has no compute stage", name)
	}
	lo, err := lower.Lower(lp)
	if err != nil {
		return nil, err
	}
	if lo.CS == nil {
		return nil, fmt.Errorf("compute: %s: lowering produced no compute program", name)
	}
	p, err := d.Load(name, lo.CS)
	if err != nil {
		return nil, err
	}
	words := map[string]int{}
	for _, s := range lo.CS.Uniforms {
		words[s.Name] = s.Word
	}
	for _, u := range lp.Uniforms {
		if w, ok := words[u.Name]; ok {
			p.uvars = append(p.uvars, uniformVar{name: u.Name, typ: u.Type, word: w})
		}
	}
	p.uniMu.Lock()
	copy(p.uniforms, lo.UniformDefaults)
	p.uniMu.Unlock()
	return p, nil
}
