package abi

import (
	"encoding/binary"
	"fmt"
)

// Compute dispatch wire formats: the set-0 descriptor blob a compute kernel reads
// through arg slot ArgCSDescSet0, and the indirect group-count record. The blob
// layout is ours (lavapipe's descriptor sets carry lp_jit_buffer/lp_jit_image
// records whose pointer fields vortexpipe rewrites to device addresses); what it
// carries is what §2.5 relocates: one device address and size per buffer, plus
// the geometry and format of each storage image.
// spec: vortexpipe §2.5 (the arg block, descriptor relocation)
//
// Layout, little-endian:
//
//	header (16 B)  u32 magic "VXCD", u32 count, u32 0, u32 0
//	entries        count × 32 B:
//	               u8 kind, u8 flags, u16 format, u32 binding,
//	               u64 device address, u32 size in bytes,
//	               u32 width, u32 height, u32 depth (images; 0 for buffers)
const (
	ComputeDescMagic       uint32 = 0x44435856 // "VXCD"
	ComputeDescHeaderBytes        = 16
	ComputeDescEntryBytes         = 32
	ComputeDescMaxEntries         = MaxDescriptorsPerSh
)

// ArgCSIndirect is the arg slot (the first raw shader-buffer slot) that holds the
// device address of an indirect dispatch's group counts; 0 for a direct dispatch.
// spec: vortexpipe §2.5 (slots 4–7 raw shader-buffer slots)
const ArgCSIndirect = ArgCSSSBOBase

// ArgCSFrames is the compute arg slot (the second raw shader-buffer slot) that
// holds the device address of a machine-code kernel's spill frames when they do
// not fit the CTA's local memory beside the shared variables: NUM_CORES ×
// invocations frames, the CTA on core c using frames c·invocations onwards (a
// core runs one CTA at a time). 0 when the frames are in LMEM. docs/ABI.md row 36.
// spec: vortexpipe §2.5 (slots 4–7 raw shader-buffer slots)
const ArgCSFrames = ArgCSSSBOBase + 1

// ArgCSSWSampler is the compute arg slot holding the dispatch's software-sampler
// descriptor table (SWTexDesc entries indexed by the program's sampler binding
// index). vortexpipe §2.5 leaves compute slot 8 free; the vertex stage keeps its
// table in a slot of its own the same way (ArgVSSWSampler). docs/ABI.md row 29.
// spec: vortexpipe §2.5 (the arg block), §3.6 (gfx_sw_texstate_t)
const ArgCSSWSampler = 8

// IndirectDispatchBytes is one indirect dispatch record: u32 groups x, y, z, read
// by the device at a 4-byte aligned offset (GL's DispatchIndirectCommand,
// Vulkan's VkDispatchIndirectCommand).
const IndirectDispatchBytes = 12

// ComputeDescKind says what a descriptor binds.
type ComputeDescKind uint8

// The descriptor kinds. GL numbers storage buffers, uniform buffers, images and
// atomic counter buffers in separate binding spaces, so the kind is part of the
// key.
const (
	DescStorageBuffer ComputeDescKind = 1
	DescUniformBuffer ComputeDescKind = 2
	DescStorageImage  ComputeDescKind = 3
	DescAtomicCounter ComputeDescKind = 4
)

// String names the kind.
func (k ComputeDescKind) String() string {
	switch k {
	case DescStorageBuffer:
		return "storage buffer"
	case DescUniformBuffer:
		return "uniform buffer"
	case DescStorageImage:
		return "storage image"
	case DescAtomicCounter:
		return "atomic counter buffer"
	}
	return fmt.Sprintf("ComputeDescKind(%d)", uint8(k))
}

// DescWritable marks a descriptor the program writes (a store, an atomic or an
// image store): the host reads only those back. spec: vortexpipe §2.5
const DescWritable uint8 = 1 << 0

// ComputeDesc is one relocated descriptor.
type ComputeDesc struct {
	Kind    ComputeDescKind
	Flags   uint8
	Format  uint16 // image format code (the compiler's), 0 for buffers
	Binding uint32
	Addr    uint64 // device address
	Size    uint32 // bytes reachable from Addr
	Width   uint32 // images: texels
	Height  uint32
	Depth   uint32
}

// EncodeComputeDescs lays out a descriptor blob. It refuses more than
// ComputeDescMaxEntries descriptors, an unknown kind and a duplicate (kind,
// binding), as the translator refuses a shader touching more descriptors than the
// relocation can carry. spec: vortexpipe §2.3.2 (VP_MAX_DESCS)
func EncodeComputeDescs(ds []ComputeDesc) ([]byte, error) {
	if len(ds) > ComputeDescMaxEntries {
		return nil, fmt.Errorf("abi: %d compute descriptors exceed the %d the relocation carries", len(ds), ComputeDescMaxEntries)
	}
	b := make([]byte, ComputeDescHeaderBytes+ComputeDescEntryBytes*len(ds))
	le := binary.LittleEndian
	le.PutUint32(b, ComputeDescMagic)
	le.PutUint32(b[4:], uint32(len(ds)))
	for i, d := range ds {
		if d.Kind < DescStorageBuffer || d.Kind > DescAtomicCounter {
			return nil, fmt.Errorf("abi: compute descriptor %d: kind %d", i, d.Kind)
		}
		for _, e := range ds[:i] {
			if e.Kind == d.Kind && e.Binding == d.Binding {
				return nil, fmt.Errorf("abi: compute descriptor %d: %v binding %d bound twice", i, d.Kind, d.Binding)
			}
		}
		e := b[ComputeDescHeaderBytes+ComputeDescEntryBytes*i:]
		e[0], e[1] = uint8(d.Kind), d.Flags
		le.PutUint16(e[2:], d.Format)
		le.PutUint32(e[4:], d.Binding)
		le.PutUint64(e[8:], d.Addr)
		le.PutUint32(e[16:], d.Size)
		le.PutUint32(e[20:], d.Width)
		le.PutUint32(e[24:], d.Height)
		le.PutUint32(e[28:], d.Depth)
	}
	return b, nil
}

// DecodeComputeDescHeader checks a blob's 16-byte header and returns its entry
// count.
func DecodeComputeDescHeader(b []byte) (int, error) {
	if len(b) < ComputeDescHeaderBytes {
		return 0, fmt.Errorf("abi: compute descriptor header: %d bytes (want %d)", len(b), ComputeDescHeaderBytes)
	}
	le := binary.LittleEndian
	if m := le.Uint32(b); m != ComputeDescMagic {
		return 0, fmt.Errorf("abi: compute descriptor header: magic %#08x (want %#08x)", m, ComputeDescMagic)
	}
	n := le.Uint32(b[4:])
	if n > ComputeDescMaxEntries {
		return 0, fmt.Errorf("abi: compute descriptor header: %d entries (max %d)", n, ComputeDescMaxEntries)
	}
	return int(n), nil
}

// DecodeComputeDesc decodes entry i from b, the bytes after the header. A
// truncated entry or an unknown kind is an error naming the entry.
func DecodeComputeDesc(body []byte, i int) (ComputeDesc, error) {
	off := ComputeDescEntryBytes * i
	if i < 0 || off+ComputeDescEntryBytes > len(body) {
		return ComputeDesc{}, fmt.Errorf("abi: compute descriptor %d: truncated (%d bytes)", i, len(body))
	}
	e := body[off:]
	le := binary.LittleEndian
	d := ComputeDesc{
		Kind: ComputeDescKind(e[0]), Flags: e[1], Format: le.Uint16(e[2:]), Binding: le.Uint32(e[4:]),
		Addr: le.Uint64(e[8:]), Size: le.Uint32(e[16:]),
		Width: le.Uint32(e[20:]), Height: le.Uint32(e[24:]), Depth: le.Uint32(e[28:]),
	}
	if d.Kind < DescStorageBuffer || d.Kind > DescAtomicCounter {
		return ComputeDesc{}, fmt.Errorf("abi: compute descriptor %d: kind %d", i, d.Kind)
	}
	return d, nil
}

// DecodeComputeDescs decodes a whole blob.
func DecodeComputeDescs(b []byte) ([]ComputeDesc, error) {
	n, err := DecodeComputeDescHeader(b)
	if err != nil {
		return nil, err
	}
	body := b[ComputeDescHeaderBytes:]
	out := make([]ComputeDesc, n)
	for i := range out {
		if out[i], err = DecodeComputeDesc(body, i); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// ComputeDescBlobBytes is the size of a blob with n entries.
func ComputeDescBlobBytes(n int) int { return ComputeDescHeaderBytes + ComputeDescEntryBytes*n }

// CSBaseXY packs the dispatch base of arg slot ArgCSBaseXY: base_group_x |
// base_group_y << 32. spec: vortexpipe §2.2, §2.5
func CSBaseXY(x, y uint32) uint64 { return uint64(x) | uint64(y)<<32 }
