package glsl

import "vortexgfx/shader/glsl/ast"

// Separable programs (glProgramParameteri(GL_PROGRAM_SEPARABLE)) and the
// program pipelines made of them. spec: ARB_separate_shader_objects
// ("To use any built-in input or output in the gl_PerVertex and
// gl_PerFragment blocks in separable program objects, shader code must
// redeclare those blocks prior to use"; the extension's resolved issues
// exempt GLSL 1.40 and earlier, which have no interface blocks),
// OpenGL 4.5 §7.4.1.

// perVertexOutputs are the members of the output gl_PerVertex block.
var perVertexOutputs = []string{"gl_Position", "gl_PointSize", "gl_ClipDistance", "gl_CullDistance"}

// LinkSeparable links shaders into a separable program: LinkShaders'
// rules, and where the program links a vertex stage to a geometry stage,
// a shader of GLSL 1.50 or later on either side of that interface that uses
// a member of the gl_PerVertex block between them (the vertex outputs,
// gl_in[]) must redeclare it. The redeclaration rule is held only between
// stages of one program, as Mesa holds it (the reference piglit's
// results are llvmpipe's): a separable program of one stage may use the
// built-ins undeclared (piglit's SSO pipelines do).
func LinkSeparable(shaders ...*Shader) (*Program, error) {
	p, err := LinkShaders(shaders...)
	var errs ast.ErrorList
	var hasVS, hasGS bool
	for _, s := range shaders {
		hasVS = hasVS || s != nil && s.Stage == Vertex
		hasGS = hasGS || s != nil && s.Stage == Geometry
	}
	for _, s := range shaders {
		if !hasVS || !hasGS || s == nil || s.Stage != Vertex && s.Stage != Geometry {
			continue
		}
		if v, es := s.Version(); es || v < 150 {
			continue
		}
		f := s.File
		if s.Stage == Vertex && f.PerVertexOut == nil {
			for _, name := range perVertexOutputs {
				if usesBuiltin(f, name) {
					errs.Add(f.Pos(), "a separable program's "+s.Stage.String()+" shader uses '"+name+"' without redeclaring the output gl_PerVertex block")
					break
				}
			}
		}
		if s.Stage == Geometry && f.PerVertexIn == nil && usesBuiltin(f, "gl_in") {
			errs.Add(f.Pos(), "a separable program's geometry shader reads gl_in without redeclaring the input gl_PerVertex block")
		}
	}
	if len(errs) == 0 {
		return p, err
	}
	if el, ok := err.(ast.ErrorList); ok {
		errs = append(errs, el...)
	} else if err != nil {
		errs.Add(ast.Pos{}, err.Error())
	}
	errs.Sort()
	return nil, errs
}
