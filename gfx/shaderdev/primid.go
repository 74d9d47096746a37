package shaderdev

import (
	"encoding/binary"
	"fmt"

	"vortexgfx/abi"
	"vortexgfx/device"
	"vortexgfx/gfx/frontend"
)

// gl_PrimitiveID without a geometry stage: the fragment stage's input is a
// flat word of the side array (Program.pidFlat) that no vertex fills; after
// setup_k's EMIT of each pass, prim_k's third stage (pidMap) writes each
// kept primitive's number in the draw there, so the Go wrapper and the
// machine-code wrapper read it as any flat word. spec: GLSL 1.50 §7.1; GL
// 4.6 §11.1.3.9 (gl_PrimitiveID counts the draw's primitives, from 0 for
// each instance); vortexpipe §3.2 (setup_k's SCAN/EMIT compaction), §3.4

// pidmap_k's argument block (prim_k's launch with primFlagPIDMap).
const (
	pidArgKeep    = iota // setup_k's keep counts of the pass's triangles
	pidArgOffsets        // and their first pids
	pidArgCount          // the pass's triangles
	pidArgFirst          // the pass's first triangle in the draw
	pidArgFlags          // = primArgFlags: primFlagPIDMap
	pidArgPer            // device triangles per input primitive (prim_k's expansion)
	pidArgPrims          // input primitives per instance
	pidArgTable          // per input primitive its GL primitive id (u32; 0: the index)
	pidArgFlat           // the pass's side array
	pidArgStride         // its stride in bytes | the id word's byte offset << 32
	pidArgSlots
)

// primFlagPIDMap selects prim_k's primitive-id stage (slot pidArgFlags).
const primFlagPIDMap = 1 << 63

// pidMap is prim_k's primitive-id stage: one thread per triangle of the
// pass, it writes the GL primitive id of the input primitive the triangle
// belongs to (Draw.PrimitiveIDs, else its index in the instance) into the
// side record of every pid setup_k gave the triangle (a clipped triangle's
// pieces all get it).
func (sp *Program) pidMap(c *device.CTA) error {
	keep, offs, n, first := c.Arg(pidArgKeep), c.Arg(pidArgOffsets), c.Arg(pidArgCount), c.Arg(pidArgFirst)
	per, prims, table, flat, sw := c.Arg(pidArgPer), c.Arg(pidArgPrims), c.Arg(pidArgTable), c.Arg(pidArgFlat), c.Arg(pidArgStride)
	if err := c.Err(); err != nil {
		return err
	}
	stride, off := sw&0xFFFFFFFF, sw>>32
	if n > abi.MaxPrimsPerPass || per == 0 || prims == 0 || off+4 > stride || sp.pidFlat < 0 {
		return fmt.Errorf("%s: primitive-id map of %d triangles (%d per primitive, %d primitives), word at %d of %d bytes", sp.primName(), n, per, prims, off, stride)
	}
	keepS, offS := c.Span(keep), c.Span(offs)
	frontend.GridStride(c, n, func(i uint64) {
		k, o := uint64(keepS.ReadU32(4*i)), uint64(offS.ReadU32(4*i))
		if k == 0 {
			return
		}
		p := (first + i) / per % prims
		id := uint32(p)
		if table != 0 {
			id = c.ReadU32(table + 4*p)
		}
		for s := range k {
			c.WriteU32(flat+(o+s)*stride+off, id)
		}
	})
	return c.Err()
}

// pidArgs is pidMap's argument block for the pass of nt triangles from
// triangle first, with setup_k's keep counts and offsets at keep and offs
// and the side array at flat.
func (s *drawState) pidArgs(first, nt int, keep, offs, flat uint64) []byte {
	vpp := 3 // vertices per input primitive
	switch s.dr.Prim {
	case PrimLines:
		vpp = 2
	case PrimPoints:
		vpp = 1
	}
	var table uint64
	if s.pids != nil {
		table = s.pids.Addr()
	}
	args := make([]byte, 8*pidArgSlots)
	for slot, v := range [pidArgSlots]uint64{
		pidArgKeep: keep, pidArgOffsets: offs, pidArgCount: uint64(nt), pidArgFirst: uint64(first),
		pidArgFlags: primFlagPIDMap, pidArgPer: uint64(s.primVerts() * vpp / 3), pidArgPrims: uint64(s.dr.Count / vpp),
		pidArgTable: table, pidArgFlat: flat,
		pidArgStride: sideBytes(s.p) | uint64(4*s.p.pidFlat)<<32,
	} {
		binary.LittleEndian.PutUint64(args[8*slot:], v)
	}
	return args
}

// ReadsPrimitiveID reports whether the fragment stage reads gl_PrimitiveID
// (a draw may then give Draw.PrimitiveIDs).
func (sp *Program) ReadsPrimitiveID() bool { return sp.pidFlat >= 0 }

// FlatVaryings is the flat words the vertex stage feeds the side array
// (NFlat without gl_PrimitiveID's).
func (sp *Program) FlatVaryings() int {
	if sp.pidFlat >= 0 {
		return len(sp.flat) - 1
	}
	return len(sp.flat)
}
