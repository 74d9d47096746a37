package image

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"strings"
	"testing"
)

// tinyELF is a minimal RV32 executable: one PT_LOAD of code at 0x80000000 with 8
// bytes of file data and 24 bytes of memory (the rest bss).
func tinyELF(mutate func(hdr []byte)) []byte {
	const ehsize, phsize = 52, 32
	code := []byte{0x13, 0x05, 0x80, 0x01, 0x73, 0x00, 0x10, 0x00} // addi a0,zero,24; ebreak
	b := make([]byte, ehsize+phsize+len(code))
	copy(b, []byte{0x7f, 'E', 'L', 'F', byte(elf.ELFCLASS32), byte(elf.ELFDATA2LSB), 1})
	le := binary.LittleEndian
	le.PutUint16(b[16:], uint16(elf.ET_EXEC))
	le.PutUint16(b[18:], uint16(elf.EM_RISCV))
	le.PutUint32(b[20:], 1)
	le.PutUint32(b[24:], 0x80000000) // entry
	le.PutUint32(b[28:], ehsize)     // phoff
	le.PutUint16(b[40:], ehsize)
	le.PutUint16(b[42:], phsize)
	le.PutUint16(b[44:], 1)
	le.PutUint16(b[46:], 40)
	ph := b[ehsize:]
	le.PutUint32(ph[0:], uint32(elf.PT_LOAD))
	le.PutUint32(ph[4:], ehsize+phsize) // offset
	le.PutUint32(ph[8:], 0x80000000)    // vaddr
	le.PutUint32(ph[12:], 0x80000000)   // paddr
	le.PutUint32(ph[16:], uint32(len(code)))
	le.PutUint32(ph[20:], 24)
	le.PutUint32(ph[24:], uint32(elf.PF_R|elf.PF_X))
	copy(b[ehsize+phsize:], code)
	if mutate != nil {
		mutate(b)
	}
	return b
}

type memWriter map[uint32]byte

func (m memWriter) Write(addr uint32, p []byte) error {
	for i, c := range p {
		m[addr+uint32(i)] = c
	}
	return nil
}

func TestParseELFLoadsSegmentsAndZeroesBSS(t *testing.T) {
	im, err := Parse(tinyELF(nil))
	if err != nil {
		t.Fatal(err)
	}
	if im.Entry != 0x80000000 || im.Format != "elf" || len(im.Segments) != 1 {
		t.Fatalf("image %+v", im)
	}
	m := memWriter{}
	for i := uint32(0); i < 24; i++ {
		m[0x80000000+i] = 0xee
	}
	if err := im.Load(m); err != nil {
		t.Fatal(err)
	}
	if m[0x80000000] != 0x13 || m[0x80000007] != 0x00 || m[0x80000008] != 0 || m[0x80000017] != 0 {
		t.Errorf("loaded bytes wrong: %v", m)
	}
	if lo, hi := im.Bounds(); lo != 0x80000000 || hi != 0x80000018 {
		t.Errorf("bounds %x..%x", lo, hi)
	}
}

func TestParseELFRefusals(t *testing.T) {
	cases := []struct {
		name   string
		mutate func(b []byte)
		want   string
	}{
		{"64-bit", func(b []byte) { b[4] = byte(elf.ELFCLASS64) }, ""},
		{"big-endian", func(b []byte) { b[5] = byte(elf.ELFDATA2MSB) }, ""},
		{"x86", func(b []byte) { binary.LittleEndian.PutUint16(b[18:], uint16(elf.EM_386)) }, "EM_RISCV"},
		{"relocatable", func(b []byte) { binary.LittleEndian.PutUint16(b[16:], uint16(elf.ET_REL)) }, "ET_EXEC"},
		{"filesz>memsz", func(b []byte) { binary.LittleEndian.PutUint32(b[52+20:], 4) }, "exceeds memory size"},
		{"beyond 4G", func(b []byte) { binary.LittleEndian.PutUint32(b[52+12:], 0xfffffff0) }, "32-bit address space"},
		{"truncated", func(b []byte) { binary.LittleEndian.PutUint32(b[52+16:], 4096) }, "program header 0"},
	}
	for _, c := range cases {
		_, err := ParseELF(tinyELF(c.mutate))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want one containing %q", c.name, err, c.want)
		}
	}
}

func TestVXBinRoundTripAndRefusals(t *testing.T) {
	im, err := ParseELF(tinyELF(nil))
	if err != nil {
		t.Fatal(err)
	}
	vx := EncodeVXBin(im)
	if len(vx) != VXBinHeader+8 {
		t.Fatalf("vxbin of %d bytes", len(vx))
	}
	back, err := Parse(vx)
	if err != nil {
		t.Fatal(err)
	}
	if back.Entry != 0x80000000 || back.Format != "vxbin" || back.Segments[0].MemSize != 24 || !bytes.Equal(back.Segments[0].Data, im.Segments[0].Data) {
		t.Errorf("vxbin round trip: %+v", back)
	}
	hdr := func(lo, hi uint64, body int) []byte {
		b := make([]byte, VXBinHeader+body)
		binary.LittleEndian.PutUint64(b, lo)
		binary.LittleEndian.PutUint64(b[8:], hi)
		return b
	}
	for _, c := range []struct {
		data []byte
		want string
	}{
		{[]byte{1, 2, 3}, "shorter than its 16-byte header"},
		{hdr(0x80000010, 0x80000000, 0), "below min_vma"},
		{hdr(0x80000000, 0x180000000, 0), "32-bit address space"},
		{hdr(0x80000000, 0x80000004, 8), "exceeds max_vma-min_vma"},
		{hdr(0x80000000, 0x80000000, 0), "empty"},
	} {
		if _, err := ParseVXBin(c.data); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseVXBin(%x): %v, want %q", c.data, err, c.want)
		}
	}
}

// FuzzParseELF and FuzzParseVXBin: corrupt files are errors, never panics, and an
// accepted image's segments fit the 32-bit address space.
func FuzzParseELF(f *testing.F) {
	f.Add(tinyELF(nil))
	f.Fuzz(func(t *testing.T, data []byte) {
		im, err := ParseELF(data)
		if err == nil {
			checkImage(t, im)
		}
	})
}

func FuzzParseVXBin(f *testing.F) {
	im, _ := ParseELF(tinyELF(nil))
	f.Add(EncodeVXBin(im))
	f.Fuzz(func(t *testing.T, data []byte) {
		im, err := ParseVXBin(data)
		if err == nil {
			checkImage(t, im)
		}
	})
}

func checkImage(t *testing.T, im *Image) {
	for _, s := range im.Segments {
		if uint64(s.Addr)+uint64(s.MemSize) > 1<<32 || uint32(len(s.Data)) > s.MemSize {
			t.Fatalf("accepted a bad segment %+v", s)
		}
	}
}
