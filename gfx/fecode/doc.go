// Package fecode holds the front-end kernels written as machine code: RV32IMAF +
// Vortex programs assembled with shader/codegen's assembler (codegen.Asm), which
// a [device] cores = "isa" device runs in place of their Go kernels. The front-end
// module image (gfx/frontend.ModuleImageFor) is the one loader: under "isa" a
// kernel this package has is an abi.KernelCode entry under the kernel's own name,
// so the KMU launches it at its PC and every warp fetches it from device memory,
// and its Go kernel stays in the module under GoEntry(name) for the launches the
// machine code cannot take (each counted with its reason, or refused under
// --strict: session.KernelStats).
//
// Each kernel reads the Go kernel's own arg block (8-byte slots, the low word of
// each being the 32-bit address or count), plus any slots the Go kernel
// ignores, and writes the same bytes. Today: msaa_resolve_k (ResolveCode,
// every launch whose format ResolveDesc takes), binning_k (BinningCode, the
// stages BinningStage takes) and expand_k (ExpandCode, one kernel for every
// program, driven by a word table). setup_k and prim_k stay Go kernels.
// A new kernel follows the same door: its code here, its entry in
// ModuleImageFor, its selection beside session.BinningKernel, its counts in
// session.KernelStats. spec: vortexpipe-driver.md §2.4, §3.4.1; rasterizer.md §3.1
package fecode

// GoEntry is the module-image name of the Go kernel behind machine-code kernel
// name: the fallback a launch uses when the machine code cannot take it.
func GoEntry(name string) string { return name + "_go" }
