package frontend

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"vortexgfx/gfx/fecode"

	"vortexgfx/abi"
	"vortexgfx/device"
)

// Library names of the front-end module's kernels, registered in a
// device.Library and named by ModuleImage, so a launch resolves them through
// the image at its PC like any other kernel (KernelResolve is registered by
// package gfx/shaderdev). spec: rasterizer §3.1; vortexpipe §3.2, §3.4.1
const (
	KernelSetup   = "gfx.setup_k"
	KernelBinning = "gfx.binning_k"
	KernelResolve = "gfx.msaa_resolve_k"
)

// Args is the front-end argument block; its wire layout is abi.FrontEndArgs.
type Args = abi.FrontEndArgs

func readArgs(c *device.CTA) (Args, error) {
	b := make([]byte, 8*abi.FrontEndArgSlots)
	c.Read(c.Args, b)
	if err := c.Err(); err != nil {
		return Args{}, err
	}
	a, err := abi.UnpackFrontEndArgs(b)
	if err != nil {
		return a, err
	}
	planes, mask := splitFrontEndPlanes(a.Planes)
	if mask != 0 && planes != PlanesCompiled {
		return a, fmt.Errorf("front end: clip-distance mask 0x%x on %s records (only compiled programs' expand_k records carry distances)", mask, planes)
	}
	if _, _, ok := abi.SplitFEPlanes(a.Planes); !ok {
		return a, fmt.Errorf("front end: plane word 0x%x has bits above the clip-distance mask", a.Planes)
	}
	if a.NVar > abi.NumVaryingPlanes+abi.MaxExtraVaryings || a.NFlat > abi.MaxFlatWords || (a.NFlat > 0 && a.NVar == 0 && planes != PlanesCompiled) {
		return a, fmt.Errorf("front end: %d varyings / %d flat words exceed %d varying words / %d side words (or flat words without expand_k records)",
			a.NVar, a.NFlat, abi.NumVaryingPlanes+abi.MaxExtraVaryings, abi.MaxFlatWords)
	}
	if a.Width == 0 || a.Height == 0 || a.Width > abi.RasterScissorMaxCoord || a.Height > 0x7FFF {
		return a, fmt.Errorf("front end: target %dx%d out of range", a.Width, a.Height)
	}
	if po := offsetFromArgs(&a); po.Enable {
		if b := po.DepthBits; b != 0 && b != 16 && b != 24 && b != 32 {
			return a, fmt.Errorf("front end: polygon offset over %d depth bits (0, 16, 24 or 32)", b)
		}
		if f := float64(po.Factor) + float64(po.Units) + float64(po.Clamp); math.IsNaN(f) || math.IsInf(f, 0) {
			return a, fmt.Errorf("front end: polygon offset factor %v units %v clamp %v not finite", po.Factor, po.Units, po.Clamp)
		}
	}
	if a.NumTris > MaxItems || a.NumVerts > MaxItems {
		return a, fmt.Errorf("front end: %d triangles / %d vertices exceed %d", a.NumTris, a.NumVerts, MaxItems)
	}
	return a, nil
}

// argsViewport is the block's viewport transform, nil for the default
// full-target mapping (all four words zero). spec: vortexpipe-driver §3.8
// (the app's viewport transform and depth range ride the argument block)
func argsViewport(a *Args) *Viewport {
	if a.ViewSX == 0 && a.ViewTX == 0 && a.ViewSY == 0 && a.ViewTY == 0 {
		return nil
	}
	return &Viewport{SX: a.ViewSX, TX: a.ViewTX, SY: a.ViewSY, TY: a.ViewTY}
}

// argsScissor is the block's scissor rectangle clamped to the target, nil
// when both words are zero (the whole target). spec: rasterizer.md §4
// (RASTER_SCISSOR_X/Y)
func argsScissor(a *Args) *BBox {
	if a.ScissorX == 0 && a.ScissorY == 0 {
		return nil
	}
	x0, x1 := abi.UnpackScissor(a.ScissorX)
	y0, y1 := abi.UnpackScissor(a.ScissorY)
	return &BBox{L: uint32(min(x0, int(a.Width))), R: uint32(min(x1, int(a.Width))),
		T: uint32(min(y0, int(a.Height))), B: uint32(min(y1, int(a.Height)))}
}

// BBoxBytes is one box of the front end's box arrays: {u32 L, R, T, B}.
const BBoxBytes = 16

// MaxItems bounds the triangle and vertex counts of one draw, so a
// corrupt argument block fails instead of walking billions of items.
const MaxItems = 1 << 24

// ReadBBox reads one box of the front end's BBoxBytes-byte box arrays on the device.
func ReadBBox(c *device.CTA, addr uint64) BBox {
	var w [4]uint32
	c.ReadWords(addr, w[:])
	return BBox{w[0], w[1], w[2], w[3]}
}

// GridStride runs fn(i) for i < n over every thread of every CTA of the launch.
func GridStride(c *device.CTA, n uint64, fn func(i uint64)) {
	stride := uint64(c.GridDim[0]) * uint64(c.BlockDim[0])
	c.ForEachThread(func(tid int) {
		for i := c.GlobalID(tid); i < n && c.Err() == nil; i += stride {
			fn(i)
		}
	})
}

// single runs fn once, on thread 0 of CTA 0 (the CTA-cooperative scans and the
// header pass, serialised: their results do not depend on the split).
func single(c *device.CTA, fn func()) {
	if c.BlockIdx != [3]uint32{} {
		return
	}
	c.ForEachThread(func(tid int) {
		if tid == 0 {
			fn()
		}
	})
}

// setupKernel is setup_k: stage SETUP (grid-strided over triangles: near clip,
// guard band, cull, setup into the triangle's scratch slot), SCAN (the exclusive
// prefix of the survivor counts; fills the fragment args' primitive count) and
// EMIT (grid-strided compaction into the dense rast_prim_t and bbox arrays,
// order-preserving). spec: rasterizer §3.1; vortexpipe §3.2
func setupKernel(c *device.CTA) error {
	a, err := readArgs(c)
	if err != nil {
		return err
	}
	n := uint64(a.NumTris)
	planes, mask := splitFrontEndPlanes(a.Planes)
	slots := uint64(SlotsPerTriangle(mask))
	switch a.Stage {
	case abi.FEStageSetup:
		env := newFEEnv(int(a.Width), int(a.Height), a.Near, a.Far, CullMode(a.Cull), argsViewport(&a), planes)
		env.noClip = a.DepthClipDisable
		env.scissor = argsScissor(&a)
		env.offset = offsetFromArgs(&a)
		env.slots = int(slots)
		var v [3]Vertex
		// Compiled programs' records (expand_k's layout) hold the planes even
		// when the program has no interpolated varying; only the draw3d
		// flow's records are SetupVertexBytes.
		compiled := a.NVar > 0 || planes == PlanesCompiled
		env.records = compiled // getCompiledVertex zeroes all but Pos and Var[:NVar]
		// The enabled user clip distances follow the extra words, one per
		// enabled plane in plane order (expand_k compacts them).
		ncd := uint64(bits.OnesCount8(mask))
		// Varying words beyond the planes follow the flat words in the
		// records; setup_k interpolates them at each primitive's vertices
		// into the side array (abi.MaxExtraVaryings).
		extra := uint64(max(int(a.NVar)-abi.NumVaryingPlanes, 0))
		side := uint64(4 * abi.SideArrayWords(int(a.NVar), int(a.NFlat)))
		flatReg := uint64(4 * abi.SideFlatWords(int(a.NFlat))) // the flat region's bytes
		xoff := uint64(CompiledFlatOffset) + flatReg           // the extra words in a record
		rec := uint64(abi.SetupVertexBytes)
		cdoff := xoff + 4*extra // the clip distances in a record
		if compiled {
			rec = cdoff + 4*ncd
		}
		vb := make([]byte, 3*rec)      // once per CTA: the records when not read in place
		var vr [3][]byte               // the triangle's three records
		xw := make([]float32, 3*extra) // their extra words, vertex-major
		var lam [setupSlotCap][3][3]float32
		var lamp *[setupSlotCap][3][3]float32
		if extra > 0 {
			lamp = &lam
		}
		var prims [setupSlotCap]Prim
		var bbs [setupSlotCap]BBox
		var user [MaxClipDistances]userPlane
		var pb [abi.PrimBytes]byte
		// The buffers a triangle touches, each reached directly.
		tris, verts, slotsB, boxes := c.Span(a.Tris), c.Span(a.Verts), c.Span(a.Slots), c.Span(a.SlotBoxes)
		flat, keep := c.Span(a.FlatSlots), c.Span(a.Keep)
		GridStride(c, n, func(i uint64) {
			for k := 0; k < 3; k++ {
				vi := tris.ReadU32(12*i + 4*uint64(k))
				if vi >= a.NumVerts {
					c.Fail(fmt.Errorf("setup_k: triangle %d: vertex %d out of range (%d vertices)", i, vi, a.NumVerts))
					return
				}
				b := verts.ReadView(uint64(vi)*rec, vb[uint64(k)*rec:uint64(k+1)*rec])
				vr[k] = b
				if compiled {
					getCompiledVertex(b, min(int(a.NVar), abi.NumVaryingPlanes), &v[k])
				} else {
					getVertex(b, &v[k])
				}
			}
			for p := uint64(0); p < ncd; p++ {
				for k := uint64(0); k < 3; k++ {
					user[p].cd[k] = math.Float32frombits(binary.LittleEndian.Uint32(vr[k][cdoff+4*p:]))
				}
			}
			// Every word taken from the records before the first store (the
			// records may be device memory itself).
			for o := uint64(0); o < 3; o++ {
				for k := uint64(0); k < extra; k++ {
					xw[o*extra+k] = math.Float32frombits(binary.LittleEndian.Uint32(vr[o][xoff+4*k:]))
				}
			}
			var st Stats
			m := env.setupOne(&v[0], &v[1], &v[2], user[:ncd], &st, &prims, &bbs, lamp)
			for s := 0; s < m; s++ {
				slot := i*slots + uint64(s)
				if d := slotsB.WriteView(slot*abi.PrimBytes, abi.PrimBytes); d != nil {
					prims[s].Put(d)
				} else {
					prims[s].Put(pb[:])
					c.Write(a.Slots+slot*abi.PrimBytes, pb[:])
				}
				bb := &bbs[s]
				boxes.WriteWords(slot*BBoxBytes, []uint32{bb.L, bb.R, bb.T, bb.B})
			}
			if a.NFlat > 0 && m > 0 {
				// The provoking vertex is the input triangle's last.
				vi := tris.ReadU32(12*i + 8)
				src := a.Verts + uint64(vi)*rec + CompiledFlatOffset
				for s := 0; s < m; s++ {
					dst := a.FlatSlots + (i*slots+uint64(s))*side
					c.CopyWords(dst, src, int(a.NFlat))
				}
			}
			for s := 0; s < m && extra > 0; s++ {
				dst := (i*slots+uint64(s))*side + flatReg
				for k := uint64(0); k < extra; k++ {
					x := [3]float32{xw[k], xw[extra+k], xw[2*extra+k]}
					for j := 0; j < 3; j++ {
						l := &lam[s][j]
						val := float32(float32(l[0]*x[0])+float32(l[1]*x[1])) + float32(l[2]*x[2])
						flat.WriteU32(dst+4*(3*k+uint64(j)), math.Float32bits(val))
					}
				}
			}
			keep.WriteU32(4*i, uint32(m))
			if st == (Stats{}) {
				return // nothing to count (most triangles)
			}
			// The five consecutive clip/cull words, one atomic per non-zero
			// word under one hold of the device's lock.
			words := [...]uint32{uint32(st.NearClipped), uint32(st.GuardClipped), uint32(st.Culled), uint32(st.PrecisionLoss), uint32(st.FarClipped)}
			c.AtomicAddU32s(a.Counters+4*abi.FECounterNearClipped, words[:])
		})
	case abi.FEStageScan:
		single(c, func() {
			offs, keep := c.Span(a.Offsets), c.Span(a.Keep)
			s := scanWords(c, &offs, &keep, a.Offsets, a.Keep, n)
			c.WriteU32(a.Offsets+4*n, s)
			if s > abi.MaxPrimsPerPass {
				c.Fail(fmt.Errorf("setup_k: %w: %d visible, max %d", ErrTooManyPrims, s, abi.MaxPrimsPerPass))
				return
			}
			c.WriteU32(a.Counters+4*abi.FECounterPrims, s)
			c.WriteU32(a.FragArgs+8, s) // FragArgs.NumPrims
		})
	case abi.FEStageEmit:
		var pb [abi.PrimBytes]byte
		side := uint64(4 * abi.SideArrayWords(int(a.NVar), int(a.NFlat)))
		flatReg := uint64(4 * abi.SideFlatWords(int(a.NFlat)))
		extraBytes := side - flatReg
		eb := make([]byte, extraBytes) // once per CTA
		offs, keep, slotsB, prims := c.Span(a.Offsets), c.Span(a.Keep), c.Span(a.Slots), c.Span(a.Prims)
		slotBoxes, boxes, flatSlots, flat := c.Span(a.SlotBoxes), c.Span(a.Boxes), c.Span(a.FlatSlots), c.Span(a.Flat)
		GridStride(c, n, func(i uint64) {
			off := uint64(offs.ReadU32(4 * i))
			k := uint64(keep.ReadU32(4 * i))
			for s := uint64(0); s < k; s++ {
				slot := i*slots + s
				c.CopySpan(&prims, (off+s)*abi.PrimBytes, &slotsB, slot*abi.PrimBytes, pb[:])
				var bb [4]uint32
				c.CopyWordsSpan(&boxes, (off+s)*BBoxBytes, &slotBoxes, slot*BBoxBytes, bb[:])
				c.CopyWords(a.Flat+(off+s)*side, a.FlatSlots+slot*side, int(a.NFlat))
				if extraBytes > 0 {
					c.CopySpan(&flat, (off+s)*side+flatReg, &flatSlots, slot*side+flatReg, eb)
				}
			}
		})
	default:
		return fmt.Errorf("setup_k: stage %d is not SETUP/SCAN/EMIT", a.Stage)
	}
	return nil
}

// binningKernel is binning_k's six stages over the dense bbox array: BCOUNT and
// BEMIT grid-strided over primitives, BSCAN and BBASE as CTA-cooperative scans,
// BHIST and BSCATTER bin-striped (each thread owns bins b ≡ tid mod threads and
// walks the keys in order, so every bin's pids keep submission order). The
// arithmetic is BCount/BEmit/BBase's. spec: rasterizer §3.1
func binningKernel(c *device.CTA) error {
	a, err := readArgs(c)
	if err != nil {
		return err
	}
	g := BinGrid{Cols: int(a.Cols), Rows: int(a.Rows), BinLog: uint(a.BinLog)}
	if g.Cols <= 0 || g.Rows <= 0 || g.Bins() > 1<<(32-abi.PipePrimBits) {
		return fmt.Errorf("binning_k: bin grid %dx%d", g.Cols, g.Rows)
	}
	// Counts produced by earlier launches (the launch barrier orders them).
	prims := uint64(c.ReadU32(a.Counters + 4*abi.FECounterPrims))
	bins := uint64(g.Bins())
	if prims > abi.MaxPrimsPerPass {
		return fmt.Errorf("binning_k: %d primitives exceed the pid field", prims)
	}
	var one [1]BBox
	var cnt [1]uint32
	boxes := c.Span(a.Boxes)
	readBox := func(i uint64) BBox {
		var w [4]uint32
		boxes.ReadWords(i*BBoxBytes, w[:])
		return BBox{w[0], w[1], w[2], w[3]}
	}
	switch a.Stage {
	case abi.FEStageBCount:
		counts := c.Span(a.Counts)
		GridStride(c, prims, func(i uint64) {
			one[0] = readBox(i)
			BCount(g, one[:], cnt[:])
			counts.WriteU32(4*i, cnt[0])
		})
	case abi.FEStageBScan:
		single(c, func() {
			offs, counts := c.Span(a.Offsets), c.Span(a.Counts)
			s := scanWords(c, &offs, &counts, a.Offsets, a.Counts, prims)
			c.WriteU32(a.Offsets+4*prims, s)
			c.WriteU32(a.Counters+4*abi.FECounterKeys, s)
		})
	case abi.FEStageBEmit:
		var off [2]uint32
		var out []uint32
		offs, keys := c.Span(a.Offsets), c.Span(a.Keys)
		GridStride(c, prims, func(i uint64) {
			one[0] = readBox(i)
			BCount(g, one[:], cnt[:])
			// The primitive's keys in one reused buffer (BEmit fills every
			// entry), its pid patched in, then stored as one word run: the
			// WriteU32 of each key in order (WriteWords' contract).
			out = slices.Grow(out[:0], int(cnt[0]))[:cnt[0]]
			off[0] = 0
			if err := BEmit(g, one[:], off[:], out); err != nil {
				c.Fail(err)
				return
			}
			base := uint64(offs.ReadU32(4 * i))
			for k, key := range out {
				out[k] = key&^(1<<abi.PipePrimBits-1) | uint32(i)
			}
			keys.WriteWords(4*base, out)
		})
	case abi.FEStageBHist, abi.FEStageBScatter:
		keys := uint64(c.ReadU32(a.Counters + 4*abi.FECounterKeys))
		if keys > prims*bins {
			return fmt.Errorf("binning_k: %d keys for %d primitives over %d bins", keys, prims, bins)
		}
		threads := uint32(c.Threads)
		if c.BlockIdx != [3]uint32{} {
			// The other CTAs read the keys too (the model counts it) and
			// have nothing to do: no copy of them.
			c.Touch(a.Keys, int(4*keys))
			c.ForEachThread(func(int) {})
			return nil
		}
		kb := make([]byte, 4*keys)
		c.Read(a.Keys, kb)
		// Each thread's keys (bin mod threads = tid) in key order, grouped once
		// instead of every thread scanning all keys: thread t walks
		// order[start[t]:start[t+1]], the same keys in the same order.
		var order, start []uint32
		if c.BlockIdx == [3]uint32{} && threads > 0 {
			start = make([]uint32, threads+1)
			for k := uint64(0); k < keys; k++ {
				start[binary.LittleEndian.Uint32(kb[4*k:])>>abi.PipePrimBits%threads+1]++
			}
			for t := uint32(0); t < threads; t++ {
				start[t+1] += start[t]
			}
			fill := append([]uint32(nil), start[:threads]...)
			order = make([]uint32, keys)
			for k := uint64(0); k < keys; k++ {
				t := binary.LittleEndian.Uint32(kb[4*k:]) >> abi.PipePrimBits % threads
				order[fill[t]] = uint32(k)
				fill[t]++
			}
		}
		// A thread's bins are b = tid + j·threads: its cursors are indexed by
		// j = b / threads (seen: the cursor has been loaded from Base).
		owned := (bins + uint64(threads) - 1) / uint64(max(threads, 1))
		cursor := make([]uint32, owned)
		seen := make([]bool, owned)
		base, tbuf, hist := c.Span(a.Base), c.Span(a.TBuf), c.Span(a.Hist)
		c.ForEachThread(func(tid int) {
			clear(cursor)
			clear(seen)
			for _, k32 := range order[start[tid]:start[tid+1]] {
				if c.Err() != nil {
					break
				}
				k := uint64(k32)
				key := binary.LittleEndian.Uint32(kb[4*k:])
				b := key >> abi.PipePrimBits
				if uint64(b) >= bins {
					c.Fail(fmt.Errorf("binning_k: key %d names bin %d of %d", k, b, bins))
					return
				}
				j := b / threads
				if a.Stage == abi.FEStageBHist {
					cursor[j]++
					continue
				}
				if !seen[j] {
					cursor[j], seen[j] = base.ReadU32(4*uint64(b)), true
				}
				tbuf.WriteU32(bins*abi.BinHeaderBytes+4*uint64(cursor[j]), key&(1<<abi.PipePrimBits-1))
				cursor[j]++
			}
			if a.Stage == abi.FEStageBHist {
				for b := uint32(tid); uint64(b) < bins; b += threads {
					hist.WriteU32(4*uint64(b), cursor[b/threads])
				}
			}
		})
	case abi.FEStageBBase:
		single(c, func() {
			var s uint32
			var hb [abi.BinHeaderBytes]byte
			hist, base, tbuf := c.Span(a.Hist), c.Span(a.Base), c.Span(a.TBuf)
			for b := uint64(0); b < bins && c.Err() == nil; b++ {
				h := hist.ReadU32(4 * b)
				base.WriteU32(4*b, s)
				abi.BinHeader{BinX: uint16(b % uint64(g.Cols)), BinY: uint16(b / uint64(g.Cols)), PidsOffset: s, PidsCount: h}.Put(hb[:])
				tbuf.Write(b*abi.BinHeaderBytes, hb[:])
				s += h
			}
		})
	default:
		return fmt.Errorf("binning_k: stage %d is not a binning stage", a.Stage)
	}
	return nil
}

// RegisterKernels adds the front-end kernels (setup_k, binning_k) to lib.
// msaa_resolve_k, named by the module image too, is the compiled-program
// device's and registered by it.
func RegisterKernels(lib *device.Library) error {
	if err := lib.Register(KernelSetup, setupKernel); err != nil {
		return err
	}
	return lib.Register(KernelBinning, binningKernel)
}

// ModuleImage is the front-end module image (setup_k, binning_k and
// msaa_resolve_k, vortexpipe §3.4.1), loaded at
// abi.LinkBaseFrontEnd: every kernel a Go kernel (ModuleImageFor(false)).
// spec: vortexpipe §2.4
func ModuleImage() ([]byte, error) { return ModuleImageFor(false) }

// ModuleImageFor is the front-end module image of a cores = "isa" device
// (isa) or an "ir" one. Under isa each kernel gfx/fecode has as machine code
// (binning_k, msaa_resolve_k) is an abi.KernelCode entry under its own name,
// its Go kernel kept under fecode.GoEntry(name) for the launches the code
// cannot take, and expand_k's program-independent code is added (the
// programs' vertex modules keep their Go expand_k); setup_k stays a Go
// kernel. spec: vortexpipe §2.4
func ModuleImageFor(isa bool) ([]byte, error) {
	entries := []abi.KernelImageEntry{
		abi.LibraryEntry("setup_k", KernelSetup), abi.LibraryEntry("binning_k", KernelBinning),
		abi.LibraryEntry("msaa_resolve_k", KernelResolve),
	}
	if isa {
		code, err := fecode.ResolveCode()
		if err != nil {
			return nil, err
		}
		entries[2] = abi.KernelImageEntry{Name: "msaa_resolve_k", Kind: abi.KernelCode, Payload: code}
		if code, err = fecode.BinningCode(); err != nil {
			return nil, err
		}
		entries[1] = abi.KernelImageEntry{Name: "binning_k", Kind: abi.KernelCode, Payload: code}
		entries = append(entries, abi.LibraryEntry(fecode.GoEntry("msaa_resolve_k"), KernelResolve),
			abi.LibraryEntry(fecode.GoEntry("binning_k"), KernelBinning))
		// expand_k's machine code is one kernel for every program (its Go
		// kernels are the programs' own, in their vertex modules).
		if code, err = fecode.ExpandCode(); err != nil {
			return nil, err
		}
		entries = append(entries, abi.KernelImageEntry{Name: "expand_k", Kind: abi.KernelCode, Payload: code})
	}
	return abi.EncodeKernelImage(entries)
}
