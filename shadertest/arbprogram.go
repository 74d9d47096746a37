package shadertest

import (
	"errors"
	"fmt"

	"vortexgfx/shader/arbasm"
)

// The runner's side of GL_ARB_vertex_program and GL_ARB_fragment_program:
// a [vertex program] / [fragment program] section is an assembly program
// (File.Shaders with Assembly set) that the runner translates with
// shader/arbasm into the GLSL of the same computation before the link, so
// every back end runs it as a GLSL stage — paired with a GLSL shader or GL's
// fixed-function stage of the other kind, as GL pairs an enabled program
// with whatever runs the other stage. A stage that also has a GLSL shader
// runs the GLSL shader (a GLSL program in use takes precedence over an
// enabled assembly program); of several programs of one target the last
// is bound, as shader_runner binds each section in turn. The "parameter"
// command loads program.env[] and program.local[] into the translation's
// uniform arrays. spec: ARB_vertex_program §2.14.1 (ProgramEnvParameter4fvARB,
// ProgramLocalParameter4fvARB), ARB_fragment_program §3.11.1; GL 2.0 §2.15
// (a program object's vertex shader replaces the vertex program);
// piglit shader_runner.c (compile_and_bind_program, set_parameter)

// arbExtensions are the extensions the runner claims on any back end with a
// GLSL 1.20 compatibility front end: the assembly programs are translated
// into it, with every instruction, target and binding the translator takes
// (shader/arbasm refuses the rest, naming them).
var arbExtensions = []string{"GL_ARB_vertex_program", "GL_ARB_fragment_program", "GL_ARB_fragment_program_shadow"}

// arbCaps adds arbExtensions to a desktop back end's capabilities.
func arbCaps(c Caps) Caps {
	if c.GL < 13 || c.GLSL < 120 || !c.hasStage(StageVertex) {
		return c
	}
	c.Extensions = append(append([]string(nil), c.Extensions...), arbExtensions...)
	return c
}

// addProgram records one assembly program section, its exact text the
// program string.
func (f *File) addProgram(src string, stage Stage, header int, body []line) {
	f.Shaders = append(f.Shaders, Shader{Stage: stage, Source: sectionText(src, body), Line: header, Assembly: true})
}

// arbTarget is a program section's target.
func arbTarget(s Stage) arbasm.Target {
	if s == StageFragment {
		return arbasm.FragmentProgram
	}
	return arbasm.VertexProgram
}

// extensionOf is the extension a program of the stage needs.
func extensionOf(s Stage) string {
	if s == StageFragment {
		return "GL_ARB_fragment_program"
	}
	return "GL_ARB_vertex_program"
}

// arbState is a test's assembly programs: the bound translation per target
// and the parameters set so far (env and local, per target), which apply
// to the program whenever it is linked.
type arbState struct {
	progs  [2]*arbasm.Program
	params [2]map[paramKey][4]float32
}

type paramKey struct {
	local bool
	index int
}

// translatePrograms replaces the assembly sections of shaders with their
// GLSL translations (the last program of each target, unless the test has
// a GLSL shader of that stage). A program that does not translate is the
// test's compile failure; a program of a target the back end lacks skips.
func (r *runner) translatePrograms(shaders []Shader) ([]Shader, error) {
	glslStage := map[Stage]bool{}
	last := map[Stage]int{}
	for i, s := range shaders {
		if s.Assembly {
			last[s.Stage] = i
		} else {
			glslStage[s.Stage] = true
		}
	}
	if len(last) == 0 {
		return shaders, nil
	}
	r.arb = &arbState{}
	out := make([]Shader, 0, len(shaders))
	for i, s := range shaders {
		if !s.Assembly {
			out = append(out, s)
			continue
		}
		if !r.caps.hasExtension(extensionOf(s.Stage)) {
			return nil, &stop{Skip, "test requires " + extensionOf(s.Stage)}
		}
		p, err := arbasm.Translate(s.Source, arbTarget(s.Stage))
		var ae *arbasm.Error
		if errors.As(err, &ae) && ae.Unsupported {
			return nil, &stop{Skip, fmt.Sprintf("%s program (section at line %d): %v", s.Stage, s.Line, err)}
		}
		if err != nil {
			return nil, &CompileError{Stage: s.Stage, Line: s.Line, Log: "program: " + err.Error()}
		}
		if glslStage[s.Stage] || last[s.Stage] != i {
			continue
		}
		r.arb.progs[arbTarget(s.Stage)] = p
		out = append(out, Shader{Stage: s.Stage, Source: p.GLSL, Line: s.Line})
	}
	return out, nil
}

// bindPrograms loads the bound programs' sampler units and the parameters
// set so far, after a link.
func (r *runner) bindPrograms() error {
	if r.arb == nil {
		return nil
	}
	for t, p := range r.arb.progs {
		if p == nil {
			continue
		}
		for _, s := range p.Samplers {
			if err := r.setProgramUniform(&Uniform{TypeName: "int", Base: BaseInt, Cols: 1, Rows: 1, Name: s.Name,
				Location: -1, Ints: []int32{int32(s.Unit)}}); err != nil {
				return err
			}
		}
		for k, v := range r.arb.params[t] {
			if err := r.loadParameter(arbasm.Target(t), k, v); err != nil {
				return err
			}
		}
	}
	return nil
}

// parseParameter reads "parameter TYPE N (x, y, z, w)" as set_parameter's
// sscanf does.
func parseParameter(c *Command, t string) bool {
	it, n := scanf(t, "parameter %s %d (%f , %f , %f , %f)")
	if n != 6 {
		return false
	}
	switch it[0].s {
	case "env_vp", "local_vp", "env_fp", "local_fp":
	default:
		return false
	}
	c.Op, c.Name, c.Index = OpParameter, it[0].s, int(it[1].i)
	for _, x := range it[2:] {
		c.F = append(c.F, float32(x.f))
	}
	return true
}

// parameter executes a parameter command: the value is kept for the
// target and loaded into its bound program. An index beyond the
// implementation's parameters is GL_INVALID_VALUE, which leaves the state
// unchanged (shader_runner does not check for it).
func (r *runner) parameter(c *Command) error {
	t := arbasm.VertexProgram
	if c.Name == "env_fp" || c.Name == "local_fp" {
		t = arbasm.FragmentProgram
	}
	k := paramKey{local: c.Name == "local_vp" || c.Name == "local_fp", index: c.Index}
	limit := arbasm.MaxEnvParams
	if k.local {
		limit = arbasm.MaxLocalParams
	}
	if c.Index < 0 || c.Index >= limit {
		return nil
	}
	if r.arb == nil {
		r.arb = &arbState{}
	}
	if r.arb.params[t] == nil {
		r.arb.params[t] = map[paramKey][4]float32{}
	}
	var v [4]float32
	copy(v[:], c.F)
	r.arb.params[t][k] = v
	if !r.linked {
		return nil
	}
	return r.loadParameter(t, k, v)
}

// loadParameter sets one parameter of the bound program of target t, when
// the program reads it.
func (r *runner) loadParameter(t arbasm.Target, k paramKey, v [4]float32) error {
	p := r.arb.progs[t]
	if p == nil {
		return nil
	}
	arr := p.Env
	if k.local {
		arr = p.Local
	}
	if k.index >= arr.Size {
		return nil
	}
	return r.setProgramUniform(&Uniform{TypeName: "vec4", Base: BaseFloat, Cols: 1, Rows: 4,
		Name: fmt.Sprintf("%s[%d]", arr.Name, k.index), Location: -1, Floats: v[:]})
}

// setProgramUniform sets a translation's uniform; one the compiler found
// unused is not active, which is no error.
func (r *runner) setProgramUniform(u *Uniform) error {
	err := r.c.SetUniform(u)
	if errors.Is(err, ErrUniformNotFound) {
		return nil
	}
	return err
}
