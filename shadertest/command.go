package shadertest

import (
	"fmt"
	"strings"
)

// Op is the kind of a [test] command.
type Op int

// The [test] commands. spec: piglit tests/shaders/shader_runner.c.
const (
	OpClearColor   Op = iota // clear color r g b a
	OpClearDepth             // clear depth d
	OpClear                  // clear
	OpClipPlane              // clip plane i a b c d
	OpColor                  // color r g b a (current colour, gl_Color)
	OpDrawRect               // draw rect [ortho] [patch] x y w h, draw rect tex, draw instanced rect
	OpDrawArrays             // draw arrays [instanced [base]] MODE first count [instances [base]]
	OpDrawElements           // draw elements MODE count basevertex
	OpEnable                 // enable/disable CAP
	OpDepthFunc              // depthfunc GL_LESS
	OpFrustum                // frustum l r b t n f
	OpHint                   // hint TARGET MODE
	OpOrtho                  // ortho [l r b t]
	OpProbe                  // probe rgb|rgba, probe rect, probe all, relative probe
	OpProbeDepth             // probe depth x y d
	OpTolerance              // tolerance r [g [b [a]]]
	OpShadeModel             // shade model smooth|flat
	OpTexture                // texture rgbw|checkerboard|miptree|quads|shadow*...
	OpTexCoord               // texcoord unit (s, t, r, q)
	OpTexParameter           // texparameter TARGET PARAM VALUE
	OpUniform                // uniform TYPE NAME values...
	OpLinkError              // link error
	OpLinkSuccess            // link success
	OpLight                  // light i GL_PARAM float|int values...
	OpUnsupported            // a shader_runner command this runner cannot execute
	// Compute commands (compute.go): Command.Compute holds the arguments.
	OpCompute          // compute x y z
	OpSSBO             // ssbo n size
	OpSSBOSubdata      // ssbo n subdata TYPE offset value
	OpProbeSSBO        // probe ssbo TYPE n offset op value
	OpAtomicCounters   // atomic counter buffer n count, atomic counters count
	OpAtomicCounterSet // atomic counter n index value
	OpProbeAtomic      // probe atomic counter [buffer n offset | index] op value
	OpImageTexture     // image texture unit GL_FORMAT
	OpFBTex2D          // fb tex 2d unit
	OpActiveUniform    // active uniform NAME GL_UNIFORM_PNAME VALUE (Name, Cap, Value)
	// OpResourceQuery is "verify program_interface_query GL_INTERFACE NAME
	// GL_PROP VALUE" (Iface the interface, Name, Cap the property, Value):
	// glGetProgramResourceiv of one resource compared with a value.
	OpResourceQuery
	OpProvokingVertex // provoking vertex first|last (Flat: first)
	OpUBOArrayIndex   // ubo array index N (Index): the element of a uniform block array later uniform commands set
	// Framebuffer commands (framebuffer.go): Command.FB holds the arguments.
	OpFramebuffer  // fb tex 2d N..., fb tex slice, fb ms, fb [draw|read] winsys, fb draw|read tex 2d N
	OpBlit         // blit color linear|nearest (FB.Linear)
	OpFetchBarrier // fbfetch barrier (glFramebufferFetchBarrierEXT)
	// OpActiveShaderProgram is "active shader program GL_*_SHADER" (Name):
	// glActiveShaderProgram on the SSO pipeline (sso.go).
	OpActiveShaderProgram
	OpMemoryBarrier // memory barrier BITS (glMemoryBarrier; Name the bits joined by |)
	// OpParameter is "parameter env_vp|local_vp|env_fp|local_fp N (x, y, z,
	// w)": an ARB program parameter (Name, Index, F; arbprogram.go).
	OpParameter
	// OpPolygonMode is "polygon mode FACE MODE" (glPolygonMode; Name the
	// face GL_FRONT, GL_BACK or GL_FRONT_AND_BACK, Value the mode GL_FILL,
	// GL_LINE or GL_POINT). spec: GL 4.6 §14.6.4
	OpPolygonMode
)

var opNames = [...]string{"clear color", "clear depth", "clear", "clip plane", "color", "draw rect",
	"draw arrays", "draw elements", "enable", "depthfunc", "frustum", "hint", "ortho", "probe",
	"probe depth", "tolerance", "shade model", "texture", "texcoord", "texparameter", "uniform",
	"link error", "link success", "light", "unsupported", "compute", "ssbo", "ssbo subdata", "probe ssbo",
	"atomic counters", "atomic counter", "probe atomic counter", "image texture", "fb tex 2d", "active uniform", "provoking vertex", "ubo array index", "fb", "blit", "fbfetch barrier",
	"active shader program", "memory barrier", "parameter", "polygon mode"}

// String returns the name used in test files and messages.
func (o Op) String() string {
	if o >= 0 && int(o) < len(opNames) {
		return opNames[o]
	}
	return fmt.Sprintf("op(%d)", int(o))
}

// Command is one parsed [test] line. Only the fields of its Op are set.
type Command struct {
	Line int
	Op   Op
	// Text is the line without surrounding white space.
	Text string
	// F holds float arguments: clear color/depth, color, ortho, frustum,
	// tolerance (1-4 values), texcoord, draw rect x y w h (and the texture
	// rectangle for draw rect tex), light values.
	F []float32
	// Plane is the clip plane equation (read as doubles).
	Plane [4]float64
	// Index is the clip plane, light, texcoord unit or enable/draw count.
	Index int
	// Rect is set for OpDrawRect.
	Rect *RectCmd
	// Draw is set for OpDrawArrays and OpDrawElements.
	Draw *ArraysCmd
	// Probe is set for OpProbe and OpProbeDepth.
	Probe *ProbeCmd
	// Enable is the capability of OpEnable and whether it is enabled.
	Cap    string
	Enable bool
	// Name holds the hint target, depth function, light parameter or the
	// name of an unsupported command.
	Name  string
	Value string // hint mode, polygon mode
	// Iface is OpResourceQuery's program interface (GL_SHADER_STORAGE_BLOCK).
	Iface string
	// Flat is the shade model of OpShadeModel (true: flat), and for
	// OpProvokingVertex the first-vertex convention.
	Flat bool
	// Uniform, Texture and TexParam are set for their ops.
	Uniform  *Uniform
	Texture  *TextureCmd
	TexParam *TexParamCmd
	// LightInt reports integer light values (glLighti).
	LightInt bool
	// Compute is set for the compute commands (OpCompute ... OpFBTex2D).
	Compute *ComputeCmd
	// FB is set for OpFramebuffer and OpBlit.
	FB *FBCmd
}

// parseCommand parses one [test] line in shader_runner's matching order.
func (f *File) parseCommand(ln line, bad func(int, string, ...any)) {
	t := strings.Trim(ln.text, " \t\v\f\r")
	if t == "" || t[0] == '#' {
		return
	}
	c := Command{Line: ln.num, Text: t}
	fail := func(format string, args ...any) {
		bad(ln.num, "%s: %s", t, fmt.Sprintf(format, args...))
	}
	floats := func(rest string, n int) ([]float32, bool) {
		v, _ := parseFloats(rest, n)
		if len(v) < n {
			fail("want %d numbers, got %d", n, len(v))
			return nil, false
		}
		return v, true
	}
	unsupported := func(name string) {
		c.Op, c.Name = OpUnsupported, name
		f.Commands = append(f.Commands, c)
	}
	add := func() { f.Commands = append(f.Commands, c) }
	pfx := func(lit string) (string, bool) { return parseStr(t, lit) }
	has := func(format string, n int) ([]scanItem, bool) {
		it, k := scanf(t, format)
		return it, k == n
	}

	if f.parseComputeCommand(&c, t, fail) {
		return
	}
	if it, ok := has("active shader program %s", 1); ok {
		c.Op, c.Name = OpActiveShaderProgram, it[0].s
		add()
		return
	}
	if _, ok := pfx("atomic counter"); ok {
		unsupported("atomic counter")
		return
	}
	if rest, ok := pfx("clear color "); ok {
		if c.F, ok = floats(rest, 4); ok {
			c.Op = OpClearColor
			add()
		}
		return
	}
	if rest, ok := pfx("clear depth "); ok {
		if c.F, ok = floats(rest, 1); ok {
			c.Op = OpClearDepth
			add()
		}
		return
	}
	if _, ok := pfx("clear"); ok {
		c.Op = OpClear
		add()
		return
	}
	if it, ok := has("clip plane %d %lf %lf %lf %lf", 5); ok {
		c.Op, c.Index = OpClipPlane, int(it[0].i)
		for i := range 4 {
			c.Plane[i] = it[i+1].f
		}
		add()
		return
	}
	if rest, ok := pfx("color "); ok {
		if c.F, ok = floats(rest, 4); ok {
			c.Op = OpColor
			add()
		}
		return
	}
	if _, ok := has("compute %d %d %d", 3); ok {
		unsupported("compute")
		return
	}
	if _, ok := pfx("compute group size"); ok {
		unsupported("compute group size")
		return
	}
	if f.parseDrawRect(&c, t, fail) {
		return
	}
	if f.parseDrawArrays(&c, t, fail) {
		return
	}
	if _, ok := pfx("multidraw arrays "); ok {
		unsupported("multidraw arrays")
		return
	}
	if rest, ok := pfx("disable "); ok {
		f.parseEnable(&c, rest, false, fail)
		return
	}
	if rest, ok := pfx("enable "); ok {
		f.parseEnable(&c, rest, true, fail)
		return
	}
	if it, ok := has("depthfunc %s", 1); ok {
		if !validDepthFunc(it[0].s) {
			fail("unknown depth function %q", it[0].s)
			return
		}
		c.Op, c.Name = OpDepthFunc, it[0].s
		add()
		return
	}
	if f.parseFramebuffer(&c, t, fail) {
		return
	}
	for _, p := range []string{"fb ", "blit "} {
		if _, ok := pfx(p); ok {
			unsupported(strings.TrimSpace(p))
			return
		}
	}
	if rest, ok := pfx("frustum"); ok {
		if c.F, ok = floats(rest, 6); ok {
			c.Op = OpFrustum
			add()
		}
		return
	}
	if rest, ok := pfx("hint"); ok {
		target, r2, ok1 := parseWord(rest)
		mode, _, ok2 := parseWord(r2)
		if !ok1 || !ok2 || !oneOf(target, hintTargets) || !oneOf(mode, hintModes) {
			fail("bad hint")
			return
		}
		c.Op, c.Name, c.Value = OpHint, target, mode
		add()
		return
	}
	if _, ok := has("image texture %d %s", 2); ok {
		unsupported("image texture")
		return
	}
	if rest, ok := pfx("memory barrier"); ok {
		// glMemoryBarrier(BITS): each a GL_*_BARRIER_BIT or GL_ALL_BARRIER_BITS.
		bits := strings.Fields(strings.ReplaceAll(rest, "|", " "))
		for _, b := range bits {
			if !strings.HasPrefix(b, "GL_") || !strings.HasSuffix(b, "_BIT") && b != "GL_ALL_BARRIER_BITS" {
				fail("bad memory barrier bit %q", b)
				return
			}
		}
		if len(bits) == 0 {
			fail("memory barrier needs its bits")
			return
		}
		c.Op, c.Name = OpMemoryBarrier, strings.Join(bits, "|")
		add()
		return
	}
	for _, p := range []string{"blend barrier"} {
		if _, ok := pfx(p); ok {
			unsupported(p)
			return
		}
	}
	if it, ok := has("ortho %f %f %f %f", 4); ok {
		c.Op = OpOrtho
		for _, v := range it {
			c.F = append(c.F, float32(v.f))
		}
		add()
		return
	}
	if _, ok := pfx("ortho"); ok {
		c.Op = OpOrtho
		add()
		return
	}
	if _, ok := has("viewport indexed %u %f %f %f %f", 5); ok {
		unsupported("viewport indexed")
		return
	}
	if f.parseProbe(&c, t, fail) {
		return
	}
	if rest, ok := pfx("tolerance"); ok {
		v, _ := parseFloats(rest, 4)
		if len(v) == 0 {
			fail("want 1 to 4 numbers")
			return
		}
		c.Op, c.F = OpTolerance, v
		add()
		return
	}
	if _, ok := pfx("shade model smooth"); ok {
		c.Op = OpShadeModel
		add()
		return
	}
	if _, ok := pfx("shade model flat"); ok {
		c.Op, c.Flat = OpShadeModel, true
		add()
		return
	}
	for _, p := range []string{"ssbo ", "xfb ", "probe xfb "} {
		if _, ok := pfx(p); ok {
			unsupported(strings.TrimSpace(p))
			return
		}
	}
	if f.parseTexture(&c, t, fail) {
		return
	}
	if it, ok := has("texcoord %d ( %f , %f , %f , %f )", 5); ok {
		c.Op, c.Index = OpTexCoord, int(it[0].i)
		if c.Index < 0 || c.Index >= 32 {
			fail("texture unit %d out of range", c.Index)
			return
		}
		for _, v := range it[1:] {
			c.F = append(c.F, float32(v.f))
		}
		add()
		return
	}
	if rest, ok := pfx("texparameter "); ok {
		p, err := parseTexParameter(rest)
		if err != nil {
			fail("%v", err)
			return
		}
		c.Op, c.TexParam = OpTexParameter, p
		add()
		return
	}
	if rest, ok := pfx("uniform "); ok {
		u, err := parseUniform(rest)
		if err != nil {
			fail("%v", err)
			return
		}
		c.Op, c.Uniform = OpUniform, u
		add()
		return
	}
	// glProvokingVertex: GL_FIRST_VERTEX_CONVENTION or the default
	// GL_LAST_VERTEX_CONVENTION. spec: GL 3.2 §2.18 (flatshading).
	if _, ok := pfx("provoking vertex first"); ok {
		c.Op, c.Flat = OpProvokingVertex, true
		add()
		return
	}
	if _, ok := pfx("provoking vertex last"); ok {
		c.Op = OpProvokingVertex
		add()
		return
	}
	if _, ok := pfx("parameter "); ok {
		if parseParameter(&c, t) {
			add()
		} else {
			fail("could not parse parameter command")
		}
		return
	}
	for _, p := range []string{"subuniform ", "patch parameter ", "program binary save restore", "provoking vertex "} {
		if _, ok := pfx(p); ok {
			unsupported(strings.TrimSpace(p))
			return
		}
	}
	if _, ok := pfx("link error"); ok {
		c.Op = OpLinkError
		add()
		return
	}
	if _, ok := pfx("link success"); ok {
		c.Op = OpLinkSuccess
		add()
		return
	}
	if rest, ok := pfx("active uniform "); ok {
		// shader_runner's active_uniform: glGetActiveUniformsiv of one
		// uniform compared with a value (a GL enum name for the type).
		fs := strings.Fields(rest)
		if len(fs) != 3 {
			fail("invalid active uniform command %q", rest)
			return
		}
		c.Op, c.Name, c.Cap, c.Value = OpActiveUniform, fs[0], fs[1], fs[2]
		add()
		return
	}
	if rest, ok := pfx("verify program_interface_query "); ok {
		fs := strings.Fields(rest)
		if len(fs) != 4 {
			fail("invalid verify program_interface_query command %q", rest)
			return
		}
		c.Op, c.Iface, c.Name, c.Cap, c.Value = OpResourceQuery, fs[0], fs[1], fs[2], fs[3]
		add()
		return
	}
	if it, ok := has("ubo array index %d", 1); ok {
		if it[0].i < 0 {
			fail("negative uniform block array index")
			return
		}
		c.Op, c.Index = OpUBOArrayIndex, int(it[0].i)
		add()
		return
	}
	for _, p := range []string{"block array index ", "block binding ", "block offset ",
		"block matrix stride", "block row major", "verify program_query",
		"verify query_object", "vertex attrib ", "newlist ",
		"endlist", "calllist", "deletelist", "viewport swizzle "} {
		if _, ok := pfx(p); ok {
			unsupported(strings.TrimSpace(p))
			return
		}
	}
	if rest, ok := pfx("light "); ok {
		f.parseLight(&c, rest, fail)
		return
	}
	fail("unknown command")
}

func oneOf(s string, set []string) bool {
	for _, v := range set {
		if s == v {
			return true
		}
	}
	return false
}

var hintTargets = []string{"GL_LINE_SMOOTH_HINT", "GL_POLYGON_SMOOTH_HINT", "GL_TEXTURE_COMPRESSION_HINT", "GL_FRAGMENT_SHADER_DERIVATIVE_HINT"}
var hintModes = []string{"GL_FASTEST", "GL_NICEST", "GL_DONT_CARE"}

// DepthFuncs are the names glDepthFunc accepts.
var depthFuncs = []string{"GL_NEVER", "GL_LESS", "GL_EQUAL", "GL_LEQUAL", "GL_GREATER", "GL_NOTEQUAL", "GL_GEQUAL", "GL_ALWAYS"}

func validDepthFunc(s string) bool { return oneOf(s, depthFuncs) }

// enableCaps is shader_runner's enable_table plus GL_BLEND and
// GL_CULL_FACE, which tests here use (shader_runner itself rejects them).
var enableCaps = []string{
	"GL_CLIP_PLANE0", "GL_CLIP_PLANE1", "GL_CLIP_PLANE2", "GL_CLIP_PLANE3",
	"GL_CLIP_PLANE4", "GL_CLIP_PLANE5", "GL_CLIP_PLANE6", "GL_CLIP_PLANE7",
	"GL_CLIP_DISTANCE0", "GL_CLIP_DISTANCE1", "GL_CLIP_DISTANCE2", "GL_CLIP_DISTANCE3",
	"GL_CLIP_DISTANCE4", "GL_CLIP_DISTANCE5", "GL_CLIP_DISTANCE6", "GL_CLIP_DISTANCE7",
	"GL_VERTEX_PROGRAM_TWO_SIDE", "GL_PROGRAM_POINT_SIZE", "GL_DEPTH_TEST", "GL_DEPTH_CLAMP",
	"GL_SAMPLE_ALPHA_TO_ONE", "GL_SAMPLE_ALPHA_TO_COVERAGE", "GL_BLEND", "GL_CULL_FACE",
}

func (f *File) parseEnable(c *Command, rest string, on bool, fail func(string, ...any)) {
	w, _, ok := parseWord(rest)
	if !ok || !oneOf(w, enableCaps) {
		fail("bad enable/disable enum %q", strings.TrimSpace(rest))
		return
	}
	c.Op, c.Cap, c.Enable = OpEnable, w, on
	f.Commands = append(f.Commands, *c)
}

func (f *File) parseLight(c *Command, rest string, fail func(string, ...any)) {
	idx, end, ok := strtol(rest, 0, 0)
	if !ok || idx < 0 || idx >= 8 {
		fail("bad light index")
		return
	}
	name, r2, ok := parseWord(rest[end:])
	if !ok || !oneOf(name, lightParams) {
		fail("bad light enum")
		return
	}
	c.Op, c.Index, c.Name = OpLight, int(idx), name
	if r3, ok := parseStr(r2, "float"); ok {
		v, _ := parseFloats(r3, 16)
		if len(v) == 0 {
			fail("no float found for light")
			return
		}
		c.F = v
	} else if r3, ok := parseStr(r2, "int"); ok {
		v, _ := parseInts(r3, 16)
		if len(v) == 0 {
			fail("no int found for light")
			return
		}
		for _, x := range v {
			c.F = append(c.F, float32(x))
		}
		c.LightInt = true
	} else {
		fail("invalid light value type")
		return
	}
	f.Commands = append(f.Commands, *c)
}

var lightParams = []string{"GL_AMBIENT", "GL_DIFFUSE", "GL_SPECULAR", "GL_POSITION", "GL_SPOT_DIRECTION",
	"GL_SPOT_EXPONENT", "GL_SPOT_CUTOFF", "GL_CONSTANT_ATTENUATION", "GL_LINEAR_ATTENUATION", "GL_QUADRATIC_ATTENUATION"}
