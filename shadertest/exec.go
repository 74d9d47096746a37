package shadertest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"vortexgfx/pipe"
)

// Status is a test result.
type Status int

// Test results.
const (
	Pass Status = iota
	Fail
	Skip
)

var statusNames = [...]string{"pass", "fail", "skip"}

// String returns the name used in test files and messages.
func (s Status) String() string {
	if s >= 0 && int(s) < len(statusNames) {
		return statusNames[s]
	}
	return "?"
}

// MarshalText writes the status as pass, fail or skip.
func (s Status) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads pass, fail or skip.
func (s *Status) UnmarshalText(b []byte) error {
	for i, n := range statusNames {
		if string(b) == n {
			*s = Status(i)
			return nil
		}
	}
	return fmt.Errorf("unknown status %q", b)
}

// Result is the outcome of one test file.
type Result struct {
	// Path is the file as given or as found under a given directory.
	Path   string `json:"path"`
	Status Status `json:"result"`
	// Reason says why a test failed or was skipped ("" for a clean pass,
	// a note for a pass with a warning).
	Reason string `json:"reason,omitempty"`
}

// RunFile reads, parses and executes one test file. A panic anywhere in
// parsing or in the back end is that test's failure.
func RunFile(ctx context.Context, path string, b Backend) (r Result) {
	r.Path = path
	defer func() {
		if p := recover(); p != nil {
			r.Status, r.Reason = Fail, fmt.Sprintf("panic: %v [%s]", p, firstFrames(debug.Stack()))
		}
	}()
	data, err := os.ReadFile(path)
	if err != nil {
		r.Status, r.Reason = Fail, err.Error()
		return r
	}
	f, perr := Parse(path, data)
	st, reason := Execute(ctx, f, perr, b)
	r.Status, r.Reason = st, reason
	return r
}

// firstFrames keeps the panicking frames of a stack trace short enough for
// one result line.
func firstFrames(stack []byte) string {
	lines := strings.Split(string(stack), "\n")
	var out []string
	for i, l := range lines {
		if !strings.HasPrefix(l, "panic(") || i+2 >= len(lines) {
			continue
		}
		// Frames come in pairs: "pkg.F(args)" then "\tfile.go:line +0xoff".
		// Keep the function and file:line, without addresses, so that
		// the reason is the same on every run.
		for k := i + 2; k+1 < len(lines) && len(out) < 2; k += 2 {
			fn := lines[k]
			if j := strings.LastIndexByte(fn, '('); j > 0 {
				fn = fn[:j]
			}
			loc := strings.TrimSpace(lines[k+1])
			if j := strings.IndexByte(loc, ' '); j > 0 {
				loc = loc[:j]
			}
			out = append(out, fn+" at "+filepath.Base(loc))
		}
		break
	}
	return strings.Join(out, "; ")
}

// Execute runs a parsed test on a back end: requirements first (an unmet
// one is a skip, even when later lines are malformed), then the program,
// then the [test] commands. parseErr is Parse's error for f.
// spec: piglit tests/shaders/shader_runner.c (the order of a test's phases).
func Execute(ctx context.Context, f *File, parseErr error, b Backend) (st Status, reason string) {
	defer func() {
		if p := recover(); p != nil {
			st, reason = Fail, fmt.Sprintf("panic: %v [%s]", p, firstFrames(debug.Stack()))
		}
	}()
	caps := arbCaps(f.computeCaps(b.Caps()))
	if !f.HasRequire {
		return Fail, "[require] section missing"
	}
	api, gl, glsl, skip := contextVersions(f, &caps)
	if skip != "" {
		return Skip, skip
	}
	skip, err := checkRequirements(f, &caps, gl, glsl)
	if err != nil {
		return Fail, err.Error()
	}
	if skip != "" {
		return Skip, skip
	}
	if parseErr != nil {
		return Fail, firstError(parseErr)
	}
	for _, sh := range f.Shaders {
		if !caps.hasStage(sh.Stage) {
			return Skip, sh.Stage.String() + " shaders are not supported"
		}
	}
	for _, c := range f.Commands {
		if c.Op == OpUnsupported {
			return Skip, fmt.Sprintf("line %d: command %q is not supported", c.Line, c.Name)
		}
	}
	var copts ComputeOptions
	if cb, ok := b.(ComputeBackend); ok {
		copts = cb.ComputeOptions()
	}
	if st, reason, ok := executeCompute(ctx, f, api, glsl, copts); ok {
		return st, reason
	}
	cfg := ContextConfig{API: api, GL: gl, GLSL: glsl, Width: f.Width, Height: f.Height, DepthBuffer: f.DepthBuffer}
	gctx, err := b.NewContext(ctx, cfg)
	if err != nil {
		return errStatus(err, "creating context")
	}
	defer gctx.Close()
	r := &runner{f: f, caps: &caps, c: gctx, gl: gl, glslNum: glsl.Num, api: api, state: DefaultState(f.Width, f.Height),
		tol: DefaultTolerance, textures: map[texKey]*Texture{}, unitTex: map[int]*Texture{}}
	for _, rq := range f.Requires {
		if rq.Kind == ReqIgnoreMissingUniforms {
			r.ignoreMissing = true
		}
	}
	return r.run(ctx)
}

// errStatus maps a back-end error to a result: ErrUnsupported skips.
func errStatus(err error, what string) (Status, string) {
	if errors.Is(err, ErrUnsupported) {
		return Skip, what + ": " + err.Error()
	}
	return Fail, what + ": " + err.Error()
}

func firstError(err error) string {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		if errs := j.Unwrap(); len(errs) > 0 {
			return errs[0].Error()
		}
	}
	return err.Error()
}

type texKey struct {
	unit   int
	target TexTarget
}

// runner is the state of one executing test.
type runner struct {
	f        *File
	caps     *Caps
	c        Context
	gl       Version
	api      API
	state    State
	tol      Tolerance
	textures map[texKey]*Texture
	// activeUnit is the texture unit of the last texture command
	// (glActiveTexture is never reset).
	activeUnit    int
	clearColor    bool
	clearDepth    bool
	clearReq      ClearRequest
	linked        bool
	hasProgram    bool
	linkLog       string
	linkExpected  bool
	ignoreMissing bool
	// uboIndex is the uniform block array element of "ubo array index"
	// (shader_runner's ubo_array_index, added to the block index).
	uboIndex int
	failure  string
	warning  string
	pixbuf   []byte
	// drawFB and readFB are the bound framebuffers (nil: the window;
	// framebuffer.go); unitTex is each unit's last texture (fb tex layered).
	drawFB, readFB *Framebuffer
	unitTex        map[int]*Texture
	// glslNum is the context's GLSL version; pipeline, stageUniforms,
	// activeStage and hasActive are an SSO ENABLED file's program pipeline
	// (sso.go).
	glslNum       int
	pipeline      bool
	stageUniforms map[Stage]map[string]bool
	activeStage   Stage
	hasActive     bool
	// arb is the test's assembly programs and parameters (arbprogram.go;
	// nil without any).
	arb *arbState
}

// errFatal ends the test with a failure, as piglit_report_result(FAIL)
// does; errSkip ends it with a skip.
type stop struct {
	status Status
	reason string
}

// Error describes the failure.
func (s *stop) Error() string { return s.reason }

func (r *runner) run(ctx context.Context) (Status, string) {
	r.clearReq = ClearRequest{DepthValue: 1}
	if len(r.f.Shaders) > 0 {
		r.hasProgram = true
		// ARB assembly sections become GLSL first (arbprogram.go); the
		// link then sees only GLSL sections.
		shaders, err := r.translatePrograms(r.f.Shaders)
		var s *stop
		if errors.As(err, &s) {
			return s.status, s.reason
		}
		if err == nil {
			err = r.link(shaders)
		}
		var le *LinkError
		switch {
		case err == nil:
			r.linked = true
			if err := r.bindPrograms(); err != nil {
				return errStatus(err, "program parameters")
			}
		case errors.As(err, &le):
			r.linkLog = le.Log
		default:
			return errStatus(err, "link")
		}
	}
	if !r.f.HasTest {
		// piglit_display returns PASS at once without a [test] section:
		// only compiling mattered.
		return Pass, ""
	}
	if r.linked && r.f.VertexData != nil {
		// setup_vbo_from_text runs once, after a successful link.
		if err := r.c.SetVertexData(r.f.VertexData); err != nil {
			return errStatus(err, "[vertex data]")
		}
	}
	for i := range r.f.Commands {
		if err := ctx.Err(); err != nil {
			return Fail, err.Error()
		}
		c := &r.f.Commands[i]
		if err := r.exec(c); err != nil {
			var s *stop
			if errors.As(err, &s) {
				return s.status, fmt.Sprintf("line %d: %s", c.Line, s.reason)
			}
			st, msg := errStatus(err, fmt.Sprintf("line %d", c.Line))
			return st, msg
		}
	}
	if r.failure == "" && !r.linked && !r.linkExpected {
		r.failure = r.programNotInUse()
	}
	if r.failure != "" {
		return Fail, r.failure
	}
	return Pass, r.warning
}

// fail records a non-fatal failure: shader_runner marks the line failed
// and carries on.
func (r *runner) fail(c *Command, format string, args ...any) {
	if r.failure == "" {
		r.failure = fmt.Sprintf("line %d: %s", c.Line, fmt.Sprintf(format, args...))
	}
}

func (r *runner) programNotInUse() string {
	if !r.hasProgram {
		return "no program to link"
	}
	return "failed to link: " + r.linkLog
}

// programInUse is program_must_be_in_use: a non-fatal failure.
func (r *runner) programInUse(c *Command) bool {
	if !r.linked {
		r.fail(c, "%s", r.programNotInUse())
		return false
	}
	return true
}

func (r *runner) exec(c *Command) error {
	s := &r.state
	switch c.Op {
	case OpClearColor:
		copy(r.clearReq.ColorValue[:], c.F)
		r.clearColor = true
	case OpClearDepth:
		r.clearReq.DepthValue = float64(c.F[0])
		r.clearDepth = true
	case OpClear:
		req := r.clearReq
		req.Color, req.Depth = r.clearColor, r.clearDepth
		if req.Color || req.Depth {
			return r.c.Clear(&req)
		}
	case OpClipPlane:
		max := 8
		if v, ok := r.caps.Limits["GL_MAX_CLIP_PLANES"]; ok {
			max = min(v, 8)
		}
		if c.Index < 0 || c.Index >= max {
			return &stop{Fail, fmt.Sprintf("clip plane id %d out of range", c.Index)}
		}
		s.ClipPlanes[c.Index] = c.Plane
	case OpColor:
		if r.api == APIGLES {
			// shader_runner_gles3 is built without the color command.
			return &stop{Fail, fmt.Sprintf("unknown command %q", c.Text)}
		}
		copy(s.Color[:], c.F)
	case OpDrawRect:
		return r.drawRect(c)
	case OpDrawArrays, OpDrawElements:
		return r.drawArrays(c)
	case OpEnable:
		r.enable(c.Cap, c.Enable)
	case OpDepthFunc:
		s.DepthFunc = c.Name
	case OpFrustum:
		s.Projection = FrustumMatrix(c.F[0], c.F[1], c.F[2], c.F[3], c.F[4], c.F[5])
		s.ModelView = identity
	case OpOrtho:
		if len(c.F) == 4 {
			s.Projection = OrthoMatrix(c.F[0], c.F[1], c.F[2], c.F[3], -1, 1)
		} else {
			s.Projection = OrthoMatrix(0, float32(r.f.Width), 0, float32(r.f.Height), -1, 1)
		}
		s.ModelView = identity
	case OpHint:
		if c.Name == "GL_FRAGMENT_SHADER_DERIVATIVE_HINT" {
			s.DerivativeHint = c.Value
		}
	case OpFramebuffer, OpFBTex2D:
		return r.framebuffer(c)
	case OpBlit:
		return r.blit(c)
	case OpSSBO, OpSSBOSubdata, OpProbeSSBO, OpAtomicCounters, OpAtomicCounterSet, OpProbeAtomic, OpImageTexture:
		return r.storage(c) // storage.go
	case OpMemoryBarrier:
		// Draws finish before the next command runs (storage.go).
	case OpFetchBarrier:
		// glFramebufferFetchBarrierEXT: the back ends' fetches already see
		// every earlier primitive's writes (ref/fetch.go).
	case OpProbe:
		w, h := r.fbSize(r.readFB)
		if c.Probe.Int {
			return r.probeInt(c, w, h)
		}
		msg, err := evalProbe(r.c, c.Probe, r.tol, w, h, r.api, &r.pixbuf)
		if err != nil {
			return err
		}
		if msg != "" {
			if c.Probe.Warn {
				if r.warning == "" && r.failure == "" {
					r.warning = fmt.Sprintf("warn: line %d: %s", c.Line, msg)
				}
			} else {
				r.fail(c, "%s", msg)
			}
		}
	case OpProbeDepth:
		p := c.Probe
		if p.X < 0 || p.Y < 0 || p.X >= r.f.Width || p.Y >= r.f.Height {
			r.fail(c, "depth probe (%d,%d) leaves the window", p.X, p.Y)
			return nil
		}
		d, err := r.c.ReadDepth(p.X, p.Y)
		if err != nil {
			return err
		}
		if !ProbeDepth(d, p.Expected[0]) {
			r.fail(c, "probe depth at (%d,%d): expected %f, observed %f", p.X, p.Y, p.Expected[0], d)
		}
	case OpTolerance:
		copy(r.tol[:], c.F)
	case OpShadeModel:
		s.Flat = c.Flat
	case OpProvokingVertex:
		s.ProvokingFirst = c.Flat
	case OpPolygonMode:
		m := pipe.PolygonFill
		switch c.Value {
		case "GL_LINE":
			m = pipe.PolygonLine
		case "GL_POINT":
			m = pipe.PolygonPoint
		}
		if c.Name != "GL_BACK" {
			s.PolygonFront = m
		}
		if c.Name != "GL_FRONT" {
			s.PolygonBack = m
		}
	case OpActiveUniform:
		return r.activeUniform(c)
	case OpResourceQuery:
		return r.resourceQuery(c)
	case OpTexture:
		t := BuildTexture(c.Texture, r.api)
		r.activeUnit = c.Texture.Unit
		r.textures[texKey{c.Texture.Unit, t.Target}] = t
		r.unitTex[c.Texture.Unit] = t
		return r.c.SetTexture(c.Texture.Unit, t)
	case OpTexCoord:
		if c.Index < len(s.TexCoord) {
			copy(s.TexCoord[c.Index][:], c.F)
		}
	case OpTexParameter:
		if c.TexParam.Param == "lod_bias" && r.gl.ES {
			return &stop{Skip, "lod_bias is only available in desktop GL"}
		}
		t := r.textures[texKey{r.activeUnit, c.TexParam.Target}]
		if t == nil {
			// shader_runner would change the default texture object,
			// which no generated texture uses.
			return nil
		}
		applyTexParameter(t, c.TexParam)
		return r.c.SetTexture(r.activeUnit, t)
	case OpParameter:
		return r.parameter(c)
	case OpUniform:
		return r.uniform(c)
	case OpUBOArrayIndex:
		r.uboIndex = c.Index
	case OpLinkError:
		r.linkExpected = true
		if r.linked {
			return &stop{Fail, "shader link error expected, but it was successful"}
		}
	case OpLinkSuccess:
		r.programInUse(c)
	case OpActiveShaderProgram:
		return r.activeProgram(c)
	case OpLight:
		r.light(c)
	default:
		return &stop{Skip, fmt.Sprintf("command %q is not supported", c.Text)}
	}
	return nil
}

func (r *runner) enable(capName string, on bool) {
	s := &r.state
	switch {
	case strings.HasPrefix(capName, "GL_CLIP_PLANE"):
		s.ClipPlaneEnabled[capName[len("GL_CLIP_PLANE")]-'0'] = on
	case strings.HasPrefix(capName, "GL_CLIP_DISTANCE"):
		s.ClipPlaneEnabled[capName[len("GL_CLIP_DISTANCE")]-'0'] = on
	case capName == "GL_VERTEX_PROGRAM_TWO_SIDE":
		s.TwoSide = on
	case capName == "GL_PROGRAM_POINT_SIZE":
		s.ProgramPointSize = on
	case capName == "GL_DEPTH_TEST":
		s.DepthTest = on
	case capName == "GL_DEPTH_CLAMP":
		s.DepthClamp = on
	case capName == "GL_SAMPLE_ALPHA_TO_ONE":
		s.AlphaToOne = on
	case capName == "GL_SAMPLE_ALPHA_TO_COVERAGE":
		s.AlphaToCoverage = on
	case capName == "GL_BLEND":
		s.Blend = on
	case capName == "GL_CULL_FACE":
		s.CullFace = on
	}
}

func (r *runner) snapshot() *State {
	st := r.state
	return &st
}

func (r *runner) drawRect(c *Command) error {
	rc := c.Rect
	if !r.programInUse(c) {
		return nil
	}
	x, y, w, h := rc.X, rc.Y, rc.W, rc.H
	if rc.Ortho {
		x, y, w, h = OrthoRect(x, y, w, h, r.f.Width, r.f.Height)
	}
	rv := &RectVertices{Position: RectPositions(x, y, w, h), FixedFunction: rc.FixedFunction}
	if rc.Tex {
		tc := RectTexCoords(rc.TX, rc.TY, rc.TW, rc.TH)
		rv.TexCoord = &tc
	}
	d := &Draw{Mode: TriangleStrip, Count: 4, Instances: max(rc.Instances, 1), Rect: rv, State: r.snapshot()}
	if rc.Instances < 1 {
		// glDrawArraysInstanced with a count below 1 draws nothing.
		if rc.Instances < 0 {
			r.fail(c, "negative instance count %d", rc.Instances)
		}
		return nil
	}
	if rc.Patch {
		d.Mode, d.PatchVertices = Patches, 4
	}
	return r.c.Draw(d)
}

func (r *runner) drawArrays(c *Command) error {
	a := c.Draw
	vd := r.f.VertexData
	if !r.linked {
		vd = nil // setup_vbo_from_text only runs after a successful link
	}
	if a.Elements {
		if a.BaseVertex < 0 {
			return &stop{Fail, "draw elements 'basevertex' must be >= 0"}
		}
		if a.Count <= 0 {
			return &stop{Fail, "draw elements 'count' must be > 0"}
		}
		if a.Count > len(r.f.Elements) {
			return &stop{Fail, fmt.Sprintf("draw elements cannot draw beyond %d", len(r.f.Elements))}
		}
	} else {
		if a.First < 0 {
			return &stop{Fail, "draw arrays 'first' must be >= 0"}
		}
		if vd != nil && a.First >= vd.Rows {
			return &stop{Fail, fmt.Sprintf("draw arrays 'first' must be < %d", vd.Rows)}
		}
		if a.Count <= 0 {
			return &stop{Fail, "draw arrays 'count' must be > 0"}
		}
		if vd != nil && a.Count > vd.Rows-a.First {
			return &stop{Fail, fmt.Sprintf("draw arrays cannot draw beyond %d", vd.Rows)}
		}
	}
	if !r.programInUse(c) {
		return nil
	}
	if a.Instances <= 0 {
		return nil
	}
	d := &Draw{Mode: a.Mode, First: a.First, Count: a.Count, Instances: a.Instances, BaseInstance: a.BaseInstance,
		Vertices: vd, State: r.snapshot()}
	if a.Elements {
		d.Indexed, d.Elements, d.BaseVertex = true, r.f.Elements[:a.Count], a.BaseVertex
	}
	return r.c.Draw(d)
}
