// Package mipmap builds the mip chains the fixed-function TEX unit samples:
// cocogfx's box filter over the FF texel formats, levels packed
// contiguously, and the LOGDIM of a dimension. Both device flows upload
// them: draw3d's trace textures and the compiled-program device's FF
// sampling route. spec: vortex-hardware-facts.md §4; vortexpipe-driver.md §3.6
package mipmap
