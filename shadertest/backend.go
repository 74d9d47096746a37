package shadertest

import (
	"context"
	"errors"
	"fmt"

	"vortexgfx/pipe"
	"vortexgfx/shader/glsl"
)

// Primitive is a GL primitive mode; the value is the GL enum.
type Primitive int

// GL primitive modes (GL_POINTS = 0 ... GL_PATCHES = 0xE).
const (
	Points Primitive = iota
	Lines
	LineLoop
	LineStrip
	Triangles
	TriangleStrip
	TriangleFan
	Quads
	QuadStrip
	Polygon
	LinesAdjacency
	LineStripAdjacency
	TrianglesAdjacency
	TriangleStripAdjacency
	Patches
)

var primNames = [...]string{"GL_POINTS", "GL_LINES", "GL_LINE_LOOP", "GL_LINE_STRIP", "GL_TRIANGLES",
	"GL_TRIANGLE_STRIP", "GL_TRIANGLE_FAN", "GL_QUADS", "GL_QUAD_STRIP", "GL_POLYGON",
	"GL_LINES_ADJACENCY", "GL_LINE_STRIP_ADJACENCY", "GL_TRIANGLES_ADJACENCY",
	"GL_TRIANGLE_STRIP_ADJACENCY", "GL_PATCHES"}

// String returns the name used in test files and messages.
func (p Primitive) String() string {
	if p >= 0 && int(p) < len(primNames) {
		return primNames[p]
	}
	return fmt.Sprintf("primitive(%d)", int(p))
}

func primitiveByName(s string) (Primitive, bool) {
	for i, n := range primNames {
		if n == s {
			return Primitive(i), true
		}
	}
	return 0, false
}

// Backend is an execution path (the reference renderer, the device) as
// the shader test runner sees it: it reports its capabilities and creates
// one independent Context per test, so tests can run in parallel.
// spec: README "vortex shadertest" (--path reference|device).
type Backend interface {
	Caps() Caps
	NewContext(ctx context.Context, cfg ContextConfig) (Context, error)
}

// ComputeOptions choose how compute tests run on the device model: Cores is the
// [device] cores setting (config.CoresIR, the default, or config.CoresISA:
// machine code on the SIMT core model) and Strict makes a program that does not
// compile to machine code fail its test instead of falling back to the IR
// executor. spec: vortexpipe-driver.md §2.1-2.5
type ComputeOptions struct {
	Cores  string
	Strict bool
}

// ComputeBackend is a Backend that chooses the compute tests' options; with any
// other Backend they run with the zero ComputeOptions (the IR executor).
type ComputeBackend interface {
	Backend
	ComputeOptions() ComputeOptions
}

// ContextConfig is the window and API a test asks for.
type ContextConfig struct {
	API API
	// GL and GLSL are the context versions the test runs under.
	GL, GLSL Version
	// Width and Height are the window size; the colour buffer is RGBA8
	// with the origin at the bottom left, cleared to (0,0,0,0).
	Width, Height int
	// DepthBuffer asks for a depth buffer (the "depthbuffer" requirement),
	// cleared to 1.0.
	DepthBuffer bool
}

// Program is what a context compiles and links before the [test] section
// runs: all shader objects, several of one stage linked together.
// shader_runner binds the attribute piglit_vertex to location 0 and
// piglit_texcoord to location 1 before linking.
type Program struct {
	Shaders []Shader
	// Includes are the file's [shader include] strings and [shader include
	// paths] search points (nil when it has none): shader_runner's
	// glNamedStringARB and glCompileShaderIncludeARB.
	Includes *glsl.Includes
}

// Attribute locations shader_runner binds before linking.
const (
	AttribPiglitVertex   = 0
	AttribPiglitTexcoord = 1
)

// CompileError is returned by Context.Link when a shader does not
// compile; the test fails (even one expecting a link error).
type CompileError struct {
	Stage Stage
	// Line is the line of the shader's section header in the test file.
	Line int
	Log  string
}

// Error describes the failure.
func (e *CompileError) Error() string {
	return fmt.Sprintf("failed to compile %s shader (section at line %d): %s", e.Stage, e.Line, e.Log)
}

// LinkError is returned by Context.Link when the shaders compile but the
// program does not link; it satisfies "link error" tests.
type LinkError struct {
	Log string
}

// Error describes the failure.
func (e *LinkError) Error() string { return "failed to link: " + e.Log }

// ErrUniformNotFound is returned by SetUniform for a name (or location)
// the linked program has no active uniform for; the test fails as in
// shader_runner ("cannot get location of uniform").
var ErrUniformNotFound = errors.New("uniform not found")

// ErrUnsupported, wrapped in any Context error, makes the test a skip: the
// back end honestly cannot do what the test asks.
var ErrUnsupported = errors.New("not supported by this back end")

// Context is one GL-like context running one test. Calls arrive from one
// goroutine.
// UniformReflector is a Context that can report its linked program's active
// uniforms as glGetActiveUniformsiv does (the "active uniform" command).
type UniformReflector interface {
	ActiveUniform(name string) (glsl.ActiveUniform, bool)
}

// ResourceReflector is a Context that can answer glGetProgramResourceiv for
// its linked program's resources (the "verify program_interface_query"
// command): ok is false when the interface has no resource named name, and
// an error wrapping ErrUnsupported means the back end cannot give that
// interface or property.
type ResourceReflector interface {
	ProgramResource(iface, name, prop string) (v int, ok bool, err error)
}

type Context interface {
	// Link compiles and links the program and makes it current. It returns
	// *CompileError, *LinkError, or another error (a failure).
	Link(p *Program) error
	// SetVertexData binds the [vertex data] columns to the linked
	// program's attributes (by name, or by location for numeric names).
	// A column naming no active attribute is an error, as in piglit-vbo.
	// It is called once, after a successful Link.
	SetVertexData(vd *VertexData) error
	// SetUniform sets a uniform of the current program.
	SetUniform(u *Uniform) error
	// SetTexture binds t to texture unit unit at its target, replacing
	// what was bound there; it is called again with updated sampler state
	// after texparameter.
	SetTexture(unit int, t *Texture) error
	// Clear clears the buffers the request names.
	Clear(c *ClearRequest) error
	// Draw draws with the current program.
	Draw(d *Draw) error
	// ReadPixels reads a rectangle of the colour buffer as RGBA8 into dst
	// (w*h*4 bytes, rows from bottom to top). The rectangle lies inside
	// the window.
	ReadPixels(x, y, w, h int, dst []byte) error
	// ReadDepth reads one depth value (0..1).
	ReadDepth(x, y int) (float32, error)
	Close() error
}

// ClearRequest is a glClear with the clear values in effect.
type ClearRequest struct {
	Color, Depth bool
	ColorValue   [4]float32
	DepthValue   float64
}

// Draw is one draw call. Exactly one of Rect and the array form is used.
type Draw struct {
	Mode Primitive
	// First and Count select vertices of Vertices (draw arrays) or of
	// Rect (always 0 and 4).
	First, Count int
	// Instances is the instance count (1 when not instanced).
	Instances, BaseInstance int
	// Rect holds the vertices of piglit_draw_rect; nil for draw arrays.
	Rect *RectVertices
	// Vertices is the [vertex data] table given to SetVertexData (nil
	// when the test has none: the attributes keep their current values).
	Vertices *VertexData
	// Elements, when Indexed, are the [elements] indices and BaseVertex
	// is added to each.
	Indexed    bool
	Elements   []uint16
	BaseVertex int
	// PatchVertices is 4 for rectangles drawn as patches.
	PatchVertices int
	// State is the fixed-function state in effect (read-only).
	State *State
}

// RectVertices are the four vertices piglit_draw_rect emits, drawn as a
// triangle strip (or 4-vertex patches). On desktop GL positions feed the
// attribute piglit_vertex when the program has an active attribute of
// that name and gl_Vertex otherwise; texture coordinates (draw rect tex)
// likewise feed piglit_texcoord or gl_MultiTexCoord0. On GLES they always
// feed piglit_vertex and piglit_texcoord.
type RectVertices struct {
	Position [4][4]float32
	TexCoord *[4][2]float32
	// FixedFunction forces gl_Vertex (draw instanced rect).
	FixedFunction bool
}

// Light is one fixed-function light (gl_LightSource[i]); positions and
// directions are in eye space (the modelview is always the identity in
// shader_runner when they are set).
type Light struct {
	Ambient, Diffuse, Specular, Position [4]float32
	SpotDirection                        [3]float32
	SpotExponent, SpotCutoff             float32
	ConstantAttenuation                  float32
	LinearAttenuation                    float32
	QuadraticAttenuation                 float32
}

// State is the fixed-function state a draw sees: the legacy built-ins
// (gl_ModelViewMatrix, gl_ProjectionMatrix, gl_ModelViewProjectionMatrix,
// gl_NormalMatrix derived from them, gl_Color, gl_MultiTexCoordN,
// gl_ClipPlane, gl_LightSource) and the enables.
type State struct {
	// Width and Height are the window (and viewport) size.
	Width, Height int
	// Projection and ModelView are column-major 4×4 matrices.
	Projection, ModelView [16]float32
	// Color is the current colour (gl_Color when no array feeds it).
	Color [4]float32
	// TexCoord are the current texture coordinates per unit.
	TexCoord [8][4]float32
	// ClipPlaneEnabled are GL_CLIP_PLANEi / GL_CLIP_DISTANCEi (one enable
	// each); ClipPlanes are the eye-space plane equations.
	ClipPlaneEnabled [8]bool
	ClipPlanes       [8][4]float64
	DepthTest        bool
	// DepthFunc is the GL name of the depth function (GL_LESS default).
	DepthFunc  string
	DepthClamp bool
	Blend      bool
	CullFace   bool
	// TwoSide is GL_VERTEX_PROGRAM_TWO_SIDE.
	TwoSide          bool
	ProgramPointSize bool
	AlphaToCoverage  bool
	AlphaToOne       bool
	// Flat is glShadeModel(GL_FLAT).
	Flat bool
	// ProvokingFirst is glProvokingVertex(GL_FIRST_VERTEX_CONVENTION):
	// flat varyings come from each primitive's first vertex, not its last.
	ProvokingFirst bool
	// PolygonFront and PolygonBack are glPolygonMode's modes of front- and
	// back-facing polygons. spec: GL 4.6 §14.6.4
	PolygonFront, PolygonBack pipe.PolygonMode
	// DerivativeHint is the GL_FRAGMENT_SHADER_DERIVATIVE_HINT mode.
	DerivativeHint string
	Lights         [8]Light
}

// identity is the 4×4 identity matrix.
var identity = [16]float32{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}

// DefaultState is GL's initial state for a w×h window; the built-in uniform
// state is the driver's (pipe.DefaultLegacyState, GL 2.1 table 2.10).
func DefaultState(w, h int) State {
	l := pipe.DefaultLegacyState()
	s := State{Width: w, Height: h, Projection: l.Projection, ModelView: l.ModelView,
		Color: l.Color, TexCoord: l.TexCoords, DepthFunc: "GL_LESS", DerivativeHint: "GL_DONT_CARE"}
	for i := range s.Lights {
		s.Lights[i] = Light(l.Lights[i])
	}
	return s
}

// Texture is a texture object with its images and sampler state.
type Texture struct {
	Target TexTarget
	// Format is the internal format name ("" means GL_RGBA, or
	// GL_DEPTH_COMPONENT when Depth).
	Format string
	// Depth marks a depth texture: one value per texel.
	Depth bool
	// Integer marks an integer-format texture (texture integer): the texel
	// floats hold exact integers for the format's integer channels.
	Integer bool
	// Levels holds the mip levels; a nil entry is an undefined level.
	Levels  []*TexImage
	Sampler Sampler
}

// TexImage is one mip level: W×H×D texels (D layers for arrays, 6 faces
// not used), 4 floats per texel (RGBA) or 1 for depth textures, rows from
// the bottom.
type TexImage struct {
	W, H, D int
	Data    []float32
}

// Sampler is a texture's sampling state with GL's names for the values.
type Sampler struct {
	MinFilter, MagFilter string // nearest, linear, nearest_mipmap_nearest, ...
	WrapS, WrapT, WrapR  string // repeat, clamp_to_edge, clamp_to_border
	BorderColor          [4]float32
	// CompareMode is GL_COMPARE_R_TO_TEXTURE; CompareFunc its function
	// (lequal, greater, ...).
	CompareMode bool
	CompareFunc string
	// DepthMode is GL_DEPTH_TEXTURE_MODE (luminance, intensity, alpha, red).
	DepthMode           string
	LodBias             float64
	BaseLevel, MaxLevel int
	SwizzleR            string
}

// DefaultSampler is GL's initial texture state (compatibility profile).
func DefaultSampler() Sampler {
	return Sampler{MinFilter: "nearest_mipmap_linear", MagFilter: "linear", WrapS: "repeat", WrapT: "repeat",
		WrapR: "repeat", CompareFunc: "lequal", DepthMode: "luminance", MaxLevel: 1000, SwizzleR: "red"}
}

// Legacy is the state's built-in uniform state in the driver's form
// (pipe.LegacyState: gl_ModelViewMatrix and the rest of GLSL 1.20 §7.5).
func (s *State) Legacy() pipe.LegacyState {
	l := pipe.LegacyState{ModelView: s.ModelView, Projection: s.Projection, Color: s.Color, TexCoords: s.TexCoord}
	for i := range s.ClipPlanes {
		for k := range 4 {
			l.ClipPlanes[i][k] = float32(s.ClipPlanes[i][k])
		}
	}
	for i := range s.Lights {
		l.Lights[i] = pipe.LegacyLight(s.Lights[i])
	}
	return l
}

// ModelViewProjection is gl_ModelViewProjectionMatrix: Projection ×
// ModelView (pipe.MulMatrix).
func (s *State) ModelViewProjection() [16]float32 {
	return pipe.MulMatrix(s.Projection, s.ModelView)
}

// NormalMatrix is gl_NormalMatrix (pipe.LegacyState.NormalMatrix).
func (s *State) NormalMatrix() [9]float32 {
	l := pipe.LegacyState{ModelView: s.ModelView}
	return l.NormalMatrix()
}
