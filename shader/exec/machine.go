// Package exec is the SIMT executor for shader IR programs: it runs one IR
// instruction across the active lanes of a warp, keeping execution masks (uint64,
// one bit per lane) for divergent if/else, loops with break/continue, return and
// discard, quad lanes for derivatives, and a per-lane live flag for discard, demote
// and helper lanes. The same program run with Width 1 is the scalar reference
// interpreter.
//
// # Registers and buffers
//
// The register file is structure-of-arrays: one flat []uint32 of Regs*Width words,
// register r of lane l at r*Width+l, allocated once per Machine and reused by every
// Run; inputs and outputs use the same layout (word w of lane l at w*Width+l).
// Uniforms are one word buffer shared by all lanes. Run allocates nothing, and
// texture and output-merger work goes through the Sampler and OutputSink interfaces
// once per instruction with the active mask and whole lane arrays, never once per
// lane, so the device TEX/OM models and software fallbacks plug in behind them.
// spec: vortexpipe-driver §2.2 (vx_tex, vx_om_export), §3.4.
//
// # Functions
//
// New inlines a program's functions (ir.Inline) unless the call tree would expand
// beyond ir.MaxInlinedCode instructions; then it lays the function bodies out after
// the main body and executes Call, with the callee's Return leaving only the callee.
//
// # Quads, helpers, discard and demote
//
// For fragment work lanes 4k..4k+3 form one 2x2 quad: top-left, top-right,
// bottom-left, bottom-right. Derivatives read neighbours inside the quad; a
// neighbour that is not currently active (divergent, terminated or absent) returns
// the reader's own value, as the quad shuffle does (spec: vortexpipe-driver §2.2), so
// such a difference is 0. A lane whose pixel is not covered runs as a helper: it is
// present (executes) but not live, and Export skips it (spec: vortexpipe-driver §3.4:
// "covered only gates the export").
//
// Demote (GLSL_EXT_demote_to_helper_invocation) clears the lane's live flag and the
// lane keeps running as a helper, exactly as the device wrapper's live flag does
// (spec: vortexpipe-driver §3.4). Discard also clears the live flag but, as GLSL
// (every version, and ES) defines discard, terminates the lane: it executes nothing
// further, so a discarding lane can never be kept spinning in a loop it would have
// left. GLSL makes derivatives after non-uniform discard undefined; here they are
// defined by the quad rule above (a terminated neighbour returns the reader's value).
// In both cases the lane's outputs are never exported.
//
// # Running a vertex batch and a fragment quad-warp
//
// A renderer creates one Machine per program and per worker goroutine with
// New(prog, Config{Width: NUM_THREADS}), sets the uniform words once per draw with
// SetUniforms, and the texture unit and output merger with SetSampler and
// SetOutputSink. Then, per batch:
//
//   - Vertex batch: write attribute word w of vertex l into Input(w)[l] for the
//     batch's n vertices and call Run(ctx, present, present) with present = the
//     low n bits; read the outputs (gl_Position at words 0..3, then the varyings, see
//     package shader/lower) from Output(w)[l].
//   - Fragment quad-warp: place quad k's pixels in lanes 4k..4k+3 (TL, TR, BL, BR),
//     write the interpolated inputs (and gl_FragCoord, gl_FrontFacing) into Input,
//     and call Run(ctx, present, covered): present marks every lane of a launched
//     quad, covered the pixels the primitive covers (the others run as helpers).
//     The returned mask is covered minus discarded and demoted lanes; the Export
//     instruction at the end of the program calls the OutputSink once with that mask
//     and the output words (colour at 4*location, then gl_FragDepth), or the caller
//     reads Output itself.
//
// # Compute
//
// A compute program (ir.Compute, from shader.Compile of a compute source) runs one workgroup at a
// time on a Workgroup: NewWorkgroup(prog, Config{Width: NUM_THREADS}) prepares
// ceil(N/Width) warps for the program's N = LocalSize x*y*z invocations (invocation
// i is lane i%Width of warp i/Width, local id x = i%sx, y = i/sx%sy, z = i/(sx*sy),
// as the CTA thread id CSRs count). Set the uniform words with SetUniforms (plain
// uniforms, if the program has any) and, for every workgroup of a dispatch, call
// Run(ctx, WorkgroupIDs{ID, Num, Base}, mem). Run fills the built-in input words
// (ir.InLocalID ... ir.InLocalIndex: local id, workgroup id = Base+ID, group counts,
// global id = workgroup id × local size + local id, local index), zeroes shared
// memory, and runs the warps round-robin from barrier to barrier (see Workgroup).
//
// Storage buffers (ir.SpaceBuffer), atomic counter buffers (ir.SpaceCounter) and
// storage images (ir.SpaceImage) are reached through the Memory the caller passes,
// keyed by the binding numbers in prog.Buffers, prog.Counters and prog.Images; the
// caller binds a byte range per binding (a buffer's size decides .length(): (size −
// Fixed)/Stride elements) and an extent per image. The Machine checks every address
// against Memory.Size first, so out-of-bounds accesses read 0 and write nothing
// (robust buffer access) whatever the Memory does; images are word storage and the
// program converts formats itself, so a Memory needs no format knowledge — except
// for a writeonly image declared without a format (ir.FormatUnknown), whose stores
// convert to the bound image's format: the Memory then also implements
// ImageFormatter. Atomics apply lane by lane in lane order. Shared
// memory is the Workgroup's own for Run; RunShared(ctx, ids, mem, storage) keeps it
// in caller storage instead (on the device the CTA's local memory, LMEM_SIZE
// bytes: little-endian words from byte 0; storage shorter than prog.SharedBytes
// is refused with ErrSharedTooSmall). Workgroups share nothing but the Memory: a caller
// may run different workgroups on different goroutines with one Workgroup each,
// provided its Memory serialises their accesses (the results of a dispatch whose
// workgroups race on the same words depend on that order, as on the device).
// spec: vortexpipe-driver §2.2, §2.3.2, §2.5.
//
// # Compiled instructions
//
// New compiles every pure ALU instruction and the input, uniform and array loads
// and output stores once into a lane loop specialised by op and denormal mode, with
// its lane arrays bound (see compile.go), and Run executes each straight-line run of
// them as one block; control flow, memory, texture, derivative and array-store
// instructions take the generic interpreter (alu and the run loop). Inside a block,
// runs of broadcasts, runs of copies and an FMul feeding the next FAdd execute as
// one fused step (see fuse.go) that writes every destination as the single steps
// do. Both give the same results bit for bit and the same Steps and LaneOps.
//
// # Numbers and limits
//
// Arithmetic is ir.Eval's (IEEE single precision, wrapping integers, defined results
// for division by zero, out-of-range shifts and clamped indexing).
//
// Denormals: a program with ir.Program.FlushDenormals (every vertex and fragment
// program the lowering makes) has the denormal results of its float arithmetic
// (ir.Op.FlushesDenormals: arithmetic, transcendental, rounding, fma, ldexp and
// derivatives, not moves, negation, min/max or conversions) flushed to a zero of
// the same sign, as llvmpipe does and GLSL 4.60 §4.7.1 permits; the constant
// folder does the same, so optimisation never changes a result. Compute programs
// keep IEEE subnormals. Config.Denormals overrides the mode for one Machine. The
// compiled lane loops flush in the same pass as the arithmetic (float add and
// multiply four lanes an instruction, in SSE2 on amd64: lanes4_amd64.s);
// BenchmarkDenormals (width 16) compares the two modes, a cost taken for
// agreement with the conformance oracle. There is no
// iteration cap that changes semantics: a run that exceeds Config.MaxSteps warp
// instructions, or whose context is cancelled, stops with ErrBudget or the context's
// error instead of hanging.
package exec

import (
	"context"
	"errors"
	"fmt"

	"vortexgfx/shader/ir"
)

// MaxWidth is the widest warp the executor supports (one uint64 mask bit per lane).
const MaxWidth = 64

// DefaultMaxSteps is the step budget used when Config.MaxSteps is 0.
const DefaultMaxSteps = 1 << 28

// ErrBudget is returned by Run when the step budget is exhausted.
var ErrBudget = errors.New("exec: step budget exhausted (runaway shader?)")

// ErrNoSampler is returned when a program executes a texture op and no Sampler is set.
var ErrNoSampler = errors.New("exec: texture instruction without a sampler")

// Config configures a Machine.
type Config struct {
	// Width is the warp width in lanes, 1..64 (the device's NUM_THREADS). Fragment
	// programs need a multiple of 4 for quads, or 1 for the scalar reference.
	Width int
	// MaxSteps bounds the warp instructions one Run may execute; 0 selects
	// DefaultMaxSteps.
	MaxSteps int64
	// Denormals overrides the program's denormal mode (ir.Program.FlushDenormals)
	// for this Machine's execution. The zero value follows the program.
	Denormals Denormals
}

// Denormals selects how float arithmetic treats denormal (subnormal) results.
type Denormals uint8

// Denormal modes. The constant folder of package ir always follows the program's
// FlushDenormals; an override therefore only makes sense for programs that were not
// optimised or whose folded constants do not matter to the caller.
const (
	// DenormalsProgram follows ir.Program.FlushDenormals (set by the lowering for
	// vertex and fragment programs, as llvmpipe flushes).
	DenormalsProgram Denormals = iota
	// DenormalsFlush flushes denormal results of the ops ir.Op.FlushesDenormals
	// lists to a zero of the same sign.
	DenormalsFlush
	// DenormalsIEEE keeps IEEE subnormals.
	DenormalsIEEE
)

// Machine runs one verified program on one warp. It is not safe for concurrent use;
// use one Machine per goroutine (they are cheap and share nothing mutable).
type Machine struct {
	prog      *ir.Program
	code      []ir.Inst // main body, then (when not inlined) each function as Scope..EndScope
	mainEnd   int       // end of the main body
	funcStart []int32   // code index of each function's Scope (not inlined)
	match     []int32   // If->Else/EndIf, Else->EndIf, Loop/Continuing->EndLoop, EndLoop->body, Scope->EndScope
	skip      []int32   // where to go when the mask becomes empty: the innermost construct's next closer
	compiled  []step    // each instruction compiled to a lane loop (nil lanes: generic path only)
	block     []int32   // compiled instructions in a row from each pc on (see compile.go)
	// zeroAll: Run zeroes every register; otherwise only zeroRegs (see
	// planZeroing)
	zeroAll  bool
	zeroRegs []ir.Reg

	w        int
	full     uint64
	maxSteps int64
	ftz      bool // flush denormal float results (Config.Denormals)

	regs     []uint32
	in       []uint32
	out      []uint32
	uniforms []uint32
	zero     []uint32
	tmp      []uint32
	tmp2     []uint32 // a second scratch lane array (fused steps)
	frames   []frame

	sampler Sampler
	sink    OutputSink
	mem     Memory
	shared  []byte // the workgroup's shared memory (compute programs): SharedBytes little-endian bytes
	st      runState
	yield   bool // stop at Barrier (the machine is one warp of a Workgroup)
	texReq  TexRequest
	expReq  ExportRequest
	geo     *geomOut // a geometry program's emitted vertices (nil for other stages)

	steps   int64
	laneOps int64
}

type frame struct {
	kind  ir.Op // If, Loop or Scope
	saved uint64
	other uint64 // If: lanes for Else. Loop: lanes that broke. Scope: lanes that returned.
	cont  uint64 // Loop: lanes that continued this iteration
	loop  int32  // innermost loop frame (self for a loop), -1 if none in this scope
	scope int32  // innermost scope frame (self for a scope)
	start int32  // Loop: first body instruction
	ret   int32  // Scope entered by Call: where to continue after EndScope; -1 otherwise
}

// linkFuncs lays out the main body followed by every function body wrapped in
// Scope/EndScope, for execution with Call.
func linkFuncs(p *ir.Program) ([]ir.Inst, []int32) {
	code := append([]ir.Inst(nil), p.Code...)
	// A separator: the main body ends at len(p.Code), which must not be the
	// first instruction of a function.
	code = append(code, ir.Inst{Op: ir.Nop, Dst: ir.NoReg})
	starts := make([]int32, len(p.Funcs))
	for i, f := range p.Funcs {
		starts[i] = int32(len(code))
		code = append(code, ir.Inst{Op: ir.Scope, Dst: ir.NoReg})
		code = append(code, f.Code...)
		code = append(code, ir.Inst{Op: ir.EndScope, Dst: ir.NoReg})
	}
	return code, starts
}

// callDepth returns the deepest frame stack the program can need: structured
// nesting plus, at every Call, the callee's own depth (GLSL has no recursion).
func callDepth(p *ir.Program) int {
	memo := make([]int, len(p.Funcs))
	for i := range memo {
		memo[i] = -1
	}
	var depth func(code []ir.Inst) int
	depth = func(code []ir.Inst) int {
		d, best := 0, 0
		for _, in := range code {
			switch in.Op {
			case ir.If, ir.Loop, ir.Scope:
				d++
				best = max(best, d)
			case ir.EndIf, ir.EndLoop, ir.EndScope:
				d--
			case ir.Call:
				if int(in.Imm) < len(memo) {
					if memo[in.Imm] < 0 {
						memo[in.Imm] = 1 + depth(p.Funcs[in.Imm].Code)
					}
					best = max(best, d+memo[in.Imm])
				}
			}
		}
		return best
	}
	return depth(p.Code)
}

// New verifies p, inlines its functions (or prepares them for Call when they are
// too large to inline), and returns a Machine for it.
func New(p *ir.Program, cfg Config) (*Machine, error) {
	if cfg.Width < 1 || cfg.Width > MaxWidth {
		return nil, fmt.Errorf("exec: warp width %d out of range 1..%d", cfg.Width, MaxWidth)
	}
	if p != nil && p.Stage == ir.Fragment && cfg.Width != 1 && cfg.Width%4 != 0 {
		return nil, fmt.Errorf("exec: fragment warp width %d is not a multiple of 4", cfg.Width)
	}
	if err := ir.Verify(p); err != nil {
		return nil, err
	}
	// Inline functions when the result is of reasonable size; otherwise keep them
	// and execute Call (a call tree that doubles per level cannot be inlined).
	code, mainEnd, funcStart := p.Code, len(p.Code), []int32(nil)
	if len(p.Funcs) > 0 {
		if ir.InlinedSize(p) <= ir.MaxInlinedCode {
			q, err := ir.Inline(p)
			if err != nil {
				return nil, err
			}
			p = q
			code, mainEnd = p.Code, len(p.Code)
		} else {
			code, funcStart = linkFuncs(p)
		}
	}
	w := cfg.Width
	m := &Machine{
		prog:      p,
		code:      code,
		mainEnd:   mainEnd,
		funcStart: funcStart,
		w:         w,
		full:      ^uint64(0) >> (64 - w),
		maxSteps:  cfg.MaxSteps,
		ftz:       cfg.Denormals == DenormalsFlush || cfg.Denormals == DenormalsProgram && p.FlushDenormals,
		regs:      make([]uint32, len(p.Regs)*w),
		in:        make([]uint32, p.InputWords*w),
		out:       make([]uint32, p.OutputWords*w),
		zero:      make([]uint32, w),
		tmp:       make([]uint32, w),
		tmp2:      make([]uint32, w),
		frames:    make([]frame, callDepth(p)+1),
		shared:    make([]byte, p.SharedBytes),
	}
	if m.maxSteps <= 0 {
		m.maxSteps = DefaultMaxSteps
	}
	m.tables()
	m.compile()
	m.planZeroing()
	m.texReq.init(w)
	m.expReq = ExportRequest{Width: w, Words: m.out}
	if p.Stage == ir.Geometry {
		m.geo = newGeomOut(&p.Geometry, p.OutputWords, w)
	}
	return m, nil
}

// tables computes the jump targets of the verified code.
func (m *Machine) tables() {
	n := len(m.code)
	m.match = make([]int32, n)
	m.skip = make([]int32, n)
	type open struct{ pc, closer int32 }
	var stack []open
	// First pass: matching closers.
	for pc := 0; pc < n; pc++ {
		switch m.code[pc].Op {
		case ir.If, ir.Loop, ir.Scope:
			stack = append(stack, open{pc: int32(pc)})
		case ir.Else, ir.Continuing:
			top := stack[len(stack)-1]
			m.match[top.pc] = int32(pc)
			stack[len(stack)-1].pc = int32(pc)
		case ir.EndIf, ir.EndScope:
			top := stack[len(stack)-1]
			m.match[top.pc] = int32(pc)
			stack = stack[:len(stack)-1]
		case ir.EndLoop:
			top := stack[len(stack)-1]
			m.match[top.pc] = int32(pc)
			stack = stack[:len(stack)-1]
		}
	}
	// Loop openers chain Loop -> Continuing -> EndLoop; EndLoop jumps to the body.
	for pc := 0; pc < n; pc++ {
		if m.code[pc].Op == ir.Loop {
			e := m.match[pc]
			if m.code[e].Op == ir.Continuing {
				e = m.match[e]
			}
			m.match[e] = int32(pc + 1)
		}
	}
	// Second pass: skip targets. The current closer of an open construct is its next
	// Else/Continuing or its end.
	stack = stack[:0]
	for pc := 0; pc < n; pc++ {
		op := m.code[pc].Op
		switch op {
		case ir.Else, ir.EndIf, ir.Continuing, ir.EndLoop, ir.EndScope:
			m.skip[pc] = int32(pc)
		default:
			if len(stack) == 0 {
				m.skip[pc] = int32(m.mainEnd)
			} else {
				m.skip[pc] = stack[len(stack)-1].closer
			}
		}
		switch op {
		case ir.If, ir.Loop, ir.Scope:
			stack = append(stack, open{pc: int32(pc), closer: m.match[pc]})
		case ir.Else, ir.Continuing:
			stack[len(stack)-1].closer = m.match[pc]
		case ir.EndIf, ir.EndScope, ir.EndLoop:
			stack = stack[:len(stack)-1]
		}
	}
}

// Program returns the (inlined) program the machine runs.
func (m *Machine) Program() *ir.Program { return m.prog }

// Width returns the warp width.
func (m *Machine) Width() int { return m.w }

// SetSampler sets the texture unit the program's Tex instructions call.
func (m *Machine) SetSampler(s Sampler) { m.sampler = s }

// SetMemory sets the storage buffers, atomic counters and storage images the
// program's memory instructions address (shared memory belongs to the machine or its
// Workgroup). spec: vortexpipe-driver §2.5.
func (m *Machine) SetMemory(mem Memory) { m.mem = mem }

// SetOutputSink sets where Export instructions send live lanes' outputs.
func (m *Machine) SetOutputSink(s OutputSink) { m.sink = s }

// SetUniforms sets the uniform word buffer (not copied; the caller keeps it stable
// during Run). It must hold at least the program's UniformWords words.
func (m *Machine) SetUniforms(words []uint32) error {
	if len(words) < m.prog.UniformWords {
		return fmt.Errorf("exec: uniform buffer has %d words, program needs %d", len(words), m.prog.UniformWords)
	}
	m.uniforms = words
	return nil
}

// Input returns the lane array of input word w for the caller to fill before Run.
func (m *Machine) Input(w int) []uint32 { return m.in[w*m.w : (w+1)*m.w : (w+1)*m.w] }

// Output returns the lane array of output word w after Run.
func (m *Machine) Output(w int) []uint32 { return m.out[w*m.w : (w+1)*m.w : (w+1)*m.w] }

// Reg returns the lane array of register r (for tests and debugging). After a Run
// of straight-line code (see planZeroing) the lanes that were not present may hold
// an earlier Run's words.
func (m *Machine) Reg(r ir.Reg) []uint32 { return m.regs[int(r)*m.w : (int(r)+1)*m.w] }

// Steps returns the warp instructions executed by the last Run.
func (m *Machine) Steps() int64 { return m.steps }

// LaneOps returns the lane instructions (active lanes summed over executed
// instructions) of the last Run.
func (m *Machine) LaneOps() int64 { return m.laneOps }

// Run executes the program once for the lanes in present (bit l = lane l has an
// invocation: a vertex of the batch, or a pixel of a quad including helpers). live
// marks the lanes whose results count (covered pixels; for vertex work pass present).
// Registers, outputs and (compute programs) the machine's shared memory start at
// zero (every register the program can read before writing it; see planZeroing);
// barriers are no-ops for a lone warp (a Workgroup runs several). Run returns
// the live mask at the end: live lanes that neither discarded nor demoted.
func (m *Machine) Run(ctx context.Context, present, live uint64) (uint64, error) {
	if m.uniforms == nil && m.prog.UniformWords > 0 {
		return 0, fmt.Errorf("exec: program needs %d uniform words and none are set", m.prog.UniformWords)
	}
	if m.zeroAll {
		clear(m.regs)
	} else {
		for _, r := range m.zeroRegs {
			clear(m.reg(r))
		}
	}
	clear(m.out)
	clear(m.shared)
	present &= m.full
	live &= present
	m.steps, m.laneOps = 0, 0
	if m.geo != nil {
		m.geo.reset()
	}
	return m.run(ctx, present, live)
}

// planZeroing decides which registers Run zeroes. In straight-line code — pure
// ops, input and uniform loads, output stores and Export, with no control flow,
// discard, memory, register arrays or calls — every instruction runs on exactly
// the present lanes, each lane reads only its own registers, and a register
// written before any instruction reads it is written in every lane that can read
// it: zeroing it first changes nothing the program or its outputs can see (the
// lanes not present keep an earlier Run's words, which nothing reads). Run then
// zeroes only the registers read before their first write (zeroRegs; often none),
// saving the clear of the whole register file per warp. Any other program has
// every register zeroed.
func (m *Machine) planZeroing() {
	m.zeroAll = true
	if len(m.funcStart) > 0 {
		return
	}
	written := make([]bool, len(m.prog.Regs))
	var zero []ir.Reg
	for pc := range m.mainEnd {
		in := &m.code[pc]
		switch op := in.Op; {
		case op == ir.LoadInput || op == ir.LoadUniform || op == ir.StoreOutput || op == ir.Export || op == ir.Nop:
		case op.IsPure():
		default:
			return
		}
		for i := range in.Op.NumSrc() {
			if r := in.Src[i]; !written[r] {
				written[r] = true // zeroed: reads of it see zero until written
				zero = append(zero, r)
			}
		}
		if in.Dst != ir.NoReg {
			written[in.Dst] = true
		}
	}
	m.zeroAll, m.zeroRegs = false, zero
}
