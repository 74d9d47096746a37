package ir

// Op is an IR opcode. Every opcode has a fixed signature in the opcode table: the
// type class of its destination and of each source, and flags that say whether it is
// a pure ALU operation (foldable, removable when dead), a control-flow marker, or a
// fragment-only operation. spec: vortexpipe-driver §2.2 (scalar walker, one value per
// 32-bit word; ops bit-cast to the interpretation they need).
type Op uint8

// Opcodes. The groups follow the GLSL built-in function chapters; vector-level
// functions (dot, cross, normalize, matrix operations) are not opcodes: the lowering
// expands them into these scalar operations.
const (
	Nop Op = iota

	// Moves and constants.
	Const  // dst = Imm (raw bits)
	Mov    // dst = src0 (same type)
	Cast   // dst = src0 reinterpreted (floatBitsToInt, int(uint), ...): a bit copy
	Select // dst = src0 ? src1 : src2

	// Float unary.
	FNeg
	FAbs
	FSign
	Floor
	Ceil
	Trunc
	Round
	RoundEven
	Fract
	Sqrt
	InvSqrt
	Exp
	Exp2
	Log
	Log2
	Sin
	Cos
	Tan
	Asin
	Acos
	Atan
	Sinh
	Cosh
	Tanh
	Asinh
	Acosh
	Atanh
	FrexpMant // mantissa of frexp, in [0.5,1)
	// Float binary.
	FAdd
	FSub
	FMul
	FDiv
	FMod // GLSL mod: x - y*floor(x/y)
	FMin
	FMax
	Pow
	Atan2 // atan(y=src0, x=src1)
	// Float ternary.
	FClamp // clamp(x, lo, hi) = min(max(x, lo), hi)
	Fma
	// Float classification and exponent access.
	IsNan
	IsInf
	FrexpExp // exponent of frexp
	Ldexp    // src0 * 2^src1

	// Signed integer.
	INeg
	IAbs
	ISign
	IAdd
	ISub
	IMul
	IDiv
	IMod
	IMin
	IMax
	IClamp
	IMulHi // high word of imulExtended
	// Unsigned integer.
	UAdd
	USub
	UMul
	UDiv
	UMod
	UMin
	UMax
	UClamp
	UMulHi     // high word of umulExtended
	UAddCarry  // carry out of src0+src1 (uaddCarry)
	USubBorrow // borrow of src0-src1 (usubBorrow)

	// Bit operations; And/Or/Xor/Not/Shl/BitfieldInsert/BitReverse work on int or uint.
	Not
	And
	Or
	Xor
	Shl
	IShr // arithmetic shift
	UShr // logical shift
	IBfe // bitfieldExtract, sign-extending
	UBfe // bitfieldExtract, zero-extending
	BitfieldInsert
	BitReverse
	BitCount
	FindLSB
	IFindMSB
	UFindMSB

	// Conversions.
	FtoI
	FtoU
	ItoF
	UtoF
	BtoF
	BtoI
	BtoU

	// Comparisons (result bool). Eq/Ne compare any two words of one type.
	FEq
	FNe
	FLt
	FLe
	FGt
	FGe
	ILt
	ILe
	IGt
	IGe
	ULt
	ULe
	UGt
	UGe
	Eq
	Ne
	BAnd
	BOr
	BXor
	BNot

	// Packing; the unpack ops return the component selected by Imm.
	PackSnorm2x16
	PackUnorm2x16
	PackHalf2x16
	PackSnorm4x8
	PackUnorm4x8
	UnpackSnorm2x16
	UnpackUnorm2x16
	UnpackHalf2x16
	UnpackSnorm4x8
	UnpackUnorm4x8

	// Memory.
	LoadInput      // dst = input word Imm
	StoreOutput    // output word Imm = src0
	LoadUniform    // dst = uniform word Imm
	LoadUniformIdx // dst = uniform word Imm + clamp(src0, 0, Len-1)*Stride
	ArrayLoad      // dst = r[Imm + clamp(src0, 0, Len-1)*Stride]
	ArrayStore     // r[Imm + clamp(src0, 0, Len-1)*Stride] = src1

	// Fragment-only operations. spec: vortexpipe-driver §2.2 (quad shuffle), §3.4.
	DdxFine
	DdyFine
	DdxCoarse
	DdyCoarse
	IsHelper // gl_HelperInvocation: the lane is not live
	Discard  // clear the live flag and terminate the lane
	Demote   // clear the live flag; the lane keeps running as a helper

	Tex    // texture operation Program.Tex[Imm]
	Export // hand the live lanes' outputs to the output sink

	// Structured control flow.
	If         // if src0 { ... [Else ...] } EndIf
	Else       //
	EndIf      //
	Loop       // Loop body [Continuing continue-block] EndLoop
	Continuing // start of the continue block: continued lanes rejoin here
	EndLoop    //
	Break      // leave the innermost loop
	Continue   // go to the innermost loop's continue block (or its end)
	Return     // leave the innermost Scope (the program at top level)
	Scope      // an inlined function body; Return inside it leaves the Scope
	EndScope   //
	Call       // run function Funcs[Imm] (removed by Inline)

	// Memory of compute programs (and storage buffers/images in any stage). For
	// these Imm is the binding and Len the Space; addresses are byte addresses of
	// aligned words. An access outside the binding follows robust buffer access:
	// a load returns 0, a store or atomic is dropped (an atomic returns 0).
	// spec: vortexpipe-driver §2.5 (storage descriptors), §2.3.2 (barriers).
	MemLoad     // dst = word at byte address src0
	MemStore    // word at byte address src0 = src1
	MemAtomic   // dst = old word at src0; word = AtomicResult(Stride, old, src1, src2)
	MemSize     // dst = size in bytes of the binding (for .length())
	ImageExtent // dst = extent component Stride (0 width, 1 height, 2 depth/layers) of image Imm
	Barrier     // workgroup execution barrier (compute only)
	// dst = the ImageFormat of the image bound at binding Imm (formatless images).
	ImageFormatOf

	// Geometry-only operations. spec: GLSL 1.50 §8.10, GL 4.6 §11.3.4.
	Emit    // EmitVertex(): append the output words to the lane's emitted vertices
	EndPrim // EndPrimitive(): the lane's next emitted vertex starts a new strip

	// Votes over the group of invocations executing together: the lanes of
	// the warp that run the instruction (its execution mask), every one of
	// which gets the same answer. The group is what ARB_shader_group_vote
	// leaves implementation-dependent; a Width-1 run makes every invocation a
	// group of its own. Like derivatives they read other lanes, so they are
	// not pure: no pass moves them across control flow. spec:
	// ARB_shader_group_vote (GLSL §8.18 "Shader Invocation Group Functions");
	// the device's vx_vote_any/all/uni (package device/simt) answer over the
	// same lanes.
	VoteAny // dst = src0 is true on some active lane (anyInvocationARB)
	VoteAll // dst = src0 is true on every active lane (allInvocationsARB)
	VoteEq  // dst = src0 is the same on every active lane (allInvocationsEqualARB)

	numOps
)

// NumOps is the number of opcodes (every Op below it is defined).
const NumOps = numOps

// sig is the type class of one operand in the opcode table.
type sig uint8

const (
	sNone sig = iota
	sF        // float
	sI        // int
	sU        // uint
	sB        // bool
	sSame     // the destination's type (which must be int or uint for bit ops)
	sInt      // int or uint
	sAny      // any type
	sSrc0     // the type of src0
)

// op flags.
const (
	fPure  = 1 << iota // ALU op: result depends only on sources and Imm
	fCtrl              // structured control flow marker
	fFrag              // fragment stage only
	fIntOp             // dst type must be int or uint
	fNoDst             // writes no register
	fGeom              // geometry stage only
)

type opInfo struct {
	name  string
	dst   sig
	src   [4]sig
	n     int
	flags uint8
}

func pure(name string, dst sig, src ...sig) opInfo {
	o := opInfo{name: name, dst: dst, n: len(src), flags: fPure}
	copy(o.src[:], src)
	return o
}

func intop(name string, src ...sig) opInfo {
	o := pure(name, sInt, src...)
	o.flags |= fIntOp
	return o
}

func ctrl(name string, src ...sig) opInfo {
	o := opInfo{name: name, n: len(src), flags: fCtrl | fNoDst}
	copy(o.src[:], src)
	return o
}

// opTable is the read-only opcode table indexed by Op.
var opTable = [numOps]opInfo{
	Nop:    {name: "nop", flags: fNoDst},
	Const:  pure("const", sAny),
	Mov:    pure("mov", sAny, sSame),
	Cast:   pure("cast", sAny, sAny),
	Select: pure("select", sAny, sB, sSame, sSame),

	FNeg: pure("fneg", sF, sF), FAbs: pure("fabs", sF, sF), FSign: pure("fsign", sF, sF),
	Floor: pure("floor", sF, sF), Ceil: pure("ceil", sF, sF), Trunc: pure("trunc", sF, sF),
	Round: pure("round", sF, sF), RoundEven: pure("roundeven", sF, sF), Fract: pure("fract", sF, sF),
	Sqrt: pure("sqrt", sF, sF), InvSqrt: pure("inversesqrt", sF, sF),
	Exp: pure("exp", sF, sF), Exp2: pure("exp2", sF, sF), Log: pure("log", sF, sF), Log2: pure("log2", sF, sF),
	Sin: pure("sin", sF, sF), Cos: pure("cos", sF, sF), Tan: pure("tan", sF, sF),
	Asin: pure("asin", sF, sF), Acos: pure("acos", sF, sF), Atan: pure("atan", sF, sF),
	Sinh: pure("sinh", sF, sF), Cosh: pure("cosh", sF, sF), Tanh: pure("tanh", sF, sF),
	Asinh: pure("asinh", sF, sF), Acosh: pure("acosh", sF, sF), Atanh: pure("atanh", sF, sF),
	FrexpMant: pure("frexpmant", sF, sF),
	FAdd:      pure("fadd", sF, sF, sF), FSub: pure("fsub", sF, sF, sF), FMul: pure("fmul", sF, sF, sF),
	FDiv: pure("fdiv", sF, sF, sF), FMod: pure("fmod", sF, sF, sF),
	FMin: pure("fmin", sF, sF, sF), FMax: pure("fmax", sF, sF, sF),
	Pow: pure("pow", sF, sF, sF), Atan2: pure("atan2", sF, sF, sF),
	FClamp: pure("fclamp", sF, sF, sF, sF), Fma: pure("fma", sF, sF, sF, sF),
	IsNan: pure("isnan", sB, sF), IsInf: pure("isinf", sB, sF),
	FrexpExp: pure("frexpexp", sI, sF), Ldexp: pure("ldexp", sF, sF, sI),

	INeg: pure("ineg", sI, sI), IAbs: pure("iabs", sI, sI), ISign: pure("isign", sI, sI),
	IAdd: pure("iadd", sI, sI, sI), ISub: pure("isub", sI, sI, sI), IMul: pure("imul", sI, sI, sI),
	IDiv: pure("idiv", sI, sI, sI), IMod: pure("imod", sI, sI, sI),
	IMin: pure("imin", sI, sI, sI), IMax: pure("imax", sI, sI, sI), IClamp: pure("iclamp", sI, sI, sI, sI),
	IMulHi: pure("imulhi", sI, sI, sI),
	UAdd:   pure("uadd", sU, sU, sU), USub: pure("usub", sU, sU, sU), UMul: pure("umul", sU, sU, sU),
	UDiv: pure("udiv", sU, sU, sU), UMod: pure("umod", sU, sU, sU),
	UMin: pure("umin", sU, sU, sU), UMax: pure("umax", sU, sU, sU), UClamp: pure("uclamp", sU, sU, sU, sU),
	UMulHi: pure("umulhi", sU, sU, sU), UAddCarry: pure("uaddcarry", sU, sU, sU), USubBorrow: pure("usubborrow", sU, sU, sU),

	Not: intop("not", sSame), And: intop("and", sSame, sSame), Or: intop("or", sSame, sSame),
	Xor: intop("xor", sSame, sSame), Shl: intop("shl", sSame, sInt),
	IShr: pure("ishr", sI, sI, sInt), UShr: pure("ushr", sU, sU, sInt),
	IBfe: pure("ibfe", sI, sI, sI, sI), UBfe: pure("ubfe", sU, sU, sI, sI),
	BitfieldInsert: intop("bfi", sSame, sSame, sI, sI), BitReverse: intop("bitreverse", sSame),
	BitCount: pure("bitcount", sI, sInt), FindLSB: pure("findlsb", sI, sInt),
	IFindMSB: pure("ifindmsb", sI, sI), UFindMSB: pure("ufindmsb", sI, sU),

	FtoI: pure("ftoi", sI, sF), FtoU: pure("ftou", sU, sF), ItoF: pure("itof", sF, sI), UtoF: pure("utof", sF, sU),
	BtoF: pure("btof", sF, sB), BtoI: pure("btoi", sI, sB), BtoU: pure("btou", sU, sB),

	FEq: pure("feq", sB, sF, sF), FNe: pure("fne", sB, sF, sF), FLt: pure("flt", sB, sF, sF),
	FLe: pure("fle", sB, sF, sF), FGt: pure("fgt", sB, sF, sF), FGe: pure("fge", sB, sF, sF),
	ILt: pure("ilt", sB, sI, sI), ILe: pure("ile", sB, sI, sI), IGt: pure("igt", sB, sI, sI), IGe: pure("ige", sB, sI, sI),
	ULt: pure("ult", sB, sU, sU), ULe: pure("ule", sB, sU, sU), UGt: pure("ugt", sB, sU, sU), UGe: pure("uge", sB, sU, sU),
	Eq: pure("eq", sB, sAny, sSrc0), Ne: pure("ne", sB, sAny, sSrc0),
	BAnd: pure("band", sB, sB, sB), BOr: pure("bor", sB, sB, sB), BXor: pure("bxor", sB, sB, sB), BNot: pure("bnot", sB, sB),

	PackSnorm2x16: pure("packsnorm2x16", sU, sF, sF), PackUnorm2x16: pure("packunorm2x16", sU, sF, sF),
	PackHalf2x16: pure("packhalf2x16", sU, sF, sF),
	PackSnorm4x8: pure("packsnorm4x8", sU, sF, sF, sF, sF), PackUnorm4x8: pure("packunorm4x8", sU, sF, sF, sF, sF),
	UnpackSnorm2x16: pure("unpacksnorm2x16", sF, sU), UnpackUnorm2x16: pure("unpackunorm2x16", sF, sU),
	UnpackHalf2x16: pure("unpackhalf2x16", sF, sU),
	UnpackSnorm4x8: pure("unpacksnorm4x8", sF, sU), UnpackUnorm4x8: pure("unpackunorm4x8", sF, sU),

	LoadInput:      {name: "loadin", dst: sAny},
	StoreOutput:    {name: "storeout", src: [4]sig{sAny}, n: 1, flags: fNoDst},
	LoadUniform:    {name: "loaduni", dst: sAny},
	LoadUniformIdx: {name: "loaduniidx", dst: sAny, src: [4]sig{sInt}, n: 1},
	ArrayLoad:      {name: "aload", dst: sAny, src: [4]sig{sInt}, n: 1},
	ArrayStore:     {name: "astore", src: [4]sig{sInt, sAny}, n: 2, flags: fNoDst},

	DdxFine: {name: "ddxfine", dst: sF, src: [4]sig{sF}, n: 1, flags: fFrag}, DdyFine: {name: "ddyfine", dst: sF, src: [4]sig{sF}, n: 1, flags: fFrag},
	DdxCoarse: {name: "ddxcoarse", dst: sF, src: [4]sig{sF}, n: 1, flags: fFrag}, DdyCoarse: {name: "ddycoarse", dst: sF, src: [4]sig{sF}, n: 1, flags: fFrag},
	IsHelper: {name: "ishelper", dst: sB, flags: fFrag},
	Discard:  {name: "discard", flags: fFrag | fNoDst},
	Demote:   {name: "demote", flags: fFrag | fNoDst},
	Tex:      {name: "tex", flags: fNoDst},
	Export:   {name: "export", flags: fNoDst},

	If: ctrl("if", sB), Else: ctrl("else"), EndIf: ctrl("endif"),
	Loop: ctrl("loop"), Continuing: ctrl("continuing"), EndLoop: ctrl("endloop"),
	Break: ctrl("break"), Continue: ctrl("continue"), Return: ctrl("return"),
	Scope: ctrl("scope"), EndScope: ctrl("endscope"), Call: ctrl("call"),

	MemLoad:     {name: "mload", dst: sAny, src: [4]sig{sU}, n: 1},
	MemStore:    {name: "mstore", src: [4]sig{sU, sAny}, n: 2, flags: fNoDst},
	MemAtomic:   {name: "matomic", dst: sInt, src: [4]sig{sU, sSame, sSame}, n: 3, flags: fIntOp},
	MemSize:     {name: "msize", dst: sU},
	ImageExtent: {name: "imgextent", dst: sI},
	Barrier:     {name: "barrier", flags: fNoDst},

	ImageFormatOf: {name: "imgformat", dst: sU},

	Emit:    {name: "emit", flags: fGeom | fNoDst},
	EndPrim: {name: "endprim", flags: fGeom | fNoDst},

	VoteAny: {name: "voteany", dst: sB, src: [4]sig{sB}, n: 1},
	VoteAll: {name: "voteall", dst: sB, src: [4]sig{sB}, n: 1},
	VoteEq:  {name: "voteeq", dst: sB, src: [4]sig{sB}, n: 1},
}

// String returns the opcode's printer name.
func (o Op) String() string {
	if o < numOps && opTable[o].name != "" {
		return opTable[o].name
	}
	return "op?"
}

// NumSrc returns the number of register sources the opcode reads.
func (o Op) NumSrc() int {
	if o >= numOps {
		return 0
	}
	return opTable[o].n
}

// IsPure reports whether o is an ALU operation whose result depends only on its
// sources and Imm: such an instruction may be folded, propagated or removed when dead.
func (o Op) IsPure() bool { return o < numOps && opTable[o].flags&fPure != 0 }

// HasDst reports whether o writes its Dst register.
func (o Op) HasDst() bool { return o < numOps && opTable[o].flags&fNoDst == 0 && o != Nop }

// IsControl reports whether o is a structured control-flow marker.
func (o Op) IsControl() bool { return o < numOps && opTable[o].flags&fCtrl != 0 }

// OpByName returns the opcode with the given printer name.
func OpByName(name string) (Op, bool) {
	for i := Op(0); i < numOps; i++ {
		if opTable[i].name == name {
			return i, true
		}
	}
	return 0, false
}
