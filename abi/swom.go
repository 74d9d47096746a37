package abi

// Software output-merger descriptor (the resident gfx_sw_omcolor_t[] and the shared
// depth/stencil state as one record): what the FS wrapper reads from FS arg slot
// ArgFSSWMerger when OM runs in software. Little-endian u32 words:
//
//	word 0      magic "SWOM" (SWOMMagic)
//	word 1      width [15:0] | height [31:16]
//	word 2      samples [7:0] | colour targets [15:8] | depth format (OMDepthFormat) [23:16]
//	word 3      flags (SWOMFlag*)
//	word 4      depth func [7:0] | alpha func [15:8] (CompareFunc) | logic op [23:16]
//	words 5-6   front stencil: func | fail<<8 | zfail<<16 | zpass<<24; ref | read mask<<8 | write mask<<16
//	words 7-8   back stencil, the same
//	words 9-13  f32 depth-bounds min, max, depth-clamp min, max, alpha-test reference
//	word 14     reserved, 0
//	words 15-18 f32 blend constant R, G, B, A
//	words 19-20 u64 depth/stencil plane address
//	then SWOMMaxTargets entries of SWOMTargetWords words:
//	            format (gl/format code) [7:0] | write mask RGBA [11:8] | blend enable [12] |
//	            rgb equation [23:16] | alpha equation [31:24],
//	            src rgb | src alpha<<8 | dst rgb<<16 | dst alpha<<24 (SWOMFactor codes),
//	            u64 plane address
//
// The spec names the descriptor (gfx_sw_omcolor_t[], GFX_FS_ARG_MRT) but not its
// layout; this one is ours. spec: vortexpipe-driver §2.5 (FS arg slots 2 and 10),
// §3.4, §3.7; docs/ABI.md
const (
	SWOMMagic = 0x4D4F5753 // "SWOM"

	SWOMWordMagic        = 0
	SWOMWordSize         = 1
	SWOMWordLayout       = 2
	SWOMWordFlags        = 3
	SWOMWordFuncs        = 4
	SWOMWordFrontStencil = 5 // two words
	SWOMWordBackStencil  = 7 // two words
	SWOMWordBoundsMin    = 9
	SWOMWordBoundsMax    = 10
	SWOMWordClampMin     = 11
	SWOMWordClampMax     = 12
	SWOMWordAlphaRef     = 13
	SWOMWordConstant     = 15 // four words
	SWOMWordDSAddr       = 19 // two words
	SWOMWordTargets      = 21 // the first target entry

	SWOMTargetWords = 4
	SWOMMaxTargets  = 8
	SWOMDescBytes   = 4 * (SWOMWordTargets + SWOMTargetWords*SWOMMaxTargets)
)

// Flag bits of descriptor word SWOMWordFlags. spec: vortexpipe-driver §3.7 (the
// per-fragment stages the software merger runs)
const (
	SWOMFlagHasDS uint32 = 1 << iota
	SWOMFlagDepthTest
	SWOMFlagDepthWrite
	SWOMFlagStencilTest
	SWOMFlagDepthBounds
	SWOMFlagDepthClamp
	SWOMFlagAlphaTest
	SWOMFlagAlphaToCoverage
	SWOMFlagAlphaToOne
	SWOMFlagLogicOp
	SWOMFlagDualSource
	SWOMFlagsAll = 1<<iota - 1
)

// The software merger's blend-factor codes (descriptor target word 1): the OM's
// BlendFactor codes 0..14, then the dual-source factors the FF unit has no code
// for. spec: vortexpipe-driver §3.7 (dual-source blend)
const (
	SWOMFactorSrc1Color         BlendFactor = 15
	SWOMFactorOneMinusSrc1Color BlendFactor = 16
	SWOMFactorSrc1Alpha         BlendFactor = 17
	SWOMFactorOneMinusSrc1Alpha BlendFactor = 18
	SWOMNumFactors                          = 19
)

// SWOMTargetWord returns the index of word k of target entry i.
func SWOMTargetWord(i, k int) int { return SWOMWordTargets + SWOMTargetWords*i + k }
