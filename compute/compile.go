package compute

import (
	"errors"
	"fmt"

	"vortexgfx/shader"
	"vortexgfx/shader/glsl"
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
// and makes it resident on d. Errors from the compiler are *shader.Error values
// that print as "name:line:col: error: message" (errors.As finds the front end's
// ast.ErrorList). spec: vortexpipe §2.2 (the
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
	ss := make([]shader.Source, len(srcs))
	for i, s := range srcs {
		ss[i] = shader.Source{Name: s.Name, Stage: glsl.Compute, Text: s.Text, Options: opts}
	}
	cp, err := shader.Compile(ss...)
	if err != nil {
		return nil, err
	}
	return d.LoadCompiled(srcs[0].Name, cp)
}

// LoadCompiled makes a compiled compute program (shader.Compile) resident on d.
// Uniform initialisers become the initial uniform words, and uniforms can be
// set by their GL names (SetUniformValue).
func (d *Device) LoadCompiled(name string, cp *shader.Program) (*Program, error) {
	lp, lo := cp.Linked, cp.IR
	if lp == nil || lp.Compute == nil {
		return nil, fmt.Errorf("compute: %s: the link has no compute stage", name)
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
