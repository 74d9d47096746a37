package pipe

import (
	"errors"
	"fmt"
	"strings"
)

// Kind says what a routing reason does to a draw. spec: vortexpipe §1.5.1
type Kind uint8

// The kinds of reason: a gate sends the whole draw to the reference renderer; a
// route moves one fixed-function unit onto its on-device software fallback.
const (
	Gated Kind = iota + 1
	Routed
)

// String names the kind.
func (k Kind) String() string {
	switch k {
	case Gated:
		return "gated"
	case Routed:
		return "routed"
	}
	return "none"
}

// ReasonCode names one gate or route of the driver's eligibility rules.
// spec: vortexpipe §2.3.3, §3.1, §3.5, §3.6, §3.7
type ReasonCode uint8

// The reason codes. Gate* codes send the draw to the reference renderer, Route*
// codes keep it on the device with a unit in software.
const (
	_ ReasonCode = iota
	GateNoVS
	GateNoFS
	GateVSNotCompiled
	GateFSNotCompiled
	GateTopology
	GatePolygonMode
	GatePolygonOffset
	GateSampleCount
	GateQuery
	// GateRenderCondition is produced only for a BoundState that sets
	// QueryCondition; Context.Bound never does (the host evaluates the
	// predicate at each call).
	GateRenderCondition
	GateStreamOutput
	// GateMissingAttachment is no longer produced: outputs without an
	// attachment are dropped, as GL drops them.
	GateMissingAttachment
	GateTooManyRTs
	// GateMRTMultisample is no longer produced: 4x MSAA with several
	// attachments runs on the software raster and merger.
	GateMRTMultisample
	GateColorFormat
	GateDepthFormat
	GateTexFormat
	GateTexTarget
	GateTexOp
	GateAnisotropy
	GateWrap
	// GateDualSource: a dual-source blend factor with more than one colour
	// attachment (the second colour blends into attachment 0 only).
	GateDualSource
	// GateAlphaToCoverage, GateAlphaToOne and GateDepthClamp are no longer
	// produced: that state runs on the software merger (RouteAlphaToCoverage,
	// RouteAlphaToOne, RouteDepthClamp). The codes keep their values.
	GateAlphaToCoverage
	GateAlphaToOne
	GateDepthClamp
	// GateDepthClip: depth-clip disable without depth clamp over a float
	// depth attachment (which would store the unclamped depth).
	GateDepthClip
	GateVaryings
	GateFramebufferSize
	GateForcedReference
	// GateDeviceBackend: Route keeps the draw on the device, but the device
	// backend (package gfx/shaderdev) does not implement part of it yet; the detail
	// names the part.
	GateDeviceBackend

	RouteNoTEX
	RouteNoRASTER
	RouteNoOM
	RouteForcedTEX
	RouteForcedRASTER
	RouteForcedOM
	RouteTexNPOT
	RouteTexTarget
	RouteTexShadow
	RouteTexFormat
	RouteTexOp
	RouteTexFilter
	RouteTexWrap
	RouteTexStages
	RouteTexSize
	RouteColorFormat
	RouteDepthFormat
	RouteMRTDepthWrite
	RouteMultisample
	RouteRasterImpliesOM
	RouteAperture
	RouteAlphaTest
	RouteDepthBounds
	RouteDualSource
	RouteAlphaToCoverage
	RouteAlphaToOne
	RouteDepthClamp
	RouteTexAniso
	RouteOcclusionQuery
	RouteDepthClip
	RouteManyRTs
	// Gates added after the routes, so every earlier code keeps its value.
	GateFlatShade
	GateTwoSide
	// GateFlatPolygons: flat varyings on quads, quad strips or polygons
	// (the device takes each triangle's last vertex as provoking, GL the
	// quad's last or the polygon's first).
	GateFlatPolygons
	// RouteTexLod: a mipmapping sampler with a LOD bias or a LOD clamp that
	// cuts the chain; the FF TEX path forms the level from the derivatives
	// and the shader's bias alone, so the software sampler takes it.
	RouteTexLod
	// RouteTexView: a sampler view with a component swizzle or a level range
	// other than the texture's own (ViewState); the FF unit samples level 0
	// of the chain as stored.
	RouteTexView
	// RouteLines: a line draw rasterises on the software raster walk, which
	// tests the reference renderer's 1/256-pixel edge functions (RASTER's
	// Q15.16 edges cannot reproduce them on thin sloped primitives).
	RouteLines
	// GateGeometryStage: a geometry shader is bound; the device has no
	// geometry stage yet, the reference renderer runs the draw.
	GateGeometryStage
	// GateFramebufferFetch: the fragment shader reads the destination
	// colour (EXT_shader_framebuffer_fetch); the device's fragment wrapper
	// has no such input, the reference renderer runs the draw (ref/fetch.go
	// states its ordering).
	GateFramebufferFetch
	// GateStorage: the vertex or fragment shader uses storage buffers,
	// atomic counters or images; the device's vertex and fragment kernels
	// have no descriptor set, the reference renderer runs the draw
	// (pipe/storage.go).
	GateStorage
	numReasonCodes
)

var reasonNames = [numReasonCodes]string{
	GateNoVS:              "fixed-function vertex stage (no vertex shader)",
	GateNoFS:              "fixed-function fragment stage (no fragment shader)",
	GateVSNotCompiled:     "vertex shader has no device program",
	GateFSNotCompiled:     "fragment shader has no device program",
	GateTopology:          "adjacency without a geometry shader",
	GatePolygonMode:       "line/point polygon mode with clip planes or polygon offset",
	GatePolygonOffset:     "non-finite polygon offset",
	GateSampleCount:       "sample count other than 1, 2, 4, 8 or 16",
	GateQuery:             "open pipeline-statistics query",
	GateRenderCondition:   "query-based render condition",
	GateStreamOutput:      "draw count from stream output",
	GateMissingAttachment: "fewer bound attachments than fragment outputs",
	GateTooManyRTs:        "more than 8 colour attachments",
	GateMRTMultisample:    "multisample multi-attachment draw",
	GateColorFormat:       "colour attachment format neither merger encodes",
	GateDepthFormat:       "depth/stencil format neither merger encodes",
	GateTexFormat:         "texture format no device sampler decodes",
	GateTexTarget:         "texture target no device sampler addresses",
	GateTexOp:             "texture op no device sampler implements",
	GateAnisotropy:        "anisotropic filtering",
	GateWrap:              "wrap mode no device sampler implements",
	GateDualSource:        "dual-source blend factor with several colour attachments",
	GateAlphaToCoverage:   "alpha-to-coverage",
	GateAlphaToOne:        "alpha-to-one",
	GateDepthClamp:        "depth clamp",
	GateDepthClip:         "depth-clip disable without depth clamp over a float depth attachment",
	GateVaryings:          "more than 16 vec4 varyings or 64 flat words",
	GateFramebufferSize:   "framebuffer larger than 65535 pixels",
	GateForcedReference:   "reference path forced by option",
	GateDeviceBackend:     "the device backend does not implement it yet",

	RouteNoTEX:           "device lacks VX_ISA_EXT_TEX",
	RouteNoRASTER:        "device lacks VX_ISA_EXT_RASTER",
	RouteNoOM:            "device lacks VX_ISA_EXT_OM",
	RouteForcedTEX:       "TEX forced to software",
	RouteForcedRASTER:    "RASTER forced to software",
	RouteForcedOM:        "OM forced to software",
	RouteTexNPOT:         "non-power-of-two texture",
	RouteTexTarget:       "3D/cube/array texture",
	RouteTexShadow:       "shadow-compare sampler",
	RouteTexFormat:       "texture format the TEX unit does not decode",
	RouteTexOp:           "texture op the TEX unit has no form of",
	RouteTexFilter:       "min and mag filters differ",
	RouteTexWrap:         "wrap mode the TEX unit lacks (mirror-clamp, legacy clamp)",
	RouteTexStages:       "more textures than TEX stages",
	RouteTexSize:         "texture larger than the TEX unit addresses",
	RouteColorFormat:     "non-A8R8G8B8 colour attachment",
	RouteDepthFormat:     "non-D24S8 depth/stencil attachment",
	RouteMRTDepthWrite:   "multi-attachment draw writes depth/stencil",
	RouteMultisample:     "multisample pass",
	RouteRasterImpliesOM: "software raster implies software merger",
	RouteAperture:        "framebuffer exceeds the OM aperture",
	RouteAlphaTest:       "alpha test (software merger)",
	RouteDepthBounds:     "depth-bounds test (software merger)",
	RouteDualSource:      "dual-source blending (software merger)",
	RouteAlphaToCoverage: "alpha-to-coverage (software merger)",
	RouteAlphaToOne:      "alpha-to-one (software merger)",
	RouteDepthClamp:      "depth clamp (software merger, near clip off)",
	RouteTexAniso:        "anisotropic filtering (software sampler)",
	RouteOcclusionQuery:  "open occlusion query (the software merger counts samples)",
	RouteDepthClip:       "depth-clip disable (software merger, clip off, depth clamped to [0, 1])",
	RouteManyRTs:         "5 to 8 colour attachments (software merger)",

	GateFlatShade:    "glShadeModel(GL_FLAT) on the legacy colours",
	GateTwoSide:      "two-sided colour (GL_VERTEX_PROGRAM_TWO_SIDE) on colours the device does not pack",
	GateFlatPolygons: "flat varyings on quads or polygons (their provoking vertex is not each triangle's last)",

	RouteTexLod:          "sampler LOD bias or LOD clamp on a mipmapped texture (software sampler)",
	RouteTexView:         "view swizzle or level range (software sampler)",
	RouteLines:           "lines (software raster, the reference line rule)",
	GateGeometryStage:    "geometry shader",
	GateFramebufferFetch: "fragment shader reads the framebuffer (framebuffer fetch)",
	GateStorage:          "storage buffers, atomic counters or images in a vertex or fragment shader",
}

// String describes the reason.
func (c ReasonCode) String() string {
	if c > 0 && c < numReasonCodes {
		return reasonNames[c]
	}
	return fmt.Sprintf("reason(%d)", uint8(c))
}

// Kind says whether the reason gates the draw or routes a unit.
func (c ReasonCode) Kind() Kind {
	switch {
	case c >= GateNoVS && c <= GateDeviceBackend, c >= GateFlatShade && c <= GateFlatPolygons, c == GateGeometryStage, c == GateFramebufferFetch, c == GateStorage:
		return Gated
	case c >= RouteNoTEX && c <= RouteManyRTs, c == RouteTexLod, c == RouteTexView, c == RouteLines:
		return Routed
	}
	return 0
}

// Reason is one gate or route with the detail that triggered it.
type Reason struct {
	Code   ReasonCode
	Detail string // e.g. "rt 1 format R32F", "sampler 0 wrap_s MIRROR_CLAMP_TO_BORDER"
}

// String formats the reason with its detail.
func (r Reason) String() string {
	if r.Detail == "" {
		return r.Code.String()
	}
	return r.Code.String() + " (" + r.Detail + ")"
}

// ErrStrict is wrapped by every error STRICT mode returns instead of a fallback.
// spec: vortexpipe §1.5
var ErrStrict = errors.New("pipe: STRICT: draw would fall back to the reference renderer")

// StrictError names the reasons a draw would have left the device.
type StrictError struct {
	Reasons []Reason
}

// Error lists the reasons.
func (e *StrictError) Error() string {
	parts := make([]string, len(e.Reasons))
	for i, r := range e.Reasons {
		parts[i] = r.String()
	}
	return ErrStrict.Error() + ": " + strings.Join(parts, "; ")
}

// Unwrap returns ErrStrict.
func (e *StrictError) Unwrap() error { return ErrStrict }
