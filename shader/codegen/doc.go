// Package codegen is the machine-code backend of the shader compiler: it translates
// a verified compute program (shader.Compile's IR) into a Vortex kernel, RV32IMAF +
// the Vortex warp-control extension, packaged as a .vxbin (spec: vortexpipe-driver
// §2.1-2.4: compute becomes kernel_main(arg), one thread per work-item, linked at
// the FS/compute base 0x8000_0000), and runs it on device/simt (Run) the way the KMU
// launches a CTA.
//
// Code shape. One hardware thread runs one invocation (lane-per-thread SIMT code);
// vectors are already scalar in the IR. Every virtual register — each IR register
// and the generator's own values — has one home for the whole kernel: an integer
// register (F32 values in a float register), or else a word of the invocation's
// frame in local memory. Registers are allocated by live intervals (alloc.go): a
// dry run of the generator records every reference, a linear scan shares
// registers between values whose intervals do not overlap and spills the least
// used to the frame. Structured control flow uses vx_split/vx_join for if/else and
// vx_pred for loops (flow.go says how break, continue and return are kept per
// lane); atomicCompSwap is an lr.w/sc.w loop narrowed by vx_pred.
// Storage-buffer, atomic-counter, storage-image and shared accesses apply the
// executor's robust buffer access branch-free; an image's extent and format come
// from its descriptor. Barriers are vx_bar with the CTA id and the CTA's warp
// count (vortexpipe-driver §2.2, emit_vx_barrier).
//
// Launch contract (Layout). mscratch holds the arg block of the compute runtime
// (vortexpipe-driver §2.5; package abi): slot 0 the uniform words, slot 1 the set-0
// descriptor blob (abi.EncodeComputeDescs), which the prologue searches for each
// binding the kernel uses by (kind, binding), slots 2/3 the dispatch base. The ids
// come from the CTA CSRs (vortex-hardware-facts.md §6): THREAD_ID_X/Y/Z give
// gl_LocalInvocationID, BLOCK_ID plus the base gl_WorkGroupID, GRID_DIM
// gl_NumWorkGroups; CTA_RANK·NUM_THREADS + THREAD_ID is the local index, which
// picks the invocation's frame at CTA_LMEM_ADDR + the shared variables (rounded to
// 16 bytes) + index·FrameBytes. A kernel needs Layout.LMemBytes of LMEM. Compiled
// for a core with less (CompileWith, Options.LMemBytes), the frames move to device
// memory instead: arg slot abi.ArgCSFrames points at NUM_CORES × invocations
// frames and the CTA on CORE_ID c takes those from c·invocations
// (Layout.FramesInMemory).
//
// Exactness. Integer results equal ir.Eval's for every input (RISC-V M's division
// by zero and overflow results are the ones the executor adopted). Float results
// are the executor's bits — round to nearest even on every op, IEEE subnormals
// (compute programs do not flush denormals, and RV32F has no flush mode; a program
// with ir.Program.FlushDenormals set is refused), fmin/fmax as IEEE minNum/maxNum,
// saturating fcvt with NaN to the largest value (package convert), floor/ceil/
// trunc/round/roundEven exact for every input — with one difference: where the
// result is a NaN, RV32F produces the canonical NaN 0x7fc00000, while the executor
// (Go arithmetic on the host) may return a NaN with another sign or payload; NaN
// inputs that pass through moves, negation, abs and memory keep their bits on both.
// A NaN's sign and payload become integer bits in packHalf2x16 (sign|0x7e00),
// floatBitsToUint and == on float bits, so a NaN computed by arithmetic can give
// different integers on the two (a NaN input gives the same). packSnorm of a NaN
// component gives the encoding of -1 here (fmax.s returns the bound) where the
// executor's field is whatever Go's NaN-to-integer conversion gives on the host
// (0 on amd64); GLSL leaves it undefined.
//
// Transcendentals (transc.go) are inline RV32F sequences — inversesqrt, exp,
// exp2, log, log2, pow, sin, cos, tan, asin, acos, atan, atan(y, x), sinh, cosh,
// tanh, asinh, acosh, atanh — and the one place results are not the executor's
// bits: it evaluates each in double precision and rounds once, these round at
// every step. Measured bounds (TestTranscendentalBounds, over the domains it
// names): inversesqrt (fsqrt.s then fdiv.s) ≤ 1 ulp; exp and exp2 ≤ 2 ulp; log,
// log2, atan, atan(y, x), asin, acos, tanh, asinh, acosh and atanh ≤ 2 ulp (≤ 4
// for log2 and acosh of some arguments) or else ≤ 2^-22 absolute — the
// absolute term covers results near 0, where the sequences (1 ± x, e^x − e^-x)
// cancel; sinh ≤ 3 ulp or 2^-22 absolute, cosh ≤ 3 ulp, for |x| ≤ 88 (between
// 88.7 and 89.4, where e^x overflows first, they give inf); pow relative error ≤
// 2·10^-5, and NaN for x < 0 (GLSL: undefined; the executor's math.Pow gives a
// value for integral y); sin and cos ≤ 2^-23 absolute, tan ≤ 4 ulp or 2^-22
// absolute, for |x| ≤ 2^13 — beyond that the three-part reduction loses accuracy,
// and past 2^31·π/2 its quadrant saturates and the results are meaningless (GLSL
// sets no precision for them). sin(-0) may be +0; atan(0, 0) and atan(±inf,
// ±inf) are NaN (GLSL: undefined; the executor gives 0, ±π/4…). Other special
// inputs are the executor's: NaN gives NaN, exp(-inf) 0, log(0) -inf, log(x<0)
// NaN, sin/cos/tan(±inf) NaN, atan(±inf) ±π/2, pow(x, 0) = pow(1, y) = 1.
//
// Vertex stage (vertex.go, CompileVertex). A vertex program becomes the front
// end's stage 0 (vortexpipe-driver §2.3.2): a grid-stride vx_pred loop round the
// program, each iteration one vertex — instance and vertex from the raw id, the
// index buffer, gl_VertexID/gl_InstanceID, the attribute words loaded from the
// {base, stride, divisor} table, the registers and unwritten output words zeroed,
// the outputs stored straight into the vertex record (docs/ABI.md row 39, the Go
// vertex kernel's contract). Vertex and fragment programs set FlushDenormals and
// RV32F has no flush mode, so the vertex stage flushes explicitly: after every op
// ir.Op.FlushesDenormals lists, seven integer instructions turn a result whose
// exponent field is 0 into the zero of its sign (ir.FlushDenormal, on the same
// bits the executor flushes, so exactness is as above) — five float ones
// (fclass.s, a 0/1 factor, fmul.s) for a result in a float register from one
// RV32F arithmetic instruction, the same word (vertex.go flushDst); the transcendental
// sequences' intermediate values are not flushed, only their result, as the
// executor flushes only results). Compute programs keep the refusal of
// FlushDenormals above (the lowering never sets it for them).
//
// Fragment stage (fragment.go, CompileFragment). A fragment program becomes the
// run-once FS wrapper of vortexpipe-driver §3.4 as straight-line code round the
// program, one warp per RASTER wave: FRAG_POS/FRAG_PID, the primitive's edge,
// 1/w and depth planes and each input word computed with the same int32 and
// float32 operations, in the same order, as gfx/shaderdev's Go wrapper, so the
// inputs are its bits; discard ends the lane (every loop and scope), demote
// clears its live flag, derivatives are vx_shfl_idx inside the quad; the export
// packs unorm8 exactly (integer code for format.UNorm8's double-precision
// rounding) and issues vx_om_export at the OM aperture (docs/ABI.md row 41).
//
// Textures (tex.go, texfetch.go). A fragment program's texture() on a float 2D
// sampler is vx_tex on the FF TEX unit: S.23 u/v as the Go wrapper converts
// them, the Go wrapper's exact level of detail on a mipmapped texture (lod.go),
// the sampler index as the stage (docs/ABI.md row 44). A compute
// program's texelFetch on a float 2D sampler is branch-free loads from the
// software sampler's descriptor and texels (docs/ABI.md row 45).
//
// Votes (GL_ARB_shader_group_vote: ir.VoteAny, VoteAll, VoteEq) are
// vx_vote_any, vx_vote_all and vx_vote_uni on the 0/1 word, in every stage:
// the device votes over the running lanes, which are the executor's active
// lanes (divergent code runs under vx_split, guards narrow the mask to the live
// lanes), so both answer over the same group.
//
// Not implemented, and refused (an error naming the IR op and the instruction,
// or the feature): every other texture op, vertex-stage textures, storage resources and barriers in
// the vertex and fragment stages, vertex frames beyond the core's LMEM (the
// vertex arg block has no slot for frames in memory), fragment frames beyond
// FragmentOptions.LMemBytes, a fragment input word with a source on one face
// only. The code is position independent (pc-relative branches
// and jumps, no absolute addresses), so a module may place it anywhere; Base is
// only where Image and VXBin put it. Indirect dispatch (arg slot 4) is not read: Run launches direct
// dispatches. A warp whose lanes have all returned before a later barrier()
// does not arrive at it (the executor counts exited warps as arrived), so such a
// kernel ends in device/simt's barrier-deadlock error rather than a wrong result.
package codegen
