package om

import (
	"encoding/binary"

	"vortexgfx/abi"
	"vortexgfx/gl/compare"
)

// The traffic of one export as bits (Access's four flags): the encoding
// the device's perf record keeps per export. spec: vortex-hardware-facts §5, §7
const (
	TrafficZRead  = 1 << iota // the depth/stencil word was read
	TrafficCRead              // the colour word was read
	TrafficZWrite             // the depth/stencil word was written
	TrafficCWrite             // the colour word was written
)

// DepthColor reports whether the unit is in the commonest state — a depth
// test, no stencil on either face, no blending, every colour channel
// written — where ExportDepthColor stands for ExportAccess.
func (u *Unit) DepthColor() bool { return u.depthColor }

// ExportDepthColor is ExportAccess for a unit in the DepthColor state,
// the traffic returned as Traffic* bits with the depth and colour byte
// addresses (flags 0 for a fragment outside the framebuffer, which is
// dropped). With the stencil off on both faces its test passes and its ops
// keep the stored bits, so the fragment passes on the depth test alone
// (the fragment passed exactly when TrafficCWrite is set), writes its depth
// under the stored stencil bits when depth writes are on, and writes its
// colour through the (full) write mask without reading the target — the
// same bytes and traffic as the general path. Only a unit in that state
// may call it. spec: facts §5 (test sequence)
func (u *Unit) ExportDepthColor(x, y int, color, depth uint32) (flags uint32, zaddr, caddr uint64) {
	if uint(x) >= uint(u.width) || uint(y) >= uint(u.height) {
		return 0, 0, 0
	}
	zoff := y*int(u.zpitch) + 4*x
	coff := y*int(u.cpitch) + 4*x
	zaddr, caddr = u.zbase+uint64(zoff), u.cbase+uint64(coff)
	dst := binary.LittleEndian.Uint32(u.zbuf[zoff:])
	ref, stored := depth&abi.DepthMask, dst&abi.DepthMask
	if u.depthPass>>order(ref, stored)&1 == 0 {
		return TrafficZRead, zaddr, caddr
	}
	flags = TrafficZRead | TrafficCWrite
	if u.depthWrite {
		binary.LittleEndian.PutUint32(u.zbuf[zoff:], dst&^abi.DepthMask|ref)
		flags |= TrafficZWrite
	}
	binary.LittleEndian.PutUint32(u.cbuf[coff:], color&u.wmask)
	return flags, zaddr, caddr
}

// order is 0 when a < b, 1 when a == b and 2 when a > b: the bit of a
// passTable that answers the compare of a with b.
func order(a, b uint32) uint {
	var k uint
	if a >= b {
		k++
	}
	if a > b {
		k++
	}
	return k
}

// passTable is fn as a table on order's three outcomes: bit k set when fn
// passes for the outcome k.
func passTable(fn compare.Func) uint8 {
	var t uint8
	for k, ab := range [3][2]uint32{{0, 1}, {1, 1}, {1, 0}} {
		if fn.TestUint(ab[0], ab[1]) {
			t |= 1 << k
		}
	}
	return t
}
