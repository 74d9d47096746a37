package codegen

import (
	"fmt"

	"vortexgfx/abi"
	"vortexgfx/device/simt"
	"vortexgfx/isa/rv32"
	"vortexgfx/shader/ir"
)

// Compute-stage texelFetch as machine code: the software sampler's fetch
// (device/swtex over gl/sampler's Texture.fetch) for the descriptors
// FetchDescriptorRefusal accepts — a single-sample 2D RGBA8, BGRA8 or RGBA32F
// texture with the identity swizzle — as plain loads from the texture's memory, with no
// branch (every lane-dependent choice is a mask, so a warp never diverges):
//
//   - the descriptor is entry Sampler of the table at compute arg slot
//     abi.ArgCSSWSampler (the IR kernel's swtex binding);
//   - base = min(BaseLevel, Levels-1), q = min(max(MaxLevel, base), Levels-1)
//     (gl/sampler's levelRange); the lane reads level lv = lod + base when
//     0 <= lod <= q - base and its texel (x, y) when 0 <= x < w, 0 <= y < h,
//     w and h level 0's halved lv times (at least 1, abi.SWTexDesc.LevelSize);
//   - the texel is at the level record's address (low word) + y·row + x·bytes
//     (4, or 16 for RGBA32F), row the record's pitch or w·bytes when 0
//     (abi.SWTexDesc.LevelPitches);
//   - a lane outside the level range or the level loads the descriptor's first
//     word instead (always mapped) and returns (0, 0, 0, 0), fetch's zero;
//   - RGBA8/BGRA8: the channels are bytes 0..3 (R, G, B, A; BGRA8: B, G, R,
//     A), each float32(b)/255 by fdiv.s, which equals format.ToFloatRGBA8's
//     float32(float64(b)/255) for every byte (TestFetchUNorm8); RGBA32F: the
//     four words as they are (format.ToFloat's Float32frombits). Both are
//     computed and the format's is kept by a mask.
//
// compute.Frame runs a dispatch whose bound texture is not such a descriptor on
// the program's IR kernel (or refuses it under Strict). Everything else about
// compute textures (sampling with filters, sizes, other formats) is refused at
// compile time with its name. spec: vortexpipe-driver.md §3.6 (the software
// sampler, gfx_sw_texstate_t), §2.5 (arg slot 8, docs/ABI.md row 29); docs/ABI.md
// row 45.

// FetchDescriptorRefusal says why a machine-code kernel's texelFetch cannot
// read the texture d describes ("" when it can): the kernel decodes only
// single-sample 2D RGBA8/BGRA8/RGBA32F textures with the identity swizzle whose
// levels lie below 4 GiB (RV32 addresses).
func FetchDescriptorRefusal(d *abi.SWTexDesc) string {
	switch {
	case d.Target != abi.SWTex2D:
		return fmt.Sprintf("target %v is not 2D", d.Target)
	case d.Samples > 1:
		return fmt.Sprintf("%d samples", d.Samples)
	case d.Format != abi.SWTexRGBA8 && d.Format != abi.SWTexBGRA8 && d.Format != abi.SWTexRGBA32F:
		return fmt.Sprintf("format %v is not RGBA8, BGRA8 or RGBA32F", d.Format)
	case d.Swizzle != [4]abi.SWTexSwizzle{abi.SWSwizzleR, abi.SWSwizzleG, abi.SWSwizzleB, abi.SWSwizzleA}:
		return fmt.Sprintf("swizzle %v", d.Swizzle)
	case d.Levels == 0 || d.Levels > abi.SWTexMaxLevels:
		return fmt.Sprintf("%d levels", d.Levels)
	}
	for l := 0; l < int(d.Levels); l++ {
		if d.Level[l].Addr>>32 != 0 || d.Level[l].Addr+d.LevelExtent(l) > 1<<32 {
			return fmt.Sprintf("level %d at 0x%x is beyond RV32's address space", l, d.Level[l].Addr)
		}
	}
	return ""
}

// fetchRefusal says why compute program p's texture instruction t is not
// compiled ("" when it is).
func fetchRefusal(p *ir.Program, t *ir.TexInfo) string {
	if t.Sampler < 0 || t.Sampler >= len(p.Samplers) {
		return fmt.Sprintf("texture instruction names sampler %d of %d", t.Sampler, len(p.Samplers))
	}
	b := p.Samplers[t.Sampler]
	switch {
	case t.Op != ir.TexFetch:
		return fmt.Sprintf("texture op %v (only texelFetch is compiled in compute programs)", t.Op)
	case b.Kind != ir.Sampler2D || b.Result != ir.F32:
		return fmt.Sprintf("sampler %s (%v) is not a float 2D sampler", b.Name, b.Kind)
	case t.HasOffset || t.HasOffsets || t.HasDynOffset:
		return fmt.Sprintf("sampler %s: a texel offset", b.Name)
	case t.NCoord != 2:
		return fmt.Sprintf("sampler %s: %d coordinates", b.Name, t.NCoord)
	}
	return ""
}

// xInto copies v's bits into integer register r.
func (g *gen) xInto(v vreg, r uint8) {
	g.ref(v, false)
	h := g.home[v]
	switch h.kind {
	case hX:
		g.a.mv(r, h.reg)
	case hF:
		g.a.r(rv32.FMVXW, r, h.reg, 0)
	case hStack:
		b, o := g.slot(h.off)
		g.a.lw(r, b, o)
	default:
		g.a.mv(r, rZero)
	}
}

// fetchLevel emits the level selection texelFetch and textureSize share
// (see above) for t on the descriptor table at arg slot slot: on exit D is
// the descriptor's address, T = 1 when 0 <= lod <= q - base (else 0), B = lv
// (0 where T is 0), W and H level lv's size, and with levels Y = q - base +
// 1, the levels from base; M and X are clobbered. It claims every scratch
// register.
func (g *gen) fetchLevel(t *ir.TexInfo, slot int, levels bool) (D, T, B, W, H, M, X, Y uint8) {
	a := &g.a
	g.reset()
	g.xs, g.fs = len(scratchX), 2
	D, T, B, W, H, M, X, Y = scratchX[0], scratchX[1], scratchX[2], scratchX[3], scratchX[4], scratchX[5], scratchX[6], scratchX[7]
	// pick sets dst to o where takeO leaves M = 1, by masks (H scratch).
	pick := func(dst, o uint8, takeO func()) {
		takeO() // M = 1 when o is to be taken
		a.r(rv32.SUB, M, rZero, M)
		a.r(rv32.XOR, H, dst, o)
		a.r(rv32.AND, H, H, M)
		a.r(rv32.XOR, dst, dst, H)
	}
	a.csrr(D, simt.CSRMscratch)
	a.lw(D, D, int32(slot*abi.ArgSlotBytes))
	a.addConst(D, D, int32(t.Sampler*abi.SWTexDescBytes), M)
	a.i(rv32.LBU, T, D, 2) // Levels
	a.i(rv32.ADDI, T, T, -1)
	a.lw(B, D, 0x10) // the view word: BaseLevel [3:0], MaxLevel [7:4]
	a.i(rv32.SRLI, W, B, 4)
	a.i(rv32.ANDI, W, W, 15)
	a.i(rv32.ANDI, B, B, 15)
	pick(B, T, func() { a.r(rv32.SLT, M, T, B) }) // base = min(base, last)
	pick(W, B, func() { a.r(rv32.SLT, M, W, B) }) // q = max(q, base)
	pick(W, T, func() { a.r(rv32.SLT, M, T, W) }) // q = min(q, last)
	a.r(rv32.SUB, W, W, B)
	a.i(rv32.ADDI, W, W, 1) // the levels from base
	if t.Lod != ir.NoReg {
		g.xInto(vreg(t.Lod), X)
	} else {
		a.mv(X, rZero)
	}
	a.r(rv32.SLTU, T, X, W) // ok: 0 <= lod < q - base + 1
	if levels {
		a.mv(Y, W)
	}
	a.r(rv32.ADD, B, X, B) // lv
	a.r(rv32.SUB, M, rZero, T)
	a.r(rv32.AND, B, B, M) // lv 0 on a lane that reads nothing
	for _, r := range []struct {
		reg uint8
		off int32
	}{{W, 4}, {H, 8}} { // w, h of level lv: max(size >> lv, 1)
		a.lw(r.reg, D, r.off)
		a.r(rv32.SRL, r.reg, r.reg, B)
		a.i(rv32.SLTIU, M, r.reg, 1)
		a.r(rv32.OR, r.reg, r.reg, M)
	}
	return
}

// texSize emits one ir.TexSize of a 2D sampler on the descriptor table at
// arg slot slot: gl/sampler's size — (w, h, 0, levels from base) of level
// lod + base when 0 <= lod <= q - base, else (0, 0, 0, levels from base).
func (g *gen) texSize(t *ir.TexInfo, slot int) {
	_, T, _, W, H, _, _, Y := g.fetchLevel(t, slot, true)
	a := &g.a
	a.r(rv32.SUB, T, rZero, T)
	a.r(rv32.AND, W, W, T)
	a.r(rv32.AND, H, H, T)
	for i, r := range [4]uint8{W, H, rZero, Y} {
		if t.Dst[i] != ir.NoReg {
			g.finX(vreg(t.Dst[i]), r)
		}
	}
	g.reset()
}

// texFetch emits one ir.TexFetch (see above) on the descriptor table at arg
// slot slot (abi.ArgCSSWSampler in a compute kernel, abi.ArgFSSWSampler in a
// fragment kernel). It claims every scratch register and names them itself.
func (g *gen) texFetch(t *ir.TexInfo, slot int) {
	a := &g.a
	D, T, B, W, H, M, X, Y := g.fetchLevel(t, slot, false)
	const lvl = abi.SWTexHeaderBytes
	g.xInto(vreg(t.Coord[0]), X)
	a.r(rv32.SLTU, M, X, W)
	a.r(rv32.AND, T, T, M)
	g.xInto(vreg(t.Coord[1]), Y)
	a.r(rv32.SLTU, M, Y, H)
	a.r(rv32.AND, T, T, M)
	a.r(rv32.SUB, T, rZero, T) // the lane mask: all ones when it reads a texel
	a.i(rv32.SLLI, B, B, 4)    // the level record, less the header
	a.r(rv32.ADD, B, B, D)
	g.isFormat(M, D, abi.SWTexRGBA32F) // texel bytes: 1 << (2 + 2·RGBA32F)
	a.i(rv32.SLLI, M, M, 1)
	a.i(rv32.ADDI, M, M, 2)
	a.r(rv32.SLL, X, X, M)
	a.r(rv32.SLL, W, W, M)
	a.lw(H, B, lvl+8) // row pitch, or the packed row when 0
	a.i(rv32.SLTIU, M, H, 1)
	a.r(rv32.SUB, M, rZero, M)
	a.r(rv32.AND, W, W, M)
	a.r(rv32.OR, H, H, W)
	a.lw(W, B, lvl) // the level's address (low word)
	a.r(rv32.MUL, M, Y, H)
	a.r(rv32.ADD, W, W, M)
	a.r(rv32.ADD, W, W, X)
	a.r(rv32.XOR, W, W, D) // addr = the texel, or the descriptor on a lane that reads nothing
	a.r(rv32.AND, W, W, T)
	a.r(rv32.XOR, W, W, D)
	a.lw(H, W, 0)                      // word 0 of the texel
	g.isFormat(Y, D, abi.SWTexRGBA32F) // Y: all ones for RGBA32F
	a.r(rv32.SUB, Y, rZero, Y)
	g.isFormat(M, D, abi.SWTexBGRA8) // M: R's bit offset, 16 for BGRA8
	a.i(rv32.SLLI, M, M, 4)
	const k255, f = 0, 1
	g.fliInto(k255, X, 255)
	for i := range 4 {
		dst := vreg(t.Dst[i])
		if t.Dst[i] == ir.NoReg {
			continue
		}
		switch i { // X: the unorm8 channel
		case 0:
			a.r(rv32.SRL, X, H, M)
		case 2:
			a.li(B, 16)
			a.r(rv32.SUB, B, B, M)
			a.r(rv32.SRL, X, H, B)
		default:
			a.i(rv32.SRLI, X, H, int32(8*i))
		}
		if i != 3 {
			a.i(rv32.ANDI, X, X, 0xFF)
		}
		a.fr(rv32.FCVTSWU, f, X, 0, rv32.RTZ) // exact: a byte
		a.fr(rv32.FDIVS, f, f, k255, rv32.RNE)
		a.r(rv32.FMVXW, X, f, 0)
		if i == 0 { // B: the RGBA32F word i (word 0 again for unorm8)
			a.mv(B, H)
		} else {
			a.i(rv32.ANDI, B, Y, int32(4*i))
			a.r(rv32.ADD, B, B, W)
			a.lw(B, B, 0)
		}
		a.r(rv32.XOR, B, B, X) // X = RGBA32F ? B : X, then 0 on a lane that reads nothing
		a.r(rv32.AND, B, B, Y)
		a.r(rv32.XOR, X, X, B)
		a.r(rv32.AND, X, X, T)
		g.finX(dst, X)
	}
	g.reset()
}

// isFormat sets r to 1 when the format byte of descriptor d is f, else 0.
func (g *gen) isFormat(r, d uint8, f abi.SWTexFormat) {
	g.a.i(rv32.LBU, r, d, 1)
	g.a.i(rv32.ADDI, r, r, -int32(f))
	g.a.i(rv32.SLTIU, r, r, 1)
}
