package image

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"fmt"
	"sort"
	"strings"
)

// Segment is one loadable piece of a program: Data at Addr, then zeros up to MemSize.
type Segment struct {
	Addr    uint32
	Data    []byte
	MemSize uint32
	Exec    bool
	Name    string // the section name, for Code entries of an ELF
}

// Symbol is a function or object symbol of an ELF (vxbin files have none).
type Symbol struct {
	Name string
	Addr uint32
	Size uint32
	Func bool // STT_FUNC
}

// Image is a program ready to load: its segments and entry point.
type Image struct {
	Entry    uint32
	Segments []Segment
	Symbols  []Symbol // sorted by address
	// Code lists the executable sections at their addresses (an ELF's
	// SHF_EXECINSTR sections; a vxbin's whole image), what a disassembler reads.
	Code   []Segment
	Format string // "elf" or "vxbin"
}

// Writer is where Load puts an image's bytes (simt.FlatMemory is one).
type Writer interface {
	Write(addr uint32, p []byte) error
}

// Load writes every segment, bss zeroed, into mem.
func (im *Image) Load(mem Writer) error {
	for _, s := range im.Segments {
		if err := mem.Write(s.Addr, s.Data); err != nil {
			return fmt.Errorf("image: loading segment at 0x%08x: %w", s.Addr, err)
		}
		if bss := s.MemSize - uint32(len(s.Data)); bss > 0 {
			if err := mem.Write(s.Addr+uint32(len(s.Data)), make([]byte, bss)); err != nil {
				return fmt.Errorf("image: zeroing bss at 0x%08x: %w", s.Addr+uint32(len(s.Data)), err)
			}
		}
	}
	return nil
}

// Bounds returns the lowest address and one past the highest of all segments.
func (im *Image) Bounds() (lo, hi uint32) {
	lo = ^uint32(0)
	for _, s := range im.Segments {
		lo = min(lo, s.Addr)
		hi = max(hi, s.Addr+s.MemSize)
	}
	if len(im.Segments) == 0 {
		lo = 0
	}
	return lo, hi
}

// Parse recognises an ELF by its magic and anything else as a .vxbin.
func Parse(data []byte) (*Image, error) {
	if bytes.HasPrefix(data, []byte(elf.ELFMAG)) {
		return ParseELF(data)
	}
	return ParseVXBin(data)
}

// maxSegment bounds one segment's memory size, so a corrupt header cannot ask for
// gigabytes.
const maxSegment = 256 << 20

// ParseELF reads a 32-bit little-endian RISC-V executable's PT_LOAD segments.
func ParseELF(data []byte) (im *Image, err error) {
	// debug/elf can panic on some corrupt inputs; turn that into an error.
	defer func() {
		if r := recover(); r != nil {
			im, err = nil, fmt.Errorf("image: corrupt ELF: %v", r)
		}
	}()
	f, err := elf.NewFile(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("image: not a readable ELF: %w", err)
	}
	defer f.Close()
	switch {
	case f.Class != elf.ELFCLASS32:
		return nil, fmt.Errorf("image: ELF class %v: want ELFCLASS32 (RV32)", f.Class)
	case f.Data != elf.ELFDATA2LSB:
		return nil, fmt.Errorf("image: ELF data encoding %v: want little-endian", f.Data)
	case f.Machine != elf.EM_RISCV:
		return nil, fmt.Errorf("image: ELF machine %v: want EM_RISCV", f.Machine)
	case f.Type != elf.ET_EXEC:
		return nil, fmt.Errorf("image: ELF type %v: want an executable (ET_EXEC)", f.Type)
	}
	im = &Image{Entry: uint32(f.Entry), Format: "elf"}
	for i, p := range f.Progs {
		if p.Type != elf.PT_LOAD || p.Memsz == 0 {
			continue
		}
		if p.Filesz > p.Memsz {
			return nil, fmt.Errorf("image: program header %d: file size 0x%x exceeds memory size 0x%x", i, p.Filesz, p.Memsz)
		}
		// Segments load at their physical (load) address, as QEMU and the Vortex
		// loader do: an initialised-data segment sits in the image and the startup
		// code copies it to its virtual address.
		if p.Memsz > maxSegment || p.Paddr+p.Memsz > 1<<32 {
			return nil, fmt.Errorf("image: program header %d: segment 0x%x+0x%x does not fit a 32-bit address space", i, p.Paddr, p.Memsz)
		}
		buf := make([]byte, p.Filesz)
		if _, err := p.ReadAt(buf, 0); err != nil && p.Filesz > 0 {
			return nil, fmt.Errorf("image: program header %d: reading 0x%x bytes at file offset 0x%x: %w", i, p.Filesz, p.Off, err)
		}
		im.Segments = append(im.Segments, Segment{Addr: uint32(p.Paddr), Data: buf, MemSize: uint32(p.Memsz), Exec: p.Flags&elf.PF_X != 0})
	}
	if len(im.Segments) == 0 {
		return nil, fmt.Errorf("image: ELF has no loadable segment")
	}
	if err := checkOverlap(im.Segments); err != nil {
		return nil, err
	}
	for _, sec := range f.Sections {
		if sec.Type != elf.SHT_PROGBITS || sec.Flags&elf.SHF_EXECINSTR == 0 || sec.Size == 0 {
			continue
		}
		if sec.Size > maxSegment || sec.Addr+sec.Size > 1<<32 {
			return nil, fmt.Errorf("image: section %s: 0x%x+0x%x does not fit a 32-bit address space", sec.Name, sec.Addr, sec.Size)
		}
		buf, err := sec.Data()
		if err != nil {
			return nil, fmt.Errorf("image: section %s: %w", sec.Name, err)
		}
		im.Code = append(im.Code, Segment{Addr: uint32(sec.Addr), Data: buf, MemSize: uint32(sec.Size), Exec: true, Name: sec.Name})
	}
	if syms, err := f.Symbols(); err == nil {
		for _, s := range syms {
			t := elf.ST_TYPE(s.Info)
			// Mapping symbols ($x, $d) and local labels are not names a reader wants.
			if s.Name == "" || s.Name[0] == '$' || strings.HasPrefix(s.Name, ".L") || s.Section == elf.SHN_UNDEF ||
				(t != elf.STT_FUNC && t != elf.STT_OBJECT && t != elf.STT_NOTYPE) {
				continue
			}
			im.Symbols = append(im.Symbols, Symbol{Name: s.Name, Addr: uint32(s.Value), Size: uint32(s.Size), Func: t == elf.STT_FUNC})
		}
		sort.SliceStable(im.Symbols, func(i, j int) bool { return im.Symbols[i].Addr < im.Symbols[j].Addr })
	}
	return im, nil
}

func checkOverlap(segs []Segment) error {
	s := append([]Segment(nil), segs...)
	sort.Slice(s, func(i, j int) bool { return s[i].Addr < s[j].Addr })
	for i := 1; i < len(s); i++ {
		if uint64(s[i-1].Addr)+uint64(s[i-1].MemSize) > uint64(s[i].Addr) {
			return fmt.Errorf("image: segments at 0x%08x and 0x%08x overlap", s[i-1].Addr, s[i].Addr)
		}
	}
	return nil
}

// VXBinHeader is the 16-byte .vxbin header: the image's lowest and one-past-highest
// virtual addresses, little-endian (sw/kernel/scripts/vxbin.py; spec:
// vortexpipe-driver.md §2.4).
const VXBinHeader = 16

// ParseVXBin reads a .vxbin: the header then the flat image loaded at min_vma,
// which is also the entry point (the STARTUP_ADDR). Bytes the file does not carry
// up to max_vma are zero (bss).
func ParseVXBin(data []byte) (*Image, error) {
	if len(data) < VXBinHeader {
		return nil, fmt.Errorf("image: vxbin of %d bytes is shorter than its %d-byte header", len(data), VXBinHeader)
	}
	lo := binary.LittleEndian.Uint64(data[0:8])
	hi := binary.LittleEndian.Uint64(data[8:16])
	body := data[VXBinHeader:]
	switch {
	case hi < lo:
		return nil, fmt.Errorf("image: vxbin header: max_vma 0x%x below min_vma 0x%x", hi, lo)
	case hi > 1<<32:
		return nil, fmt.Errorf("image: vxbin header: max_vma 0x%x is beyond a 32-bit address space", hi)
	case hi-lo > maxSegment:
		return nil, fmt.Errorf("image: vxbin header: image of 0x%x bytes is too large", hi-lo)
	case uint64(len(body)) > hi-lo:
		return nil, fmt.Errorf("image: vxbin body of %d bytes exceeds max_vma-min_vma = %d (header at offset 0)", len(body), hi-lo)
	case hi == lo:
		return nil, fmt.Errorf("image: vxbin is empty (min_vma = max_vma = 0x%x)", lo)
	}
	seg := Segment{Addr: uint32(lo), Data: append([]byte(nil), body...), MemSize: uint32(hi - lo), Exec: true}
	return &Image{Entry: uint32(lo), Format: "vxbin", Segments: []Segment{seg}, Code: []Segment{seg}}, nil
}

// EncodeVXBin packs an image into .vxbin form (the segments flattened between their
// bounds, gaps zero, trailing bss not stored).
func EncodeVXBin(im *Image) []byte {
	lo, hi := im.Bounds()
	flat := make([]byte, hi-lo)
	end := uint32(0)
	for _, s := range im.Segments {
		copy(flat[s.Addr-lo:], s.Data)
		end = max(end, s.Addr-lo+uint32(len(s.Data)))
	}
	out := make([]byte, VXBinHeader, VXBinHeader+int(end))
	binary.LittleEndian.PutUint64(out[0:], uint64(lo))
	binary.LittleEndian.PutUint64(out[8:], uint64(hi))
	return append(out, flat[:end]...)
}
