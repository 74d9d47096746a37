// Package arbasm is the front end for the OpenGL assembly languages of
// GL_ARB_vertex_program ("!!ARBvp1.0") and GL_ARB_fragment_program
// ("!!ARBfp1.0", with GL_ARB_fragment_program_shadow's SHADOW targets). It
// lexes, parses and checks a program string and lowers it to the GLSL 1.20
// compatibility-profile source of exactly the computation the extension
// specifies, which package shader compiles to the same verified IR as any
// GLSL shader (Compile returns both), so both renderers — the reference path
// and the device — run it through the driver's one shader door, and an
// assembly program pairs with a GLSL shader or with GL's fixed-function
// stage of the other kind the way a GLSL stage does.
//
// Why GLSL rather than IR built here: the driver (pipe) links, caches and
// routes programs as GLSL sources with their linked reflection, and already
// generates its own fixed-function stages as GLSL (pipe/ffgen.go); an
// assembly program lowered the same way needs no second linker, no second
// uniform layout and no change to either back end, while the instruction
// semantics stay this package's (emit.go), checked instruction by
// instruction against the specification in its tests.
//
// The lowering's conventions (Program):
//
//   - program.env[n] and program.local[n] are the uniform arrays
//     vx_vp_env/vx_vp_local (vertex) and vx_fp_env/vx_fp_local (fragment),
//     sized to the highest index the program uses; Program.Env and
//     Program.Local name them, and the caller loads glProgramEnvParameter /
//     glProgramLocalParameter values into them.
//   - texture[n] of a fragment program is the sampler uniform Sampler.Name,
//     which the caller sets to unit n (Program.Samplers).
//   - ADDRESS registers are ints, every other register a vec4; temporaries
//     start at zero (the specification leaves them undefined).
//   - Conventional attributes, results and state are the GLSL compatibility
//     built-ins they alias (vertex.position is gl_Vertex and
//     vertex.attrib[0], result.color gl_FrontColor, state.matrix.mvp
//     gl_ModelViewProjectionMatrix...; bindings.go).
//
// spec: ARB_vertex_program (§2.14: grammar §2.14.2, bindings §2.14.3,
// instruction set §2.14.5), ARB_fragment_program (§3.11: grammar §3.11.2,
// bindings §3.11.3, instruction set §3.11.5), ARB_fragment_program_shadow.
package arbasm
