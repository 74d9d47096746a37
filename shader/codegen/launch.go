package codegen

import (
	"encoding/binary"
	"fmt"

	"vortexgfx/abi"
	"vortexgfx/device/simt"
)

// Launch is one direct dispatch of a kernel on a device/simt core, laid out the way
// the KMU and the compute runtime do it (spec: command-processor.md, the KMU
// launch; vortexpipe-driver §2.5): the image at its base, the arg block in
// mscratch, the set-0 descriptor blob, and per workgroup one CTA of
// ceil(invocations/Threads) warps with its CTA CSRs and local memory.
type Launch struct {
	Groups   [3]uint32 // the grid (gl_NumWorkGroups); 0 counts as 1
	Base     [3]uint32 // the dispatch base (vkCmdDispatchBase)
	Threads  int       // warp width (NUM_THREADS), 1..32
	Uniforms []uint32
	// Buffers holds each bound descriptor's bytes; Run writes the final contents
	// back into the same slices. A binding the kernel reads but Buffers lacks is
	// absent from the blob (robust access: size 0).
	Buffers map[Binding][]byte
	// Images gives a storage image binding's (abi.DescStorageImage in Buffers)
	// extent and format, as its descriptor carries them.
	Images          map[Binding]ImageInfo
	MaxInstructions uint64 // per workgroup; 0: 1<<32
}

// ImageInfo is a bound storage image's geometry: width, height, depth (layers) and
// the format's code (ir.ImageFormat).
type ImageInfo struct {
	Extent [3]uint32
	Format uint16
}

// Stats are a launch's counters, summed over workgroups.
type Stats struct {
	WarpInstructions   uint64 // minstret summed over warps
	ThreadInstructions uint64 // lane-instructions
}

// Run executes l on one simulated core, workgroup after workgroup in grid order
// (x fastest). Shared variables start at zero in every workgroup, as the IR
// executor's do (GLSL leaves them undefined; the launcher zeroes LMEM).
func Run(k *Kernel, l *Launch) (Stats, error) {
	var st Stats
	T := l.Threads
	n := int(k.Layout.Invocations())
	if T < 1 || T > 32 {
		return st, fmt.Errorf("codegen: warp width %d out of range 1..32", T)
	}
	nw := (n + T - 1) / T
	if nw > 32 {
		return st, fmt.Errorf("codegen: a workgroup of %d invocations needs %d warps of %d threads; a core has at most 32", n, nw, T)
	}
	if len(l.Uniforms) < k.Layout.UniformWords {
		return st, fmt.Errorf("codegen: the kernel reads %d uniform words, %d given", k.Layout.UniformWords, len(l.Uniforms))
	}
	align := func(v, a uint32) uint32 { return (v + a - 1) &^ (a - 1) }
	base := k.Base
	at := align(base+uint32(4*len(k.Code)), 4096)
	args := at
	at = align(at+abi.ArgSlots*abi.ArgSlotBytes, 64)
	var descs []abi.ComputeDesc
	addrs := map[Binding]uint32{}
	blobAt := at
	at = align(at+abi.ComputeDescHeaderBytes+abi.ComputeDescEntryBytes*uint32(len(l.Buffers)), 64)
	uni := at
	at = align(at+4*uint32(len(l.Uniforms))+4, 64)
	for _, b := range k.Layout.Bindings { // in the kernel's order: deterministic
		data, ok := l.Buffers[b]
		if !ok {
			continue
		}
		addrs[b] = at
		im := l.Images[b]
		descs = append(descs, abi.ComputeDesc{Kind: b.Kind, Binding: b.Slot, Addr: uint64(at), Size: uint32(len(data)), Flags: abi.DescWritable,
			Width: im.Extent[0], Height: im.Extent[1], Depth: im.Extent[2], Format: im.Format})
		at = align(at+uint32(len(data))+4, 64)
	}
	lmem := at
	at = align(at+k.Layout.LMemBytes()+4, 64)
	frames := at // one core: FrameMemBytes(1)
	at = align(at+uint32(k.Layout.FrameMemBytes(1))+4, 64)
	blob, err := abi.EncodeComputeDescs(descs)
	if err != nil {
		return st, fmt.Errorf("codegen: %w", err)
	}
	mem := simt.NewFlatMemory(base, int(at-base))
	if err := k.Image().Load(mem); err != nil {
		return st, err
	}
	var ab [abi.ArgSlots * abi.ArgSlotBytes]byte
	le := binary.LittleEndian
	le.PutUint64(ab[abi.ArgCSPushConstants*8:], uint64(uni))
	le.PutUint64(ab[abi.ArgCSDescSet0*8:], uint64(blobAt))
	le.PutUint64(ab[abi.ArgCSBaseXY*8:], uint64(l.Base[0])|uint64(l.Base[1])<<32)
	le.PutUint64(ab[abi.ArgCSBaseZ*8:], uint64(l.Base[2]))
	if k.Layout.FramesInMemory {
		le.PutUint64(ab[abi.ArgCSFrames*8:], uint64(frames))
	}
	writes := [][2]any{{args, ab[:]}, {blobAt, blob}}
	ub := make([]byte, 4*len(l.Uniforms))
	for i, w := range l.Uniforms {
		le.PutUint32(ub[4*i:], w)
	}
	writes = append(writes, [2]any{uni, ub})
	for b, addr := range addrs {
		writes = append(writes, [2]any{addr, l.Buffers[b]})
	}
	for _, w := range writes {
		if err := mem.Write(w[0].(uint32), w[1].([]byte)); err != nil {
			return st, err
		}
	}
	budget := l.MaxInstructions
	if budget == 0 {
		budget = 1 << 32
	}
	core, err := simt.New(simt.Config{Warps: nw, Threads: T, MaxInstructions: budget}, mem)
	if err != nil {
		return st, err
	}
	var grid [3]uint32
	for c := range grid {
		grid[c] = max(l.Groups[c], 1)
	}
	ls := k.Layout.LocalSize
	shared := make([]byte, k.Layout.SharedBytes)
	id := uint32(0)
	for gz := uint32(0); gz < grid[2]; gz++ {
		for gy := uint32(0); gy < grid[1]; gy++ {
			for gx := uint32(0); gx < grid[0]; gx++ {
				if err := mem.Write(lmem, shared); err != nil {
					return st, err
				}
				for w := 0; w < nw; w++ {
					first := uint32(w * T)
					cta := simt.CTA{ID: id, Rank: uint32(w), Size: uint32(nw),
						ThreadIdx: [3]uint32{first % ls[0], first / ls[0] % ls[1], first / (ls[0] * ls[1])},
						BlockIdx:  [3]uint32{gx, gy, gz}, BlockDim: ls, GridDim: grid, LMemAddr: lmem, Entry: k.Base}
					var mask uint32
					for t := 0; t < T && int(first)+t < n; t++ {
						mask |= 1 << t
					}
					if err := core.SetCTA(w, cta); err != nil {
						return st, err
					}
					if err := core.SetMScratch(w, args); err != nil {
						return st, err
					}
					if err := core.Start(w, k.Base, mask); err != nil {
						return st, err
					}
				}
				before, warpsBefore := core.ThreadInstructions(), uint64(0)
				for w := 0; w < nw; w++ {
					warpsBefore += core.Stats(w).Instret
				}
				if err := core.Run(); err != nil {
					return st, fmt.Errorf("codegen: workgroup (%d,%d,%d): %w", gx, gy, gz, err)
				}
				st.ThreadInstructions += core.ThreadInstructions() - before
				for w := 0; w < nw; w++ {
					st.WarpInstructions += core.Stats(w).Instret
				}
				st.WarpInstructions -= warpsBefore
				id++
			}
		}
	}
	for b, addr := range addrs {
		data := l.Buffers[b]
		off := addr - base
		copy(data, mem.Data[off:off+uint32(len(data))])
	}
	return st, nil
}
