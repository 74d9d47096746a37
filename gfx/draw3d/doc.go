// Package draw3d replays a CGLTrace (package trace) as the gfx_draw3d test
// does, through RASTER, TEX and OM: the only graphics package that reads
// trace files.
//
// Host replays the host flow on simulated memory: the host Binning oracle,
// the tile and primitive buffers uploaded, the RASTER/OM/TEX DCR writes in
// the test's order with its quirks (hostFlowDCRs), the frame kick and the
// Go FragKernel. Device replays through the whole device model (package
// gfx/session): the front-end kernels on the SIMT cores, the draw3d fragment
// kernel (RegisterKernels, FragImage) launched by the RASTER frame kick, and
// the command processor (one CMD_DRAW and one doorbell per draw on emu, a
// streamed batch on rtl). Both reproduce every shared golden with zero
// differing pixels; the plane convention of the generation matched
// (frontend.PlanesGrx or PlanesV1) is an explicit replay option.
// spec: rasterizer.md §3, §5, §11; vortexpipe-driver.md §3.2–§3.4;
// vortex-hardware-facts.md §3.3, §8
package draw3d
