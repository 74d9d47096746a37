// Package device is the shader test runner's device back end: piglit
// shader_test files drawn through the driver, pipe.Context.DrawVBO on a
// screen over the Vortex device model, with the reference back end (package
// shadertest/reference) wrapped for what is not the driver's: linking (its
// compile and link errors are the test's), the uniform values, the legacy
// built-ins and the vertex records of each draw (reference.Prepare). spec:
// README "vortex shadertest" (--path device); vortexpipe-driver §1.5 (the
// fallback contract, STRICT), §3.1 (eligibility), §3.5 (a fallback draw
// continues the pass).
//
// The translation (translate.go) gives the driver one shader CSO per stage
// (its sections in file order as ShaderDesc.Parts; a stage the program lacks
// unbound: the fixed-function one), the reference program's uniform words as
// constant buffer 0 in the driver's layout (UniformLayout, slot by slot by
// name) and the sampler units by name, the runner's state as pipe's
// (SetLegacyState, SetClipState, a rasterizer CSO for culling, depth clamp,
// GL_FLAT, two-sided colour, the compatibility vertex colour clamp and the
// program point size; a DSA CSO for the depth test), each sampler's texture
// as a pipe texture with its view state (swizzle, depth texture mode, base
// and maximum level: CreateSamplerViewState) and sampler CSO, and the vertex
// records as one vertex buffer with an element per attribute column where the
// driver reads it (AttributeLayout).
//
// pipe.Route alone decides where each draw runs: on the device (with any unit
// on its software path), or on the reference renderer with its reason counted
// in the context's Record (pipe's reason text; a line or point topology names
// the draw's primitive); under Options.Strict such a draw fails the test
// instead, naming the reason. The window is the pipe framebuffer (RGBA8, and
// D24S8 when the test asks for depth), which the driver keeps current across
// the two paths itself.
//
// With Options.Compare the wrapped reference context also draws every draw
// and clears what the test clears, and the two windows are compared at every
// read-back, counting the differing pixels.
package device
