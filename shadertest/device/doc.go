// Package device is the shader test runner's device back end: piglit
// shader_test files drawn through the Vortex device model (gfx.ShaderDevice:
// the compiled vertex shader as the front end's stage 0, the fragment shader
// inside the fragment wrapper, RASTER, TEX and OM), with the reference back
// end (package shadertest/reference) wrapped for everything that is not a
// draw — linking, uniform bookkeeping, legacy built-ins, fixed-function
// state, textures and vertex records — and for every draw the device cannot
// take. spec: README "vortex shadertest" (--path device); vortexpipe-driver §1.5 (the fallback contract, STRICT),
// §3.1 (eligibility), §3.5 (a fallback draw continues the pass).
//
// Each draw is routed: the device takes it when its primitive is a triangle
// type (triangles, strips, fans, quads, quad strips and polygons become
// triangle lists on the host by pipe.TriangleList, in the reference
// renderer's vertex order), the program passes shaderdev.NewProgram's gates
// (a refusal counts by its shaderdev.RouteError reason), and no state needs
// something the device path lacks (two-sided colour on colours the device
// does not pack, the flat shade model on the legacy colours, flat varyings on
// quads and polygons...); where pipe has the same gate the reason prints as
// pipe's (pipe.GateNoVS, GateFlatShade, GateTwoSide, GateFlatPolygons...).
// Depth clamp runs on the device, as pipe runs it (the merger's clamp with
// setup_k's depth clip off). A compatibility context's vertex colour clamp
// is folded into the vertex stage (pipe.ClampVertexColours: each legacy
// colour store through fclamp).
// Textures the FF TEX unit samples (power-of-two RGBA8 2D, one filter, FF
// wraps, one level or no mipmapping) are bound in its form; every other
// texture is bound as the reference texture itself and sampled by the
// software sampler on the device.
// Any other draw runs on the reference renderer in the middle of the test
// with its reason counted in the context's Record; under Options.Strict it
// fails the test instead, naming the reason. The window (colour and depth) is
// kept consistent across path switches: it lives on whichever side drew last
// and is copied over (gfx.ShaderDevice.Targets/SetTargets) only when the other
// side needs it.
//
// With Options.Compare every context also runs the whole test on a second
// reference context and compares the two windows at every read-back, counting
// the differing pixels.
package device
