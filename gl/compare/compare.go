// Package compare holds GL's eight comparison functions: the one enum the
// depth, stencil and alpha tests and shadow samplers use, its evaluation
// "incoming OP stored" (GL 4.6 §8.23 table 8.23, §17.3.3–§17.3.5), and the
// mapping into the OM's compare code (abi.CompareFunc, which orders the
// functions differently). The reference renderer, the software merger, the
// software sampler and the FF OM all evaluate comparisons through it.
// spec: vortex-hardware-facts §5 (compare codes, func(fragment_or_ref, stored))
package compare

import (
	"fmt"

	"vortexgfx/abi"
)

// Func is a comparison function in GL order (GL_NEVER 0x0200 .. GL_ALWAYS
// 0x0207 minus 0x0200; Gallium's PIPE_FUNC_* and Vulkan's VkCompareOp use the
// same order).
type Func uint8

// The comparison functions.
const (
	Never Func = iota
	Less
	Equal
	LessEqual
	Greater
	NotEqual
	GreaterEqual
	Always
	// NumFuncs is the number of defined functions.
	NumFuncs
)

// Valid reports whether f is one of the eight functions.
func (f Func) Valid() bool { return f < NumFuncs }

// String names the function as GL does, without the GL_ prefix.
func (f Func) String() string {
	names := [...]string{"NEVER", "LESS", "EQUAL", "LEQUAL", "GREATER", "NOTEQUAL", "GEQUAL", "ALWAYS"}
	if f.Valid() {
		return names[f]
	}
	return fmt.Sprintf("compare.Func(%d)", uint8(f))
}

// Test reports whether a OP b holds for float operands (a is the incoming
// value or reference, b the stored one). NaN fails every ordered comparison
// and Equal, and passes NotEqual, as IEEE comparisons do. An undefined f
// never passes.
func (f Func) Test(a, b float32) bool { return test(f, a, b) }

// TestUint reports whether a OP b holds for unsigned operands (stencil
// values, quantized depths).
func (f Func) TestUint(a, b uint32) bool { return test(f, a, b) }

func test[T float32 | uint32](f Func, a, b T) bool {
	switch f {
	case Less:
		return a < b
	case Equal:
		return a == b
	case LessEqual:
		return a <= b
	case Greater:
		return a > b
	case NotEqual:
		return a != b
	case GreaterEqual:
		return a >= b
	case Always:
		return true
	}
	return false
}

// omCodes is the OM's code of each function. spec: vortex-hardware-facts §5
var omCodes = [NumFuncs]abi.CompareFunc{
	Never: abi.CmpNever, Less: abi.CmpLess, Equal: abi.CmpEqual, LessEqual: abi.CmpLEqual,
	Greater: abi.CmpGreater, NotEqual: abi.CmpNotEqual, GreaterEqual: abi.CmpGEqual, Always: abi.CmpAlways,
}

// OM maps f to the OM's compare code (OM_DEPTH_FUNC, OM_STENCIL_FUNC, the
// software merger's and sampler's descriptors). ok is false for an undefined
// f. spec: vortex-hardware-facts §5; vortexpipe §3.7 (all 8 map 1:1)
func (f Func) OM() (abi.CompareFunc, bool) {
	if !f.Valid() {
		return 0, false
	}
	return omCodes[f], true
}

// FromOM is the inverse of OM: the function an OM compare code encodes. ok
// is false for a code outside 0..7.
func FromOM(c abi.CompareFunc) (Func, bool) {
	for f, e := range omCodes {
		if e == c {
			return Func(f), true
		}
	}
	return 0, false
}
