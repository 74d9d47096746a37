package abi

import (
	"encoding/binary"
	"fmt"
)

// Kernel image: the bytes a module load writes to device memory at its link base
// (STARTUP_ADDR). The KMU reads them at launch: KERNEL_ENTRY must point at an entry
// stub inside the image at STARTUP_ADDR, and the stub names what runs there — a
// kernel of the device's Go kernel library, or an opaque blob (a compiled shader).
// A launch therefore executes what is at the PC, and a wrong PC is a launch error.
// This format is ours: the hardware loads RISC-V code at the entry itself. A stub of
// kind KernelCode carries such code — RV32IMAF + Vortex machine code, the image of a
// .vxbin — as its payload, and the device's warps start fetching at the payload's
// first word (KernelCodePC), so the stub header is the only part of the entry that
// is not instructions.
// spec: vortex-hardware-facts §9 item 9 (STARTUP_ADDR is the image base,
// KERNEL_ENTRY the function), vortexpipe §2.5 (modules resident at link bases)
//
// Layout, little-endian:
//
//	header (16 B)  u32 magic "VXKM", u16 version, u16 count, u32 image bytes, u32 0
//	table          count × 16 B: u32 name_off, u32 name_len, u32 entry_off, u32 0
//	stubs          16-byte aligned: u32 magic "VXKE", u32 kind, u32 payload_len, u32 0,
//	               then payload_len bytes (library name or blob)
//	names          the table's symbol names
//
// Offsets are from the image base.
const (
	KernelImageMagic       uint32 = 0x4D4B5856 // "VXKM"
	KernelStubMagic        uint32 = 0x454B5856 // "VXKE"
	KernelImageVersion            = 1
	KernelImageHeaderBytes        = 16
	KernelImageEntryBytes         = 16
	KernelStubHeaderBytes         = 16
	KernelStubAlign               = 16
	KernelImageMaxEntries         = 1024
	KernelNameMaxBytes            = 255
	KernelBlobMaxBytes            = 16 << 20
	KernelImageMaxBytes           = 64 << 20
)

// KernelKind says what an entry stub holds.
type KernelKind uint32

// The entry kinds.
const (
	KernelLibrary KernelKind = 1 // payload: the name of a kernel in the device's Go library
	KernelBlob    KernelKind = 2 // payload: an opaque compiled-shader blob
	// KernelCode is machine code: the payload is RV32IMAF + Vortex instruction
	// words (a multiple of 4 bytes) that every warp of the launch executes from
	// KernelCodePC, fetched from device memory. The code must be position
	// independent (it runs wherever the module places the stub). spec:
	// vortexpipe-driver.md §2.4 (the .vxbin image), vortex-hardware-facts.md §9
	// item 9 (KERNEL_ENTRY is where the warps start)
	KernelCode KernelKind = 3
)

// KernelCodePC is where the warps of a KernelCode entry whose stub is at stub start:
// the first payload word, right after the 16-byte stub header (16-byte aligned, as
// the stub is).
func KernelCodePC(stub uint64) uint64 { return stub + KernelStubHeaderBytes }

// String names the kind.
func (k KernelKind) String() string {
	switch k {
	case KernelLibrary:
		return "library"
	case KernelBlob:
		return "blob"
	case KernelCode:
		return "code"
	}
	return fmt.Sprintf("KernelKind(%d)", uint32(k))
}

// KernelImageEntry is one kernel of a module image.
type KernelImageEntry struct {
	Name    string     // the module's symbol, e.g. "main" or "setup_k"
	Kind    KernelKind // what the stub holds
	Payload []byte     // the library kernel name (KernelLibrary) or the blob (KernelBlob)
	// EntryOffset is the stub's offset from the image base; filled by DecodeKernelImage
	// and ignored by EncodeKernelImage (which lays the stubs out itself).
	EntryOffset uint32
}

// LibraryEntry is an entry that runs the library kernel lib under the symbol name.
func LibraryEntry(name, lib string) KernelImageEntry {
	return KernelImageEntry{Name: name, Kind: KernelLibrary, Payload: []byte(lib)}
}

func alignUp(n, a int) int { return (n + a - 1) / a * a }

// EncodeKernelImage lays out a module image. It fails on an empty or oversized
// module, duplicate or invalid names, and payloads beyond the limits.
func EncodeKernelImage(entries []KernelImageEntry) ([]byte, error) {
	if len(entries) == 0 || len(entries) > KernelImageMaxEntries {
		return nil, fmt.Errorf("abi: kernel image with %d entries (want 1..%d)", len(entries), KernelImageMaxEntries)
	}
	seen := make(map[string]bool, len(entries))
	off := KernelImageHeaderBytes + KernelImageEntryBytes*len(entries)
	stubOff := make([]int, len(entries))
	for i, e := range entries {
		if e.Name == "" || len(e.Name) > KernelNameMaxBytes {
			return nil, fmt.Errorf("abi: kernel image entry %d: name length %d (want 1..%d)", i, len(e.Name), KernelNameMaxBytes)
		}
		if seen[e.Name] {
			return nil, fmt.Errorf("abi: kernel image entry %d: duplicate name %q", i, e.Name)
		}
		seen[e.Name] = true
		if err := checkStubPayload(e.Kind, len(e.Payload)); err != nil {
			return nil, fmt.Errorf("abi: kernel image entry %d (%s): %w", i, e.Name, err)
		}
		off = alignUp(off, KernelStubAlign)
		stubOff[i] = off
		off += KernelStubHeaderBytes + len(e.Payload)
	}
	nameOff := off
	for _, e := range entries {
		off += len(e.Name)
	}
	if off > KernelImageMaxBytes {
		return nil, fmt.Errorf("abi: kernel image of %d bytes exceeds %d", off, KernelImageMaxBytes)
	}
	b := make([]byte, off)
	le := binary.LittleEndian
	le.PutUint32(b[0:], KernelImageMagic)
	le.PutUint16(b[4:], KernelImageVersion)
	le.PutUint16(b[6:], uint16(len(entries)))
	le.PutUint32(b[8:], uint32(len(b)))
	for i, e := range entries {
		t := b[KernelImageHeaderBytes+KernelImageEntryBytes*i:]
		le.PutUint32(t[0:], uint32(nameOff))
		le.PutUint32(t[4:], uint32(len(e.Name)))
		le.PutUint32(t[8:], uint32(stubOff[i]))
		copy(b[nameOff:], e.Name)
		nameOff += len(e.Name)
		s := b[stubOff[i]:]
		le.PutUint32(s[0:], KernelStubMagic)
		le.PutUint32(s[4:], uint32(e.Kind))
		le.PutUint32(s[8:], uint32(len(e.Payload)))
		copy(s[KernelStubHeaderBytes:], e.Payload)
	}
	return b, nil
}

func checkStubPayload(kind KernelKind, n int) error {
	switch kind {
	case KernelLibrary:
		if n == 0 || n > KernelNameMaxBytes {
			return fmt.Errorf("library name length %d (want 1..%d)", n, KernelNameMaxBytes)
		}
	case KernelBlob:
		if n > KernelBlobMaxBytes {
			return fmt.Errorf("blob of %d bytes exceeds %d", n, KernelBlobMaxBytes)
		}
	case KernelCode:
		if n == 0 || n%4 != 0 || n > KernelBlobMaxBytes {
			return fmt.Errorf("code of %d bytes (want a whole number of 4-byte instructions, 4..%d)", n, KernelBlobMaxBytes)
		}
	default:
		return fmt.Errorf("unknown kernel kind %d", uint32(kind))
	}
	return nil
}

// KernelImageHeader is the decoded 16-byte image header.
type KernelImageHeader struct {
	Version uint16
	Count   int
	Size    uint32 // image bytes
}

// DecodeKernelImageHeader decodes and checks the header in b[0:16].
func DecodeKernelImageHeader(b []byte) (KernelImageHeader, error) {
	if len(b) < KernelImageHeaderBytes {
		return KernelImageHeader{}, fmt.Errorf("abi: kernel image header: %d bytes, want %d", len(b), KernelImageHeaderBytes)
	}
	le := binary.LittleEndian
	if m := le.Uint32(b); m != KernelImageMagic {
		return KernelImageHeader{}, fmt.Errorf("abi: kernel image: bad magic 0x%08X at offset 0", m)
	}
	h := KernelImageHeader{Version: le.Uint16(b[4:]), Count: int(le.Uint16(b[6:])), Size: le.Uint32(b[8:])}
	if h.Version != KernelImageVersion {
		return KernelImageHeader{}, fmt.Errorf("abi: kernel image: version %d at offset 4 (want %d)", h.Version, KernelImageVersion)
	}
	if h.Count == 0 || h.Count > KernelImageMaxEntries {
		return KernelImageHeader{}, fmt.Errorf("abi: kernel image: %d entries at offset 6 (want 1..%d)", h.Count, KernelImageMaxEntries)
	}
	minSize := uint32(KernelImageHeaderBytes + KernelImageEntryBytes*h.Count)
	if h.Size < minSize || h.Size > KernelImageMaxBytes {
		return KernelImageHeader{}, fmt.Errorf("abi: kernel image: size %d at offset 8 (want %d..%d)", h.Size, minSize, KernelImageMaxBytes)
	}
	return h, nil
}

// KernelStub is a decoded entry-stub header.
type KernelStub struct {
	Kind       KernelKind
	PayloadLen int
}

// DecodeKernelStub decodes and checks the 16-byte stub header in b.
func DecodeKernelStub(b []byte) (KernelStub, error) {
	if len(b) < KernelStubHeaderBytes {
		return KernelStub{}, fmt.Errorf("abi: kernel stub: %d bytes, want %d", len(b), KernelStubHeaderBytes)
	}
	le := binary.LittleEndian
	if m := le.Uint32(b); m != KernelStubMagic {
		return KernelStub{}, fmt.Errorf("abi: kernel stub: bad magic 0x%08X (not an entry point)", m)
	}
	s := KernelStub{Kind: KernelKind(le.Uint32(b[4:])), PayloadLen: int(le.Uint32(b[8:]))}
	if s.PayloadLen < 0 {
		return KernelStub{}, fmt.Errorf("abi: kernel stub: payload length out of range")
	}
	if err := checkStubPayload(s.Kind, s.PayloadLen); err != nil {
		return KernelStub{}, fmt.Errorf("abi: kernel stub: %w", err)
	}
	return s, nil
}

// DecodeKernelImage decodes a whole image, checking every offset against its size.
func DecodeKernelImage(b []byte) ([]KernelImageEntry, error) {
	h, err := DecodeKernelImageHeader(b)
	if err != nil {
		return nil, err
	}
	if uint64(len(b)) < uint64(h.Size) {
		return nil, fmt.Errorf("abi: kernel image: %d bytes, header says %d", len(b), h.Size)
	}
	b = b[:h.Size]
	le := binary.LittleEndian
	out := make([]KernelImageEntry, h.Count)
	for i := range out {
		t := b[KernelImageHeaderBytes+KernelImageEntryBytes*i:]
		nameOff, nameLen, entryOff := uint64(le.Uint32(t)), uint64(le.Uint32(t[4:])), uint64(le.Uint32(t[8:]))
		at := KernelImageHeaderBytes + KernelImageEntryBytes*i
		if nameLen == 0 || nameLen > KernelNameMaxBytes || nameOff+nameLen > uint64(len(b)) {
			return nil, fmt.Errorf("abi: kernel image entry %d at offset %d: name [%d, +%d) outside the image", i, at, nameOff, nameLen)
		}
		if entryOff%KernelStubAlign != 0 || entryOff+KernelStubHeaderBytes > uint64(len(b)) {
			return nil, fmt.Errorf("abi: kernel image entry %d at offset %d: entry offset %d misaligned or outside the image", i, at, entryOff)
		}
		s, err := DecodeKernelStub(b[entryOff:])
		if err != nil {
			return nil, fmt.Errorf("abi: kernel image entry %d: stub at offset %d: %w", i, entryOff, err)
		}
		end := entryOff + KernelStubHeaderBytes + uint64(s.PayloadLen)
		if end > uint64(len(b)) {
			return nil, fmt.Errorf("abi: kernel image entry %d: stub payload at offset %d runs past the image", i, entryOff)
		}
		out[i] = KernelImageEntry{
			Name: string(b[nameOff : nameOff+nameLen]), Kind: s.Kind,
			Payload:     append([]byte(nil), b[entryOff+KernelStubHeaderBytes:end]...),
			EntryOffset: uint32(entryOff),
		}
	}
	return out, nil
}
