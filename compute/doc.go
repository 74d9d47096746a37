// Package compute runs GLSL compute shaders on the device model: a host API in
// the shape of vortexpipe's compute path (launch_grid, *_compute_state,
// descriptor binding; spec: vortexpipe-driver.md §1.3, §2.5).
//
// # Host API
//
// Open builds a simulated device (package device/sim) of a configuration and
// opens it through the runtime. Compile (or Load, for an already lowered
// program) makes a compute program resident: every program of a device is one
// entry of a single module at the compute link base (abi.LinkBaseFS), reloaded
// only when a program is added, so a repeated dispatch reloads nothing. Buffers
// (NewBuffer) and storage images (NewImage) are host bytes with a resident device
// copy. Sampled textures (NewTexture, bound with SampledTexture) are a reference
// texture and sampler state laid out once for the device's software sampler
// (device/swtex) in a resident buffer. A Frame records dispatches — Dispatch, DispatchBase (vkCmdDispatchBase)
// and DispatchIndirect — and Submit sends them as one runtime batch with one
// doorbell; Device.Dispatch and Device.DispatchIndirect are one-dispatch frames.
//
// # Residency (vortexpipe §1.3, §2.5)
//
// A buffer's device allocation is made once, so its address is stable across
// dispatches and frames. It is uploaded inside a frame only while dirty (new
// buffers are dirty, every Buffer.Write marks it), and read back only when a
// dispatch of the frame writes it — a binding the program stores to or does
// atomics on, found by scanning its instructions; readonly bindings never come
// back. Storage images are uploaded even when only written, so texels a
// dispatch does not store keep their contents.
//
// # One batch per frame (command-processor §8.1, §9)
//
// Submit records, in order: the dirty buffers' uploads, the frame scratch (each
// dispatch's set-0 descriptor blob, abi.ComputeDesc, and its uniform words),
// the dispatches as launch steps of CMD_DRAW bundles (the OP_DISPATCH direction
// §8.1 sketches; on a CP without DRAW/QMD the same launches are streamed into the
// batch), then the read-backs — one doorbell for the frame while it fits the ring.
// Each launch drains before the next (the CP's launch barrier), so a dispatch
// sees every earlier dispatch's writes.
//
// # The kernel (vortexpipe §2.2, §2.3.2, §2.5)
//
// One CTA is one workgroup: BLOCK_DIM is the program's local size, LMEM_SIZE its
// shared variables, the grid the group counts. The arg block is abi.ArgSlots
// i64 slots: 0 the uniform words, 1 the descriptor blob, 2/3 the dispatch base
// (added to the block-id CSRs to form gl_WorkGroupID), 4 the indirect record.
// The kernel relocates each descriptor the program declares and runs the
// workgroup's warps with exec.Workgroup (barriers across the CTA's warps,
// deterministic round-robin order) against device memory, its texture
// instructions served by a swtex.Sampler bound to the dispatch's descriptor
// table (arg slot 8; implicit LOD is the base level: compute has no
// derivatives, GLSL 4.60 §8.9); the shared variables
// live in the CTA's local memory (device.CTA.LMem, LMEM_SIZE bytes, zeroed before
// each workgroup), and a launch whose LMEM_SIZE does not hold them is refused. Atomics are serialised device-wide.
// Results are the same bytes for any number of cores.
//
// # Machine code (cores = "isa")
//
// With [device] cores = "isa" (package config) Load compiles each program to an
// RV32IMAF + Vortex kernel (shader/codegen), whose module entry is the code
// itself (abi.KernelCode): the KMU launches it at its PC and the device runs every
// CTA on a modelled SIMT core fetching from device memory (device/simt, package
// device's isa.go), against the same arg block, descriptor blob and buffers.
// A program codegen refuses falls back to the IR kernel, counted with its reason
// (Program.Fallback, Stats.ISAFallbacks), or is a Load error under
// Options.Strict; Program.ISAStats and Stats count the instructions. See isa.go.
//
// A workgroup larger than the device's maximum block size (threads × warps) is
// refused at dispatch with ErrWorkgroupTooLarge, never re-tiled (§1.3), and
// MaxWorkgroupInvocations reports the clamped limit.
//
// An indirect dispatch's group counts are read by the device: the kernel is
// launched over one CTA per core and each CTA reads the abi.IndirectDispatchBytes
// record from device memory and walks workgroups CTA, CTA + cores, … — so an
// earlier dispatch of the same frame may write the counts and the host never
// reads them.
package compute
