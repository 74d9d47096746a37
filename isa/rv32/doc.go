// Package rv32 is the instruction set the Vortex cores execute, as data: RV32I
// (fence, ecall and ebreak included), Zicsr, M, A (lr/sc and every AMO), F (every
// single-precision op, all rounding modes including dyn) and the Vortex extensions.
// Decode turns a 32-bit word into an Inst, Encode turns it back (every op
// round-trips), and Disasm renders it in GNU objdump's `-M no-aliases` syntax: ABI
// register names, branch targets as absolute hex addresses, the rounding mode only
// when it is not dyn, CSRs by binutils' name where it has one. The tests check that
// syntax and the encoding against binutils' own assembler and disassembler.
//
// The Vortex extensions (spec: vortex-hardware-facts.md §6, vortexpipe-driver.md
// §2.2 and §2.3.4; encodings as the kernel SDK's vx_intrinsics.h emits them):
//
//   - custom-0 (opcode 0x0B), R-type, funct7 = 0: vx_tmc (funct3 0, rs1 = mask),
//     vx_wspawn (1: rs1 = warps, rs2 = pc), vx_split / vx_split_n (2: rd = stack
//     depth, rs1 = predicate, rs2 = x0 / x1), vx_join (3: rs1 = depth), vx_bar (4:
//     rs1 = id, rs2 = warp count), vx_pred / vx_pred_n (5: rs1 = predicate, rs2 =
//     fallback mask, rd = x0 / x1);
//   - custom-0, funct7 = 1: vx_vote_all/any/uni/ballot (funct3 0-3) and
//     vx_shfl_up/down/bfly/idx (4-7, rs2 = {mask, c, b}). The facts file names
//     funct3 = 6 the quad shuffle: that is the butterfly at funct7 = 1. Older SDKs put
//     a scheduling hint and asynchronous barriers at funct7 = 0 funct3 = 6/7; the
//     modelled generation does not, so they decode as illegal;
//   - custom-1 (opcode 0x2B), R4-type: vx_tex (funct3 5, funct2 = stage) and
//     vx_om_export (funct3 3, rd = x0, funct2 = {has_depth, has_colour}). The
//     modelled generation has no raster instruction (RASTER launches fragment warps
//     itself; the stamp is read from the FRAG_POS/FRAG_PID CSRs), and funct3 6/7
//     belong to the ray-tracing unit, which is not modelled.
//
// Not modelled: the C extension (kernels are built -march=rv32imaf; a 16-bit
// instruction is a DecodeError), D, Zifencei, privileged instructions (mret, wfi,
// sfence.vma) and the Vortex tensor/vector/DXA extensions.
package rv32
