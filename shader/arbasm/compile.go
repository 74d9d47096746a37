package arbasm

import (
	"fmt"
	"sort"

	"vortexgfx/shader"
	"vortexgfx/shader/glsl"
)

// Params is a parameter array's uniform: its GLSL name and how many vec4s
// the program reads (indices 0..Size-1; 0: the program reads none).
type Params struct {
	Name string
	Size int
}

// Sampler is the sampler uniform of one texture image unit the program
// samples.
type Sampler struct {
	Name   string
	Unit   int
	Target string // 1D, 2D, 3D, CUBE, RECT, SHADOW1D, SHADOW2D, SHADOWRECT
}

// Program is a translated assembly program: its GLSL and the uniforms a
// caller loads — program.env[] into Env, program.local[] into Local, each
// sampler with its unit.
type Program struct {
	Target   Target
	GLSL     string
	Env      Params
	Local    Params
	Samplers []Sampler
	// PositionInvariant is OPTION ARB_position_invariant.
	PositionInvariant bool
}

// Translate parses and checks src, a program string of target, and lowers it
// to GLSL. A malformed program is an *Error naming the line and column of the
// first problem. spec: ARB_vertex_program §2.14.1 (ProgramStringARB: a
// program that fails to load reports the position of its first error)
func Translate(src string, target Target) (*Program, error) {
	if target != VertexProgram && target != FragmentProgram {
		return nil, fmt.Errorf("arbasm: unknown target %d", target)
	}
	p, err := parse(src, target)
	if err != nil {
		return nil, err
	}
	out := &Program{Target: target, GLSL: emit(p), PositionInvariant: p.options["ARB_position_invariant"],
		Env: Params{Name: envNames[target], Size: p.envMax}, Local: Params{Name: localNames[target], Size: p.localMax}}
	for u, t := range p.units {
		out.Samplers = append(out.Samplers, Sampler{Name: samplerName(u), Unit: u, Target: t.String()})
	}
	sort.Slice(out.Samplers, func(i, j int) bool { return out.Samplers[i].Unit < out.Samplers[j].Unit })
	return out, nil
}

// Options are the GLSL front-end options the translation compiles with: GLSL
// 1.20 in the compatibility profile (the built-ins the bindings alias).
func Options() glsl.Options {
	return glsl.Options{DefaultVersion: 120, Compatibility: true, Extensions: []string{"GL_ARB_texture_rectangle"}}
}

// Stage is the GLSL stage of a target.
func (t Target) Stage() glsl.Stage {
	if t == FragmentProgram {
		return glsl.Fragment
	}
	return glsl.Vertex
}

// Source is the translation as a shader object named name.
func (p *Program) Source(name string) shader.Source {
	return shader.Source{Name: name, Stage: p.Target.Stage(), Text: p.GLSL, Options: Options()}
}

// Compile translates src and compiles it on its own to verified IR through
// shader.Compile. A failure of the generated GLSL to compile is this
// package's bug, reported as such.
func Compile(src string, target Target) (*Program, *shader.Program, error) {
	p, err := Translate(src, target)
	if err != nil {
		return nil, nil, err
	}
	cp, err := shader.Compile(p.Source("arb-" + target.Stage().String()))
	if err != nil {
		return nil, nil, fmt.Errorf("arbasm: internal error: the translated %s does not compile: %w", target, err)
	}
	return p, cp, nil
}
