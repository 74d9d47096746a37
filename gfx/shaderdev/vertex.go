package shaderdev

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"slices"

	"vortexgfx/abi"
	"vortexgfx/device"
	"vortexgfx/device/swtex"
	"vortexgfx/gfx/frontend"
	"vortexgfx/shader/exec"
	"vortexgfx/shader/ir"
)

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

// readUniforms loads the uniform words through a descriptor table (slot 0:
// the push-constant/uniform buffer). spec: vortexpipe §2.5 (VP_ARG_VS_DESC,
// GFX_FS_ARG_DESC)
//
// prev holds the bytes dst was last decoded from (zero with dst zero at
// first): the reads are the same two either way, but a kernel that runs
// once per wave finds the same uniforms nearly every time and then skips
// the decode.
func readUniforms(c *device.CTA, table uint64, dst []uint32, prev []byte) {
	if len(dst) == 0 {
		return
	}
	prev = prev[:4*len(dst)]
	b := c.ReadView(c.ReadU64(table), prev)
	if &b[0] != &prev[0] { // a view of device memory, not prev refilled
		if bytes.Equal(b, prev) {
			return
		}
		copy(prev, b)
	}
	for i := range dst {
		dst[i] = binary.LittleEndian.Uint32(prev[4*i:])
	}
}

type vsScratch struct {
	m     *exec.Machine
	uni   []uint32
	ub    []byte
	ab    []byte // one attribute element
	ob    []byte // one output record
	table [abi.VSMaxAttribs][3]uint64
	vraw  [exec.MaxWidth]uint64
	sw    *swtex.Sampler // the vertex stage's software sampler
	// The executor's input and output lane arrays by word (they live as
	// long as it does), taken once instead of per lane and word.
	in, out [][]uint32
	rec     []uint32     // one output record's words
	attrIn  [][][]uint32 // attribute i's input lane arrays, in[Word : Word+Words]
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
	for w := range sp.prog.VS.InputWords {
		s.in = append(s.in, m.Input(w))
	}
	for w := range sp.prog.VS.OutputWords {
		s.out = append(s.out, m.Output(w))
	}
	s.rec = make([]uint32, len(s.out))
	for _, a := range sp.attrs {
		s.attrIn = append(s.attrIn, s.in[a.Word:a.Word+a.Words])
	}
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
	// The buffers every vertex touches, each reached directly.
	outS, indexS := c.Span(out), c.Span(index)
	var attrS [abi.VSMaxAttribs]device.Span
	for i := range sp.attrs {
		attrS[i] = c.Span(s.table[i][0])
	}
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
					idx = indexS.ReadU32(4 * vtx)
				}
				vertexID := int32(idx) + baseVert
				if sp.vid >= 0 {
					s.in[sp.vid][l] = uint32(vertexID)
				}
				if sp.iid >= 0 {
					s.in[sp.iid][l] = uint32(inst)
				}
				for a, ins := range s.attrIn {
					t := &s.table[a]
					elem := uint64(uint32(vertexID))
					if t[2] != 0 {
						elem = baseInst + inst/t[2]
					}
					ab := attrS[a].ReadView(elem*t[1], s.ab[:4*len(ins)])
					ab = ab[:4*len(ins)]
					for k, in := range ins {
						in[l] = binary.LittleEndian.Uint32(ab[4*k:])
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
				off := s.vraw[l] * ow * 4
				ob := outS.WriteView(off, len(s.ob)) // the record in place
				inPlace := ob != nil
				if !inPlace {
					ob = s.ob
				}
				rec := s.rec[:len(s.out)]
				for k, o := range s.out {
					rec[k] = o[l]
				}
				putWords(ob, rec)
				if !inPlace {
					c.Write(out+off, ob)
				}
			}
		}
	}
	return c.Err()
}

// expandOp is one word expand_k moves from a VS record (byte offset src; -1:
// the word is zero) to its setup record (byte offset dst), times the
// record's w_clip for a noperspective plane.
type expandOp struct {
	src, dst int
	noPersp  bool
}

// expandOps is expand_k's word moves for one launch (its two-sided colour
// enables twoMask, VS records of ow words): each plane, then each flat word.
// An off pair's back plane carries the front colour's word (zero when the
// vertex stage does not write it).
func (sp *Program) expandOps(twoMask uint64, ow int) []expandOp {
	ops := make([]expandOp, 0, len(sp.planes)+len(sp.flat))
	for p, w := range sp.planes {
		o := 16 + 4*p // a plane, or a word past the flat words
		if p >= abi.NumVaryingPlanes {
			o = sp.extraOffset() + 4*(p-abi.NumVaryingPlanes)
		}
		if k := sp.planePair[p]; k >= 0 && twoMask>>k&1 == 0 {
			if w = sp.planeFront[p]; w >= ow {
				ops = append(ops, expandOp{src: -1, dst: o})
				continue
			}
		}
		if w >= ow {
			// gl_PointCoord's words: a point draw's prim_k records carry
			// them, other records do not (zero, as ref reads it there).
			ops = append(ops, expandOp{src: -1, dst: o})
			continue
		}
		ops = append(ops, expandOp{src: 4 * w, dst: o, noPersp: sp.noPersp[p]})
	}
	for k, w := range sp.flat {
		o := frontend.CompiledFlatOffset + 4*k
		if w < 0 { // gl_PrimitiveID's word: the primitive-id map writes the side array
			ops = append(ops, expandOp{src: -1, dst: o})
			continue
		}
		if q := sp.flatPair[k]; q >= 0 && twoMask>>q&1 == 0 {
			if w = sp.flatFront[k]; w >= ow {
				ops = append(ops, expandOp{src: -1, dst: o})
				continue
			}
		}
		ops = append(ops, expandOp{src: 4 * w, dst: o})
	}
	return ops
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
	if (ow != uint64(sp.prog.VS.OutputWords) && (sp.pointCoord < 0 || ow != uint64(sp.prog.VS.OutputWords+pointCoordWords))) || count > frontend.MaxItems {
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
	inBuf := make([]byte, 4*ow) // once per CTA: the VS record when not read in place
	rec := uint64(sp.recordBytesClip(mask))
	cdoff := sp.recordBytes()
	out := make([]byte, rec)
	ops := sp.expandOps(twoMask, int(ow))
	recS, vertS := c.Span(recs), c.Span(verts)
	frontend.GridStride(c, count, func(i uint64) {
		in := recS.ReadView(i*ow*4, inBuf)
		copy(out[:16], in[:16])
		for _, op := range ops {
			switch {
			case op.src < 0:
				clear(out[op.dst : op.dst+4])
			case op.noPersp:
				v := math.Float32frombits(binary.LittleEndian.Uint32(in[op.src:])) * math.Float32frombits(binary.LittleEndian.Uint32(in[12:]))
				binary.LittleEndian.PutUint32(out[op.dst:], math.Float32bits(v))
			default:
				copy(out[op.dst:op.dst+4], in[op.src:op.src+4])
			}
		}
		o := cdoff
		for d := 0; d < frontend.MaxClipDistances && mask>>d != 0; d++ {
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
		vertS.Write(i*rec, out)
	})
	return c.Err()
}
