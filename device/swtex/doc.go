// Package swtex is the on-device software texture sampler: the co-compiled
// gfx_tex_*_sw path that samples everything the fixed-function TEX unit cannot
// (spec: vortexpipe-driver §2.3.3, §3.6): NPOT sizes, 1D, 1D arrays, 2D arrays,
// 3D, cube and cube-array textures, rectangle (unnormalized) coordinates, shadow
// compares, texelFetch (and txf_ms on sample-major multisample textures),
// textureSize, textureQueryLevels, textureQueryLod, textureGather with offsets
// and compare, integer, float, depth, stencil, sRGB, R8 and RG8 formats, view
// swizzles, every wrap mode including MIRROR_CLAMP_TO_EDGE and legacy GL_CLAMP,
// and anisotropic filtering (not collapsed to the isotropic tap).
//
// It runs inside a device kernel (the fragment wrapper, or a compute or vertex
// kernel) and reads both its descriptors and its texels from device memory:
//
//   - Host side, Layout turns a gl/sampler texture and sampler state into the
//     bytes to upload once and a descriptor whose level addresses the driver
//     relocates to wherever it put those bytes (Upload.Descriptor).
//   - The descriptor is abi.SWTexDesc (gfx_sw_texstate_t), one 320-byte entry per
//     texture in a resident table (FS arg slot 1).
//   - Device side, a Sampler is bound per wave (or per draw) to device memory and
//     the table address. It decodes a descriptor the first time the wave uses it
//     and views each level zero-copy, then implements shader/exec.Sampler: one
//     call per texture instruction per warp, nothing allocated or called through
//     an interface per lane.
//
// The arithmetic is package gl/sampler's (and the instruction mapping
// gl/texunit's), run over views of device memory: the device's software
// sampler and the reference renderer share the GL sampling maths of the gl
// tree, which is tested against GL on its own, so the device path gives
// bit-identical results. Compare functions are gl/compare's, encoded in the
// descriptor through compare.Func.OM.
//
// FFDescriptor points a descriptor at an FF TEX stage's resident chain, so
// VORTEX_FORCE_SW=tex samples the same texels in software without a re-upload;
// the two agree within 2/255 per channel except where the FF unit's MIRROR and
// BORDER bilinear filtering departs from the GL filter (see ff_test.go).
//
// Wiring (the fragment wrapper, or any kernel): keep one Sampler per core, Bind
// it to the table address from the arg block at the start of a wave or a draw,
// and hand it to the executor as its exec.Sampler; the table is indexed by the
// program's sampler binding index. Sample serves ref.Textures-style batched
// requests for ops the executor has no instruction for.
package swtex
