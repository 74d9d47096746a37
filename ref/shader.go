package ref

import (
	"fmt"
	"math"

	"vortexgfx/gl/sampler"
)

// MaxRenderTargets is the number of colour attachments a target may have.
const MaxRenderTargets = 8

// MaxClipDistances is the number of user clip distances a vertex may output.
const MaxClipDistances = 8

// VertexLayout describes a vertex shader's outputs.
type VertexLayout struct {
	Varyings      int  // varying words per vertex (each a float, or an integer when flat)
	ClipDistances int  // gl_ClipDistance entries per vertex (0..MaxClipDistances)
	PointSize     bool // the shader writes gl_PointSize (else State.PointSize is used)
	// CullWord and CullDistances locate gl_CullDistance[] among the
	// varying words (CullDistances 0: none written). A primitive all of
	// whose vertices have a negative value in one entry is discarded before
	// clipping. spec: ARB_cull_distance; GL 4.6 §13.7
	CullWord, CullDistances int
}

// VertexBatch is the vertex stage's batch: N vertices in, their clip
// positions, varyings, point sizes and clip distances out. Per-vertex arrays
// are lane-major: vertex v's word w of a k-word record is at v*k+w. The
// renderer owns and reuses every slice; outputs start zeroed (position 0,0,0,1).
// spec: software-shader-backend "Vertex wrapper" (here batched, not per vertex).
type VertexBatch struct {
	N          int
	VertexID   []int32 // gl_VertexID (index + base vertex)
	InstanceID []int32 // gl_InstanceID (without base instance, as GL)
	// Attribs holds AttribWords words per vertex: the vertex's attributes
	// followed by its instance's attributes (VertexInput).
	AttribWords int
	Attribs     []uint32

	Layout    VertexLayout
	Position  [][4]float32
	Varyings  []uint32
	PointSize []float32
	ClipDist  []float32
}

// Textures is the sampler interface the renderer hands to shaders: one call
// per quad or batch, never per lane. unit indexes State.Textures.
// spec: vortexpipe-driver §2.2, §3.6 (texture ops are issued per warp).
type Textures interface {
	Sample(unit int, req *sampler.Request, out [][4]uint32) error
}

// VertexShader is the vertex stage. The two planned implementations are Go
// functions (VertexFunc) and compiled IR programs run by the shader executor.
type VertexShader interface {
	Layout() VertexLayout
	ShadeVertices(b *VertexBatch, tex Textures) error
}

// VertexCloner is implemented by vertex shaders that may shade a draw's
// vertices concurrently: with State.Workers > 1 and enough vertices, the
// draw's distinct vertices are split into contiguous runs of whole
// batches, each shaded by its own clone at the same time as the others.
// CloneVertex returns a shader with the same layout whose ShadeVertices
// gives the same outputs for the same batch, or nil when the shader must
// not run concurrently (its batches have effects beyond their outputs).
// The output is identical to serial shading.
// spec: vortexpipe-driver §5.2 (the oracle's output must not change).
type VertexCloner interface {
	CloneVertex() VertexShader
}

// Quad is one 2x2 fragment quad: lane l is pixel (X + l&1, Y + l>>1). All
// four lanes are shaded; lanes with their Helper bit set are helper
// invocations (outside the primitive, the target or the scissor) that run
// only so that derivatives can be taken across the quad.
// spec: vortexpipe-driver §2.2 (helper lanes must run the shader).
type Quad struct {
	X, Y int32
	// Varyings holds 4 x VertexLayout.Varyings words, lane-major:
	// interpolated floats, or the provoking vertex's words for flat inputs.
	Varyings    []uint32
	FragCoord   [4][4]float32 // x+0.5, y+0.5, window z, 1/w_clip
	PointCoord  [4][2]float32 // gl_PointCoord (points only)
	FrontFacing bool
	PrimitiveID int32
	Helper      uint8 // bit l: lane l is a helper

	// Outputs. Colour words are float bits for float and normalized targets
	// and integers for integer targets: Color[rt][lane][component]. The
	// colours of the target's attachments (and Color1 when a blend factor
	// reads it) start zeroed for every quad; the others, which nothing
	// reads, keep what the shader last wrote there.
	Color        [MaxRenderTargets][4][4]uint32
	Color1       [4][4]uint32 // dual-source second output (index 1 of render target 0)
	Depth        [4]float32   // preset to the interpolated window z
	DepthWritten bool
	Live         uint8 // preset to 0xF; clear a bit to discard that lane
}

// SetColor stores a float colour for lane l of render target rt.
func (q *Quad) SetColor(rt, l int, c [4]float32) {
	for i, v := range c {
		q.Color[rt][l][i] = math.Float32bits(v)
	}
}

// ColorFloat returns lane l's colour of render target rt as floats.
func (q *Quad) ColorFloat(rt, l int) [4]float32 {
	var c [4]float32
	for i, w := range q.Color[rt][l] {
		c[i] = math.Float32frombits(w)
	}
	return c
}

// Varying returns lane l's varying word w as a float.
func (q *Quad) Varying(l, words, w int) float32 {
	return math.Float32frombits(q.Varyings[l*words+w])
}

// FragmentShader is the fragment stage: it shades a batch of quads, reading
// each quad's inputs and writing its outputs.
type FragmentShader interface {
	ShadeQuads(quads []Quad, tex Textures) error
}

// FragmentCloner is implemented by fragment shaders that keep scratch
// state between calls: with State.Workers > 1 every worker goroutine shades
// with its own clone. A shader that does not implement it must be safe for
// concurrent use when Workers > 1.
type FragmentCloner interface {
	CloneFragment() FragmentShader
}

// FragmentOrdered is implemented by fragment shaders that may have effects
// outside their quads (storage buffer or image stores, atomics). When
// SideEffects reports true the draw's fragments are shaded on one worker,
// whatever State.Workers is, in the serial order: primitives in order, each
// primitive's quads in the order the rasterizer emits them, batches in that
// order. GL leaves the order of such effects across invocations unspecified;
// fixing it makes the results the same for any worker count. Clones made by
// FragmentCloner must answer the same.
type FragmentOrdered interface {
	SideEffects() bool
}

// orderedWorkers is the number of fragment workers a draw may use given n:
// one when the fragment shader has side effects (FragmentOrdered).
func orderedWorkers(fs FragmentShader, n int) int {
	if o, ok := fs.(FragmentOrdered); ok && o.SideEffects() {
		return 1
	}
	return n
}

// FragmentEarlyDepth is implemented by fragment shaders that may be
// skipped for quads the depth test rejects. EarlyDepthSafe reports that
// ShadeQuads never writes depth (DepthWritten stays false), has no effect
// outside the quads it is given, shades each quad independently of the
// others in its batch, and cannot fail for a quad it is not given. When it
// does, the depth test is on, the stencil test is off (or the attachment
// has no stencil) and the depth function can only tighten during a draw
// (Never, Less, LessEqual, Greater, GreaterEqual), a quad whose covered
// lanes all fail the test against the depth buffer is not shaded: the
// stored depth only moves towards the reference, so it would fail after
// shading too, and the output is identical with less shading. Clones made
// by FragmentCloner must answer the same.
// spec: vortexpipe-driver §5.2 (the oracle's output must not change).
type FragmentEarlyDepth interface {
	EarlyDepthSafe() bool
}

// FragmentVaryingUse is implemented by fragment shaders that read only
// some of the varying words. VaryingsRead reports, for each varying word w
// (words beyond the slice are not read), whether ShadeQuads may read word w
// of Quad.Varyings; the renderer interpolates only those, and the others
// read as zero. Clones made by FragmentCloner must answer the same. The
// output is identical with less interpolation.
// spec: vortexpipe-driver §5.2 (the oracle's output must not change).
type FragmentVaryingUse interface {
	VaryingsRead() []bool
}

// FragmentHelperFree is implemented by fragment shaders whose covered lanes
// never depend on the other lanes of their quad: ShadeQuads takes no
// derivatives, samples no textures and touches no memory, so a lane's
// outputs are a function of its own inputs. When HelpersUnused reports
// true, the renderer interpolates only the covered lanes (those without
// their Helper bit) and gives each helper lane a copy of the Varyings,
// FragCoord and Depth of the quad's first covered lane, so a helper
// computes what a covered lane computes and its results are dropped; a
// call then gets up to 64 covered lanes (in up to 64 quads) rather than 16
// quads, so a shader that runs only the covered lanes fills its warps.
// Clones made by FragmentCloner must answer the same. The output is
// identical with less work.
// spec: vortexpipe-driver §2.2 (helper lanes exist for derivatives), §5.2.
type FragmentHelperFree interface {
	HelpersUnused() bool
}

// VertexFunc is a vertex shader written as a Go function.
type VertexFunc struct {
	Out VertexLayout
	Fn  func(b *VertexBatch, tex Textures) error
}

// Layout returns the output layout.
func (f VertexFunc) Layout() VertexLayout { return f.Out }

// ShadeVertices calls the function.
func (f VertexFunc) ShadeVertices(b *VertexBatch, tex Textures) error { return f.Fn(b, tex) }

// FragmentFunc is a fragment shader written as a Go function.
type FragmentFunc func(quads []Quad, tex Textures) error

// ShadeQuads calls the function.
func (f FragmentFunc) ShadeQuads(quads []Quad, tex Textures) error { return f(quads, tex) }

// QuadDdx returns the fine x derivative of a per-lane value for each lane
// (the difference across the quad's row), as a shader executor computes it.
func QuadDdx(v [4]float32) [4]float32 {
	a, b := v[1]-v[0], v[3]-v[2]
	return [4]float32{a, a, b, b}
}

// QuadDdy returns the fine y derivative of a per-lane value for each lane.
func QuadDdy(v [4]float32) [4]float32 {
	a, b := v[2]-v[0], v[3]-v[1]
	return [4]float32{a, b, a, b}
}

// TextureBinding binds a texture and sampler state to a texture unit.
type TextureBinding struct {
	Texture *sampler.Texture
	Sampler sampler.Sampler
}

// boundTextures implements Textures over State.Textures.
type boundTextures []TextureBinding

func (b boundTextures) Sample(unit int, req *sampler.Request, out [][4]uint32) error {
	if unit < 0 || unit >= len(b) || b[unit].Texture == nil {
		return fmt.Errorf("ref: texture unit %d not bound (%d units)", unit, len(b))
	}
	return sampler.Sample(b[unit].Texture, &b[unit].Sampler, req, out)
}
