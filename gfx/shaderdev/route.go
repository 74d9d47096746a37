package shaderdev

import (
	"fmt"
	"strings"

	"vortexgfx/abi"
	"vortexgfx/config"
	"vortexgfx/device/swom"
	"vortexgfx/gfx/frontend"
	"vortexgfx/gfx/session"
	"vortexgfx/gl/format"
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
			return 0, fmt.Errorf("shaderdev: VORTEX_FORCE_SW: unknown unit %q (want tex, om, raster or all)", f)
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
func (d *Device) SetForceSW(u Units) { d.force = u & UnitsAll }

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

// route computes a draw's routing: key, forced units, missing units, then
// what the draw needs. spec: vortexpipe §2.3.3 (SW raster implies SW OM)
func (d *Device) route(dr *Draw, ms *swom.State) (session.Route, error) {
	var r session.Route
	k := dr.Key
	if k.Samples != 0 {
		if int(k.Samples) != d.tc.Samples {
			return r, fmt.Errorf("shaderdev: draw: variant key for %d samples on a %d-sample pass", k.Samples, d.tc.Samples)
		}
		var mask uint8
		for i, f := range d.tc.Colors {
			if f == format.BGRA8 {
				mask |= 1 << i
			}
		}
		if k.BGRAMask != mask {
			return r, fmt.Errorf("shaderdev: draw: variant key bgra mask %#x, the targets' is %#x", k.BGRAMask, mask)
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
	if dr.drawsLines() && !r.SWRaster {
		// The reference's 1/256-pixel line rule (linecover.go).
		sw(UnitRaster, "lines")
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

// mergeState is the draw's merger state on this device's planes: dr.Merge
// with the device's geometry filled in.
func (d *Device) mergeState(dr *Draw) (swom.State, error) {
	s := dr.Merge
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
		n, f := dr.depthRange()
		s.ClampMin, s.ClampMax = min(n, f), max(n, f)
	}
	if err := s.Check(); err != nil {
		return s, fmt.Errorf("shaderdev: draw: %w", err)
	}
	return s, nil
}

// drawDCRs returns a compiled draw's DCR writes: TEX (FF sampling), then with
// the FF raster its RASTER DCRs and either the merger state's FF OM banks
// (swom.State.FFDCRs) or, on the software merger, only EARLYZ_SAFE cleared
// (RASTER must not cull against a plane the FF unit does not own). The
// software raster writes none of RASTER and OM. A shader-written depth
// disarms early-Z. spec: vortexpipe §3.3
func (d *Device) drawDCRs(p *Program, ms *swom.State, route session.Route, tex []abi.DCRPair, rt *rasterTargets) ([]abi.DCRPair, error) {
	var out []abi.DCRPair
	if !route.SWTex {
		out = append(out, tex...)
	}
	if route.SWRaster {
		return out, nil
	}
	out = append(out, rt.dcrs()...)
	if route.SWOM {
		out = append(out, abi.DCRPair{Addr: abi.DCROMEarlyZSafe, Value: 0})
	} else {
		pairs, err := ms.FFDCRs()
		if err != nil {
			return nil, err
		}
		out = append(out, pairs...)
	}
	if p.fragDepth >= 0 {
		out = append(out, abi.DCRPair{Addr: abi.DCROMEarlyZSafe, Value: 0})
	}
	return out, nil
}

// rasterTargets is what a compiled draw points RASTER at: the target size,
// the front end's tile and primitive buffers, and the FS wrapper's entry and
// argument block.
type rasterTargets struct {
	w, h      int
	tile      uint64
	tileCount int
	prim      uint64
	fragArgs  uint64
	fragEntry uint64
	scissor   *frontend.BBox // the draw's, within the target (nil: the target)
}

// dcrs is the RASTER part of the host flow: buffers, scissor and the
// fragment-shader launch descriptor. spec: vortexpipe §3.3 step 1
func (rt *rasterTargets) dcrs() []abi.DCRPair {
	blk := func(a uint64) uint32 { return uint32(a >> 6) }
	sx, sy := uint32(rt.w)<<16, uint32(rt.h)<<16
	if sc := rt.scissor; sc != nil {
		// RASTER's destination window is the scissor rectangle: {max[31:16],
		// min[15:0]}, max exclusive. spec: rasterizer.md §4;
		// vortex-hardware-facts §2
		sx, sy = sc.R<<16|sc.L, sc.B<<16|sc.T
	}
	return []abi.DCRPair{
		{Addr: abi.DCRRasterTBufAddr, Value: blk(rt.tile)}, {Addr: abi.DCRRasterTileCount, Value: uint32(rt.tileCount)},
		{Addr: abi.DCRRasterPBufAddr, Value: blk(rt.prim)}, {Addr: abi.DCRRasterPBufStride, Value: abi.PrimBytes},
		{Addr: abi.DCRRasterScissorX, Value: sx}, {Addr: abi.DCRRasterScissorY, Value: sy},
		{Addr: abi.DCRRasterFragEntryLo, Value: uint32(rt.fragEntry)}, {Addr: abi.DCRRasterFragEntryHi, Value: uint32(rt.fragEntry >> 32)},
		{Addr: abi.DCRRasterFragParamLo, Value: uint32(rt.fragArgs)}, {Addr: abi.DCRRasterFragParamHi, Value: uint32(rt.fragArgs >> 32)},
	}
}

// RouteError is the error NewProgram returns for a program the device path
// does not run: the gated fallback of vortexpipe §1.5.1, typed so a driver
// counts its cause without reading the message. errors.Is(err, ErrRoute)
// holds for it. spec: vortexpipe §1.5.1, §2.3.3
type RouteError struct {
	// Program is the name the program was given (NewProgram's name).
	Program string
	// Reason is the cause as the same text for every program that has it:
	// a count of the program's own (attributes, varying words) reads "N",
	// so reasons tally per cause, not per program.
	Reason string
	// Detail is the cause with this program's own numbers.
	Detail string
}

// Error is "shaderdev: compiled program routed off the device: PROGRAM:
// DETAIL".
func (e *RouteError) Error() string { return ErrRoute.Error() + ": " + e.Program + ": " + e.Detail }

// Is reports whether target is ErrRoute.
func (e *RouteError) Is(target error) bool { return target == ErrRoute }

// routeError is program's refusal for reason; a reason written with a leading
// count ("%d varying words ...") is given n, which Detail shows and Reason
// writes as "N". n < 0: the reason has no count.
func routeError(program string, n int, reason string) *RouteError {
	if n < 0 {
		return &RouteError{Program: program, Reason: reason, Detail: reason}
	}
	return &RouteError{Program: program, Reason: "N " + reason, Detail: fmt.Sprintf("%d %s", n, reason)}
}
