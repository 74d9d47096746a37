// Package shaderdev runs compiled GLSL programs (package shader/lower) on the
// device model: a Device owns the colour and depth/stencil targets and runs
// a Program's draws (Draw), each ONE runtime draw.
//
// The vertex shader runs as the front end's stage 0 (one thread per vertex:
// index resolved on the device, instancing, the {base, stride, divisor}
// attribute table), expand_k packs the varyings onto the 12 interpolation
// planes and the flat words into the side array, the front end's setup_k and
// binning_k (package gfx/frontend, PlanesCompiled) build RASTER's buffers,
// and the fragment wrapper of vortexpipe-driver.md §3.4 runs around the
// fragment program (helper lanes, discard folded into coverage, vx_tex with
// the LOD from quad derivatives, vx_om_export); a program whose lanes cannot
// see each other runs on a wave's covered lanes only (fscompact.go: the same
// outputs in the same order, the helpers' work skipped), and a program that
// touches no memory but its textures shades several of a raster worker's
// waves in one executor run, each wave's head (reads) and tail (export,
// counters) still on its own CTA in launch order (fsbatch.go: the same
// bytes and counters, the executor's per-call cost paid per batch). Each stage is a Go closure in
// the device.Library that runs the ir.Program with shader/exec, loaded as a
// module image at abi.LinkBaseVS / LinkBaseFS; programs stay resident across
// draws (AddProgram, ProgramSlots). A draw's output-merger state is one
// swom.State (Draw.Merge), programmed on the FF OM by swom.State.FFDCRs or run
// by the software merger. spec: vortexpipe-driver.md §2.5, §3.2–§3.4
//
// Device.Draw runs as named phases of one drawState: validate, load (the
// program's modules), routeUnits, upload, frontEnd, fragment, submitUploads,
// record (the runtime draw's steps), run and collect (the counters). The
// front end runs in passes of at most PassTriangles triangles (the 16-bit
// pid); the vertex stage runs once over the whole draw before them, or, when
// the whole draw's vertex records do not fit device memory, per pass over
// that pass's vertices (a non-instanced draw streams). An indexed,
// non-instanced triangle list whose host indices repeat shades each distinct
// vertex once (vertexreuse.go: the VS reads the distinct indices, setup_k's
// triangle list their slots).
//
// Line and point draws run prim_k between the vertex stage and expand_k
// (primexpand.go): each segment or point becomes two triangles of records,
// clipped and sized as the reference renderer does; a line draw's pass runs
// prim_k's second stage after setup_k's EMIT, which hands each pid its exact
// corners (linecover.go) to the software raster walk. Line and point draws
// never stream.
//
// What runs where on the device fragment path (vortexpipe-driver.md §2.3.3, §3.6,
// §3.7, §3.4.1). Every route stays on the device; session.DrawStats.Route names the
// units a draw ran in software and why, and the software counters count what
// they did. Draw.Key (the FS variant key), SetForceSW (VORTEX_FORCE_SW)
// and a configuration without the TEX/RASTER/OM extension bits force units to
// software; forced and FF renders are byte-identical for the FF-encodable state.
//
//	input                                          TEX        RASTER     OM
//	A8R8G8B8/BGRA8, RGBA8 targets (byte order)     —          FF         FF
//	depth funcs, two-sided stencil, 5 equations,
//	  15 factors incl. CONSTANT_ALPHA, logic ops,
//	  write masks, up to 4 targets                 —          FF         FF
//	gl_FragDepth (D24S8; early-Z disarmed)         —          FF         FF
//	sRGB8A8, R8, RG8, float, integer targets       —          FF         software (device/swom)
//	D16, D32F, S8 planes                           —          FF         software
//	MRT with depth/stencil writes, 5–8 targets     —          FF         software
//	alpha test, alpha-to-coverage/one, depth
//	  bounds, dual source (SRC1_*)                 —          FF         software
//	near and far clip (far: compiled draws,
//	  FECounterFarClipped)                         —          either     either
//	user clip distances: gl_ClipDistance[0..7] or
//	  legacy planes on gl_ClipVertex/gl_Position
//	  (Draw.ClipDistances, ClipPlanes;
//	  expand_k appends them, setup_k clips)        —          either     either
//	depth clamp (setup_k skips the near clip,
//	  frontend.Args.DepthClipDisable)      —          FF         FF to [0, 1],
//	                                                                     else software
//	polygon offset (Draw.PolygonOffset: setup_k
//	  offsets each primitive's depth plane)        —          either     either
//	depth-only pass (TargetConfig.NoColor)         —          FF         FF (masks off)
//	outputs beyond the bound targets               dropped, as GL does (any route)
//	2x/4x/8x/16x MSAA (sample-major planes,
//	  gl/msaa positions, resolve kernel)           (software) software   software
//	per-sample shading (PerSample, MinSamples),
//	  gl_SampleID/Position/MaskIn, gl_SampleMask,
//	  gl_NumSamples, interpolateAt* (lower's
//	  interp.go: shaded per sample)                (software) software   software
//	  the same on one sample                       either     either     either
//	GL_SAMPLE_MASK (Draw.SampleMask: FS flags
//	  [47:32], the export mask; ABI.md row 40)     as the pass (FF on one sample)
//	power-of-two A8R8G8B8 2D, implicit LOD         FF         FF         (as above)
//	NPOT, 3D, cube, arrays, shadow, fetch, gather,
//	  formats, swizzles, mirror-clamp, aniso       software (device/swtex)
//	noperspective varyings (v·w on the plane)      —          either     either
//	vertex-stage texturing (VS slot 7 table)       software (device/swtex)
//	13–64 varying or flat words (the side array,
//	  abi.SideArrayWords)                          —          either     either
//	lines (Draw.Prim; prim_k's parallelograms,
//	  the exact 1/256-pixel rule per pid:
//	  abi.ArgFSLineCover)                          —          software   software
//	points, gl_PointCoord (prim_k's squares on
//	  the covered pixels' boundaries)              —          either     either
//	GL_LINE/GL_POINT polygon modes (Draw.FillFront,
//	  FillBack: prim_k, primpoly.go)               —          as lines / points
//
// The software raster is the FS wrapper launched as a compute grid that walks
// the bins itself (swRaster); the FF TEX and OM units answer RASTER-launched
// waves only, so it implies the software sampler and merger.
package shaderdev
