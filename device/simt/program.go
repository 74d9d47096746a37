package simt

import (
	"io"

	"vortexgfx/isa/image"
)

// ProgramOptions configures RunProgram.
type ProgramOptions struct {
	Threads         int    // warp width (default 1)
	MaxInstructions uint64 // instruction budget (0: none)
	// MemoryBytes sizes the flat memory mapped from the image's base (default
	// 128 MiB, QEMU virt's RAM); it grows to cover the image if smaller.
	MemoryBytes uint32
	Stdin       io.Reader
	Stdout      io.Writer
	Stderr      io.Writer
	Cmdline     string
}

// ProgramResult is how a program ended.
type ProgramResult struct {
	Exited   bool // through SYS_EXIT / SYS_EXIT_EXTENDED
	ExitCode int
	Core     *Core
}

// RunProgram loads im into a flat memory starting at its lowest address (rounded
// down to 1 MiB) and runs it on one core with one warp, lane 0 active (as Vortex
// comes out of reset: a program widens the warp with vx_tmc), with semihosting.
// A program whose warp halts without exiting reports Exited false.
func RunProgram(im *image.Image, opt ProgramOptions) (*ProgramResult, error) {
	if opt.Threads == 0 {
		opt.Threads = 1
	}
	if opt.MemoryBytes == 0 {
		opt.MemoryBytes = 128 << 20
	}
	lo, hi := im.Bounds()
	base := lo &^ (1<<20 - 1)
	size := uint64(opt.MemoryBytes)
	if need := uint64(hi) - uint64(base); need > size {
		size = need
	}
	if uint64(base)+size > 1<<32 {
		size = 1<<32 - uint64(base)
	}
	mem := NewFlatMemory(base, int(size))
	if err := im.Load(mem); err != nil {
		return nil, err
	}
	core, err := New(Config{Warps: 1, Threads: opt.Threads, MaxInstructions: opt.MaxInstructions}, mem)
	if err != nil {
		return nil, err
	}
	sh := &Semihost{Stdin: opt.Stdin, Stdout: opt.Stdout, Stderr: opt.Stderr, Cmdline: opt.Cmdline}
	if sh.Stdout == nil {
		sh.Stdout = io.Discard
	}
	if sh.Stderr == nil {
		sh.Stderr = io.Discard
	}
	core.Ebreak = sh
	if err := core.Start(0, im.Entry, 1); err != nil {
		return nil, err
	}
	res := &ProgramResult{Core: core}
	if err := core.Run(); err != nil {
		return res, err
	}
	res.Exited, res.ExitCode = sh.Exited, sh.ExitCode
	return res, nil
}
