// Package shadertest reads piglit shader_runner test files (*.shader_test)
// and runs them against a rendering back end, reproducing shader_runner's
// behaviour: its file format, its defaults and its probe tolerances.
//
// spec: vortexpipe-driver §5.2 (the CPU renderer is the correctness
// oracle); README "vortex shadertest". The behaviour below follows
// piglit's tests/shaders/shader_runner.c, tests/util/piglit-util-gl.c,
// piglit-vbo.cpp and parser_utils.c (Debian 12's piglit snapshot
// 0~git20220119), which were read for these facts:
//
// File format. Lines are split at '\n'. A line whose first byte is '['
// opens a section; anything before the first section is ignored. A shader
// section's source is every line up to the next line that starts with '['
// (so blank lines and '#' lines are part of the source). Several sections
// of one stage are separate shader objects linked into one program.
// [test] must be the last section: every following line is a command.
// Unknown sections make the test fail.
//
// Missing #version. shader_runner prepends "#version N\n" (N from the last
// "GLSL >= x.yz" requirement, "N es" for GLSL ES other than 1.00) unless
// strstr finds "#version " — and strstr runs from the start of the section
// to the end of the whole file, so a later section's #version (or a comment
// containing "#version ") suppresses the insertion for an earlier section.
// The passthrough vertex shader always gets the directive. A shader
// without any GLSL requirement makes the test fail.
//
// [require]. Lines are matched in shader_runner's order: "INT GL_ENUM op
// n", the limits GL_MAX_VERTEX_OUTPUT_COMPONENTS,
// GL_MAX_FRAGMENT_UNIFORM_COMPONENTS, GL_MAX_VERTEX_UNIFORM_COMPONENTS,
// GL_MAX_VERTEX_ATTRIBS, GL_MAX_VARYING_COMPONENTS and
// GL_NUM_PROGRAM_BINARY_FORMATS ("op" then atoi), "GL_ext", "!GL_ext",
// "GLSL [CORE|COMPAT|ES] op x.yz" (only >= is accepted), "GL [..] op x.y",
// rlimit, SSO ENABLED, SEPARABLE PROGRAM ENABLED, SPIRV,
// ignore_missing_uniforms; SIZE w h and depthbuffer configure the window;
// every other line (comments included) is ignored. "!=" parses as ">"
// (a shader_runner quirk kept here). A version line with trailing text
// fails the test.
//
// Numbers. Floats read with strtod after an optional "0x" bit pattern
// (32-bit for float, 64-bit for double); integers read with strtol/strtoul
// base 0, so "010" is octal and "-1" as uint is 0xffffffff. Missing
// numbers are an error here (shader_runner would read uninitialised
// memory); extra text after the numbers a command needs is ignored, as in
// shader_runner.
//
// Defaults. A 250×250 RGBA8 window (SIZE overrides), origin bottom-left,
// identity projection and modelview, current colour (1,1,1,1), clear
// colour (0,0,0,0), clear depth 1, tolerance 0.01 per channel. "clear"
// clears only the buffers whose clear value a "clear color"/"clear depth"
// command has set.
//
// Probes. Single-pixel probes ("probe rgb[a] x y", "relative probe rgb[a]")
// read the pixel as float (byte*(1/255) through Mesa on desktop GL,
// byte/255 in piglit on GLES) and fail when |observed-expected| >
// tolerance in float arithmetic (a NaN expectation never fails). On
// desktop GL, rectangle probes ("probe rect", "relative probe rect",
// "probe all") take piglit's unsigned-byte path on an 8-bit target: the
// expected colour becomes the low byte of trunc(e*255), the tolerance
// ceil(t*255) (3 for the default 0.01), and a channel fails when
// |observed-expected| > that; on GLES (no GL_ARB_framebuffer_object) they
// use the float comparison. These comparisons were checked against the
// disassembly of the Debian package's libpiglitutil_gl. "probe depth" passes when
// |observed-expected| < 0.01, ignoring "tolerance". Probe coordinates
// given as floats are truncated toward zero; relative probes multiply by
// the window size (in float) and clamp single pixels to the last row and
// column.
//
// Geometry. "draw rect x y w h" draws piglit_draw_rect: a 4-vertex
// triangle strip (x,y) (x+w,y) (x,y+h) (x+w,y+h) with z=0, w=1, fed to the
// attribute piglit_vertex when the program has it and to gl_Vertex
// otherwise. "draw rect ortho" first maps pixels to NDC: x' = -1 +
// 2*(x/W), w' = 2*(w/W) (x/W in float, the rest in double, the result
// rounded to float; W is the window size). "ortho" with no arguments loads
// glOrtho(0, W, 0, H, -1, 1) as the projection and the identity as
// modelview; "ortho l r b t" and "frustum l r b t n f" load those
// matrices.
package shadertest
