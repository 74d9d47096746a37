// Package image loads RISC-V programs for the SIMT core: 32-bit little-endian
// RISC-V ELF executables (PT_LOAD segments at their load addresses, bss zeroed,
// the entry point, the executable sections and symbols for a disassembler) and
// Vortex .vxbin kernel images (a 16-byte little-endian {min_vma, max_vma} header,
// then the flat image loaded at min_vma, which is also the entry: the
// STARTUP_ADDR; spec: vortexpipe-driver.md §2.4, vortex-hardware-facts.md §6).
// A malformed file is an error naming what is wrong and where (which program
// header, which section, which header field), never a panic; the fuzz targets
// hold both parsers to that.
package image
