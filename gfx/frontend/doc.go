// Package frontend is the graphics front end both device flows share: the
// triangle maths from clip space to RASTER's buffers and the device kernels
// that run it.
//
//   - Setup (SetupTriangle): near clip, viewport, culling, edge normalisation,
//     the depth and attribute planes of one rast_prim_t, with the plane
//     convention of the generation matched (PlanesGrx, PlanesV1) or a compiled
//     program's plane count (PlanesCompiled).
//     spec: rasterizer.md §2.1–§2.3; vortex-hardware-facts.md §3.2
//   - Clipping (ClipNear, Run): near and far planes, the guard band, up to
//     MaxClipDistances user clip distances, each triangle's sub-triangles in
//     SlotsPerTriangle slots. spec: vortexpipe-driver.md §3.8
//   - Polygon offset (PolygonOffset, planeOffset): o = factor·m + units·r
//     added to each primitive's depth plane, one o per input triangle.
//     spec: GL 4.6 §14.6.5; rasterizer.md §2.3
//   - Binning: the host oracle (Binning, the dense tile and primitive
//     buffers draw3d uploads) and the device stages as functions over
//     buffers (BinGrid, BCount..BScatter, DeviceBinning).
//     spec: rasterizer.md §2.2, §3.1, §3.2
//   - The device kernels setup_k (SETUP/SCAN/EMIT) and binning_k
//     (BCOUNT..BSCATTER), registered with RegisterKernels and named, with the
//     compiled-program device's msaa_resolve_k, by the module image ModuleImage
//     loaded at abi.LinkBaseFrontEnd; their argument block is Args and their
//     input records Vertex (setup_vertex_t) or the compiled-program record
//     CompiledVertexBytes long. spec: vortexpipe-driver.md §2.4, §3.2
//
// All float arithmetic is float32 and rounds after every operation: products
// are wrapped in float32() conversions so the compiler never fuses a
// multiply-add (the reference host setup runs on x86-64 without FMA). The
// polygon offset is the exception: it is computed in float64 from setup's
// window positions, as the reference renderer computes it, so both paths
// offset a primitive alike.
package frontend
