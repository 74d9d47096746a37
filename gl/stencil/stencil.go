// Package stencil holds GL's eight stencil operations: the one enum the
// reference renderer, the software merger and the FF OM use, the update
// each makes to an 8-bit stencil value (GL 4.6 §17.3.5 table 17.3), and the
// mapping into the OM's code (abi.StencilOp), which is in the same order but
// is an encoding of its own. spec: vortex-hardware-facts §5 (stencil ops)
package stencil

import (
	"fmt"

	"vortexgfx/abi"
)

// Op is a stencil operation in Vulkan's VkStencilOp order (GL's enums are
// not contiguous).
type Op uint8

// The stencil operations. Incr and Decr saturate at 255 and 0; IncrWrap and
// DecrWrap wrap modulo 256.
const (
	Keep Op = iota
	Zero
	Replace
	Incr
	Decr
	Invert
	IncrWrap
	DecrWrap
	// NumOps is the number of defined operations.
	NumOps
)

// Valid reports whether op is one of the eight operations.
func (op Op) Valid() bool { return op < NumOps }

// String names the operation as GL does, without the GL_ prefix.
func (op Op) String() string {
	names := [...]string{"KEEP", "ZERO", "REPLACE", "INCR", "DECR", "INVERT", "INCR_WRAP", "DECR_WRAP"}
	if op.Valid() {
		return names[op]
	}
	return fmt.Sprintf("stencil.Op(%d)", uint8(op))
}

// Apply returns the new stencil value op makes of stored, with ref the
// reference value (Replace). The caller merges it under the write mask. An
// undefined op keeps the value.
func (op Op) Apply(ref, stored uint8) uint8 {
	switch op {
	case Zero:
		return 0
	case Replace:
		return ref
	case Incr:
		if stored == 0xFF {
			return stored
		}
		return stored + 1
	case Decr:
		if stored == 0 {
			return 0
		}
		return stored - 1
	case Invert:
		return ^stored
	case IncrWrap:
		return stored + 1
	case DecrWrap:
		return stored - 1
	}
	return stored
}

// omCodes is the OM's code of each operation. spec: vortex-hardware-facts §5
var omCodes = [NumOps]abi.StencilOp{
	Keep: abi.StencilKeep, Zero: abi.StencilZero, Replace: abi.StencilReplace, Incr: abi.StencilIncr,
	Decr: abi.StencilDecr, Invert: abi.StencilInvert, IncrWrap: abi.StencilIncrWrap, DecrWrap: abi.StencilDecrWrap,
}

// OM maps op to the OM's stencil-op code (OM_STENCIL_ZPASS/ZFAIL/FAIL and
// the software merger's descriptor). ok is false for an undefined op.
func (op Op) OM() (abi.StencilOp, bool) {
	if !op.Valid() {
		return 0, false
	}
	return omCodes[op], true
}

// FromOM is the inverse of OM: the operation an OM code encodes. ok is false
// for a code outside 0..7.
func FromOM(c abi.StencilOp) (Op, bool) {
	for op, e := range omCodes {
		if e == c {
			return Op(op), true
		}
	}
	return 0, false
}
