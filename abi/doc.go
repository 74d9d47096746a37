// Package abi is the single source of truth for every on-wire format of the Vortex
// graphics stack: the command-processor (CP) command ISA and its 64-byte ring lines, the
// CP register map and capability words, the QMD and draw descriptors, the DCR address
// map of the KMU, TEX, RASTER and OM units with their field packings, the rasterizer's
// tile and primitive buffers, the fragment stamp and FRAG_* CSR encodings, the argument
// blocks of the vertex and fragment kernels, the OM aperture, the performance-counter
// read protocol and the fixed-point formats.
//
// The seed documents complain that the CP opcodes are declared in four places
// (spec: command-processor §10 item 16). Here each format lives once; every other
// package imports it. abi holds no behaviour beyond pure encode/decode functions and no
// state.
//
// Where the specification leaves a number open, the choice is made here and listed in
// docs/ABI.md ("Choices the specification leaves open").
package abi
