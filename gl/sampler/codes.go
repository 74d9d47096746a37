package sampler

import (
	"fmt"

	"vortexgfx/abi"
)

// This file maps the sampler's enums onto the TEX encodings: the FF unit's
// TEX_WRAP codes and the software sampler's descriptor codes (abi.SWTex*),
// one explicit table per encoding. spec: vortex-hardware-facts §4;
// vortexpipe-driver §3.6

var wrapNames = [...]string{"REPEAT", "MIRROR_REPEAT", "CLAMP_TO_EDGE", "CLAMP_TO_BORDER",
	"MIRROR_CLAMP_TO_EDGE", "CLAMP", "MIRROR_CLAMP", "MIRROR_CLAMP_TO_BORDER"}

// Valid reports whether w is a defined wrap mode.
func (w Wrap) Valid() bool { return int(w) < len(wrapNames) }

// String names the mode (GL's name without GL_, Gallium's for the mirrored
// repeat).
func (w Wrap) String() string {
	if w.Valid() {
		return wrapNames[w]
	}
	return fmt.Sprintf("sampler.Wrap(%d)", uint8(w))
}

// swTexWraps is the software descriptor's code of each wrap mode: the FF
// codes, then the modes only the software sampler decodes.
var swTexWraps = [...]abi.TexWrap{
	Repeat:              abi.WrapRepeat,
	MirroredRepeat:      abi.WrapMirror,
	ClampToEdge:         abi.WrapClamp,
	ClampToBorder:       abi.WrapBorder,
	MirrorClampToEdge:   abi.WrapMirrorClamp,
	Clamp:               abi.WrapClampLegacy,
	MirrorClamp:         abi.WrapMirrorClampLegacy,
	MirrorClampToBorder: abi.WrapMirrorClampBorder,
}

// TEX maps w to the TEX_WRAP code. ff reports whether the fixed-function
// unit implements it (CLAMP_TO_EDGE, REPEAT, MIRROR, BORDER);
// MIRROR_CLAMP_TO_EDGE has a code only the software sampler decodes (ok,
// !ff); legacy CLAMP and the other mirror-clamp forms have no TEX_WRAP code
// (!ok: the software descriptor's SWTex codes carry them).
// spec: vortexpipe §3.6; vortex-hardware-facts §4
func (w Wrap) TEX() (code abi.TexWrap, ff, ok bool) {
	switch w {
	case Repeat, MirroredRepeat, ClampToEdge, ClampToBorder:
		return swTexWraps[w], true, true
	case MirrorClampToEdge:
		return abi.WrapMirrorClamp, false, true
	}
	return 0, false, false
}

// SWTex maps w to the software sampler descriptor's wrap code. ok is false
// for an undefined w.
func (w Wrap) SWTex() (abi.TexWrap, bool) {
	if !w.Valid() {
		return 0, false
	}
	return swTexWraps[w], true
}

// WrapFromSWTex is the inverse of SWTex. ok is false for an undefined code.
func WrapFromSWTex(c abi.TexWrap) (Wrap, bool) {
	for w, e := range swTexWraps {
		if e == c {
			return Wrap(w), true
		}
	}
	return 0, false
}

// swTexFilters, swTexMips and swTexSwizzles are the software descriptor's
// codes of the filters, mip filters and swizzle sources.
var (
	swTexFilters  = [...]abi.SWTexFilterMode{Nearest: abi.SWFilterNearest, Linear: abi.SWFilterLinear}
	swTexMips     = [...]abi.SWTexMipMode{MipNone: abi.SWMipNone, MipNearest: abi.SWMipNearest, MipLinear: abi.SWMipLinear}
	swTexSwizzles = [...]abi.SWTexSwizzle{SwizzleR: abi.SWSwizzleR, SwizzleG: abi.SWSwizzleG, SwizzleB: abi.SWSwizzleB,
		SwizzleA: abi.SWSwizzleA, SwizzleZero: abi.SWSwizzleZero, SwizzleOne: abi.SWSwizzleOne}
)

// SWTex maps f to the software descriptor's filter code. ok is false for an
// undefined f.
func (f Filter) SWTex() (abi.SWTexFilterMode, bool) { return code(swTexFilters[:], f) }

// FilterFromSWTex is the inverse of Filter.SWTex.
func FilterFromSWTex(c abi.SWTexFilterMode) (Filter, bool) { return decode[Filter](swTexFilters[:], c) }

// SWTex maps m to the software descriptor's mip-filter code. ok is false for
// an undefined m.
func (m MipFilter) SWTex() (abi.SWTexMipMode, bool) { return code(swTexMips[:], m) }

// MipFilterFromSWTex is the inverse of MipFilter.SWTex.
func MipFilterFromSWTex(c abi.SWTexMipMode) (MipFilter, bool) {
	return decode[MipFilter](swTexMips[:], c)
}

// SWTex maps s to the software descriptor's swizzle code. ok is false for an
// undefined s.
func (s Swizzle) SWTex() (abi.SWTexSwizzle, bool) { return code(swTexSwizzles[:], s) }

// SwizzleFromSWTex is the inverse of Swizzle.SWTex.
func SwizzleFromSWTex(c abi.SWTexSwizzle) (Swizzle, bool) {
	return decode[Swizzle](swTexSwizzles[:], c)
}

// code is table[v], ok false when v is past the table.
func code[C any, V ~uint8](table []C, v V) (C, bool) {
	if int(v) >= len(table) {
		var zero C
		return zero, false
	}
	return table[v], true
}

// decode is the index of c in table, ok false when c is not in it.
func decode[V ~uint8, C comparable](table []C, c C) (V, bool) {
	for v, e := range table {
		if e == c {
			return V(v), true
		}
	}
	return 0, false
}
