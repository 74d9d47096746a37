package gfx

import (
	"fmt"
	"strings"

	"vortexgfx/abi"
	"vortexgfx/config"
	"vortexgfx/device/swom"
	"vortexgfx/gl/blend"
	"vortexgfx/gl/compare"
	"vortexgfx/gl/format"
	"vortexgfx/gl/stencil"
	"vortexgfx/trace"
)

// Units is a set of fixed-function graphics units. spec: vortexpipe §2.3.3
type Units uint8

// The units a draw may route to their on-device software fallbacks.
const (
	UnitTex Units = 1 << iota
	UnitOM
	UnitRaster
	UnitsAll = UnitTex | UnitOM | UnitRaster
)

// String lists the units ("tex|om|raster", "none").
func (u Units) String() string {
	var p []string
	for _, x := range []struct {
		u Units
		n string
	}{{UnitTex, "tex"}, {UnitOM, "om"}, {UnitRaster, "raster"}} {
		if u&x.u != 0 {
			p = append(p, x.n)
		}
	}
	if len(p) == 0 {
		return "none"
	}
	return strings.Join(p, "|")
}

// ParseForceSW parses a VORTEX_FORCE_SW value: units separated by '|' or
// ',' among tex, om, raster and all ("" is none). spec: vortexpipe §2.3.3
func ParseForceSW(s string) (Units, error) {
	var u Units
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == '|' || r == ',' || r == ' ' }) {
		switch strings.ToLower(f) {
		case "tex":
			u |= UnitTex
		case "om":
			u |= UnitOM
		case "raster":
			u |= UnitRaster
		case "all":
			u |= UnitsAll
		default:
			return 0, fmt.Errorf("gfx: VORTEX_FORCE_SW: unknown unit %q (want tex, om, raster or all)", f)
		}
	}
	return u, nil
}

// unitsOf is the units a configuration has (its VX_ISA_EXT_TEX/RASTER/OM bits).
func unitsOf(cfg config.Config) Units {
	var u Units
	if cfg.Device.TEX {
		u |= UnitTex
	}
	if cfg.Device.OM {
		u |= UnitOM
	}
	if cfg.Device.RASTER {
		u |= UnitRaster
	}
	return u
}

// SetForceSW forces units to their software fallbacks for every later draw
// on a capable device (the driver parses VORTEX_FORCE_SW with ParseForceSW),
// for A/B testing. spec: vortexpipe §2.3.3
func (d *ShaderDevice) SetForceSW(u Units) { d.force = u & UnitsAll }

// Variant is the FS variant key of vortexpipe §2.3.1 (pipe.VariantKey's
// fields): the units it sets run in software; a unit it leaves clear still
// runs in software when the device lacks it or the draw needs what the FF
// unit has no form of. The zero Variant asks for nothing; a key with Samples
// set must agree with the device's targets (Samples, and BGRAMask bit i set
// exactly when colour target i is BGRA8). spec: vortexpipe §2.3.1, §2.3.3
type Variant struct {
	SWTex, SWOM, SWRaster bool
	Samples               uint8
	BGRAMask              uint8
}

// DrawRoute is where a draw's units ran and why each software one did.
// spec: vortexpipe §1.5 (no silent fallback), §2.3.3
type DrawRoute struct {
	SWTex    bool     `json:"sw_tex"`
	SWOM     bool     `json:"sw_om"`
	SWRaster bool     `json:"sw_raster"`
	Why      []string `json:"why,omitempty"`
}

// route computes a draw's routing: key, forced units, missing units, then
// what the draw needs. spec: vortexpipe §2.3.3 (SW raster implies SW OM)
func (d *ShaderDevice) route(dr *ShaderDraw, ms *swom.State) (DrawRoute, error) {
	var r DrawRoute
	k := dr.Key
	if k.Samples != 0 {
		if int(k.Samples) != d.tc.Samples {
			return r, fmt.Errorf("gfx: shader draw: variant key for %d samples on a %d-sample pass", k.Samples, d.tc.Samples)
		}
		var mask uint8
		for i, f := range d.tc.Colors {
			if f == format.BGRA8 {
				mask |= 1 << i
			}
		}
		if k.BGRAMask != mask {
			return r, fmt.Errorf("gfx: shader draw: variant key bgra mask %#x, the targets' is %#x", k.BGRAMask, mask)
		}
	}
	sw := func(u Units, why string) {
		switch u {
		case UnitTex:
			r.SWTex = true
		case UnitOM:
			r.SWOM = true
		default:
			r.SWRaster = true
		}
		r.Why = append(r.Why, u.String()+": "+why)
	}
	for _, u := range []Units{UnitTex, UnitOM, UnitRaster} {
		switch {
		case (u == UnitTex && k.SWTex) || (u == UnitOM && k.SWOM) || (u == UnitRaster && k.SWRaster):
			sw(u, "variant key")
		case d.force&u != 0:
			sw(u, "forced (VORTEX_FORCE_SW)")
		case d.caps&u == 0:
			sw(u, "device lacks VX_ISA_EXT_"+strings.ToUpper(u.String()))
		}
	}
	if d.tc.Samples > 1 && !r.SWRaster {
		sw(UnitRaster, "multisample pass")
	}
	if r.SWRaster && !r.SWOM {
		sw(UnitOM, "software raster")
	}
	if !r.SWOM {
		if why := ms.FFWhy(); why != "" {
			sw(UnitOM, why)
		}
	}
	return r, nil
}

// mergeState is the draw's merger state on this device's planes: the draw's
// Merge state, or the host-flow OM state (and Blend) converted.
func (d *ShaderDevice) mergeState(dr *ShaderDraw) (swom.State, error) {
	var s swom.State
	if dr.Merge != nil {
		s = *dr.Merge
	} else {
		s = fromHostFlow(&dr.OM, dr.Blend)
	}
	s.Width, s.Height, s.Samples = d.w, d.h, d.tc.Samples
	s.NumTargets = len(d.tc.Colors)
	for i, f := range d.tc.Colors {
		s.Targets[i].Format, s.Targets[i].Addr = f, d.colors[i].Addr()
	}
	for i := len(d.tc.Colors); i < swom.MaxTargets; i++ {
		s.Targets[i] = swom.Target{}
	}
	s.HasDS, s.DepthFormat, s.DSAddr = !d.tc.NoDepth, d.tc.Depth, d.zbuf.Addr()
	if s.DepthClamp && s.ClampMin == 0 && s.ClampMax == 0 {
		// GL depth clamp: the fragment depth is clamped to the depth range.
		n, f := dr.Near, dr.Far
		if n == 0 && f == 0 {
			f = 1
		}
		s.ClampMin, s.ClampMax = min(n, f), max(n, f)
	}
	if err := s.Check(); err != nil {
		return s, fmt.Errorf("gfx: shader draw: %w", err)
	}
	return s, nil
}

// fromHostFlow converts draw3d's host-flow OM state (and the optional blend
// state of target 0) to the merger's, with the host flow's encoding: blend
// factors from the trace's, a stencil whose ZFAIL op lands in ZPASS (draw3d's
// quirk, kept so the software merger writes what the FF unit does).
func fromHostFlow(st *trace.States, b *OMBlend) swom.State {
	cmp := func(c abi.CompareFunc) compare.Func { f, _ := compare.FromOM(c); return f }
	op := func(c abi.StencilOp) stencil.Op { o, _ := stencil.FromOM(c); return o }
	eq := func(m abi.BlendMode) blend.Equation { e, _ := blend.EquationFromOM(m); return e }
	fac := func(c abi.BlendFactor) blend.Factor { f, _ := blend.FactorFromOM(c); return f }
	s := swom.State{DepthTest: st.DepthTest, DepthWrite: st.DepthWriteMask, DepthFunc: cmp(st.DepthFunc.ToOM()),
		StencilTest: st.StencilTest}
	if st.StencilTest {
		f := swom.Face{Func: cmp(st.StencilFunc.ToOM()), Fail: op(st.StencilFail.ToOM()), ZPass: op(st.StencilZFail.ToOM()), ZFail: stencil.Keep,
			Ref: st.StencilRef, ReadMask: st.StencilMask, WriteMask: st.StencilWriteMask}
		s.Front, s.Back = f, f
	}
	m := uint8(st.ColorWriteMask & 0xF) // FF bits B, G, R, A
	bl := swom.Blend{WriteMask: m>>2&1 | m&2 | (m&1)<<2 | m&8, EqRGB: blend.Add, EqA: blend.Add,
		SrcRGB: blend.One, SrcA: blend.One, DstRGB: blend.Zero, DstA: blend.Zero}
	if st.BlendEnabled {
		sf, df := fac(st.BlendSrc.ToOM()), fac(st.BlendDst.ToOM())
		bl.Enable, bl.SrcRGB, bl.SrcA, bl.DstRGB, bl.DstA = true, sf, sf, df, df
	}
	if b != nil {
		bl.Enable = true
		bl.EqRGB, bl.EqA = eq(b.ModeRGB), eq(b.ModeA)
		bl.SrcRGB, bl.SrcA, bl.DstRGB, bl.DstA = fac(b.SrcRGB), fac(b.SrcA), fac(b.DstRGB), fac(b.DstA)
		c := b.Const
		s.Constant = [4]float32{float32(c>>16&0xFF) / 255, float32(c>>8&0xFF) / 255, float32(c&0xFF) / 255, float32(c>>24) / 255}
	}
	s.Targets[0].Blend = bl
	return s
}

// drawDCRs returns a compiled draw's DCR writes: TEX (FF sampling), then with
// the FF raster its RASTER DCRs and either the FF OM state — the host flow's
// exactly as draw3d writes it for the default targets and no Merge state, or
// the Merge state's per-target banks (swom.State.FFDCRs) — or, on the
// software merger, only EARLYZ_SAFE cleared (RASTER must not cull against a
// plane the FF unit does not own). The software raster writes none of RASTER
// and OM. A shader-written depth disarms early-Z. spec: vortexpipe §3.3
func (d *ShaderDevice) drawDCRs(dr *ShaderDraw, ms *swom.State, route DrawRoute, tex []DCRWrite, dt *drawTargets) ([]DCRWrite, error) {
	var out []DCRWrite
	if !route.SWTex {
		out = append(out, tex...)
	}
	if route.SWRaster {
		return out, nil
	}
	switch {
	case !route.SWOM && dr.Merge == nil && d.tc.isDefault():
		out = append(out, hostFlowDCRs(&dr.OM, dt)...)
		if b := dr.Blend; b != nil {
			out = append(out, DCRWrite{abi.DCROMBlendMode, abi.PackHalves(uint32(b.ModeRGB), uint32(b.ModeA))},
				DCRWrite{abi.DCROMBlendFunc, abi.PackBlendFunc(b.SrcRGB, b.SrcA, b.DstRGB, b.DstA)},
				DCRWrite{abi.DCROMBlendConst, b.Const})
		}
	case !route.SWOM:
		out = append(out, rasterDCRs(dt)...)
		pairs, err := ms.FFDCRs()
		if err != nil {
			return nil, err
		}
		for _, p := range pairs {
			out = append(out, DCRWrite{p.Addr, p.Value})
		}
	default:
		out = append(out, rasterDCRs(dt)...)
		out = append(out, DCRWrite{abi.DCROMEarlyZSafe, 0})
	}
	if dr.Program.fragDepth >= 0 {
		out = append(out, DCRWrite{abi.DCROMEarlyZSafe, 0})
	}
	return out, nil
}

// rasterDCRs is the RASTER part of the host flow: buffers, scissor and the
// fragment-shader launch descriptor. spec: vortexpipe §3.3 step 1
func rasterDCRs(dt *drawTargets) []DCRWrite {
	blk := func(a uint64) uint32 { return uint32(a >> 6) }
	return []DCRWrite{
		{abi.DCRRasterTBufAddr, blk(dt.Tile)}, {abi.DCRRasterTileCount, uint32(dt.TileCount)},
		{abi.DCRRasterPBufAddr, blk(dt.Prim)}, {abi.DCRRasterPBufStride, abi.PrimBytes},
		{abi.DCRRasterScissorX, uint32(dt.W) << 16}, {abi.DCRRasterScissorY, uint32(dt.H) << 16},
		{abi.DCRRasterFragEntryLo, uint32(dt.FragEntry)}, {abi.DCRRasterFragEntryHi, uint32(dt.FragEntry >> 32)},
		{abi.DCRRasterFragParamLo, uint32(dt.FragArgs)}, {abi.DCRRasterFragParamHi, uint32(dt.FragArgs >> 32)},
	}
}
