package shaderdev

import (
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"sync/atomic"

	"vortexgfx/abi"
	"vortexgfx/device"
	"vortexgfx/gfx/frontend"
	"vortexgfx/shader/exec"
	"vortexgfx/shader/ir"
	"vortexgfx/shader/lower"
)

// ErrRoute is what NewProgram's *RouteError matches (errors.Is) when a
// program needs something the device path does not run; the error names
// what, and the caller routes the draw to the reference renderer (or fails
// under --strict). It is a gated fallback, never a silent collapse. spec: vortexpipe §1.5.1, §2.3.3
var ErrRoute = errors.New("shaderdev: compiled program routed off the device")

// maxColorOutputs is the most colour outputs a program may write (the
// software merger's targets).
const maxColorOutputs = 8

// ColorOutputs is the number of colour locations the fragment stage writes
// (highest location + 1): the render targets a draw must bind.
// spec: vortexpipe §3.1 (fewer bound attachments than FS outputs is a gate)
func (sp *Program) ColorOutputs() int { return sp.colorN }

// WritesDepth reports whether the fragment stage writes gl_FragDepth (early-Z
// is then disarmed). spec: vortexpipe §3.3 step 2
func (sp *Program) WritesDepth() bool { return sp.fragDepth >= 0 }

// Program is a compiled GLSL program (package shader/lower) as device
// kernels: the vertex shader (kernel_main of the VS module, one thread per
// vertex), expand_k (VS records → setup records with the varyings packed onto
// the planes) and the fragment wrapper (vortexpipe §3.4) around the fragment
// program. Each stage is a Go closure that runs the ir.Program with
// shader/exec on the CTA's lanes; executors come from per-stage pools, so a
// wave or warp allocates nothing once the pools are warm.
// spec: vortexpipe §2.2, §2.5, §3.2, §3.4
type Program struct {
	name   string
	prog   *lower.Program
	attrs  []ir.Slot // VS inputs read from the attribute table, table entry i
	vid    int       // VS input word of gl_VertexID (-1: unused)
	iid    int       // VS input word of gl_InstanceID (-1: unused)
	planes []int     // plane i carries VS output word planes[i]
	flat   []int     // flat side word k carries VS output word flat[k] (-1: primID's, pidFlat)
	fsIn   []int     // FS input word → plane index (-1: not a varying)
	fsFlat []int     // FS input word → flat side word (-1: not flat)
	coord  int       // FS input word of gl_FragCoord (-1: unused)
	facing int       // FS input word of gl_FrontFacing (-1: unused)
	helper int       // FS input word of gl_HelperInvocation (-1: unused)
	// primID is the FS input word of gl_PrimitiveID (-1: unused) and
	// pidFlat the flat side word that carries it: no VS word, the draw's
	// primitive-id map writes it after setup_k's EMIT (primid.go).
	primID, pidFlat int
	// sampleID, samplePos and sampleIn are the FS input words of
	// gl_SampleID, gl_SamplePosition and gl_SampleMaskIn, sampleMask the
	// output word of gl_SampleMask (-1: unused; sample.go).
	sampleID, samplePos, sampleIn, sampleMask int
	sampleQual                                bool // an FS input has the sample qualifier
	centroid                                  bool // an FS input has the centroid qualifier
	// numSamples and sampleTable are the input words of gl_NumSamples and
	// of interpolateAtSample's lower.SamplePositionTable (-1: unused).
	numSamples, sampleTable int
	// noPersp[i] marks plane i as a noperspective varying: expand_k stores
	// v·w_clip on it and the wrapper multiplies the perspective-correct
	// interpolation by the fragment's 1/w, which is v interpolated linearly in
	// screen space. spec: vortexpipe §3.4 (lifted: noperspective)
	noPersp []bool
	// twoSide are the two-sided colour pairs expand_k packs (at most
	// maxTwoSide): each back range rides planes of its own. fsBack is fsIn
	// for back-facing primitives (a front colour word reads its back
	// plane); planePair[i] is the pair whose back plane i is (-1: none) and
	// planeFront[i] the front word (the FS input word it stands for), whose
	// VS output expand_k packs there instead when the draw leaves that pair
	// off, zero when the vertex stage does not write the front colour.
	// spec: GL 2.1 §2.14.1 (two-sided colour)
	twoSide    []TwoSide
	fsBack     []int
	planePair  []int
	planeFront []int
	// fsFlatBack, flatPair and flatFront are the same for flat colours
	// (side-array flat words).
	fsFlatBack []int
	flatPair   []int
	flatFront  []int
	// fsInterp lists the FS input words the wrapper interpolates, with
	// their plane on front and back faces (-1: a flat word or no input on
	// that face), and fsFlatIn / fsFlatInBack the flat words it reads (FS
	// word, side word), all in word order: fsIn and the others compiled for
	// the per-wave loops.
	fsInterp []fsInterpWord
	// fsFaceInterp is fsInterp compiled per face (faceInterp): the words
	// the Go wrapper interpolates on front and on back faces.
	fsFaceInterp           [2][]fsInterpBind
	fsFlatIn, fsFlatInBack [][2]int
	// fsCompact: RASTER waves run on their covered lanes only (fscompact.go).
	fsCompact bool
	// colorWord[loc] is the first FS output word of colour location loc (-1:
	// not written) and colorInt whether it holds integers; fragDepth is the
	// gl_FragDepth output word (-1: the plane depth is exported).
	colorWord [maxColorOutputs]int
	colorInt  [maxColorOutputs]bool
	colorN    int // highest written location + 1
	fragDepth int
	// src1Word is the first word of the layout(location = 0, index = 1)
	// output, the dual-source blend's second colour (-1: none; the blend
	// then takes location 1's output, the convention before GLSL's index).
	src1Word int
	// clipWord is the VS output word of gl_ClipDistance[0] (-1: not
	// written) and clipN how many distances the VS writes; clipVert is the
	// gl_ClipVertex output word (-1: the legacy planes dot gl_Position).
	clipWord, clipN, clipVert int
	// pointCoord is the FS input word of gl_PointCoord (-1: unread) and
	// pcPlane its first plane: prim_k appends the point's (s, t) to each
	// corner's record as two more words (pointCoordWords) that expand_k
	// packs onto these noperspective planes (zero on other primitives).
	// spec: GL 4.6 §14.4.1
	pointCoord, pcPlane int
	// texSW says why the fragment stage's texturing needs the software
	// sampler ("" when vx_tex serves it). spec: vortexpipe §2.3.3
	texSW string
	// fsBatch: RASTER's waves of this program may share executor runs
	// (fsbatch.go); fsBatchRuns and fsBatchWaves count the shared runs and
	// the waves they shaded (for tests and profiles).
	fsBatch                   bool
	fsBatchRuns, fsBatchWaves atomic.Int64

	// Executors and their scratch, kept across launches (a free list the
	// garbage collector does not empty, unlike sync.Pool): one per core
	// goroutine running the stage at a time. Fragment waves come in every
	// width of whole quads, so the FS list is kept per width (index
	// lanes/4 − 1): one shared list would drop and rebuild an executor
	// whenever consecutive waves differ in width. The FS lists are also
	// sharded by the CTA's runner (device.CTA.Runner, modulo fsShards), so
	// raster workers running waves side by side take and return executors
	// on lists of their own instead of handing one list's lock back and
	// forth on every wave.
	vsFree chan *vsScratch
	fsFree [fsShards][exec.MaxWidth / 4]chan *fsScratch
	// fsHot is one kept FS executor per shard and width in front of its
	// list: a shard's runner takes back the executor it returned last with
	// one atomic swap instead of a channel operation per wave.
	fsHot [fsShards][exec.MaxWidth / 4]atomic.Pointer[fsScratch]
}

// scratchSlots bounds the kept executors per stage (at least the cores that
// run a stage at once; more are created and dropped); each of the fsShards
// FS shards keeps its share per width.
const scratchSlots = 64

// fsShards is the number of FS executor shards: at least the runners of the
// default configuration's fragment waves (raster workers × cores).
const fsShards = 8

// NVar returns the number of varying words the program interpolates: the
// first abi.NumVaryingPlanes ride the interpolation planes, the rest the
// per-primitive side array (abi.MaxExtraVaryings). spec: vortexpipe §3.2, §3.4
func (sp *Program) NVar() int { return len(sp.planes) }

// recordBytes is the program's expand_k record: position, planes, the flat
// region (abi.SideFlatWords), then the varying words beyond the planes.
func (sp *Program) recordBytes() int {
	return sp.extraOffset() + 4*max(len(sp.planes)-abi.NumVaryingPlanes, 0)
}

// recordBytesClip is the expand_k record of a draw clipping against the user
// clip distances in mask (ClipMask): recordBytes, then one distance per
// enabled plane. spec: vortexpipe §3.2 step 1, §3.8
func (sp *Program) recordBytesClip(mask uint8) int {
	return sp.recordBytes() + 4*bits.OnesCount8(mask)
}

// ClipDistances is how many gl_ClipDistance[] elements the vertex stage
// writes (0: none; setup then clips to the view volume only).
// spec: GLSL 1.30 §7.1
func (sp *Program) ClipDistances() int { return sp.clipN }

// ClipMask is the user clip planes a draw with GL_CLIP_DISTANCEi (or
// GL_CLIP_PLANEi) enables enabled clips against: the enabled distances the
// vertex stage writes (an enabled plane beyond them has no distance and
// clips nothing, as in ref), or, for a vertex stage without gl_ClipDistance,
// every enabled legacy plane (Draw.ClipPlanes dotted with
// gl_ClipVertex, else gl_Position). spec: GL 4.6 §13.7; GL 3.0 §2.17
func (sp *Program) ClipMask(enabled uint8) uint8 {
	if sp.clipN == 0 {
		return enabled
	}
	return enabled & uint8(1<<sp.clipN-1)
}

// extraOffset is the byte offset of the varyings beyond the planes in the
// program's expand_k record.
func (sp *Program) extraOffset() int {
	return frontend.CompiledFlatOffset + 4*abi.SideFlatWords(len(sp.flat))
}

// NFlat returns the number of flat words per primitive in the side array.
func (sp *Program) NFlat() int { return len(sp.flat) }

// Attributes returns the VS inputs the host binds through the attribute table,
// in table order (entry i feeds Attributes()[i], Words words per element).
func (sp *Program) Attributes() []ir.Slot { return sp.attrs }

// Textured reports whether the program samples textures in either stage (a
// draw then binds one Texture per sampler binding). A vertex stage
// samples through the software sampler (device/swtex, its table at VS arg
// slot abi.ArgVSSWSampler); the fragment stage through vx_tex or the
// software sampler as the draw routes. spec: vortexpipe §2.5, §3.6
func (sp *Program) Textured() bool { return len(sp.prog.FS.Tex) > 0 || len(sp.prog.VS.Tex) > 0 }

// Samplers returns the program's sampler bindings, shared by both stages
// (TEX stage i samples binding i).
func (sp *Program) Samplers() []ir.SamplerBinding { return sp.prog.FS.Samplers }

// UniformWords is the size of the uniform word buffer both stages read.
func (sp *Program) UniformWords() int { return sp.prog.UniformWords }

// Kernel library names of the program's stages.
func (sp *Program) vsName() string     { return sp.name + ".vs" }
func (sp *Program) expandName() string { return sp.name + ".expand_k" }
func (sp *Program) primName() string   { return sp.name + ".prim_k" }
func (sp *Program) fsName() string     { return sp.name + ".fs" }

// NewProgram lays out a compiled program for the device: attribute table
// entries, the varying packing (declaration order onto abi.VaryingPlane) and
// the fragment wrapper's inputs. name must be unique in the library the
// program registers in. A program the device path cannot run returns a
// *RouteError (errors.Is ErrRoute) with the reason. spec: vortexpipe §3.1, §3.2, §3.4
func NewProgram(name string, p *lower.Program) (*Program, error) {
	if p == nil || p.VS == nil || p.FS == nil {
		return nil, routeError(name, -1, "a vertex and a fragment stage are both needed")
	}
	sp := &Program{name: name, prog: p, vid: -1, iid: -1, coord: -1, facing: -1, helper: -1, primID: -1, pidFlat: -1, sampleID: -1, samplePos: -1, sampleIn: -1, sampleMask: -1, numSamples: -1, sampleTable: -1, fragDepth: -1, src1Word: -1,
		clipWord: -1, clipVert: -1, pointCoord: -1, pcPlane: -1, vsFree: make(chan *vsScratch, scratchSlots)}
	for i := range sp.colorWord {
		sp.colorWord[i] = -1
	}
	for i := range sp.fsFree {
		for j := range sp.fsFree[i] {
			sp.fsFree[i][j] = make(chan *fsScratch, scratchSlots/fsShards)
		}
	}
	if err := sp.bindVertexStage(); err != nil {
		return nil, err
	}
	v, err := sp.fragmentReads()
	if err != nil {
		return nil, err
	}
	sp.pairBackColours(v)
	if err := sp.assignPlanes(v); err != nil {
		return nil, err
	}
	sp.mapFragmentInputs()
	sp.markUnreadInputs()
	sp.compactFSLanes()
	sp.fsBatch = fsBatchable(p.FS)
	if err := sp.bindFragmentOutputs(); err != nil {
		return nil, err
	}
	sp.texSW = texRoute(p.FS)
	return sp, nil
}

// bindVertexStage finds the vertex stage's clip outputs, its system values
// and the attributes the attribute table feeds.
func (sp *Program) bindVertexStage() error {
	p := sp.prog
	for _, s := range p.VS.Outputs {
		switch {
		case s.Name == "gl_ClipDistance" && s.Words > 0:
			sp.clipWord, sp.clipN = s.Word, min(s.Words, frontend.MaxClipDistances)
		case s.Name == "gl_ClipVertex" && s.Words == 4:
			sp.clipVert = s.Word
		}
	}
	for _, s := range p.VS.Inputs {
		switch s.Name {
		case "gl_VertexID":
			sp.vid = s.Word
		case "gl_InstanceID":
			sp.iid = s.Word
		default:
			sp.attrs = append(sp.attrs, s)
		}
	}
	if len(sp.attrs) > abi.VSMaxAttribs {
		return routeError(sp.name, len(sp.attrs), fmt.Sprintf("vertex attributes exceed the %d-entry attribute table", abi.VSMaxAttribs))
	}
	return nil
}

// varyingUse is, per VS output word, how the fragment stage reads it — and,
// once pairBackColours has run, which back colour occupies it.
type varyingUse struct {
	read, flat, noPersp []bool
	pair, pairF         []int // back VS word → two-sided pair index + 1 (a plane; a flat word)
	nread, nflat        int
}

// fragmentReads records which VS output words the FS reads, and how
// (interpolated, flat, without perspective).
func (sp *Program) fragmentReads() (*varyingUse, error) {
	p := sp.prog
	n := p.VS.OutputWords
	v := &varyingUse{read: make([]bool, n), flat: make([]bool, n), noPersp: make([]bool, n), pair: make([]int, n), pairF: make([]int, n)}
	for _, s := range p.FS.Inputs {
		sp.sampleQual = sp.sampleQual || s.Sample
		sp.centroid = sp.centroid || s.Centroid
		switch s.Name {
		case "gl_FragCoord":
			sp.coord = s.Word
			continue
		case "gl_FrontFacing":
			sp.facing = s.Word
			continue
		case "gl_HelperInvocation":
			sp.helper = s.Word
			continue
		case "gl_PrimitiveID":
			// Without a geometry stage, the primitive's number in the
			// draw (primid.go). spec: GLSL 1.50 §7.1
			sp.primID = s.Word
			continue
		case "gl_PointCoord":
			sp.pointCoord = s.Word
			continue
		case "gl_SampleID":
			sp.sampleID = s.Word
			continue
		case "gl_SamplePosition":
			sp.samplePos = s.Word
			continue
		case "gl_SampleMaskIn":
			sp.sampleIn = s.Word
			continue
		case "gl_NumSamples":
			sp.numSamples = s.Word
			continue
		case lower.SamplePositionTable:
			sp.sampleTable = s.Word
			continue
		}
		for w := s.Word; w < s.Word+s.Words; w++ {
			if w >= 4 && w < len(v.read) {
				v.read[w] = !s.Flat
				v.flat[w] = s.Flat
				if s.NoPerspective && !s.Flat {
					v.noPersp[w] = true
				}
			}
		}
	}
	for w := range v.read {
		if v.read[w] {
			v.nread++
		}
		if v.flat[w] {
			v.nflat++
		}
	}
	return v, nil
}

// pairBackColours gives the back colours of the legacy colour inputs
// (two-sided colour) planes — flat words for a flat colour — of their own
// when they fit; else such draws route elsewhere. spec: GL 2.1 §2.14.1
func (sp *Program) pairBackColours(v *varyingUse) {
	p := sp.prog
	for _, s := range p.FS.Inputs {
		bn := legacyBack(s.Name)
		if bn == "" || len(sp.twoSide) == maxTwoSide {
			continue
		}
		b, ok := vsOutput(p.VS.Outputs, bn)
		n := min(s.Words, b.Words)
		if !ok || n <= 0 || s.Word < 4 || s.Word+n > p.FS.InputWords || b.Word+n > len(v.read) ||
			(!s.Flat && v.nread+n > abi.NumVaryingPlanes+abi.MaxExtraVaryings) || (s.Flat && v.nflat+n > abi.MaxFlatWords) {
			continue
		}
		free := true
		for k := range n {
			free = free && !v.read[b.Word+k] && !v.flat[b.Word+k] && v.pair[b.Word+k] == 0 && v.pairF[b.Word+k] == 0
		}
		if free && s.Flat {
			sp.twoSide = append(sp.twoSide, TwoSide{Front: s.Word, Back: b.Word, Words: n})
			for k := range n {
				v.pairF[b.Word+k] = len(sp.twoSide)
			}
			v.nflat += n
			continue
		}
		if !free {
			continue
		}
		sp.twoSide = append(sp.twoSide, TwoSide{Front: s.Word, Back: b.Word, Words: n})
		for k := range n {
			v.pair[b.Word+k] = len(sp.twoSide)
			if s.Word+k < len(v.noPersp) {
				v.noPersp[b.Word+k] = v.noPersp[s.Word+k]
			} else {
				v.noPersp[b.Word+k] = s.NoPerspective
			}
		}
		v.nread += n
	}
}

// assignPlanes packs the interpolated words onto the planes (then the side
// array's extra varyings) and the flat words into the side array, in VS
// output order, each with the front word it stands for.
// spec: vortexpipe §3.2 step 1
func (sp *Program) assignPlanes(v *varyingUse) error {
	for w := range v.read {
		if v.read[w] || v.pair[w] > 0 {
			sp.planes = append(sp.planes, w)
			sp.noPersp = append(sp.noPersp, v.noPersp[w])
			sp.planePair = append(sp.planePair, v.pair[w]-1)
			front := w
			if k := v.pair[w] - 1; k >= 0 {
				front = sp.twoSide[k].Front + w - sp.twoSide[k].Back
			}
			sp.planeFront = append(sp.planeFront, front)
		}
		if v.flat[w] || v.pairF[w] > 0 {
			sp.flat = append(sp.flat, w)
			sp.flatPair = append(sp.flatPair, v.pairF[w]-1)
			front := w
			if k := v.pairF[w] - 1; k >= 0 {
				front = sp.twoSide[k].Front + w - sp.twoSide[k].Back
			}
			sp.flatFront = append(sp.flatFront, front)
		}
	}
	if sp.primID >= 0 {
		sp.pidFlat = len(sp.flat)
		sp.flat = append(sp.flat, -1)
		sp.flatPair = append(sp.flatPair, -1)
		sp.flatFront = append(sp.flatFront, -1)
	}
	if sp.pointCoord >= 0 {
		// gl_PointCoord's planes read the words past the VS record.
		sp.pcPlane = len(sp.planes)
		for c := range pointCoordWords {
			w := sp.prog.VS.OutputWords + c
			sp.planes = append(sp.planes, w)
			sp.noPersp = append(sp.noPersp, true)
			sp.planePair = append(sp.planePair, -1)
			sp.planeFront = append(sp.planeFront, w)
		}
	}
	if len(sp.flat) > abi.MaxFlatWords {
		return routeError(sp.name, len(sp.flat), fmt.Sprintf("flat varying words exceed the %d-word side array", abi.MaxFlatWords))
	}
	if len(sp.planes) > abi.NumVaryingPlanes+abi.MaxExtraVaryings {
		return routeError(sp.name, len(sp.planes), fmt.Sprintf("varying words exceed the %d interpolation planes and %d side-array words",
			abi.NumVaryingPlanes, abi.MaxExtraVaryings))
	}
	return nil
}

// mapFragmentInputs maps each FS input word to its plane and flat word, on
// front faces and (through the two-sided pairs) on back faces.
func (sp *Program) mapFragmentInputs() {
	n := sp.prog.FS.InputWords
	sp.fsIn, sp.fsFlat = make([]int, n), make([]int, n)
	for i := range sp.fsIn {
		sp.fsIn[i], sp.fsFlat[i] = -1, -1
	}
	for i, w := range sp.planes {
		switch {
		case sp.pcPlane >= 0 && i >= sp.pcPlane && i < sp.pcPlane+pointCoordWords:
			if f := sp.pointCoord + i - sp.pcPlane; f < len(sp.fsIn) {
				sp.fsIn[f] = i
			}
		case w < len(sp.fsIn) && sp.planePair[i] < 0:
			sp.fsIn[w] = i
		}
	}
	sp.fsBack = slices.Clone(sp.fsIn)
	for i, k := range sp.planePair {
		if k >= 0 && sp.planeFront[i] < len(sp.fsBack) {
			sp.fsBack[sp.planeFront[i]] = i
		}
	}
	for k, w := range sp.flat {
		if w >= 0 && w < len(sp.fsFlat) && sp.flatPair[k] < 0 {
			sp.fsFlat[w] = k
		}
	}
	if sp.pidFlat >= 0 && sp.primID < len(sp.fsFlat) {
		sp.fsFlat[sp.primID] = sp.pidFlat // on either face
	}
	sp.fsFlatBack = slices.Clone(sp.fsFlat)
	for k, q := range sp.flatPair {
		if q >= 0 && sp.flatFront[k] < len(sp.fsFlatBack) {
			sp.fsFlatBack[sp.flatFront[k]] = k
		}
	}
	for w := range n {
		f, b := -1, -1
		if sp.fsFlat[w] < 0 { // a flat read replaces the plane's value
			f = sp.fsIn[w]
		} else {
			sp.fsFlatIn = append(sp.fsFlatIn, [2]int{w, sp.fsFlat[w]})
		}
		if sp.fsFlatBack[w] < 0 {
			b = sp.fsBack[w]
		} else {
			sp.fsFlatInBack = append(sp.fsFlatInBack, [2]int{w, sp.fsFlatBack[w]})
		}
		if f >= 0 || b >= 0 {
			iw := fsInterpWord{w: w, front: f, back: b}
			iw.frontNP = f >= 0 && sp.noPersp[f]
			iw.backNP = b >= 0 && sp.noPersp[b]
			sp.fsInterp = append(sp.fsInterp, iw)
		}
	}
}

// bindFragmentOutputs finds gl_FragDepth, the dual-source second colour and
// the colour outputs by location. spec: vortexpipe §3.4, §3.7
func (sp *Program) bindFragmentOutputs() error {
	for _, s := range sp.prog.FS.Outputs {
		if s.Name == "gl_FragDepth" {
			sp.fragDepth = s.Word
			continue
		}
		if s.Name == "gl_SampleMask" {
			sp.sampleMask = s.Word
			continue
		}
		if s.Index == 1 {
			// layout(location = 0, index = 1): the second source colour
			// of target 0's dual-source blend; other locations have no
			// blend to feed (GL: index 1 outputs beyond the dual-source
			// draw buffers are dropped).
			if max(s.Location, 0) == 0 {
				sp.src1Word = s.Word
			}
			continue
		}
		loc := max(s.Location, 0)
		for k := 0; k*4 < s.Words; k++ {
			if loc+k >= maxColorOutputs {
				return routeError(sp.name, -1, fmt.Sprintf("colour output %s at location %d (at most %d)", s.Name, loc+k, maxColorOutputs))
			}
			sp.colorWord[loc+k] = s.Word + 4*k
			sp.colorInt[loc+k] = s.Type == ir.I32 || s.Type == ir.U32
			sp.colorN = max(sp.colorN, loc+k+1)
		}
	}
	return nil
}

// Register adds the program's four kernels to lib under the program's name.
func (sp *Program) Register(lib *device.Library) error { return sp.register(lib, nil) }

// register adds the kernels with the device environment env (nil: the
// software sampler is unavailable to the fragment wrapper).
func (sp *Program) register(lib *device.Library, env *devEnv) error {
	fs := func(c *device.CTA) error { return sp.fsKernelOn(c, env) }
	vs := func(c *device.CTA) error { return sp.vsKernelOn(c, env) }
	for _, k := range []struct {
		name string
		fn   device.Kernel
	}{{sp.vsName(), vs}, {sp.expandName(), sp.expandKernel}, {sp.primName(), sp.primKernel}, {sp.fsName(), fs}} {
		if err := lib.Register(k.name, k.fn); err != nil {
			return err
		}
	}
	return nil
}

// VSImage is the vertex module (kernel "main", the VS, "expand_k" and
// "prim_k", the line and point expansion), loaded at abi.LinkBaseVS.
// spec: vortexpipe §2.4
func (sp *Program) VSImage() ([]byte, error) {
	return abi.EncodeKernelImage([]abi.KernelImageEntry{
		abi.LibraryEntry("main", sp.vsName()), abi.LibraryEntry("expand_k", sp.expandName()),
		abi.LibraryEntry("prim_k", sp.primName()),
	})
}

// FSImage is the fragment module (the wrapper's kernel "main"), loaded at
// abi.LinkBaseFS. spec: vortexpipe §2.4
func (sp *Program) FSImage() ([]byte, error) {
	return abi.EncodeKernelImage([]abi.KernelImageEntry{abi.LibraryEntry("main", sp.fsName())})
}
