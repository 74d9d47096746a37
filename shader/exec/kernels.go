package exec

import (
	"math"

	"vortexgfx/shader/ir"
)

// kernel returns the compiled lane loop of a pure op: every lane of d from the
// source lane arrays a, b, c, e (unused sources are the zero lanes), flushing
// denormal results in the same pass when z is set. Each expression is the one
// alu's lane loop or ir.Eval computes for the op; ops without a loop of their own
// here (transcendentals, division and remainder, bitfield and packing ops, and the
// float-to-integer conversions, whose one definition ir.Eval shares with the
// constant folder) run ir.Eval per lane with the op fixed at compile time.
func kernel(op ir.Op, imm uint32, z bool, a, b, c, e []uint32) func(d []uint32) {
	af, bf, cf := f32s(a), f32s(b), f32s(c)
	switch op {
	case ir.Const:
		return func(d []uint32) { splat(d, imm) }
	case ir.Mov, ir.Cast:
		return copyKernel(a)
	case ir.FAdd:
		if z {
			return func(d []uint32) { addLanesFTZ(d, a, b) }
		}
		return func(d []uint32) { addLanes(d, a, b) }
	case ir.FMul:
		if z {
			return func(d []uint32) { mulLanesFTZ(d, a, b) }
		}
		return func(d []uint32) { mulLanes(d, a, b) }
	case ir.FSub:
		if z {
			return func(d []uint32) {
				a, b := af[:len(d)], bf[:len(d)]
				for l := range d {
					d[l] = ftz(fw(a[l] - b[l]))
				}
			}
		}
		return func(d []uint32) {
			a, b := af[:len(d)], bf[:len(d)]
			for l := range d {
				d[l] = fw(a[l] - b[l])
			}
		}
	case ir.FDiv:
		if z {
			return func(d []uint32) {
				a, b := af[:len(d)], bf[:len(d)]
				for l := range d {
					d[l] = ftz(fw(a[l] / b[l]))
				}
			}
		}
		return func(d []uint32) {
			a, b := af[:len(d)], bf[:len(d)]
			for l := range d {
				d[l] = fw(a[l] / b[l])
			}
		}
	case ir.Fma:
		if z {
			return func(d []uint32) {
				a, b, c := af[:len(d)], bf[:len(d)], cf[:len(d)]
				for l := range d {
					d[l] = ftz(fw(ir.FMA32(a[l], b[l], c[l])))
				}
			}
		}
		return func(d []uint32) {
			a, b, c := af[:len(d)], bf[:len(d)], cf[:len(d)]
			for l := range d {
				d[l] = fw(ir.FMA32(a[l], b[l], c[l]))
			}
		}
	case ir.Sqrt:
		if z {
			return func(d []uint32) {
				a := af[:len(d)]
				for l := range d {
					d[l] = ftz(fw(float32(math.Sqrt(float64(a[l])))))
				}
			}
		}
		return func(d []uint32) {
			a := af[:len(d)]
			for l := range d {
				d[l] = fw(float32(math.Sqrt(float64(a[l]))))
			}
		}
	case ir.InvSqrt:
		if z {
			// Groups of four lanes in invSqrtFTZ4 (SSE2 on amd64).
			return func(d []uint32) {
				a, af := a[:len(d)], af[:len(d)]
				n := len(d) &^ 3
				if n > 0 {
					invSqrtFTZ4(&d[0], &a[0], n)
				}
				for l := n; l < len(d); l++ {
					d[l] = ftz(fw(float32(1 / math.Sqrt(float64(af[l])))))
				}
			}
		}
		return func(d []uint32) {
			a := af[:len(d)]
			for l := range d {
				d[l] = fw(float32(1 / math.Sqrt(float64(a[l]))))
			}
		}
	case ir.Floor:
		if z {
			return func(d []uint32) {
				a := a[:len(d)]
				for l := range d {
					d[l] = ftz(fw(float32(math.Floor(float64(fl(a[l]))))))
				}
			}
		}
		return func(d []uint32) {
			a := a[:len(d)]
			for l := range d {
				d[l] = fw(float32(math.Floor(float64(fl(a[l])))))
			}
		}
	case ir.Ceil:
		if z {
			return func(d []uint32) {
				a := a[:len(d)]
				for l := range d {
					d[l] = ftz(fw(float32(math.Ceil(float64(fl(a[l]))))))
				}
			}
		}
		return func(d []uint32) {
			a := a[:len(d)]
			for l := range d {
				d[l] = fw(float32(math.Ceil(float64(fl(a[l])))))
			}
		}
	case ir.Trunc:
		if z {
			return func(d []uint32) {
				a := a[:len(d)]
				for l := range d {
					d[l] = ftz(fw(float32(math.Trunc(float64(fl(a[l]))))))
				}
			}
		}
		return func(d []uint32) {
			a := a[:len(d)]
			for l := range d {
				d[l] = fw(float32(math.Trunc(float64(fl(a[l])))))
			}
		}
	case ir.Fract:
		if z {
			return func(d []uint32) {
				a := a[:len(d)]
				for l := range d {
					d[l] = ftz(fract(a[l]))
				}
			}
		}
		return func(d []uint32) {
			a := a[:len(d)]
			for l := range d {
				d[l] = fract(a[l])
			}
		}
	case ir.FMin:
		// Ordered unequal operands (the common case) take one comparison;
		// equal ones (±0) and NaNs take ir.FMinNum.
		return func(d []uint32) {
			a, b := a[:len(d)], b[:len(d)]
			x, y := af[:len(d)], bf[:len(d)]
			for l := range d {
				switch {
				case x[l] < y[l]:
					d[l] = a[l]
				case x[l] > y[l]:
					d[l] = b[l]
				default:
					d[l] = ir.FMinNum(a[l], b[l])
				}
			}
		}
	case ir.FMax:
		// As FMin: one comparison unless equal or unordered (ir.FMaxNum).
		return func(d []uint32) {
			a, b := a[:len(d)], b[:len(d)]
			x, y := af[:len(d)], bf[:len(d)]
			for l := range d {
				switch {
				case x[l] > y[l]:
					d[l] = a[l]
				case x[l] < y[l]:
					d[l] = b[l]
				default:
					d[l] = ir.FMaxNum(a[l], b[l])
				}
			}
		}
	case ir.FClamp:
		return func(d []uint32) {
			a, b, c := a[:len(d)], b[:len(d)], c[:len(d)]
			for l := range d {
				d[l] = ir.FMinNum(ir.FMaxNum(a[l], b[l]), c[l])
			}
		}
	case ir.FNeg:
		return func(d []uint32) {
			a := a[:len(d)]
			for l := range d {
				d[l] = a[l] ^ 0x80000000
			}
		}
	case ir.FAbs:
		return func(d []uint32) {
			a := a[:len(d)]
			for l := range d {
				d[l] = a[l] &^ 0x80000000
			}
		}
	case ir.IAdd, ir.UAdd:
		return func(d []uint32) {
			a, b := a[:len(d)], b[:len(d)]
			for l := range d {
				d[l] = a[l] + b[l]
			}
		}
	case ir.ISub, ir.USub:
		return func(d []uint32) {
			a, b := a[:len(d)], b[:len(d)]
			for l := range d {
				d[l] = a[l] - b[l]
			}
		}
	case ir.IMul, ir.UMul:
		return func(d []uint32) {
			a, b := a[:len(d)], b[:len(d)]
			for l := range d {
				d[l] = a[l] * b[l]
			}
		}
	case ir.INeg:
		return func(d []uint32) {
			a := a[:len(d)]
			for l := range d {
				d[l] = -a[l]
			}
		}
	case ir.IMin:
		return func(d []uint32) {
			a, b := a[:len(d)], b[:len(d)]
			for l := range d {
				d[l] = imin(a[l], b[l])
			}
		}
	case ir.IMax:
		return func(d []uint32) {
			a, b := a[:len(d)], b[:len(d)]
			for l := range d {
				d[l] = imax(a[l], b[l])
			}
		}
	case ir.UMin:
		return func(d []uint32) {
			a, b := a[:len(d)], b[:len(d)]
			for l := range d {
				d[l] = min(a[l], b[l])
			}
		}
	case ir.UMax:
		return func(d []uint32) {
			a, b := a[:len(d)], b[:len(d)]
			for l := range d {
				d[l] = max(a[l], b[l])
			}
		}
	case ir.Not:
		return func(d []uint32) {
			a := a[:len(d)]
			for l := range d {
				d[l] = ^a[l]
			}
		}
	case ir.And:
		return func(d []uint32) {
			a, b := a[:len(d)], b[:len(d)]
			for l := range d {
				d[l] = a[l] & b[l]
			}
		}
	case ir.Or:
		return func(d []uint32) {
			a, b := a[:len(d)], b[:len(d)]
			for l := range d {
				d[l] = a[l] | b[l]
			}
		}
	case ir.Xor:
		return func(d []uint32) {
			a, b := a[:len(d)], b[:len(d)]
			for l := range d {
				d[l] = a[l] ^ b[l]
			}
		}
	case ir.Shl:
		return func(d []uint32) {
			a, b := a[:len(d)], b[:len(d)]
			for l := range d {
				d[l] = a[l] << (b[l] & 31)
			}
		}
	case ir.IShr:
		return func(d []uint32) {
			a, b := a[:len(d)], b[:len(d)]
			for l := range d {
				d[l] = uint32(int32(a[l]) >> (b[l] & 31))
			}
		}
	case ir.UShr:
		return func(d []uint32) {
			a, b := a[:len(d)], b[:len(d)]
			for l := range d {
				d[l] = a[l] >> (b[l] & 31)
			}
		}
	case ir.FEq:
		return func(d []uint32) {
			a, b := af[:len(d)], bf[:len(d)]
			for l := range d {
				d[l] = bw(a[l] == b[l])
			}
		}
	case ir.FNe:
		return func(d []uint32) {
			a, b := af[:len(d)], bf[:len(d)]
			for l := range d {
				d[l] = bw(a[l] != b[l])
			}
		}
	case ir.FLt:
		return func(d []uint32) {
			a, b := af[:len(d)], bf[:len(d)]
			for l := range d {
				d[l] = bw(a[l] < b[l])
			}
		}
	case ir.FLe:
		return func(d []uint32) {
			a, b := af[:len(d)], bf[:len(d)]
			for l := range d {
				d[l] = bw(a[l] <= b[l])
			}
		}
	case ir.FGt:
		return func(d []uint32) {
			a, b := af[:len(d)], bf[:len(d)]
			for l := range d {
				d[l] = bw(a[l] > b[l])
			}
		}
	case ir.FGe:
		return func(d []uint32) {
			a, b := af[:len(d)], bf[:len(d)]
			for l := range d {
				d[l] = bw(a[l] >= b[l])
			}
		}
	case ir.ILt:
		return func(d []uint32) {
			a, b := a[:len(d)], b[:len(d)]
			for l := range d {
				d[l] = bw(int32(a[l]) < int32(b[l]))
			}
		}
	case ir.ILe:
		return func(d []uint32) {
			a, b := a[:len(d)], b[:len(d)]
			for l := range d {
				d[l] = bw(int32(a[l]) <= int32(b[l]))
			}
		}
	case ir.IGt:
		return func(d []uint32) {
			a, b := a[:len(d)], b[:len(d)]
			for l := range d {
				d[l] = bw(int32(a[l]) > int32(b[l]))
			}
		}
	case ir.IGe:
		return func(d []uint32) {
			a, b := a[:len(d)], b[:len(d)]
			for l := range d {
				d[l] = bw(int32(a[l]) >= int32(b[l]))
			}
		}
	case ir.ULt:
		return func(d []uint32) {
			a, b := a[:len(d)], b[:len(d)]
			for l := range d {
				d[l] = bw(a[l] < b[l])
			}
		}
	case ir.ULe:
		return func(d []uint32) {
			a, b := a[:len(d)], b[:len(d)]
			for l := range d {
				d[l] = bw(a[l] <= b[l])
			}
		}
	case ir.UGt:
		return func(d []uint32) {
			a, b := a[:len(d)], b[:len(d)]
			for l := range d {
				d[l] = bw(a[l] > b[l])
			}
		}
	case ir.UGe:
		return func(d []uint32) {
			a, b := a[:len(d)], b[:len(d)]
			for l := range d {
				d[l] = bw(a[l] >= b[l])
			}
		}
	case ir.Eq:
		return func(d []uint32) {
			a, b := a[:len(d)], b[:len(d)]
			for l := range d {
				d[l] = bw(a[l] == b[l])
			}
		}
	case ir.Ne:
		return func(d []uint32) {
			a, b := a[:len(d)], b[:len(d)]
			for l := range d {
				d[l] = bw(a[l] != b[l])
			}
		}
	case ir.BAnd:
		return func(d []uint32) {
			a, b := a[:len(d)], b[:len(d)]
			for l := range d {
				d[l] = bw(a[l] != 0 && b[l] != 0)
			}
		}
	case ir.BOr:
		return func(d []uint32) {
			a, b := a[:len(d)], b[:len(d)]
			for l := range d {
				d[l] = bw(a[l] != 0 || b[l] != 0)
			}
		}
	case ir.BXor:
		return func(d []uint32) {
			a, b := a[:len(d)], b[:len(d)]
			for l := range d {
				d[l] = bw((a[l] != 0) != (b[l] != 0))
			}
		}
	case ir.BNot:
		return func(d []uint32) {
			a := a[:len(d)]
			for l := range d {
				d[l] = bw(a[l] == 0)
			}
		}
	case ir.Select:
		return func(d []uint32) {
			a, b, c := a[:len(d)], b[:len(d)], c[:len(d)]
			for l := range d {
				d[l] = sel(a[l], b[l], c[l])
			}
		}
	case ir.ItoF:
		return func(d []uint32) {
			a := a[:len(d)]
			for l := range d {
				d[l] = fw(float32(int32(a[l])))
			}
		}
	case ir.UtoF:
		return func(d []uint32) {
			a := a[:len(d)]
			for l := range d {
				d[l] = fw(float32(a[l]))
			}
		}
	case ir.BtoF:
		return func(d []uint32) {
			a := a[:len(d)]
			for l := range d {
				d[l] = bw(a[l] != 0) * 0x3f800000
			}
		}
	case ir.BtoI, ir.BtoU:
		return func(d []uint32) {
			a := a[:len(d)]
			for l := range d {
				d[l] = bw(a[l] != 0)
			}
		}
	}
	return evalKernel(op, imm, z, a, b, c, e)
}

// evalKernel runs ir.Eval per lane for op, flushing denormal results when z is set.
func evalKernel(op ir.Op, imm uint32, z bool, a, b, c, e []uint32) func(d []uint32) {
	if z {
		return func(d []uint32) {
			a, b, c, e := a[:len(d)], b[:len(d)], c[:len(d)], e[:len(d)]
			for l := range d {
				d[l] = ftz(ir.Eval(op, imm, a[l], b[l], c[l], e[l]))
			}
		}
	}
	return func(d []uint32) {
		a, b, c, e := a[:len(d)], b[:len(d)], c[:len(d)], e[:len(d)]
		for l := range d {
			d[l] = ir.Eval(op, imm, a[l], b[l], c[l], e[l])
		}
	}
}

// fract is GLSL fract as ir.Eval computes it: x - floor(x) in single precision.
func fract(w uint32) uint32 {
	x := fl(w)
	return fw(x - float32(math.Floor(float64(x))))
}

// imin and imax are the signed minimum and maximum as ir.Eval computes them.
func imin(a, b uint32) uint32 {
	if int32(b) < int32(a) {
		return b
	}
	return a
}

func imax(a, b uint32) uint32 {
	if int32(a) < int32(b) {
		return b
	}
	return a
}

// sel is Select: b where the condition a is true, else c.
func sel(a, b, c uint32) uint32 {
	if a != 0 {
		return b
	}
	return c
}
