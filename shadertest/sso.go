package shadertest

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"vortexgfx/shader/glsl"
	"vortexgfx/shader/glsl/ast"
)

// Separate shader objects: shader_runner's "SEPARABLE PROGRAM ENABLED"
// (one program linked with GL_PROGRAM_SEPARABLE) and "SSO ENABLED" (each
// stage's sections linked into a separable program of its own, the
// programs bound to one program pipeline; a stage that fails to link fails
// the test). spec: ARB_separate_shader_objects; piglit
// tests/shaders/shader_runner.c (process_shader, link_sso).
//
// The front end checks each separable program (glsl.LinkSeparable: the
// program's own rules and the gl_PerVertex redeclaration rule). A pipeline
// is handed to the back end as one program of all its stages when that is
// the same thing: when the stages' interfaces link as one program would
// (by name or by location, GLSL 4.40 §4.4.1) and no uniform name is
// declared by two stages (two programs' uniforms are distinct objects). A
// pipeline whose interfaces only a pipeline accepts (an input no output
// feeds, read as undefined) or whose stages share a uniform name is
// skipped with that reason, as the back ends have no form of it.

// separateMode is how a file links: 0 as one program, or the [require]
// line that asks for separable programs.
func (f *File) separateMode() ReqKind {
	for _, r := range f.Requires {
		if r.Kind == ReqSSO || r.Kind == ReqSeparable {
			return r.Kind
		}
	}
	return ReqIgnored
}

// ssoSkip is checkRequirements' verdict on SSO ENABLED and SEPARABLE
// PROGRAM ENABLED: both need GL 4.1 or GL_ARB_separate_shader_objects on
// desktop GL, GL ES 3.1 or GL_EXT_separate_shader_objects on ES.
func ssoSkip(caps *Caps, gl Version) string {
	if gl.ES {
		if gl.Num >= 31 || caps.hasExtension("GL_EXT_separate_shader_objects") {
			return ""
		}
		return "separate shader objects are not supported (GL ES 3.1 or GL_EXT_separate_shader_objects)"
	}
	if gl.Num >= 41 || caps.hasExtension("GL_ARB_separate_shader_objects") {
		return ""
	}
	return "separate shader objects are not supported"
}

// link compiles and links secs, the file's program with its assembly sections
// already GLSL (see the notes above for the
// separable forms) and makes it current in the back end.
func (r *runner) link(secs []Shader) error {
	p := &Program{Shaders: secs, Includes: r.f.Includes}
	switch r.f.separateMode() {
	case ReqSeparable:
		shaders, err := r.compileFront(secs)
		if err != nil {
			return err
		}
		if _, err := glsl.LinkSeparable(shaders...); err != nil {
			return &LinkError{Log: err.Error()}
		}
	case ReqSSO:
		if err := r.checkPipeline(); err != nil {
			return err
		}
		r.pipeline = true
	}
	return r.c.Link(p)
}

// frontStage maps a runner stage to the front end's (false: none).
func frontStage(s Stage) (glsl.Stage, bool) {
	switch s {
	case StageVertex:
		return glsl.Vertex, true
	case StageFragment:
		return glsl.Fragment, true
	case StageGeometry:
		return glsl.Geometry, true
	}
	return 0, false
}

// compileFront compiles sections with the options the back ends use; a
// section that does not compile is a *CompileError.
func (r *runner) compileFront(secs []Shader) ([]*glsl.Shader, error) {
	opts := glsl.Options{DefaultVersion: max(r.glslNum, 110), Compatibility: r.api == APIGL,
		Extensions: []string{"GL_ARB_explicit_attrib_location", "GL_ARB_draw_buffers", "GL_ARB_texture_rg"}, Includes: r.f.Includes}
	var out []*glsl.Shader
	for i, s := range secs {
		st, ok := frontStage(s.Stage)
		if !ok {
			return nil, fmt.Errorf("%s shaders: %w", s.Stage, ErrUnsupported)
		}
		sh, err := glsl.Compile(fmt.Sprintf("%s-%d", s.Stage, i), s.Source, st, opts)
		if err != nil {
			return nil, &CompileError{Stage: s.Stage, Line: s.Line, Log: err.Error()}
		}
		out = append(out, sh)
	}
	return out, nil
}

// checkPipeline links each stage's sections as a separable program (a
// failure fails the test, as shader_runner's link_sso does) and decides
// whether the pipeline runs as one program. It records each stage's
// uniform names for "active shader program".
func (r *runner) checkPipeline() error {
	byStage := map[Stage][]Shader{}
	var order []Stage
	for _, s := range r.f.Shaders {
		if _, ok := byStage[s.Stage]; !ok {
			order = append(order, s.Stage)
		}
		byStage[s.Stage] = append(byStage[s.Stage], s)
	}
	sort.Slice(order, func(i, j int) bool { return order[i] < order[j] })
	var all []*glsl.Shader
	r.stageUniforms = map[Stage]map[string]bool{}
	owner := map[string]Stage{}
	for _, st := range order {
		shaders, err := r.compileFront(byStage[st])
		if err != nil {
			return err
		}
		if _, err := glsl.LinkSeparable(shaders...); err != nil {
			return fmt.Errorf("SSO link of the %s program failed: %s", st, err)
		}
		names := uniformNames(shaders)
		for n := range names {
			if prev, ok := owner[n]; ok {
				return fmt.Errorf("program pipeline: uniform '%s' is declared by the %s and the %s program: %w", n, prev, st, ErrUnsupported)
			}
			owner[n] = st
		}
		r.stageUniforms[st] = names
		all = append(all, shaders...)
	}
	if _, err := glsl.LinkShaders(all...); err != nil {
		var el ast.ErrorList
		msg := err.Error()
		if errors.As(err, &el) && len(el) > 0 {
			msg = el[0].Error()
		}
		return fmt.Errorf("program pipeline whose stages do not link as one program (%s): %w", msg, ErrUnsupported)
	}
	return nil
}

// uniformNames are the names a stage's uniforms and uniform blocks are set
// by: default-block uniforms, block names and the members of unnamed blocks.
func uniformNames(shaders []*glsl.Shader) map[string]bool {
	names := map[string]bool{}
	for _, s := range shaders {
		for _, v := range s.File.Globals {
			if v.Kind == ast.VarUniform && !v.Builtin {
				names[v.Name] = true
			}
		}
		for _, b := range s.File.Blocks {
			if b.Storage == ast.StorageUniform {
				names[b.Name] = true
			}
		}
	}
	return names
}

// activeProgram is "active shader program GL_*_SHADER": later uniform
// commands set the uniforms of that stage's program in the pipeline.
func (r *runner) activeProgram(c *Command) error {
	if !r.pipeline {
		return &stop{Fail, "active shader program without a program pipeline (SSO ENABLED)"}
	}
	st, ok := map[string]Stage{"GL_VERTEX_SHADER": StageVertex, "GL_GEOMETRY_SHADER": StageGeometry,
		"GL_FRAGMENT_SHADER": StageFragment, "GL_TESS_CONTROL_SHADER": StageTessControl,
		"GL_TESS_EVALUATION_SHADER": StageTessEval}[c.Name]
	if !ok {
		return &stop{Fail, fmt.Sprintf("unknown shader stage %q", c.Name)}
	}
	if _, ok := r.stageUniforms[st]; !ok {
		return &stop{Fail, fmt.Sprintf("the pipeline has no %s program", st)}
	}
	r.activeStage, r.hasActive = st, true
	return nil
}

// inActiveProgram reports whether a uniform named by name (not by
// location) belongs to the active program of the pipeline, when one was
// made active.
func (r *runner) inActiveProgram(u *Uniform) bool {
	if !r.pipeline || !r.hasActive || u.Location >= 0 {
		return true
	}
	root := u.Name
	if i := strings.IndexAny(root, "[."); i >= 0 {
		root = root[:i]
	}
	return r.stageUniforms[r.activeStage][root]
}
