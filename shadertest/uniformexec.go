package shadertest

import (
	"errors"
	"fmt"
	"strconv"
)

// Executing the uniform-state commands of a [test] section: uniform (and ubo
// array index), the fixed-function light and material state, and active
// uniform queries. spec: piglit shader_runner.c (set_uniform, active_uniform)

// uniform sets a uniform of the program in use (shader_runner's "uniform"
// command); without a linked program the test fails as shader_runner does.
func (r *runner) uniform(c *Command) error {
	u := c.Uniform
	if !r.linked {
		// program_must_be_in_use marks the line failed, then
		// glGetUniformLocation on no program fails the test.
		r.fail(c, "%s", r.programNotInUse())
		return &stop{Fail, r.failure}
	}
	switch u.Base {
	case BaseUint:
		if r.gl.Num < 30 && !r.caps.hasExtension("GL_EXT_gpu_shader4") {
			return &stop{Skip, "unsigned uniforms need GL 3.0 or GL_EXT_gpu_shader4"}
		}
	case BaseDouble:
		if r.gl.Num < 40 && !r.caps.hasExtension("GL_ARB_gpu_shader_fp64") {
			return &stop{Skip, "double uniforms need GL 4.0 or GL_ARB_gpu_shader_fp64"}
		}
	case BaseInt64, BaseUint64:
		if !r.caps.hasExtension("GL_ARB_gpu_shader_int64") {
			return &stop{Skip, "64-bit integer uniforms need GL_ARB_gpu_shader_int64"}
		}
	}
	if !r.inActiveProgram(u) {
		// glGetUniformLocation on the pipeline's active program.
		return &stop{Fail, fmt.Sprintf("cannot get location of uniform %q in the active %s program", u.Name, r.activeStage)}
	}
	if r.uboIndex != 0 {
		uc := *u
		uc.BlockIndex = r.uboIndex
		u = &uc
	}
	err := r.c.SetUniform(u)
	if errors.Is(err, ErrUniformNotFound) {
		if r.ignoreMissing {
			return nil
		}
		return &stop{Fail, fmt.Sprintf("cannot get location of uniform %q", u.Name)}
	}
	return err
}

func (r *runner) light(c *Command) {
	l := &r.state.Lights[c.Index]
	v := c.F
	if c.LightInt {
		switch c.Name {
		case "GL_AMBIENT", "GL_DIFFUSE", "GL_SPECULAR":
			// glLightiv maps integers linearly: (2i+1)/(2^32-1).
			for i := range v {
				v[i] = float32((2*float64(v[i]) + 1) / (1<<32 - 1))
			}
		}
	}
	vec4 := func(dst *[4]float32) {
		if len(v) >= 4 {
			copy(dst[:], v[:4])
		}
	}
	switch c.Name {
	case "GL_AMBIENT":
		vec4(&l.Ambient)
	case "GL_DIFFUSE":
		vec4(&l.Diffuse)
	case "GL_SPECULAR":
		vec4(&l.Specular)
	case "GL_POSITION":
		vec4(&l.Position)
	case "GL_SPOT_DIRECTION":
		if len(v) >= 3 {
			copy(l.SpotDirection[:], v[:3])
		}
	case "GL_SPOT_EXPONENT":
		l.SpotExponent = v[0]
	case "GL_SPOT_CUTOFF":
		l.SpotCutoff = v[0]
	case "GL_CONSTANT_ATTENUATION":
		l.ConstantAttenuation = v[0]
	case "GL_LINEAR_ATTENUATION":
		l.LinearAttenuation = v[0]
	case "GL_QUADRATIC_ATTENUATION":
		l.QuadraticAttenuation = v[0]
	}
}

// activeUniform checks one glGetActiveUniformsiv property of an active uniform
// (shader_runner's "active uniform"): the type by its GL enum name, the others
// as integers. A back end that cannot reflect its program skips the test.
func (r *runner) activeUniform(c *Command) error {
	if !r.programInUse(c) {
		return nil
	}
	ref, ok := r.c.(UniformReflector)
	if !ok {
		return &stop{Skip, "active uniform queries are not supported by this back end"}
	}
	u, ok := ref.ActiveUniform(c.Name)
	if !ok {
		return &stop{Fail, fmt.Sprintf("line %d: no active uniform named %q", c.Line, c.Name)}
	}
	var got int
	switch c.Cap {
	case "GL_UNIFORM_TYPE":
		if u.Type != c.Value {
			return &stop{Fail, fmt.Sprintf("line %d: %s GL_UNIFORM_TYPE: expected %s, got %s", c.Line, c.Name, c.Value, u.Type)}
		}
		return nil
	case "GL_UNIFORM_SIZE":
		got = u.Size
	case "GL_UNIFORM_OFFSET":
		got = u.Offset
	case "GL_UNIFORM_ARRAY_STRIDE":
		got = u.ArrayStride
	case "GL_UNIFORM_MATRIX_STRIDE":
		got = u.MatrixStride
	case "GL_UNIFORM_IS_ROW_MAJOR":
		if u.RowMajor {
			got = 1
		}
	default:
		return &stop{Skip, fmt.Sprintf("line %d: active uniform property %s is not supported", c.Line, c.Cap)}
	}
	want, err := strconv.ParseInt(c.Value, 0, 64)
	if err != nil {
		return &stop{Fail, fmt.Sprintf("line %d: active uniform %s: bad value %q", c.Line, c.Cap, c.Value)}
	}
	if int64(got) != want {
		return &stop{Fail, fmt.Sprintf("line %d: %s %s: expected %d, got %d", c.Line, c.Name, c.Cap, want, got)}
	}
	return nil
}

// resourceQuery runs "verify program_interface_query": one property of one
// resource of the linked program, from the back end's reflection of the link.
func (r *runner) resourceQuery(c *Command) error {
	if !r.programInUse(c) {
		return nil
	}
	ref, ok := r.c.(ResourceReflector)
	if !ok {
		return &stop{Skip, "program interface queries are not supported by this back end"}
	}
	want, err := strconv.ParseInt(c.Value, 0, 64)
	if err != nil {
		return &stop{Skip, fmt.Sprintf("program interface query value %q is not a number", c.Value)}
	}
	got, ok, err := ref.ProgramResource(c.Iface, c.Name, c.Cap)
	switch {
	case errors.Is(err, ErrUnsupported):
		return &stop{Skip, err.Error()}
	case err != nil:
		return err
	case !ok:
		return &stop{Fail, fmt.Sprintf("no %s resource named %q", c.Iface, c.Name)}
	case int64(got) != want:
		return &stop{Fail, fmt.Sprintf("%s %s %s: expected %d, got %d", c.Iface, c.Name, c.Cap, want, got)}
	}
	return nil
}
