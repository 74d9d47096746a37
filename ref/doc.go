// Package ref is the reference renderer: the plain, obviously correct float
// pipeline every device result is compared against (spec: vortexpipe-driver
// §5.2, the CPU renderer is the correctness oracle). It has none of the
// limits of the software backend the spec describes (spec:
// software-shader-backend "Current limitations").
//
// # What ref shares with the device, and what it does not
//
// ref shares exactly two things with the device pipeline. The shader stage:
// the IR and its executor (shader/...). And the GL maths of the gl tree,
// which the device's software units (device/swtex, device/swom, gfx) and the
// FF OM (device/om) run too, each package tested against the GL 4.6 spec on
// its own terms rather than against ref:
//
//   - gl/format: texel and attachment formats and their conversions;
//   - gl/sampler: texture sampling (every filter, wrap, LOD, cube, array,
//     shadow, fetch, size and gather operation);
//   - gl/texunit: one texture instruction (exec.TexRequest) as a sampler
//     request and back;
//   - gl/blend: blend factors and equations (float, and the unorm8 form);
//   - gl/logicop: the 16 logic ops;
//   - gl/compare: the compare functions of the depth, stencil and alpha
//     tests and shadow samplers;
//   - gl/stencil: the stencil ops.
//
// The state ref takes uses those packages' enums (compare.Func, stencil.Op,
// blend.Factor, blend.Equation, logicop.Op), the same the driver, the scene
// format and the software merger use.
//
// Everything else is ref's own and independent of the device: vertex
// assembly, clipping, window-coordinate snapping and rasterization (edge
// functions, fill rule, lines, points), attribute interpolation, the
// per-fragment pipeline order (which test runs when on what, masks, the
// stores), and its fast paths. So a device result that agrees with ref
// checks the device's setup, binning, rasterizer, interpolation, FS wrapper
// and merge order against an independent implementation; where both run
// gl/... code, the gl packages' own tests are the check.
//
// # API
//
//   - Target / Surface: colour attachments (format.RGBA8, BGRA8, SRGB8A8,
//     R8, RG8, RGBA16F, R32F, RG32F, RGBA32F, RGBA8I, RGBA8UI, R32I, R32UI,
//     and RGBA8_SNORM, RGBA16, R16F, RG16F, RGBA16I/UI, RG32I/UI,
//     RGBA32I/UI) and a depth/stencil attachment (D16, D24S8, D32F, S8),
//     zero-filled at
//     creation; ClearColor, ClearColorInt, ClearDepth, ClearStencil and the
//     scissored, masked *Region variants;
//     read back with Surface.NRGBA / RGBA / Float / Depth / Stencil.
//   - State: every piece of fixed-function state plus the shaders and the
//     texture bindings; DefaultState gives GL's initial state.
//   - Draw(ctx, target, state, vertexInput, DrawParams) renders one draw.
//   - VertexShader / FragmentShader: batch-oriented shader stages. The vertex
//     stage shades a VertexBatch (attribute words in; clip position, varying
//     words, point size and clip distances out); the fragment stage shades a
//     slice of 2x2 Quads (per-lane varyings, gl_FragCoord, gl_FrontFacing,
//     gl_PointCoord, helper mask in; per-lane colours for every render target
//     plus the dual-source colour, depth and a live mask out). VertexFunc and
//     FragmentFunc wrap Go functions; compiled IR programs plug in through the
//     same interfaces. All four lanes of a quad are shaded, helpers included,
//     so the executor can take derivatives from the quad. Optional
//     interfaces let a fragment shader cut work without changing the
//     output: FragmentEarlyDepth (skip quads the depth test rejects),
//     FragmentVaryingUse (interpolate only the words it reads) and
//     FragmentHelperFree (no derivatives: helper lanes get a covered lane's
//     inputs instead of their own).
//   - Textures: the sampler interface handed to shaders, one call per batch;
//     it runs package sampler (every filter, wrap, LOD, anisotropy, cube,
//     array, shadow, fetch, size and gather operation) on State.Textures.
//
// # Pipeline and its stated precision
//
// Vertices are shaded once per instance in batches of 64. Assembly follows
// GL: lists, strips (odd triangles reordered to keep the winding), fans,
// line loops, legacy quads, quad strips and polygons (fanned, one primitive
// id each), primitive restart on the raw index, base vertex and instance;
// the provoking vertex is the last (GL) or first. Clipping is homogeneous
// Sutherland-Hodgman against the six view-volume planes (near at -w for GL,
// 0 for Vulkan; near and far are dropped under depth clamp) and every
// enabled clip distance, with new vertices always computed from an edge's
// inside end so shared edges stay watertight. Vertices with non-finite
// positions or clip distances drop their primitive. Window coordinates are
// snapped to 8 sub-pixel bits (1/256 pixel, round to nearest) and edge
// functions are evaluated exactly in int64 at pixel centres (x+1/2, y+1/2).
// Ties use the top-left rule in row order: a sample exactly on an edge
// belongs to the triangle whose inside lies towards +x (a left edge) or, for
// a horizontal edge, towards +y (a top edge when row 0 is shown first), so
// of two triangles sharing an edge exactly one owns it. Facing is the sign
// of the snapped window-space area (positive = CCW with y up); culling and
// two-sided colour use it. Interpolation is perspective-correct (smooth),
// linear in window space (noperspective) or the provoking vertex's words
// copied bit-exactly (flat); window z is linear in window space (plus the
// triangle's depth bias when enabled);
// gl_FragCoord is (x+1/2, y+1/2, z, 1/w). Lines are parallelograms: the
// segment widened by the rounded line width along its minor axis and
// rasterized as two triangles (Vulkan's non-strict lines; not GL's
// diamond-exit rule), so a line strip covers each joint between segments of
// one major axis once (a joint turning between x- and y-major may be
// covered by both segments). Points are
// squares of the point size (clamped to [1, 2048]) covering the pixels whose
// centres fall in the half-open square; gl_PointCoord has its origin at the
// upper left unless State.PointOriginLower. A triangle face in LINE or
// POINT polygon mode (State.PolygonFront, PolygonBack; after facing and
// culling) draws its polygon's boundary edges as those lines (quads' and
// polygons' fan diagonals hidden) or the vertices starting them as those
// points, with the polygon's facing, flat words and primitive id; user clip
// planes clip the polygon first (an edge along a plane is drawn), the view
// volume only shortens its edges; DepthBias.Line and Point offset them by
// the polygon's offset (polymode.go).
//
// Per-fragment operations run in GL order on covered, non-discarded lanes:
// pixel ownership and scissor (part of coverage; failing lanes are
// helpers), alpha test, depth bounds, two-sided stencil (8 funcs, 8 ops,
// read and write masks), depth test on the depth quantized to the
// attachment's precision (8 funcs; writes only when the test is enabled and
// writes are on; depth clamp clamps to the depth range), then per render
// target blending (5 equations, 19 factors incl. constant and dual-source;
// unorm targets clamp their inputs to [0,1]) or a logic op (16 ops, unorm
// and integer targets), the RGBA write mask, and the store: unorm clamps and
// rounds with floor(f*(2^n-1)+1/2) (NaN to 0), sRGB attachments are always
// encoded on write and decoded for blending, integers clamp.
//
// # Fast paths (same bytes)
//
// The rasterizer steps the int64 edge functions from quad to quad (the
// values a per-sample evaluation gives) and forms barycentrics only for
// quads with a covered lane, skipping the empty quads before and after a
// triangle in each row; a cached triangle whose bounding box holds no
// pixel centre is dropped before setup, and one that covers no sample
// never loads its words. Vertices without clip distances take the
// view-volume test written out. A helper-free fragment shader gets
// batches of up to 64 covered lanes (a compiled program runs only those,
// packed into whole warps). D24S8 depth tests compare the
// 24-bit integers (equivalent: the stored depth's float is strictly
// increasing in them), and one RGBA8 attachment written whole without
// blending, logic op, alpha, stencil or depth-bounds tests, over D24S8 or no
// depth, takes a per-fragment fast path. Colour and depth-only clears fill
// by doubling copies. The hashes of the benchmark scene and of mixed scenes
// recorded from the straightforward path pin every byte (exact_test.go,
// benchscene_test.go).
//
// Drawing is deterministic; no allocation happens per primitive, quad or
// pixel (scratch is allocated once per Draw, and the per-element and
// per-vertex arrays are pooled for the next draw, into any target). With State.Workers > 1 the fragment work is split into
// interleaved 16-row bands, one set per goroutine, each walking every
// primitive in submission order, so every pixel sees the same fragment
// sequence and the output is bit-identical to the serial path; fragment
// shaders with scratch implement FragmentCloner. A vertex shader that
// implements VertexCloner has the draw's vertices shaded (and their window
// positions computed) in contiguous runs of whole 64-vertex batches, one
// run per worker, each batch holding the vertices it holds serially.
// Each vertex's window position is computed once per instance; a triangle
// whose three vertices are inside the clip volume is set up from those,
// and a worker skips it before setup when it cannot reach its bands. A
// fragment shader that implements FragmentEarlyDepth (no depth writes, no
// side effects) is not run on quads whose covered lanes all fail a depth
// test that can only tighten during the draw; the output is the same. On
// the packed D24S8 path that test first runs on a per-triangle bound of
// the quantized depth (the corners' least or greatest depth widened by
// 2^-50 for the roundings, zreject.go), so most rejected quads never form
// barycentrics and quads the bound shows kept skip the per-lane test. Barycentrics and full quads' smooth words are divided
// four lanes per AVX instruction where the CPU has it, else two (SSE2);
// both give the Go expression's bits.
//
// # Compiled programs
//
// A compiled IR program plugs in through the same interfaces: its vertex
// adapter runs the executor over VertexBatch lanes (Attribs in, Position,
// Varyings, PointSize and ClipDist out) and its fragment adapter packs quads
// into warps of 4-lane groups (all lanes present, helpers live so quad
// derivatives work) and maps Live, Depth and Color back. The executor's
// per-instruction texture request maps onto one sampler.Request with N =
// the warp width: coordinates, compare references, LOD or bias, gradients
// and offsets copied lane by lane (LODGrad when gradients are present,
// LODExplicit for an explicit level, LODNone otherwise), and the result
// words copied back; sampler.Request.LODValue also carries the per-lane
// bias.
//
// # Limits
//
// No multisampling, polygon modes, line stipple or smooth
// (antialiased) points and lines; per-instance attributes have divisor 1
// (shaders may index by gl_InstanceID themselves); depth/stencil are single
// attachments shared by all colour attachments.
package ref
