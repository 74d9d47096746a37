// Package ast declares the syntax tree of a GLSL shader and the GLSL types that the
// checker (package types) annotates it with.
//
// The tree is the contract between the front end and the lowering to the scalar IR:
// after types.Check succeeds,
//   - every Expr has a non-invalid Type() and, when it is a constant expression,
//     a non-nil Value() holding the folded constant;
//   - implicit conversions are explicit *Conv nodes (int->float, uint->float,
//     int->uint and their vector/matrix forms), so operands of every Binary, Assign,
//     Call argument, return value and initialiser already have the types the
//     operation needs;
//   - every *Ident refers to a *Var, every *Call is resolved to a user *Func, a
//     Builtin function id or a constructor, and every *Selector is either a struct
//     field (Field >= 0) or a swizzle (Swizzle != nil).
//
// shader/glsl/LOWERING.md spells out the full contract node by node.
//
// spec: GLSL 4.50 (and GLSL ES 3.00) §3-§9.
package ast

import "strconv"

// Pos is a source position. Line and Col are 1-based; Col counts bytes.
type Pos struct {
	File string
	Line int
	Col  int
}

func (p Pos) String() string {
	return p.File + ":" + strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Col)
}

// IsValid reports whether p was set.
func (p Pos) IsValid() bool { return p.Line > 0 }

// Before orders positions within one compilation.
func (p Pos) Before(q Pos) bool {
	if p.File != q.File {
		return p.File < q.File
	}
	if p.Line != q.Line {
		return p.Line < q.Line
	}
	return p.Col < q.Col
}

// Node is any syntax tree node.
type Node interface {
	Pos() Pos
}

// ---------------------------------------------------------------------------
// Expressions

// Expr is an expression node.
type Expr interface {
	Node
	// Type is the checked type (nil before checking).
	Type() *Type
	// Value is the folded constant value, nil when not a constant expression.
	Value() *Value
	// Info gives the checker write access to the annotations.
	Info() *ExprInfo
}

// ExprInfo holds the annotations the checker writes on every expression.
type ExprInfo struct {
	T   *Type
	Val *Value
}

// Type returns the checked type.
func (x *ExprInfo) Type() *Type { return x.T }

// Value returns the folded constant or nil.
func (x *ExprInfo) Value() *Value { return x.Val }

// Info returns x itself.
func (x *ExprInfo) Info() *ExprInfo { return x }

// Ident is a use of a variable (or, before checking, any name).
type Ident struct {
	ExprInfo
	NamePos Pos
	Name    string
	Var     *Var // resolved variable
}

// LitKind tells which literal a Literal is.
type LitKind uint8

// Literal kinds.
const (
	LitInt LitKind = iota
	LitUint
	LitFloat
	LitBool
)

// Literal is a constant literal: 1, 2u, 0x1F, 1.5, 2e3f, true. Its Value is set by
// the checker like for any other constant.
type Literal struct {
	ExprInfo
	ValuePos Pos
	Kind     LitKind
	Raw      string // spelling in the source
}

// Unary is op X for -, +, !, ~ and prefix/postfix ++/--.
type Unary struct {
	ExprInfo
	OpPos   Pos
	Op      Op // OpNeg, OpPlus, OpNot, OpBitNot, OpPreInc, OpPreDec, OpPostInc, OpPostDec
	X       Expr
	Postfix bool
}

// Binary is X op Y for arithmetic, bitwise, shift, relational, equality, logical and
// the comma operator. After checking, for arithmetic ops X and Y have the same base
// type; scalar-vector and scalar-matrix mixes remain (the scalar is broadcast), and
// OpMul on matrices/vectors is the linear-algebra product. spec: GLSL 4.50 §5.9-§5.10.
type Binary struct {
	ExprInfo
	OpPos Pos
	Op    Op
	X, Y  Expr
}

// Assign is LHS op= RHS (Op is OpAssign for plain =, otherwise the arithmetic op).
// After checking RHS has LHS's type for plain assignment; for compound assignment
// the operation LHS = LHS op RHS is well typed as a Binary would be.
type Assign struct {
	ExprInfo
	OpPos    Pos
	Op       Op
	LHS, RHS Expr
}

// Cond is Cond ? Then : Else.
type Cond struct {
	ExprInfo
	QPos       Pos
	Cond       Expr
	Then, Else Expr
}

// Index is X[Index] on an array, vector or matrix.
type Index struct {
	ExprInfo
	LbrackPos Pos
	X         Expr
	Index     Expr
}

// Selector is X.Name: a struct or block field, or a vector swizzle.
type Selector struct {
	ExprInfo
	DotPos  Pos
	X       Expr
	Name    string
	Field   int   // struct field index, -1 if a swizzle
	Swizzle []int // component indices 0..3 when a swizzle
}

// CallKind tells what a Call resolved to.
type CallKind uint8

// Call kinds.
const (
	CallUnresolved CallKind = iota
	CallFunc                // user function: Func
	CallBuiltin             // built-in function: Builtin
	CallConstruct           // constructor of CtorType (scalar, vector, matrix, struct or array)
	CallLength              // X.length() on an array (always folded to a constant int)
)

// Call is a function call, constructor or .length() method.
type Call struct {
	ExprInfo
	NamePos  Pos
	Name     string    // function or type name as written
	TypeSpec *TypeSpec // set when the callee was written as a type (vec3(...), float[2](...), S(...))
	Method   Expr      // receiver of X.length()
	Args     []Expr
	Rparen   Pos

	Kind     CallKind
	Func     *Func   // CallFunc
	Builtin  Builtin // CallBuiltin
	CtorType *Type   // CallConstruct: the constructed type
}

// Conv is an implicit conversion inserted by the checker: X converted to Type()
// component-wise (same shape, different base). spec: GLSL 4.50 §4.1.10.
type Conv struct {
	ExprInfo
	X Expr
}

// InitList is a brace initializer "{ a, b, ... }" (GLSL 4.20). It exists only
// between parsing and checking: the checker replaces every InitList by the
// equivalent CallConstruct of the declared type, so a checked tree never holds one.
type InitList struct {
	ExprInfo
	Lbrace Pos
	Elems  []Expr
}

// Pos returns the position of the opening brace.
func (x *InitList) Pos() Pos { return x.Lbrace }

// Pos implementations.
func (x *Ident) Pos() Pos    { return x.NamePos }
func (x *Literal) Pos() Pos  { return x.ValuePos }
func (x *Unary) Pos() Pos    { return startOf(x.X, x.OpPos, x.Postfix) }
func (x *Binary) Pos() Pos   { return x.X.Pos() }
func (x *Assign) Pos() Pos   { return x.LHS.Pos() }
func (x *Cond) Pos() Pos     { return x.Cond.Pos() }
func (x *Index) Pos() Pos    { return x.X.Pos() }
func (x *Selector) Pos() Pos { return x.X.Pos() }
func (x *Call) Pos() Pos {
	if x.Method != nil {
		return x.Method.Pos()
	}
	return x.NamePos
}
func (x *Conv) Pos() Pos { return x.X.Pos() }

func startOf(x Expr, op Pos, postfix bool) Pos {
	if postfix && x != nil {
		return x.Pos()
	}
	return op
}

// ---------------------------------------------------------------------------
// Types as written

// TypeSpec is a type as written in the source: a name (float, vec4, sampler2D, a
// struct name) or an inline struct, with optional array dimensions and precision.
type TypeSpec struct {
	NamePos   Pos
	Name      string      // "" when Struct is set
	Struct    *StructSpec // inline struct definition
	Dims      []*ArrayDim // T[2][3]: outermost first
	Precision Precision

	Type *Type // resolved by the checker
}

// ArrayDim is one [size] of an array declarator; Size is nil for [].
type ArrayDim struct {
	Lbrack Pos
	Size   Expr
}

// StructSpec is struct Name { members };
type StructSpec struct {
	StructPos Pos
	Name      string // "" for anonymous structs
	Members   []*DeclGroup
	Type      *StructType // resolved by the checker
}

// Pos returns the position of the type name.
func (t *TypeSpec) Pos() Pos { return t.NamePos }

// RootVar returns the variable at the root of an access chain — a variable,
// an array element, a member or a swizzle of one, in any combination
// (a.b[i].c.xy → a) — or nil when e is no such chain (a call, an operator).
func RootVar(e Expr) *Var {
	for {
		switch x := e.(type) {
		case *Ident:
			return x.Var
		case *Index:
			e = x.X
		case *Selector:
			e = x.X
		default:
			return nil
		}
	}
}
