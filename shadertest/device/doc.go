// Package device is the shader test runner's device back end: the reference
// back end's contexts (package shadertest/reference, which links, lays each
// draw out and translates it into the driver's state) drawing through
// pipe.Context.DrawVBO on a screen over the Vortex device model instead of a
// reference screen. spec: README "vortex shadertest" (--path device);
// vortexpipe-driver §1.5 (the fallback contract, STRICT), §3.1
// (eligibility), §3.5 (a fallback draw continues the pass).
//
// pipe.Route alone decides where each draw runs: on the device (with any unit
// on its software path), or on the reference renderer with its reason counted
// in the context's Record (pipe's reason text; a line or point topology names
// the draw's primitive); under Options.Strict such a draw fails the test
// instead, naming the reason. The window is the pipe framebuffer (RGBA8, and
// D24S8 when the test asks for depth), which the driver keeps current across
// the two paths itself.
//
// With Options.Compare every context also runs the whole test on a plain
// reference context and compares the two windows at every read-back,
// counting the differing pixels.
package device
