// Package render turns a scene description (package scene) into frames: it
// compiles every draw's GLSL vertex and fragment shaders once, uploads meshes
// and textures once, and then for each frame resolves the uniforms, clears,
// draws and reads the image back. spec: README "vortex render";
// ../shared/data/bench/README.md (the benchmark scene); vortexpipe-driver §5.2 (the CPU renderer is the
// oracle and runs the same compiled shaders).
//
// # Paths
//
// Both paths draw through the driver (package pipe). PathReference binds the
// draws on a pipe.Context whose screen forces every draw to the reference
// renderer (pipe.Options.ForceReference): pipe translates the state into
// ref's and runs the linked program's stages (package ref/program, the one
// adapter between compiled GLSL and ref's shader stages), one framebuffer
// per sample pass. PathDevice runs every draw through the driver: each
// scene draw becomes pipe state objects (shaders, vertex elements, a vertex,
// an index and a constant buffer, depth/stencil/alpha, blend, rasterizer,
// samplers and views of textures whose mip chain pipe.Context.GenerateMipmap
// made) bound on one pipe.Context over the device model, and each frame is a
// pipe Clear, one pipe.Context.DrawVBO per draw and a read-back (a multisampled
// frame resolved by pipe.Context.Blit on the device). The driver routes every draw
// (pipe.Route, the one routing table), builds the device draw (the compiled
// vertex shader as the front end's stage 0, expand_k, setup_k and binning_k
// on the SIMT cores, RASTER, the fragment wrapper of vortexpipe §3.4, the FF
// TEX unit or the software sampler, the OM or the software merger) and runs
// a draw it gates on the reference renderer into the same attachments. A
// draw's route is decided when the renderer is made (pipe.Context.Where) and
// reported in its DrawStats.Route and in Stats.Route; under Options.Strict a
// gated draw fails with ErrRouted. A multisampled scene with a gated draw,
// and a scene with no draw the device can take, render on the reference
// path. Renderer.Close releases the device.
//
// # What a draw becomes
//
//   - Attributes: a vertex input with an explicit layout(location) takes
//     location 0 (position, vec3), 1 (normal, vec3) or 2 (texcoord, vec2, (0,0)
//     for meshes without texcoords); one without a location is bound by name as
//     glBindAttribLocation would: a_position 0, a_normal 1, a_texcoord 2. A
//     declared attribute wider than the data gets GL's defaults (0, 0, 0, 1) in
//     the missing components. Other attributes are an error naming the shader.
//   - Uniforms: the scene's values (Description.UniformValues, per frame) are
//     converted to the type the shader declares: floats to int/uint by
//     truncation, to bool by != 0; a mat4 value for a mat3 uniform gives its
//     upper 3×3 block and a mat3 value for a mat4 uniform is embedded in the
//     identity. A scene uniform the program does not have (never declared or
//     optimised away) is skipped and noted in Stats.Notes, or with
//     Options.Strict is an error.
//   - Textures: RGBA8 2D textures with a full mip chain (box-filtered by
//     gl/sampler), image row 0 at t = 0, bound at the scene's unit; the
//     scene's wrap and filter modes map one to one onto gl/sampler's.
//   - State: depth test, function and write, cull mode and front face,
//     blending (equations, factors, constant colour); the target is RGBA8 with
//     a D24S8 depth/stencil attachment cleared to the scene's values.
//
// # Multisampling
//
// The reference renderer has no multisampling. A scene (or Options.MSAA)
// asking for S = 2, 4, 8 or 16 samples is rendered by supersampling: the
// frame is drawn S times, once per sample of gl/msaa's standard pattern
// (4: abi.MSAA4Sample's rotated grid), with the viewport shifted by the
// sample's offset from the pixel centre so that each pass's pixel-centre
// samples land exactly on that sample position (offsets are multiples of
// 1/16 pixel, exact at ref's 8 sub-pixel bits), and the S RGBA8 images are
// box-resolved. Every sample is shaded (supersampling, not multisampling:
// the fragment shader runs per sample and gl_FragCoord carries the shifted
// position); pass k tells the fragment stage it draws sample k
// (gl_SampleID, gl_SamplePosition, gl_SampleMaskIn, gl_SampleMask:
// program.FragmentShader.SetSample). Other sample counts are refused with
// ErrSampleCount. The device path renders every count on its software
// raster and merger.
//
// # Counters
//
// With Options.Stats, every draw records triangles in, triangles left after
// clipping and culling (computed on the host from the shaded clip positions:
// a triangle counts unless all its vertices lie outside one clip plane, it is
// degenerate in window space, or it is culled by its facing when all its w are
// positive), fragments shaded (covered, non-helper lanes given to the fragment
// shader), fragments written (fragments that passed the depth test: counted
// exactly with the stencil attachment, whose stencil test is set to ALWAYS
// with INCR on pass and cleared before each draw; at most 255 per pixel and
// draw) and the wall time of the draw. On the device path each draw also
// carries the device model's own counters (DrawStats.Device: the front end,
// RASTER walk, unit perf counters and CP commands, summed over the draw's
// kicks and frames) and Stats.LastFrame sums them over the last frame. With
// Options.Heatmap the renderer also keeps the number of fragments shaded per
// pixel in the last frame.
//
// # Performance
//
// The driver links programs with 64-lane vertex and fragment warps
// (ref/program's widest), which amortise the executor's per-instruction
// dispatch. Per frame, Draw clears each sample pass's framebuffer and calls
// pipe.Context.DrawVBO once per draw and pass, which loads the attachments
// into a ref target, lays the vertex buffer out as the program's input words
// and runs ref.Draw; nothing is compiled or uploaded per frame. The counters of Options.Stats
// and Options.Heatmap wrap the shader stages and are off by default (they
// also hide ref's fast paths: the programs' varying-use and helper-free
// declarations). ref steps integer edge functions quad to quad, interpolates
// only the varying words the fragment shader reads, tests D24S8 depth as
// integers and has a fast path for one RGBA8 target with D24S8 and no blend;
// the remaining cost is mostly the shader executor (about 30% of the bunny
// frame) and the colour and depth buffers' cache misses.
//
// Output is deterministic for any Options.Workers: ref's workers own disjoint
// row bands and shade every pixel's fragments in submission order.
package render
