// Package logicop holds GL's sixteen colour logic operations: the one enum
// the reference renderer, the software merger and the FF OM use, their
// bitwise meaning (GL 4.6 §17.3.11 table 17.3), and the mapping into the
// OM's LOGIC_OP code (abi.LogicOp). spec: vortex-hardware-facts §5 (LOGICOP)
package logicop

import (
	"fmt"

	"vortexgfx/abi"
)

// Op is a logic operation in GL order (GL_CLEAR 0x1500 .. GL_SET 0x150F
// minus 0x1500; Vulkan's VkLogicOp uses the same order). s is the source
// (fragment) value, d the destination (stored) value.
type Op uint8

// The logic operations.
const (
	Clear        Op = iota // 0
	And                    // s & d
	AndReverse             // s & ^d
	Copy                   // s
	AndInverted            // ^s & d
	Noop                   // d
	Xor                    // s ^ d
	Or                     // s | d
	Nor                    // ^(s | d)
	Equiv                  // ^(s ^ d)
	Invert                 // ^d
	OrReverse              // s | ^d
	CopyInverted           // ^s
	OrInverted             // ^s | d
	Nand                   // ^(s & d)
	Set                    // all ones
	// NumOps is the number of defined operations.
	NumOps
)

// Valid reports whether op is one of the sixteen operations.
func (op Op) Valid() bool { return op < NumOps }

// String names the operation as GL does, without the GL_ prefix.
func (op Op) String() string {
	names := [...]string{"CLEAR", "AND", "AND_REVERSE", "COPY", "AND_INVERTED", "NOOP", "XOR", "OR",
		"NOR", "EQUIV", "INVERT", "OR_REVERSE", "COPY_INVERTED", "OR_INVERTED", "NAND", "SET"}
	if op.Valid() {
		return names[op]
	}
	return fmt.Sprintf("logicop.Op(%d)", uint8(op))
}

// Apply computes op on source s and destination d, bit by bit; the caller
// masks the result to the component's width. An undefined op gives d.
func (op Op) Apply(s, d uint32) uint32 {
	switch op {
	case Clear:
		return 0
	case And:
		return s & d
	case AndReverse:
		return s &^ d
	case Copy:
		return s
	case AndInverted:
		return ^s & d
	case Noop:
		return d
	case Xor:
		return s ^ d
	case Or:
		return s | d
	case Nor:
		return ^(s | d)
	case Equiv:
		return ^(s ^ d)
	case Invert:
		return ^d
	case OrReverse:
		return s | ^d
	case CopyInverted:
		return ^s
	case OrInverted:
		return ^s | d
	case Nand:
		return ^(s & d)
	case Set:
		return 0xFFFFFFFF
	}
	return d
}

// omCodes is the OM's code of each operation. spec: vortex-hardware-facts §5
var omCodes = [NumOps]abi.LogicOp{
	Clear: abi.LogicClear, And: abi.LogicAnd, AndReverse: abi.LogicAndReverse, Copy: abi.LogicCopy,
	AndInverted: abi.LogicAndInverted, Noop: abi.LogicNoop, Xor: abi.LogicXor, Or: abi.LogicOr,
	Nor: abi.LogicNor, Equiv: abi.LogicEquiv, Invert: abi.LogicInvert, OrReverse: abi.LogicOrReverse,
	CopyInverted: abi.LogicCopyInverted, OrInverted: abi.LogicOrInverted, Nand: abi.LogicNand, Set: abi.LogicSet,
}

// OM maps op to the OM's LOGIC_OP code (and the software merger's
// descriptor). ok is false for an undefined op.
func (op Op) OM() (abi.LogicOp, bool) {
	if !op.Valid() {
		return 0, false
	}
	return omCodes[op], true
}

// FromOM is the inverse of OM: the operation an OM code encodes. ok is false
// for a code outside 0..15.
func FromOM(c abi.LogicOp) (Op, bool) {
	for op, e := range omCodes {
		if e == c {
			return Op(op), true
		}
	}
	return 0, false
}
