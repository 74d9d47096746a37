// Package session opens the device model the two graphics flows run on —
// the draw3d replay (package gfx/draw3d) and the compiled-program device
// (package gfx/shaderdev) — and reads a draw's counters back.
//
// A Device is the simulator, the runtime and its queue with the front-end
// module (package gfx/frontend) loaded; each flow adds its own kernels to
// the library and loads its fragment module. DrawStats are one draw's
// counters as both flows report them: the CP's commands, DCR writes and
// cycles, the RASTER kick's bins, quads and waves, the front end's clip and
// cull counts, the unit counters (PerfCounters, read as the host reads them)
// and the units' Route. spec: vortexpipe-driver.md §1.5, §2.3.3, §3.2;
// vortex-hardware-facts.md §7
package session
