// Package program runs compiled GLSL programs (package shader/lower's IR, executed
// by package shader/exec) as the reference renderer's vertex and fragment stages
// (ref.VertexShader, ref.FragmentShader), with textures sampled through
// ref.Textures by package gl/sampler. spec: vortexpipe-driver §5.2 (the CPU
// renderer is the oracle and runs the same compiled shaders), §2.2 (quads,
// helper lanes, derivatives from the quad shuffle, texture ops per warp).
//
// # Mapping
//
//   - Vertex stage: the executor runs ref's vertex batches Width lanes at a time.
//     A vertex's attribute words are the vertex program's input words
//     (Program.AttribWords, laid out by Program.Attributes); gl_VertexID and
//     gl_InstanceID are filled from the batch. Every vertex output word is one of
//     ref's varying words (word 0..3 is gl_Position), so fragment input word w is
//     ref varying word w, as the lowering lays them out. gl_PointSize feeds the
//     point size; gl_ClipDistance[] feeds ref's clip distances; gl_ClipVertex (or,
//     when a shader writes neither, gl_Position) is dotted with the enabled
//     gl_ClipPlane equations to make them.
//   - Interpolation: each varying word takes its fragment input's qualifier
//     (flat, smooth, noperspective; integers are flat); with the legacy flat
//     shade model the colour varyings are flat. Two-sided colour selects
//     gl_BackColor / gl_BackSecondaryColor on back faces.
//   - Fragment stage: quads are packed Width/4 to a run, lanes 4k..4k+3 being the
//     pixels (x,y) (x+1,y) (x,y+1) (x+1,y+1) of quad k, all four present and
//     the helpers not live, so derivatives come from the executor's quads.
//     gl_FragCoord, gl_FrontFacing and gl_PointCoord come from the quad. Colour
//     output location L goes to render target L, gl_FragDepth to the quad's
//     depth, and the executor's final live mask (discard) to Quad.Live.
//   - Textures: one sampler.Request per texture instruction with N = the warp
//     width (LODGrad from the quad gradients, LODExplicit for explicit levels,
//     bias as LODValue). GL binds one texture per target per unit; the sampler
//     uniform's unit and the sampler's target select ref texture index
//     TextureIndex(unit, target).
//
// The fragment stage tells ref which varying words it loads (ref.FragmentVaryingUse,
// from the program's LoadInput instructions) and, for a program without
// derivatives, texture operations or memory access, that helper lanes need no
// inputs of their own (ref.FragmentHelperFree), so ref interpolates less; the
// output is the same.
//
// Nothing is allocated per quad, vertex or lane; all scratch belongs to the
// shader objects, and FragmentShader clones for ref's parallel workers.
package program
