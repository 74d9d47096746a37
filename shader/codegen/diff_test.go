package codegen

import (
	"testing"

	"vortexgfx/abi"
	"vortexgfx/shader/ir"
)

// TestDifferentialCorpus compiles every corpus shader to machine code and runs it
// on device/simt against the IR executor at several warp widths (so several warps
// per workgroup, partial warps and one wide warp), requiring identical buffers (any
// NaN equals any NaN, and how many did is logged).
func TestDifferentialCorpus(t *testing.T) {
	for _, c := range corpus {
		t.Run(c.name, func(t *testing.T) {
			p := compileCS(t, c.name, c.src)
			k, err := Compile(p)
			if err != nil {
				t.Fatal(err)
			}
			for _, T := range []int{4, 8, 32} {
				if (c.local+T-1)/T > 32 {
					continue
				}
				in := wordsBytes(inputWords(int64(len(c.name)), 64))
				out := make([]byte, 4*2048)
				for i := range out {
					out[i] = 0xa5
				}
				bufs := map[Binding][]byte{
					{Kind: abi.DescStorageBuffer, Slot: 0}: in,
					{Kind: abi.DescStorageBuffer, Slot: 1}: out,
				}
				l := &Launch{Groups: c.groups, Threads: T, Uniforms: c.uniforms, Buffers: cloneBufs(bufs)}
				ref := &Launch{Groups: c.groups, Threads: T, Uniforms: c.uniforms, Buffers: cloneBufs(bufs)}
				if err := runIR(p, ref); err != nil {
					t.Fatalf("executor: %v", err)
				}
				st, err := Run(k, l)
				if err != nil {
					t.Fatalf("%s: %v", describe(l), err)
				}
				nan := compareBufs(t, describe(l), ref.Buffers, l.Buffers)
				t.Logf("%s: %d instructions, %d warp / %d thread instructions; %d NaN words differ in bits only",
					describe(l), len(k.Code), st.WarpInstructions, st.ThreadInstructions, nan)
			}
		})
	}
}

// TestStorageImages: imageLoad/imageStore/imageSize/imageAtomic on word formats and
// rgba8 and rgba16f (unpack/pack),
// out-of-range coordinates included (robust access), against the executor.
func TestStorageImages(t *testing.T) {
	src := `#version 430
layout(local_size_x = 4, local_size_y = 4) in;
layout(r32f, binding = 0) readonly uniform image2D src;
layout(rgba32ui, binding = 1) uniform uimage2D dst;
layout(r32ui, binding = 2) uniform uimage2D cnt;
layout(rgba8, binding = 3) uniform image2D c8;
layout(rgba16f, binding = 4) uniform image2D h16;
void main() {
	vec4 hv = imageLoad(h16, ivec2(gl_GlobalInvocationID.xy));
	imageStore(h16, ivec2(gl_GlobalInvocationID.xy), hv.yxwz);
	vec4 q = imageLoad(c8, ivec2(gl_GlobalInvocationID.xy));
	imageStore(c8, ivec2(gl_GlobalInvocationID.xy), q.wzyx * 0.75 + vec4(0.1, 0.2, 0.0, -0.3));
	ivec2 p = ivec2(gl_GlobalInvocationID.xy);
	ivec2 sz = imageSize(src);
	float v = imageLoad(src, p - ivec2(1, 0)).x;
	imageStore(dst, p, uvec4(floatBitsToUint(v), uint(sz.x), uint(sz.y), imageLoad(dst, p).w + 1u));
	imageAtomicAdd(cnt, ivec2(p.x & 1, 0), uint(p.y));
	imageStore(dst, p + ivec2(0, 6), uvec4(9u));
}`
	p := compileCS(t, "images", src)
	k, err := Compile(p)
	if err != nil {
		t.Fatal(err)
	}
	imgs := map[Binding]ImageInfo{
		{Kind: abi.DescStorageImage, Slot: 0}: {Extent: [3]uint32{7, 5, 1}, Format: uint16(ir.FormatR32F)},
		{Kind: abi.DescStorageImage, Slot: 1}: {Extent: [3]uint32{8, 8, 1}, Format: uint16(ir.FormatRGBA32UI)},
		{Kind: abi.DescStorageImage, Slot: 2}: {Extent: [3]uint32{2, 1, 1}, Format: uint16(ir.FormatR32UI)},
		{Kind: abi.DescStorageImage, Slot: 3}: {Extent: [3]uint32{8, 8, 1}, Format: uint16(ir.FormatRGBA8)},
		{Kind: abi.DescStorageImage, Slot: 4}: {Extent: [3]uint32{8, 8, 1}, Format: uint16(ir.FormatRGBA16F)},
	}
	bufs := map[Binding][]byte{
		{Kind: abi.DescStorageImage, Slot: 0}: wordsBytes(inputWords(3, 35)),
		{Kind: abi.DescStorageImage, Slot: 1}: wordsBytes(inputWords(4, 8*8*4)),
		{Kind: abi.DescStorageImage, Slot: 2}: make([]byte, 8),
		{Kind: abi.DescStorageImage, Slot: 3}: wordsBytes(inputWords(5, 64)),
		{Kind: abi.DescStorageImage, Slot: 4}: wordsBytes(inputWords(6, 128)),
	}
	for _, T := range []int{4, 16} {
		l := &Launch{Groups: [3]uint32{2, 2, 1}, Threads: T, Buffers: cloneBufs(bufs), Images: imgs}
		ref := &Launch{Groups: l.Groups, Threads: T, Buffers: cloneBufs(bufs), Images: imgs}
		if err := runIR(p, ref); err != nil {
			t.Fatal(err)
		}
		if _, err := Run(k, l); err != nil {
			t.Fatal(err)
		}
		compareBufs(t, describe(l), ref.Buffers, l.Buffers)
	}
}
