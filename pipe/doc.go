// Package pipe is the driver core: a Gallium-style API (Screen, Context, CSOs,
// Resources, DrawInfo, queries) whose state is captured as Vortex encodings when
// it is created or bound, a pure routing function that sends each draw to the
// device (with any fixed-function unit on its on-device software fallback) or to
// the reference renderer, the screen's residency table, and host index
// translation. spec: vortexpipe-driver §1, §2.3, §2.5, §3.1–§3.7
//
// # State capture (§1.4)
//
// The fixed-function enums of the CSO descriptions are the gl tree's, one per
// concept (compare.Func, stencil.Op, blend.Factor, blend.Equation,
// logicop.Op), shared with ref, scene and the software merger; each has one
// explicit mapping onto its OM code (the OM method), which capture uses.
// NewDSA, NewBlend, NewSampler and NewRasterizer turn that state
// into OM/TEX register words once: DEPTH_FUNC in the OM's compare order, the
// two-sided STENCIL_* words (front [15:0], back [31:16]), BLEND_MODE/BLEND_FUNC/
// LOGIC_OP per attachment (a logic op supersedes blending), CBUF_WRITEMASK and
// BLEND_CONST in both attachment byte orders (RGBA8 and BGRA8), TEX_FILTER/WRAP/
// BORDER and the LOD clamp and bias in 8-bit fixed point. DrawDCRs then emits a
// draw's RASTER, OM and TEX DCR writes straight from those words. State the
// encodings cannot express is never projected onto the nearest one (§1.5.1): it
// is recorded on the CSO as a Reason and routing gates or routes on it.
// CONSTANT_ALPHA factors are not in that list: the OM's CONST_A factor is
// exactly GL's CONSTANT_ALPHA, so they run on the merger.
//
// # What runs where
//
// Route decides per direct draw. "FF" is the fixed-function unit, "SW" its
// on-device software fallback selected through the FS variant key {sw_tex,
// sw_om, sw_raster, samples, bgra_mask}, "ref" the reference renderer.
//
//	Input                                          Runs on          Reason
//	triangles, strips, fans (indexed u8/u16/u32)   device           strips/fans/restart → list on the host
//	quads, quad strips, polygons                   device           → list on the host, in ref's order
//	  the same with flat varyings                  ref              GateFlatPolygons
//	instancing, base vertex/instance               device           (VS arg block)
//	multi-draw, indirect (+ count buffer)          device           split/resolved on the host
//	lines, strips, loops (any width; restart)      RASTER SW        RouteLines (LineList → segments; prim_k
//	                                                                  widens them as ref does, the SW walk
//	                                                                  tests ref's 1/256-pixel edge rule)
//	points (API or gl_PointSize), gl_PointCoord    device           (prim_k: a pixel-exact square per point)
//	  lines/points with clip planes/distances      device           (prim_k clips them by the planes)
//	  lines/points on MSAA (any count)             RASTER+OM SW     (prim_k: GL's multisample rectangle / square)
//	adjacency without a geometry shader            ref              GateTopology
//	GL_LINE/GL_POINT polygon modes (triangles,
//	  strips, fans, quads, polygons; cull first)   device           (prim_k: edges as lines, vertices as
//	                                                                  points, fan diagonals hidden by
//	                                                                  PolygonEdgeFlags; LINE: RouteLines)
//	  on MSAA (any count)                          RASTER+OM SW     (the multisample line / point shapes)
//	  with clip planes, no FILL face kept          device           (prim_k clips the face's polygon by the
//	                                                                  planes first, then draws its edges)
//	  with clip planes and a kept FILL face        ref              GatePolygonMode (ref's polygon modes)
//	  with an offset enable on a kept face
//	    (OffsetTri on FILL, OffsetLine on LINE,
//	    OffsetPoint on POINT)                      ref              GatePolygonMode (ref's polygon modes)
//	adjacency topologies (GL 3.2), no GS           ref              GateTopology (their main vertices drawn)
//	a bound geometry shader (BindGSState)          ref              GateGeometryStage (the device has no
//	                                                                geometry stage yet: future work)
//	framebuffer fetch (inout outputs,
//	  gl_LastFragData)                             ref              GateFramebufferFetch (no wrapper input
//	                                                                for the destination; ref/fetch.go)
//	storage buffers, atomic counters, images in
//	  the VS or FS (SetStorageBindings)            ref              GateStorage (no descriptor set in the
//	                                                                VS/FS kernels; storage.go)
//	polygon offset (factor, units, clamp; FILL)    device           (setup_k offsets the depth plane)
//	  non-finite factor, units or clamp            ref              GatePolygonOffset (ref's error)
//	viewports of any size/position, non-integer,
//	  y-flipped; depth ranges incl. [0,0], [1,0]   device           (setup_k takes the viewport; RASTER_SCISSOR)
//	scissor rectangles (clamped; empty: nothing)   device           (RASTER_SCISSOR and setup_k's boxes)
//	  a viewport corner beyond ±32768              ref              GateDeviceBackend
//	depth clamp (near clip off, depth clamped)     OM SW            RouteDepthClamp
//	depth-clip disable without depth clamp         OM SW            RouteDepthClip (clamped to [0, 1])
//	  the same over a D32F attachment              ref              GateDepthClip
//	draw count from stream output                  ref              GateStreamOutput
//	open occlusion counter/predicate               OM SW            RouteOcclusionQuery (the merger counts)
//	open primitives-generated query                device           (counted on the host)
//	open pipeline-statistics query                 ref              GateQuery
//	query-based render condition                   either           (evaluated on the host per call)
//	VS/FS without a device program                 ref              GateVSNotCompiled, GateFSNotCompiled
//	fixed-function vertex/fragment stage (unbound) device           (a generated stage: ffgen.go)
//	  FS reading varyings FixedVertex lacks        ref              GateNoVS
//	4 to 16 vec4 varyings, up to 64 flat words     device           (planes + per-primitive side array)
//	more than 16 vec4 varyings or 64 flat words    ref              GateVaryings
//	noperspective varyings                         device           (screen-space planes)
//	user clip planes, gl_ClipDistance[] (8)        device           (setup_k clips; SetClipState)
//	gl_CullDistance[] (ARB_cull_distance)          ref              GateDeviceBackend (setup_k has no cull test)
//	two-sided colour (LightTwoSide), CCW fronts    device           (the FS wrapper reads the back colour)
//	  on colours the program does not pack, CW     ref              GateTwoSide
//	GL_FLAT (Flatshade) on interpolated colours    device           (the flat-colour program variant)
//	built-in uniforms (gl_ModelViewMatrix, ...)    either           (SetLegacyState, set at each draw)
//	vertex colour clamp (ClampVertexColor)         device           (folded into the vertex stage)
//	all 8 depth funcs, two-sided stencil           OM FF
//	5 equations, 15 factors incl. CONSTANT_ALPHA   OM FF
//	16 logic ops, RGBA write mask, BGRA8 targets   OM FF            (bgra_mask in the key)
//	MRT up to 4                                    OM FF
//	MRT with 5 to 8 attachments                    OM SW            RouteManyRTs
//	depth-only pass (no colour attachment)         OM FF            (shaderdev.TargetConfig.NoColor)
//	outputs beyond the bound attachments           dropped, as GL does, on either path
//	MRT with depth/stencil writes                  OM SW            RouteMRTDepthWrite
//	sRGB8A8 / R8 / RG8 / float / integer colour    OM SW            RouteColorFormat
//	D16 / D32F / S8 depth-stencil                  OM SW            RouteDepthFormat
//	non-colour / other depth formats               ref              GateColorFormat, GateDepthFormat
//	framebuffer beyond the OM aperture             OM SW            RouteAperture
//	framebuffer over 65535 pixels                  ref              GateFramebufferSize
//	alpha test, depth bounds                       OM SW            RouteAlphaTest, RouteDepthBounds
//	dual-source factors (2nd colour: index 1,
//	  else location 1)                             OM SW            RouteDualSource
//	dual source with several attachments           ref              GateDualSource
//	alpha-to-coverage, alpha-to-one                OM SW            RouteAlphaToCoverage, RouteAlphaToOne
//	2x / 4x / 8x / 16x MSAA (gl/msaa positions)    RASTER+OM SW     RouteMultisample
//	MSAA with MRT                                  RASTER+OM SW     RouteMultisample
//	other sample counts                            ref              GateSampleCount
//	gl_SampleID/Position/MaskIn, gl_SampleMask,
//	  sample qualifier, SetMinSamples,
//	  interpolateAt*                               RASTER+OM SW     (per-sample walk on MSAA; FF on 1 sample)
//	SetSampleMask (GL_SAMPLE_MASK)                 as the draw      (FS flags [47:32]; ref skips a draw masking its sample)
//	2D POT BGRA8 (RGBA8 host-swizzled) textures    TEX FF           2 samplers (stage = binding), else RouteTexStages
//	CLAMP/REPEAT/MIRROR/BORDER, mip filters        TEX FF           bilinear MIRROR/BORDER: TEX SW, RouteTexWrap
//	mirror-clamps, legacy CLAMP                    TEX SW           RouteTexWrap
//	anisotropic filtering                          TEX SW           RouteTexAniso
//	LOD bias / LOD clamp on a mipmapping sampler   TEX SW           RouteTexLod (the FF level has no form of them)
//	view swizzle, base/max level (ViewState)       TEX SW           RouteTexView
//	NPOT, 3D, cube, 1D/2D/cube arrays, RECT, MS    TEX SW           RouteTexNPOT, RouteTexTarget
//	buffer textures (CreateBufferView)             TEX SW           RouteTexTarget ("BUFFER")
//	shadow samplers, min≠mag filter                TEX SW           RouteTexShadow, RouteTexFilter
//	texel offsets (textureOffset and its kin)      TEX SW           shaderdev's route (vx_tex has no offset)
//	texelFetch (+ txf_ms), textureGather (+ cube),
//	  textureQueryLod, textureQueryLevels          TEX SW           RouteTexOp
//	every other format (sRGB, R8, RG8, float,
//	  depth, stencil, integer, snorm, unorm16)     TEX SW           RouteTexFormat
//	device without TEX / RASTER / OM               that unit SW     RouteNoTEX, RouteNoRASTER, RouteNoOM
//	VORTEX_FORCE_SW=tex|om|raster|all              that unit SW     RouteForced*
//	software RASTER                                OM SW too        RouteRasterImpliesOM
//
// Empty draws (no vertices or instances, no framebuffer area, rasterizer
// discard, culling both faces of triangles) run nowhere.
//
// # Fallback contract (§1.5)
//
// Context.Plan resolves a DrawInfo into direct draws, routes each and, for the
// device path, translates its indices. With Options.Strict (VORTEX_STRICT=1) a
// draw that would reach the reference renderer fails with a *StrictError naming
// every reason; without it each fallback is counted per reason in Context.Stats,
// never silent. Context.DrawVBO adds the device backend's own gates
// (GateDeviceBackend) to the same contract and, after each draw on the
// reference renderer, calls Residency.MarkAllDirty (§1.3).
//
// # Residency (§1.3)
//
// Screen.Residency keeps one runtime.Buffer per recorded host range of a
// Resource, uploaded only while dirty: the flag starts true and only a completed
// upload clears it, every Resource.Write marks overlapping entries dirty,
// MarkAllDirty distrusts all of them and Resource.Destroy evicts, so a reused
// resource id never serves a previous resource's bytes. Lookup resolves any offset
// inside a recorded range to its device address. ResolveTexture keeps a
// texture's TEX-unit layout (TexUpload: A8R8G8B8 levels and the MIPOFF table)
// under the same rules.
//
// # Host-side helpers for the draw
//
// ResolveDraws and TriangleList/WidenIndices are the host index translation of
// §3.1; AttribTable builds the VS attribute table of §2.5; Context.Clear clears
// the attachments (on the device when it holds them); D24S8ToOM/OMToD24S8 convert a depth
// attachment between its stored layout and the OM's word for the pass seed and
// readback (§3.2).
//
// # Drawing
//
// CreateShaderState compiles a stage's GLSL (shader.Compile: front end, link
// of the stage alone, lowering to verified IR) and fills ShaderInfo from the
// compiler; the (VS, FS) pair is linked, through shader.Compile of both
// sources, at the first draw that binds it and kept per screen with its device
// program variants (at most MaxFSVariants, compiled lazily by
// shaderdev.NewProgram, made resident once with shaderdev.Device.AddProgram).
// A pair with an unbound stage is GL's fixed-function stage there: the
// reference renderer runs program.FixedVertex/FixedFragment, the device a
// program whose missing stage is GLSL the driver generates for exactly
// that, compiled through the same door and cached per (pair, ffKey)
// (ffgen.go; spec: vortexpipe-driver.md §1.5.1).
// Context.DrawVBO plans, then runs each direct draw on the device path
// (shaderdev.Device: attribute bindings from the vertex buffers and elements,
// the resident index buffer or the translated list, uniform words from
// SetUniform and constant buffer 0, depth/blend/cull state from the CSOs,
// textures from the sampler views) or on the reference renderer (package ref
// with ref/program running the same compiled program). The device draw carries
// the whole merger state (shaderdev.Draw.Merge: depth, two-sided stencil,
// per-target blend and write masks, logic op, alpha and depth-bounds tests,
// dual-source factors, alpha-to-coverage/one, depth clamp) and the variant
// key, so units routed to software run on the device. A draw
// Route keeps on the device that the device backend cannot take yet gates
// with GateDeviceBackend naming the part: a viewport reaching past the
// device coordinate range (or one the reference renderer refuses), a
// multisample attachment whose samples
// differ within a pixel when the device must reload it, a sampled sampler
// without a texture, and whatever shaderdev.NewProgram refuses
// (Context.Where gives this whole decision without drawing). Textures the FF
// TEX unit samples exactly (2D power-of-two RGBA8/BGRA8, one filter, no
// mipmaps unless the chain is the one Context.GenerateMipmap made, no border
// colour) bind level 0 for the unit (a generated chain is built by shaderdev
// with each draw); every other texture, and every texture of
// a draw whose key routes TEX to software, binds all its levels with the full
// sampler state for the software sampler (shaderdev.Device.UploadRefTexture), resident per
// version of the texture and sampler state. Vertex elements whose layout is the attribute's words bind the
// resident buffer; others are converted on the host per draw.
//
// # One framebuffer
//
// The attachments' host storage and the device's planes hold one framebuffer
// state. A framebuffer of one RGBA8/BGRA8 attachment (and optionally D24S8)
// uses the device's default A8R8G8B8/D24S8 planes, loaded from the host with
// any contents; any other (several attachments, none — a depth-only pass —,
// other formats, 2x/4x/8x/16x MSAA) gets
// planes of its own formats (shaderdev.TargetConfig), which are recreated from the
// attachments' recorded clear values or seeded with their contents
// (shaderdev.Device.WriteTarget/WriteDepthStencil: one sample per pixel, so a multisample attachment
// qualifies when its samples agree in every pixel). A device draw loads the planes unless
// they already hold those surfaces at their current versions; host work (a
// reference draw, a host Clear, Blit, Resource.Read/Write of an attachment,
// Finish, ReadPixels) reads the planes back first when device draws wrote them
// since (a multisample attachment sample-major, as stored) — except a
// whole-image Blit resolve of an RGBA8/BGRA8 multisample attachment the device holds, which runs the
// device's own pass-end resolve. Clear runs on the device when its planes
// hold exactly the bound attachments. After a reference draw every resident
// range is marked dirty. Context.SetReferenceConfig sets the reference
// renderer's workers and can wrap the stages it runs (instrumentation).
//
// # Queries
//
// Occlusion counters and predicates count the samples passing the
// per-sample tests: on the device the software merger counts them (routing
// sends OM to software under an open occlusion query); on the reference
// renderer a second pass of the draw over a scratch stencil plane seeded with
// the depth attachment counts the samples passing the depth test (at most 255
// per pixel and draw; not with the stencil test on). Primitives generated counts assembled primitives; time elapsed and
// timestamps are command-processor cycles of device draws; pipeline statistics
// stay zero. A render condition skips a call when its predicate says so.
//
// # Not implemented
//
// Multisample rendering on the reference renderer (a 2x/4x/8x/16x
// framebuffer draws on the device only; Blit resolves it), line and point rasterization, polygon
// offset and unclamped float depth without the depth clip on the device, std140
// uniform blocks read from constant buffers other than 0, and the device
// backend gates above. The reference renderer has no alpha-to-coverage/one
// and takes no dual-source second colour from location 1, so such a draw that
// falls back for another reason renders without them (the device path is
// exact).
package pipe
