package shaderdev

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"

	"vortexgfx/abi"
	"vortexgfx/device"
	"vortexgfx/device/swtex"
	"vortexgfx/gfx/frontend"
	"vortexgfx/shader/exec"
	"vortexgfx/shader/ir"
	"vortexgfx/shader/lower"
)

// ErrRoute is wrapped by NewProgram when a program needs something
// the device path does not run; the message names what, and the caller routes
// the draw to the reference renderer (or fails under --strict). It is a gated
// fallback, never a silent collapse. spec: vortexpipe §1.5.1, §2.3.3
var ErrRoute = errors.New("gfx: compiled program routed off the device")

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

// ExpandArgSlots is the size in 64-bit slots of expand_k's argument block:
// {VS records, expand_k records, vertex count, VS record words, the draw's
// user clip-distance enable mask (Program.ClipMask), then the eight
// legacy clip planes as f32 words (plane i component j at word 4i+j, two
// words a slot) for a program without gl_ClipDistance}.
const ExpandArgSlots = expandPlaneSlot + frontend.MaxClipDistances*4/2

// expandPlaneSlot is the first slot of expand_k's legacy clip planes.
const expandPlaneSlot = 5

// expandTwoSideShift is where slot 4 of expand_k's arguments carries the
// draw's two-sided colour pairs (bit k: Program.TwoSidePairs()[k] on),
// above the clip-distance mask.
const expandTwoSideShift = 8

// maxTwoSide bounds the two-sided colour pairs a program packs (the enable
// mask's bits).
const maxTwoSide = 8

// legacyBack names the vertex output a legacy colour input reads on
// back-facing primitives with two-sided colour ("" for any other input).
// spec: GL 2.1 §2.14.1
func legacyBack(in string) string {
	switch in {
	case "gl_Color":
		return "gl_BackColor"
	case "gl_SecondaryColor":
		return "gl_BackSecondaryColor"
	}
	return ""
}

// vsOutput finds the vertex output named name.
func vsOutput(outs []ir.Slot, name string) (ir.Slot, bool) {
	for _, o := range outs {
		if o.Name == name {
			return o, true
		}
	}
	return ir.Slot{}, false
}

// TwoSide names a pair of varying ranges for two-sided colour
// (GL_VERTEX_PROGRAM_TWO_SIDE): on back-facing primitives the fragment
// input words Front..Front+Words-1 read the vertex output words Back.. (the
// form of ref.TwoSide). spec: GL 2.1 §2.14.1
type TwoSide struct {
	Front, Back, Words int
}

// TwoSidePairs returns the two-sided colour pairs the program packs: the
// legacy colour inputs (gl_Color, gl_SecondaryColor) whose back colour the
// vertex stage writes, when the planes have room. spec: GL 2.1 §2.14.1
func (sp *Program) TwoSidePairs() []TwoSide { return sp.twoSide }

// twoSideMask returns the expand_k enable bits of pairs, or an error naming
// a pair the program does not pack.
func (sp *Program) twoSideMask(pairs []TwoSide) (uint64, error) {
	var m uint64
	for _, q := range pairs {
		k := slices.Index(sp.twoSide, q)
		if k < 0 {
			return 0, fmt.Errorf("%w: %s: two-sided colour pair %+v is not packed (the program packs %v)", ErrRoute, sp.name, q, sp.twoSide)
		}
		m |= 1 << k
	}
	return m, nil
}

// PutExpandClipPlanes writes the legacy clip planes into an expand_k argument
// block (ExpandArgSlots slots).
func PutExpandClipPlanes(args []byte, planes *[frontend.MaxClipDistances][4]float32) {
	for i, pl := range planes {
		for j, x := range pl {
			binary.LittleEndian.PutUint32(args[8*expandPlaneSlot+4*(4*i+j):], math.Float32bits(x))
		}
	}
}

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
	flat   []int     // flat side word k carries VS output word flat[k]
	fsIn   []int     // FS input word → plane index (-1: not a varying)
	fsFlat []int     // FS input word → flat side word (-1: not flat)
	coord  int       // FS input word of gl_FragCoord (-1: unused)
	facing int       // FS input word of gl_FrontFacing (-1: unused)
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
	// texSW says why the fragment stage's texturing needs the software
	// sampler ("" when vx_tex serves it). spec: vortexpipe §2.3.3
	texSW string

	// Executors and their scratch, kept across launches (a free list the
	// garbage collector does not empty, unlike sync.Pool): one per core
	// goroutine running the stage at a time. Fragment waves come in every
	// width of whole quads, so the FS list is kept per width (index
	// lanes/4 − 1): one shared list would drop and rebuild an executor
	// whenever consecutive waves differ in width.
	vsFree chan *vsScratch
	fsFree [exec.MaxWidth / 4]chan *fsScratch
}

// scratchSlots bounds the kept executors per stage (at least the cores that
// run a stage at once; more are created and dropped).
const scratchSlots = 64

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
func (sp *Program) fsName() string     { return sp.name + ".fs" }

// NewProgram lays out a compiled program for the device: attribute table
// entries, the varying packing (declaration order onto abi.VaryingPlane) and
// the fragment wrapper's inputs. name must be unique in the library the
// program registers in. A program the device path cannot run returns an error
// wrapping ErrRoute with the reason. spec: vortexpipe §3.1, §3.2, §3.4
func NewProgram(name string, p *lower.Program) (*Program, error) {
	if p == nil || p.VS == nil || p.FS == nil {
		return nil, fmt.Errorf("%w: %s: a vertex and a fragment stage are both needed", ErrRoute, name)
	}
	sp := &Program{name: name, prog: p, vid: -1, iid: -1, coord: -1, facing: -1, fragDepth: -1, src1Word: -1,
		clipWord: -1, clipVert: -1, vsFree: make(chan *vsScratch, scratchSlots)}
	for _, s := range p.VS.Outputs {
		switch {
		case s.Name == "gl_ClipDistance" && s.Words > 0:
			sp.clipWord, sp.clipN = s.Word, min(s.Words, frontend.MaxClipDistances)
		case s.Name == "gl_ClipVertex" && s.Words == 4:
			sp.clipVert = s.Word
		}
	}
	for i := range sp.colorWord {
		sp.colorWord[i] = -1
	}
	for i := range sp.fsFree {
		sp.fsFree[i] = make(chan *fsScratch, scratchSlots)
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
	if len(sp.attrs) > abi.VSAttribTableLocs {
		return nil, fmt.Errorf("%w: %s: %d vertex attributes exceed the %d-entry attribute table", ErrRoute, name, len(sp.attrs), abi.VSAttribTableLocs)
	}
	// Which VS output words the FS reads, and how.
	read := make([]bool, p.VS.OutputWords)
	flat := make([]bool, p.VS.OutputWords)
	noPersp := make([]bool, p.VS.OutputWords)
	for _, s := range p.FS.Inputs {
		switch s.Name {
		case "gl_FragCoord":
			sp.coord = s.Word
			continue
		case "gl_FrontFacing":
			sp.facing = s.Word
			continue
		case "gl_PointCoord":
			return nil, fmt.Errorf("%w: %s: gl_PointCoord (points are not drawn on the device)", ErrRoute, name)
		}
		for w := s.Word; w < s.Word+s.Words; w++ {
			if w >= 4 && w < len(read) {
				read[w] = !s.Flat
				flat[w] = s.Flat
				if s.NoPerspective && !s.Flat {
					noPersp[w] = true
				}
			}
		}
	}
	// Two-sided colour: the back colours of the legacy colour inputs get
	// planes (flat words for a flat colour) of their own when they fit
	// (else such draws route elsewhere).
	pair := make([]int, p.VS.OutputWords)  // back VS word → pair index + 1 (a plane)
	pairF := make([]int, p.VS.OutputWords) // the same for a flat back colour
	nread, nflat := 0, 0
	for w := range read {
		if read[w] {
			nread++
		}
		if flat[w] {
			nflat++
		}
	}
	for _, s := range p.FS.Inputs {
		bn := legacyBack(s.Name)
		if bn == "" || len(sp.twoSide) == maxTwoSide {
			continue
		}
		b, ok := vsOutput(p.VS.Outputs, bn)
		n := min(s.Words, b.Words)
		if !ok || n <= 0 || s.Word < 4 || s.Word+n > p.FS.InputWords || b.Word+n > len(read) ||
			(!s.Flat && nread+n > abi.NumVaryingPlanes+abi.MaxExtraVaryings) || (s.Flat && nflat+n > abi.MaxFlatWords) {
			continue
		}
		free := true
		for k := range n {
			free = free && !read[b.Word+k] && !flat[b.Word+k] && pair[b.Word+k] == 0 && pairF[b.Word+k] == 0
		}
		if free && s.Flat {
			sp.twoSide = append(sp.twoSide, TwoSide{Front: s.Word, Back: b.Word, Words: n})
			for k := range n {
				pairF[b.Word+k] = len(sp.twoSide)
			}
			nflat += n
			continue
		}
		if !free {
			continue
		}
		sp.twoSide = append(sp.twoSide, TwoSide{Front: s.Word, Back: b.Word, Words: n})
		for k := range n {
			pair[b.Word+k] = len(sp.twoSide)
			if s.Word+k < len(noPersp) {
				noPersp[b.Word+k] = noPersp[s.Word+k]
			} else {
				noPersp[b.Word+k] = s.NoPerspective
			}
		}
		nread += n
	}
	for w := range read {
		if read[w] || pair[w] > 0 {
			sp.planes = append(sp.planes, w)
			sp.noPersp = append(sp.noPersp, noPersp[w])
			sp.planePair = append(sp.planePair, pair[w]-1)
			front := w
			if k := pair[w] - 1; k >= 0 {
				front = sp.twoSide[k].Front + w - sp.twoSide[k].Back
			}
			sp.planeFront = append(sp.planeFront, front)
		}
		if flat[w] || pairF[w] > 0 {
			sp.flat = append(sp.flat, w)
			sp.flatPair = append(sp.flatPair, pairF[w]-1)
			front := w
			if k := pairF[w] - 1; k >= 0 {
				front = sp.twoSide[k].Front + w - sp.twoSide[k].Back
			}
			sp.flatFront = append(sp.flatFront, front)
		}
	}
	if len(sp.flat) > abi.MaxFlatWords {
		return nil, fmt.Errorf("%w: %s: %d flat varying words exceed the %d-word side array", ErrRoute, name, len(sp.flat), abi.MaxFlatWords)
	}
	if len(sp.planes) > abi.NumVaryingPlanes+abi.MaxExtraVaryings {
		return nil, fmt.Errorf("%w: %s: %d varying words exceed the %d interpolation planes and %d side-array words", ErrRoute, name,
			len(sp.planes), abi.NumVaryingPlanes, abi.MaxExtraVaryings)
	}
	sp.fsIn, sp.fsFlat = make([]int, p.FS.InputWords), make([]int, p.FS.InputWords)
	for i := range sp.fsIn {
		sp.fsIn[i], sp.fsFlat[i] = -1, -1
	}
	for i, w := range sp.planes {
		if w < len(sp.fsIn) && sp.planePair[i] < 0 {
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
		if w < len(sp.fsFlat) && sp.flatPair[k] < 0 {
			sp.fsFlat[w] = k
		}
	}
	sp.fsFlatBack = slices.Clone(sp.fsFlat)
	for k, q := range sp.flatPair {
		if q >= 0 && sp.flatFront[k] < len(sp.fsFlatBack) {
			sp.fsFlatBack[sp.flatFront[k]] = k
		}
	}
	for _, s := range p.FS.Outputs {
		if s.Name == "gl_FragDepth" {
			sp.fragDepth = s.Word
			continue
		}
		if s.Name == "gl_SampleMask" {
			return nil, fmt.Errorf("%w: %s: gl_SampleMask output", ErrRoute, name)
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
				return nil, fmt.Errorf("%w: %s: colour output %s at location %d (at most %d)", ErrRoute, name, s.Name, loc+k, maxColorOutputs)
			}
			sp.colorWord[loc+k] = s.Word + 4*k
			sp.colorInt[loc+k] = s.Type == ir.I32 || s.Type == ir.U32
			sp.colorN = max(sp.colorN, loc+k+1)
		}
	}
	sp.texSW = texRoute(p.FS)
	return sp, nil
}

// Register adds the program's three kernels to lib under the program's name.
func (sp *Program) Register(lib *device.Library) error { return sp.register(lib, nil) }

// register adds the kernels with the device environment env (nil: the
// software sampler is unavailable to the fragment wrapper).
func (sp *Program) register(lib *device.Library, env *devEnv) error {
	fs := func(c *device.CTA) error { return sp.fsKernelOn(c, env) }
	vs := func(c *device.CTA) error { return sp.vsKernelOn(c, env) }
	for _, k := range []struct {
		name string
		fn   device.Kernel
	}{{sp.vsName(), vs}, {sp.expandName(), sp.expandKernel}, {sp.fsName(), fs}} {
		if err := lib.Register(k.name, k.fn); err != nil {
			return err
		}
	}
	return nil
}

// VSImage is the vertex module (kernel "main", the VS, and "expand_k"), loaded
// at abi.LinkBaseVS. spec: vortexpipe §2.4
func (sp *Program) VSImage() ([]byte, error) {
	return abi.EncodeKernelImage([]abi.KernelImageEntry{
		abi.LibraryEntry("main", sp.vsName()), abi.LibraryEntry("expand_k", sp.expandName()),
	})
}

// FSImage is the fragment module (the wrapper's kernel "main"), loaded at
// abi.LinkBaseFS. spec: vortexpipe §2.4
func (sp *Program) FSImage() ([]byte, error) {
	return abi.EncodeKernelImage([]abi.KernelImageEntry{abi.LibraryEntry("main", sp.fsName())})
}

// readUniforms loads the uniform words through a descriptor table (slot 0:
// the push-constant/uniform buffer). spec: vortexpipe §2.5 (VP_ARG_VS_DESC,
// GFX_FS_ARG_DESC)
func readUniforms(c *device.CTA, table uint64, dst []uint32, buf []byte) {
	if len(dst) == 0 {
		return
	}
	c.Read(c.ReadU64(table), buf[:4*len(dst)])
	for i := range dst {
		dst[i] = binary.LittleEndian.Uint32(buf[4*i:])
	}
}

type vsScratch struct {
	m     *exec.Machine
	uni   []uint32
	ub    []byte
	ab    []byte // one attribute element
	ob    []byte // one output record
	table [abi.VSAttribTableLocs][3]uint64
	vraw  [exec.MaxWidth]uint64
	sw    *swtex.Sampler // the vertex stage's software sampler
}

func (sp *Program) vsScratch(width int) (*vsScratch, error) {
	select {
	case s := <-sp.vsFree:
		if s.m.Width() == width {
			return s, nil
		}
	default:
	}
	m, err := exec.New(sp.prog.VS, exec.Config{Width: width})
	if err != nil {
		return nil, err
	}
	n := max(sp.prog.UniformWords, 1)
	aw := 0
	for _, a := range sp.attrs {
		aw = max(aw, a.Words)
	}
	s := &vsScratch{m: m, uni: make([]uint32, n), ub: make([]byte, 4*n), ab: make([]byte, 4*aw),
		ob: make([]byte, 4*sp.prog.VS.OutputWords), sw: swtex.New()}
	m.SetSampler(s.sw)
	return s, nil
}

// vsKernelOn is the vertex stage, one thread per vertex (vortexpipe §2.3.2,
// §2.5): the raw id vraw (the output slot, so records stay in draw order) is
// split into instance and vertex, the index resolved from the u32 index buffer
// with the base vertex folded in, each attribute read from the {base, stride,
// divisor} table (a nonzero divisor indexes base instance + instance /
// divisor), and the program's output words written as the vertex record. A
// vertex stage that samples reads the software sampler's descriptor table at
// VS arg slot abi.ArgVSSWSampler over env's device memory (textureLod,
// texelFetch, textureSize; an implicit-LOD texture() samples the base level
// plus its bias, as GLSL defines it outside the fragment stage).
// spec: vortexpipe §2.5, §3.6
func (sp *Program) vsKernelOn(c *device.CTA, env *devEnv) error {
	out, table, index := c.Arg(abi.ArgVSOutput), c.Arg(abi.ArgVSAttribTable), c.Arg(abi.ArgVSIndexBuffer)
	vpi, baseInst, baseVert := c.Arg(abi.ArgVSVertsPerInst), c.Arg(abi.ArgVSBaseInstance), int32(c.Arg(abi.ArgVSBaseVertex))
	count, desc := c.Arg(abi.ArgVSCount), c.Arg(abi.ArgVSDescTable)
	if err := c.Err(); err != nil {
		return err
	}
	ww := c.WarpWidth
	if ww < 1 || ww > exec.MaxWidth {
		return fmt.Errorf("%s: warp width %d", sp.vsName(), ww)
	}
	s, err := sp.vsScratch(ww)
	if err != nil {
		return err
	}
	defer func() {
		select {
		case sp.vsFree <- s:
		default:
		}
	}()
	if len(sp.prog.VS.Tex) > 0 {
		if env == nil || env.mem == nil {
			return fmt.Errorf("%s: vertex-stage sampling on a kernel without device memory (open the program with a Device)", sp.vsName())
		}
		tt := c.Arg(abi.ArgVSSWSampler)
		if tt == 0 {
			return fmt.Errorf("%s: the vertex stage samples but VS arg slot %d holds no sampler table", sp.vsName(), abi.ArgVSSWSampler)
		}
		if err := s.sw.Bind(env.mem, tt, len(sp.prog.VS.Samplers)); err != nil {
			return fmt.Errorf("%s: %w", sp.vsName(), err)
		}
	}
	for i := range sp.attrs {
		e := table + uint64(i)*abi.VSAttribEntryBytes
		s.table[i] = [3]uint64{c.ReadU64(e), c.ReadU64(e + 8), c.ReadU64(e + 16)}
	}
	readUniforms(c, desc, s.uni[:sp.prog.UniformWords], s.ub)
	if err := s.m.SetUniforms(s.uni); err != nil {
		return err
	}
	ow := uint64(sp.prog.VS.OutputWords)
	stride := uint64(c.GridDim[0]) * uint64(c.BlockDim[0])
	for w := 0; w < c.Warps() && c.Err() == nil; w++ {
		lanes := min(ww, c.Threads-w*ww)
		for pass := uint64(0); c.Err() == nil; pass += stride {
			var present uint64
			for l := 0; l < lanes; l++ {
				vraw := c.GlobalID(w*ww+l) + pass
				if vraw >= count {
					continue
				}
				present |= 1 << l
				s.vraw[l] = vraw
				inst, vtx := uint64(0), vraw
				if vpi != 0 {
					inst, vtx = vraw/vpi, vraw%vpi
				}
				idx := uint32(vtx)
				if index != 0 {
					idx = c.ReadU32(index + 4*vtx)
				}
				vertexID := int32(idx) + baseVert
				if sp.vid >= 0 {
					s.m.Input(sp.vid)[l] = uint32(vertexID)
				}
				if sp.iid >= 0 {
					s.m.Input(sp.iid)[l] = uint32(inst)
				}
				for a, slot := range sp.attrs {
					t := &s.table[a]
					elem := uint64(uint32(vertexID))
					if t[2] != 0 {
						elem = baseInst + inst/t[2]
					}
					ab := s.ab[:4*slot.Words]
					c.Read(t[0]+elem*t[1], ab)
					for k := 0; k < slot.Words; k++ {
						s.m.Input(slot.Word + k)[l] = binary.LittleEndian.Uint32(ab[4*k:])
					}
				}
			}
			if present == 0 {
				break
			}
			if c.Err() != nil {
				break
			}
			if _, err := s.m.Run(context.Background(), present, present); err != nil {
				return fmt.Errorf("%s: %w", sp.vsName(), err)
			}
			for l := 0; l < lanes; l++ {
				if present>>l&1 == 0 {
					continue
				}
				for k := 0; k < int(ow); k++ {
					binary.LittleEndian.PutUint32(s.ob[4*k:], s.m.Output(k)[l])
				}
				c.Write(out+s.vraw[l]*ow*4, s.ob)
			}
		}
	}
	return c.Err()
}

// expandKernel is expand_k: one thread per vertex, it turns a VS record into
// the setup record — gl_Position and the varyings read by the fragment stage,
// packed positionally onto the planes, the words beyond the planes after the
// flat words (setup_k moves those to the side array), then the enabled user
// clip distances (arg slot 4's mask), compacted in plane order, which setup_k
// clips against. spec: vortexpipe §3.2 step 1, §3.8
func (sp *Program) expandKernel(c *device.CTA) error {
	recs, verts, count, ow, cm := c.Arg(0), c.Arg(1), c.Arg(2), c.Arg(3), c.Arg(4)
	if err := c.Err(); err != nil {
		return err
	}
	if ow != uint64(sp.prog.VS.OutputWords) || count > frontend.MaxItems {
		return fmt.Errorf("%s: %d vertices of %d words (program: %d)", sp.expandName(), count, ow, sp.prog.VS.OutputWords)
	}
	twoMask := cm >> expandTwoSideShift
	cm &= 1<<expandTwoSideShift - 1
	if twoMask>>len(sp.twoSide) != 0 {
		return fmt.Errorf("%s: two-sided colour mask 0x%x names pairs the program does not pack (%d)", sp.expandName(), twoMask, len(sp.twoSide))
	}
	if uint8(cm) != sp.ClipMask(uint8(cm)) {
		return fmt.Errorf("%s: clip-distance mask 0x%x names distances the vertex stage does not write (%d)", sp.expandName(), cm, sp.clipN)
	}
	mask := uint8(cm)
	var planes [frontend.MaxClipDistances][4]float64 // the legacy planes
	if sp.clipN == 0 && mask != 0 {
		for i := range planes {
			for j := range planes[i] {
				w := 4*i + j
				slot := c.Arg(expandPlaneSlot + w/2)
				planes[i][j] = float64(math.Float32frombits(uint32(slot >> (32 * (w % 2)))))
			}
		}
	}
	cv := 0 // the legacy planes' vertex: gl_ClipVertex, else gl_Position
	if sp.clipVert >= 0 {
		cv = sp.clipVert
	}
	if cv+4 > int(ow) {
		return fmt.Errorf("%s: gl_ClipVertex at word %d of %d", sp.expandName(), cv, ow)
	}
	in := make([]byte, 4*ow) // once per CTA
	rec := uint64(sp.recordBytesClip(mask))
	cdoff := sp.recordBytes()
	out := make([]byte, rec)
	frontend.GridStride(c, count, func(i uint64) {
		c.Read(recs+i*ow*4, in)
		copy(out[:16], in[:16])
		for p, w := range sp.planes {
			o := 16 + 4*p // a plane, or a word past the flat words
			if p >= abi.NumVaryingPlanes {
				o = sp.extraOffset() + 4*(p-abi.NumVaryingPlanes)
			}
			if k := sp.planePair[p]; k >= 0 && twoMask>>k&1 == 0 {
				// The pair is off: the back face shows the front colour
				// (zero when the vertex stage does not write it).
				if w = sp.planeFront[p]; w >= len(in)/4 {
					clear(out[o : o+4])
					continue
				}
			}
			copy(out[o:o+4], in[4*w:4*w+4])
			if sp.noPersp[p] {
				v := math.Float32frombits(binary.LittleEndian.Uint32(in[4*w:])) * math.Float32frombits(binary.LittleEndian.Uint32(in[12:]))
				binary.LittleEndian.PutUint32(out[o:], math.Float32bits(v))
			}
		}
		for k, w := range sp.flat {
			o := frontend.CompiledFlatOffset + 4*k
			if q := sp.flatPair[k]; q >= 0 && twoMask>>q&1 == 0 {
				if w = sp.flatFront[k]; w >= len(in)/4 {
					clear(out[o : o+4])
					continue
				}
			}
			copy(out[o:o+4], in[4*w:4*w+4])
		}
		o := cdoff
		for d := 0; d < frontend.MaxClipDistances; d++ {
			switch {
			case mask>>d&1 == 0:
				continue
			case sp.clipN > 0:
				w := sp.clipWord + d
				copy(out[o:o+4], in[4*w:4*w+4])
			default:
				// GL_CLIP_PLANEd: the plane dotted with the clip vertex,
				// in float64 as ref does.
				var x float64
				for j := range 4 {
					x += planes[d][j] * float64(math.Float32frombits(binary.LittleEndian.Uint32(in[4*(cv+j):])))
				}
				binary.LittleEndian.PutUint32(out[o:], math.Float32bits(float32(x)))
			}
			o += 4
		}
		c.Write(verts+i*rec, out)
	})
	return c.Err()
}
