package ast

// Stmt is a statement node. spec: GLSL 4.50 §6.
type Stmt interface {
	Node
	stmtNode()
}

// Block is { stmts }.
type Block struct {
	Lbrace Pos
	Stmts  []Stmt
}

// DeclStmt is a local declaration (a *DeclGroup, or a local struct definition).
type DeclStmt struct {
	Decl Decl
}

// ExprStmt is an expression statement.
type ExprStmt struct {
	X Expr
}

// EmptyStmt is ";".
type EmptyStmt struct {
	Semi Pos
}

// IfStmt is if (Cond) Then else Else; Else may be nil.
type IfStmt struct {
	IfPos Pos
	Cond  Expr
	Then  Stmt
	Else  Stmt
}

// ForStmt is for (Init; Cond; Post) Body. Init may be nil, a *DeclStmt or an
// *ExprStmt; Cond and Post may be nil. The for statement opens its own scope.
type ForStmt struct {
	ForPos Pos
	Init   Stmt
	Cond   Expr
	Post   Expr
	Body   Stmt
}

// WhileStmt is while (Cond) Body.
type WhileStmt struct {
	WhilePos Pos
	Cond     Expr
	Body     Stmt
}

// DoStmt is do Body while (Cond);
type DoStmt struct {
	DoPos Pos
	Body  Stmt
	Cond  Expr
}

// SwitchStmt is switch (Tag) { Body }. Body holds *CaseStmt labels interleaved with
// ordinary statements, exactly as written (fallthrough is implicit).
type SwitchStmt struct {
	SwitchPos Pos
	Tag       Expr
	Body      *Block
}

// CaseStmt is "case Value:" or "default:" (Value nil). After checking Value is a
// constant of the tag's type.
type CaseStmt struct {
	CasePos Pos
	Value   Expr
}

// BranchKind distinguishes the jump statements.
type BranchKind uint8

// Jump statements.
const (
	Break BranchKind = iota
	Continue
	Discard
)

// BranchStmt is break, continue or discard.
type BranchStmt struct {
	TokPos Pos
	Kind   BranchKind
}

// ReturnStmt is return [Result];
type ReturnStmt struct {
	ReturnPos Pos
	Result    Expr
}

// Pos implementations.
func (s *Block) Pos() Pos      { return s.Lbrace }
func (s *DeclStmt) Pos() Pos   { return s.Decl.Pos() }
func (s *ExprStmt) Pos() Pos   { return s.X.Pos() }
func (s *EmptyStmt) Pos() Pos  { return s.Semi }
func (s *IfStmt) Pos() Pos     { return s.IfPos }
func (s *ForStmt) Pos() Pos    { return s.ForPos }
func (s *WhileStmt) Pos() Pos  { return s.WhilePos }
func (s *DoStmt) Pos() Pos     { return s.DoPos }
func (s *SwitchStmt) Pos() Pos { return s.SwitchPos }
func (s *CaseStmt) Pos() Pos   { return s.CasePos }
func (s *BranchStmt) Pos() Pos { return s.TokPos }
func (s *ReturnStmt) Pos() Pos { return s.ReturnPos }

func (*Block) stmtNode()      {}
func (*DeclStmt) stmtNode()   {}
func (*ExprStmt) stmtNode()   {}
func (*EmptyStmt) stmtNode()  {}
func (*IfStmt) stmtNode()     {}
func (*ForStmt) stmtNode()    {}
func (*WhileStmt) stmtNode()  {}
func (*DoStmt) stmtNode()     {}
func (*SwitchStmt) stmtNode() {}
func (*CaseStmt) stmtNode()   {}
func (*BranchStmt) stmtNode() {}
func (*ReturnStmt) stmtNode() {}

// Op is an operator. spec: GLSL 4.50 §5.1.
type Op uint8

// Operators.
const (
	OpInvalid Op = iota
	// unary
	OpNeg
	OpPlus
	OpNot    // !
	OpBitNot // ~
	OpPreInc
	OpPreDec
	OpPostInc
	OpPostDec
	// binary
	OpMul
	OpDiv
	OpMod
	OpAdd
	OpSub
	OpShl
	OpShr
	OpLt
	OpGt
	OpLe
	OpGe
	OpEq
	OpNe
	OpBitAnd
	OpBitXor
	OpBitOr
	OpLogAnd
	OpLogXor
	OpLogOr
	OpComma
	// assignment
	OpAssign
)

var opNames = [...]string{"?", "-", "+", "!", "~", "++", "--", "++", "--",
	"*", "/", "%", "+", "-", "<<", ">>", "<", ">", "<=", ">=", "==", "!=",
	"&", "^", "|", "&&", "^^", "||", ",", "="}

func (o Op) String() string {
	if int(o) < len(opNames) {
		return opNames[o]
	}
	return "op?"
}
