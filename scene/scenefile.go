package scene

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"vortexgfx/gl/blend"
)

// The JSON shapes of a scene file. Unknown fields are errors.
// A scene file fully determines an image (package doc, "Scene files").

type fileJSON struct {
	Width  int        `json:"width"`
	Height int        `json:"height"`
	MSAA   int        `json:"msaa"`
	Clear  *clearJSON `json:"clear"`
	Camera cameraJSON `json:"camera"`
	Draws  []drawJSON `json:"draws"`
}

type clearJSON struct {
	Color   []float32 `json:"color"`
	Depth   *float32  `json:"depth"`
	Stencil *int      `json:"stencil"`
}

type cameraJSON struct {
	Projection string      `json:"projection"`
	YFovDeg    float64     `json:"yfov_deg"`
	Aspect     float64     `json:"aspect"`
	Near       float64     `json:"near"`
	Far        float64     `json:"far"`
	XMag       float64     `json:"xmag"`
	YMag       float64     `json:"ymag"`
	Matrix     []float32   `json:"matrix"`
	View       []opJSON    `json:"view"`
	LookAt     *lookAtJSON `json:"look_at"`
}

type lookAtJSON struct {
	Eye    []float32 `json:"eye"`
	Target []float32 `json:"target"`
	Up     []float32 `json:"up"`
}

type opJSON struct {
	Translate   []float32 `json:"translate"`
	Scale       []float32 `json:"scale"`
	RotateXDeg  *float64  `json:"rotate_x_deg"`
	RotateYDeg  *float64  `json:"rotate_y_deg"`
	RotateZDeg  *float64  `json:"rotate_z_deg"`
	RotateDeg   *float64  `json:"rotate_deg"`
	Axis        []float32 `json:"axis"`
	Matrix      []float32 `json:"matrix"`
	PerFrameDeg float64   `json:"per_frame_deg"`
}

type drawJSON struct {
	Name           string                     `json:"name"`
	Mesh           meshJSON                   `json:"mesh"`
	Model          []opJSON                   `json:"model"`
	VertexShader   string                     `json:"vertex_shader"`
	FragmentShader string                     `json:"fragment_shader"`
	Defines        map[string]string          `json:"defines"`
	Uniforms       map[string]json.RawMessage `json:"uniforms"`
	Textures       []textureJSON              `json:"textures"`
	State          stateJSON                  `json:"state"`
}

type meshJSON struct {
	File      string `json:"file"`
	Generator string `json:"generator"`
	Fit       bool   `json:"fit"`
}

type textureJSON struct {
	Uniform   string `json:"uniform"`
	Unit      *int   `json:"unit"`
	File      string `json:"file"`
	Generator string `json:"generator"`
	Size      int    `json:"size"`
	Material  string `json:"material"`
	WrapS     string `json:"wrap_s"`
	WrapT     string `json:"wrap_t"`
	MinFilter string `json:"min_filter"`
	MagFilter string `json:"mag_filter"`
}

type stateJSON struct {
	DepthTest  *bool      `json:"depth_test"`
	DepthFunc  string     `json:"depth_func"`
	DepthWrite *bool      `json:"depth_write"`
	Cull       string     `json:"cull"`
	FrontFace  string     `json:"front_face"`
	Blend      *blendJSON `json:"blend"`
}

type blendJSON struct {
	Enable        bool      `json:"enable"`
	Equation      string    `json:"equation"`
	EquationRGB   string    `json:"equation_rgb"`
	EquationAlpha string    `json:"equation_alpha"`
	Src           string    `json:"src"`
	Dst           string    `json:"dst"`
	SrcRGB        string    `json:"src_rgb"`
	DstRGB        string    `json:"dst_rgb"`
	SrcAlpha      string    `json:"src_alpha"`
	DstAlpha      string    `json:"dst_alpha"`
	Color         []float32 `json:"color"`
}

// decodeStrict decodes one JSON value, rejecting unknown fields and trailing data.
func decodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			line := 1 + bytes.Count(data[:min(int(se.Offset), len(data))], []byte("\n"))
			return fmt.Errorf("line %d: %w", line, err)
		}
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("data after the top-level object")
	}
	return nil
}

// transformOp is one step of a Transform.
type transformOp struct {
	m           Mat4    // fixed matrix (translate, scale, matrix)
	rotate      bool    // else m is used
	axis        Vec3    // rotation axis
	deg         float64 // rotation at frame 0
	perFrameDeg float64
}

// Transform is a product of translations, scales, rotations (optionally
// advancing per frame) and matrices: Matrix(frame) = op0·op1·…, so the last
// op applies to a vertex first.
type Transform struct{ ops []transformOp }

// Matrix returns the transform at frame.
func (t Transform) Matrix(frame int) Mat4 {
	m := Identity()
	for _, op := range t.ops {
		if !op.rotate {
			m = m.Mul(op.m)
			continue
		}
		a := Radians(op.deg + op.perFrameDeg*float64(frame))
		var r Mat4
		switch op.axis {
		case Vec3{1, 0, 0}:
			r = RotateX(a)
		case Vec3{0, 1, 0}:
			r = RotateY(a)
		case Vec3{0, 0, 1}:
			r = RotateZ(a)
		default:
			r = Rotate(a, op.axis)
		}
		m = m.Mul(r)
	}
	return m
}

func finite32(v []float32) bool {
	for _, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return false
		}
	}
	return true
}

func parseOps(ops []opJSON, path string) (Transform, error) {
	var t Transform
	for i, o := range ops {
		p := fmt.Sprintf("%s[%d]", path, i)
		n := 0
		var op transformOp
		vec := func(v []float32, want int, field string) error {
			if len(v) != want {
				return fmt.Errorf("%s.%s: %d numbers, want %d", p, field, len(v), want)
			}
			return nil
		}
		if o.Translate != nil {
			n++
			if err := vec(o.Translate, 3, "translate"); err != nil {
				return t, err
			}
			op.m = Translate(o.Translate[0], o.Translate[1], o.Translate[2])
		}
		if o.Scale != nil {
			n++
			if err := vec(o.Scale, 3, "scale"); err != nil {
				return t, err
			}
			op.m = ScaleMat(o.Scale[0], o.Scale[1], o.Scale[2])
		}
		if o.Matrix != nil {
			n++
			if err := vec(o.Matrix, 16, "matrix"); err != nil {
				return t, err
			}
			copy(op.m[:], o.Matrix)
		}
		for _, r := range []struct {
			deg  *float64
			axis Vec3
		}{{o.RotateXDeg, Vec3{1, 0, 0}}, {o.RotateYDeg, Vec3{0, 1, 0}}, {o.RotateZDeg, Vec3{0, 0, 1}}} {
			if r.deg != nil {
				n++
				op.rotate, op.axis, op.deg = true, r.axis, *r.deg
			}
		}
		if o.RotateDeg != nil {
			n++
			if err := vec(o.Axis, 3, "axis"); err != nil {
				return t, err
			}
			op.rotate, op.axis, op.deg = true, Vec3(o.Axis), *o.RotateDeg
			if op.axis == (Vec3{}) {
				return t, fmt.Errorf("%s.axis: zero vector", p)
			}
		} else if o.Axis != nil {
			return t, fmt.Errorf("%s.axis: only with rotate_deg", p)
		}
		if n != 1 {
			return t, fmt.Errorf("%s: want exactly one of translate, scale, matrix, rotate_x_deg, rotate_y_deg, rotate_z_deg, rotate_deg (got %d)", p, n)
		}
		if o.PerFrameDeg != 0 && !op.rotate {
			return t, fmt.Errorf("%s.per_frame_deg: only for rotations", p)
		}
		op.perFrameDeg = o.PerFrameDeg
		if !finite32(op.m[:]) || math.IsNaN(op.deg) || math.IsInf(op.deg, 0) {
			return t, fmt.Errorf("%s: non-finite value", p)
		}
		t.ops = append(t.ops, op)
	}
	return t, nil
}

// SceneCamera is a scene file's camera: a projection (a perspective one
// follows the image's aspect ratio unless the file fixes "aspect") and a
// view transform that may advance per frame.
type SceneCamera struct {
	project func(aspect float64) Mat4
	aspect  float64 // 0: the image's width/height
	view    Transform
	// viewAt, when set, gives the view per frame instead of view (a model's
	// own camera, following its animated node).
	viewAt func(frame int) Mat4
}

// Projection returns the projection matrix for a width×height image.
func (c *SceneCamera) Projection(width, height int) Mat4 {
	a := c.aspect
	if a == 0 {
		a = float64(width) / float64(height)
	}
	return c.project(a)
}

// View returns the view matrix at frame.
func (c *SceneCamera) View(frame int) Mat4 {
	if c.viewAt != nil {
		return c.viewAt(frame)
	}
	return c.view.Matrix(frame)
}

func parseCamera(c cameraJSON) (SceneCamera, error) {
	sc := SceneCamera{aspect: c.Aspect}
	if c.Aspect < 0 || math.IsNaN(c.Aspect) || math.IsInf(c.Aspect, 0) {
		return sc, fmt.Errorf("camera.aspect: %g, want > 0 (or 0 for the image's)", c.Aspect)
	}
	switch c.Projection {
	case "perspective":
		if !(c.YFovDeg > 0 && c.YFovDeg < 180) {
			return sc, fmt.Errorf("camera.yfov_deg: %g, want in (0, 180)", c.YFovDeg)
		}
		if !(c.Near > 0) || !(c.Far > c.Near) || math.IsInf(c.Far, 0) {
			return sc, fmt.Errorf("camera: near %g, far %g: want 0 < near < far", c.Near, c.Far)
		}
		fovy, near, far := Radians(c.YFovDeg), c.Near, c.Far
		sc.project = func(aspect float64) Mat4 { return Perspective(fovy, aspect, near, far) }
	case "orthographic":
		if c.XMag == 0 || c.YMag == 0 || !(c.Far > c.Near) || math.IsInf(c.Far, 0) || math.IsInf(c.XMag, 0) || math.IsInf(c.YMag, 0) {
			return sc, fmt.Errorf("camera: xmag %g, ymag %g, near %g, far %g: want non-zero magnifications and near < far", c.XMag, c.YMag, c.Near, c.Far)
		}
		m := Ortho(-c.XMag, c.XMag, -c.YMag, c.YMag, c.Near, c.Far)
		sc.project = func(float64) Mat4 { return m }
	case "matrix":
		if len(c.Matrix) != 16 || !finite32(c.Matrix) {
			return sc, fmt.Errorf("camera.matrix: want 16 finite numbers (column-major), got %d", len(c.Matrix))
		}
		var m Mat4
		copy(m[:], c.Matrix)
		sc.project = func(float64) Mat4 { return m }
	default:
		return sc, fmt.Errorf("camera.projection: %q is not one of perspective, orthographic, matrix", c.Projection)
	}
	if c.Projection != "matrix" && c.Matrix != nil {
		return sc, fmt.Errorf("camera.matrix: only with projection \"matrix\"")
	}
	var err error
	switch {
	case c.LookAt != nil && c.View != nil:
		return sc, fmt.Errorf("camera: give view or look_at, not both")
	case c.LookAt != nil:
		la := c.LookAt
		if len(la.Eye) != 3 || len(la.Target) != 3 || len(la.Up) != 3 || !finite32(la.Eye) || !finite32(la.Target) || !finite32(la.Up) {
			return sc, fmt.Errorf("camera.look_at: eye, target and up need 3 finite numbers each")
		}
		eye, target, up := Vec3(la.Eye), Vec3(la.Target), Vec3(la.Up)
		if eye == target || target.Sub(eye).Cross(up) == (Vec3{}) {
			return sc, fmt.Errorf("camera.look_at: eye equals target or up is parallel to the view direction")
		}
		sc.view = Transform{ops: []transformOp{{m: LookAt(eye, target, up)}}}
	default:
		if sc.view, err = parseOps(c.View, "camera.view"); err != nil {
			return sc, err
		}
	}
	return sc, nil
}

// Builtin uniform names a scene file may give as a uniform's value.
// Matrices are column-major; normal_matrix is the mat3 inverse transpose
// of the model matrix; camera_position is in world space; viewport is
// (width, height); material values come from the draw's mesh material (the
// glTF default material when it has none); alpha_mode is 0 (OPAQUE), 1
// (MASK) or 2 (BLEND).
var builtinUniforms = map[string]int{
	"mvp": 16, "model": 16, "view": 16, "projection": 16, "model_view": 16, "view_projection": 16,
	"normal_matrix": 9, "camera_position": 3, "viewport": 2, "frame": 1,
	"base_color_factor": 4, "metallic_factor": 1, "roughness_factor": 1, "emissive_factor": 3,
	"alpha_cutoff": 1, "alpha_mode": 1, "normal_scale": 1, "occlusion_strength": 1,
	// Model scenes (ModelDescription); 0: as many values as the model has.
	"joint_matrices": 0, "light_position": 0, "light_direction": 0, "light_color": 0, "light_params": 0,
	"fit_scale":         1,
	"base_color_uv_set": 1, "metallic_roughness_uv_set": 1, "normal_uv_set": 1, "occlusion_uv_set": 1, "emissive_uv_set": 1,
	"base_color_uv_transform": 9, "metallic_roughness_uv_transform": 9, "normal_uv_transform": 9,
	"occlusion_uv_transform": 9, "emissive_uv_transform": 9,
}

// BuiltinUniforms lists the built-in uniform value names, sorted.
func BuiltinUniforms() []string {
	var out []string
	for k := range builtinUniforms {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Uniform is one uniform assignment of a draw: a literal Value (1-4, 9 or
// 16 floats; the renderer converts to the shader's declared type) or a
// Builtin name resolved per frame by Description.UniformValues.
type Uniform struct {
	Name    string
	Builtin string
	Value   []float32
}

func parseUniform(name string, raw json.RawMessage, path string) (Uniform, error) {
	u := Uniform{Name: name}
	p := path + "." + name
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if _, ok := builtinUniforms[s]; !ok {
			return u, fmt.Errorf("%s: %q is not a built-in (%s)", p, s, strings.Join(BuiltinUniforms(), ", "))
		}
		u.Builtin = s
		return u, nil
	}
	var b bool
	if json.Unmarshal(raw, &b) == nil {
		u.Value = []float32{0}
		if b {
			u.Value[0] = 1
		}
		return u, nil
	}
	var f float32
	if json.Unmarshal(raw, &f) == nil {
		u.Value = []float32{f}
		return u, nil
	}
	var v []float32
	if err := json.Unmarshal(raw, &v); err != nil {
		return u, fmt.Errorf("%s: want a number, an array of numbers, a bool or a built-in name: %v", p, err)
	}
	switch len(v) {
	case 1, 2, 3, 4, 9, 16:
	default:
		return u, fmt.Errorf("%s: %d numbers, want 1-4, 9 (mat3) or 16 (mat4)", p, len(v))
	}
	u.Value = v
	return u, nil
}

func parseState(s stateJSON, path string) (PipelineState, error) {
	st := DefaultPipelineState()
	if s.DepthTest != nil {
		st.DepthTest = *s.DepthTest
	}
	if s.DepthWrite != nil {
		st.DepthWrite = *s.DepthWrite
	}
	var err error
	var v uint8
	if st.DepthFunc, err = parseList(compareNames, s.DepthFunc, st.DepthFunc); err != nil {
		return st, fmt.Errorf("%s.depth_func: %w", path, err)
	}
	if v, err = parseEnum(cullNames, s.Cull, uint8(st.Cull)); err != nil {
		return st, fmt.Errorf("%s.cull: %w", path, err)
	}
	st.Cull = CullMode(v)
	if v, err = parseEnum(frontNames, s.FrontFace, uint8(st.FrontFace)); err != nil {
		return st, fmt.Errorf("%s.front_face: %w", path, err)
	}
	st.FrontFace = FrontFace(v)
	if b := s.Blend; b != nil {
		st.Blend.Enable = b.Enable
		pick := func(specific, both string) string {
			if specific != "" {
				return specific
			}
			return both
		}
		for _, e := range []struct {
			field, val string
			dst        *blend.Equation
		}{{"equation_rgb", pick(b.EquationRGB, b.Equation), &st.Blend.EquationRGB}, {"equation_alpha", pick(b.EquationAlpha, b.Equation), &st.Blend.EquationAlpha}} {
			if *e.dst, err = parseList(equationNames, e.val, *e.dst); err != nil {
				return st, fmt.Errorf("%s.blend.%s: %w", path, e.field, err)
			}
		}
		for _, f := range []struct {
			field, val string
			dst        *blend.Factor
		}{
			{"src_rgb", pick(b.SrcRGB, b.Src), &st.Blend.SrcRGB}, {"dst_rgb", pick(b.DstRGB, b.Dst), &st.Blend.DstRGB},
			{"src_alpha", pick(b.SrcAlpha, b.Src), &st.Blend.SrcAlpha}, {"dst_alpha", pick(b.DstAlpha, b.Dst), &st.Blend.DstAlpha},
		} {
			if *f.dst, err = parseList(blendFactNames, f.val, *f.dst); err != nil {
				return st, fmt.Errorf("%s.blend.%s: %w", path, f.field, err)
			}
		}
		if b.Color != nil {
			if len(b.Color) != 4 || !finite32(b.Color) {
				return st, fmt.Errorf("%s.blend.color: want 4 finite numbers, got %d", path, len(b.Color))
			}
			copy(st.Blend.Color[:], b.Color)
		}
	}
	return st, nil
}
