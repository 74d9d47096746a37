package ast

import (
	"fmt"
	"strconv"
	"strings"
)

// Basic is the scalar base of a scalar, vector or matrix type.
// spec: GLSL 4.50 §4.1 (basic types).
type Basic uint8

// The scalar bases. Every scalar occupies one 32-bit word.
const (
	BasicNone Basic = iota
	Bool
	Int
	Uint
	Float
)

var basicNames = [...]string{"", "bool", "int", "uint", "float"}

func (b Basic) String() string {
	if int(b) < len(basicNames) {
		return basicNames[b]
	}
	return "basic(" + strconv.Itoa(int(b)) + ")"
}

// Kind classifies a Type.
type Kind uint8

// The type kinds.
const (
	KindInvalid Kind = iota
	KindVoid
	KindScalar  // Base, Rows=Cols=1
	KindVector  // Base, Rows=N (2..4), Cols=1
	KindMatrix  // Base=Float, Cols columns of Rows components
	KindStruct  // Struct
	KindArray   // Elem, Len
	KindSampler // Sampler
)

// SamplerDim is the dimensionality of a sampler.
type SamplerDim uint8

// Sampler dimensionalities. spec: GLSL 4.50 §4.1.7.
const (
	Dim1D SamplerDim = iota + 1
	Dim2D
	Dim3D
	DimCube
	DimRect
	DimBuffer
	Dim2DMS
)

// SamplerType describes an opaque sampler type such as isampler2DArray.
type SamplerType struct {
	Dim    SamplerDim
	Array  bool
	Shadow bool
	Base   Basic // Float, Int or Uint: the type of the returned texel components
	// Image marks a storage image type (image2D, uimage3D, iimage2DArray, ...):
	// opaque like a sampler, read and written with imageLoad/imageStore.
	Image bool
	// Atomic marks atomic_uint (an atomic counter; Dim, Array, Shadow unused).
	Atomic bool
}

// Field is one member of a struct or interface block.
type Field struct {
	Name string
	Type *Type
	Pos  Pos
}

// StructType is a named (or anonymous) structure. Two struct types are identical
// only if they are the same *StructType (GLSL has name equivalence for structs,
// and the linker compares across stages by name and members).
type StructType struct {
	Name   string
	Fields []Field
}

// Type is a GLSL type. Types are immutable once built; compare them with Identical,
// never with ==. spec: GLSL 4.50 §4.1.
type Type struct {
	Kind    Kind
	Base    Basic       // scalar, vector and matrix
	Rows    int         // vector size, or rows of a matrix; 1 for scalars
	Cols    int         // matrix columns; 1 for scalars and vectors
	Elem    *Type       // array element
	Len     int         // array length; 0 for an unsized array (only before sizing)
	Struct  *StructType // struct
	Sampler SamplerType // sampler
}

// Type constructors. They return fresh values; callers may share them freely.

// Void returns the void type.
func Void() *Type { return &Type{Kind: KindVoid} }

// Invalid returns the type given to an expression that failed to check.
func Invalid() *Type { return &Type{Kind: KindInvalid} }

// Scalar returns bool, int, uint or float.
func Scalar(b Basic) *Type { return &Type{Kind: KindScalar, Base: b, Rows: 1, Cols: 1} }

// Vector returns an n-component vector of base b (n in 2..4); n==1 gives the scalar.
func Vector(b Basic, n int) *Type {
	if n == 1 {
		return Scalar(b)
	}
	return &Type{Kind: KindVector, Base: b, Rows: n, Cols: 1}
}

// Matrix returns matCxR: cols columns, each a vector of rows floats.
func Matrix(cols, rows int) *Type {
	return &Type{Kind: KindMatrix, Base: Float, Rows: rows, Cols: cols}
}

// Array returns elem[n].
func Array(elem *Type, n int) *Type { return &Type{Kind: KindArray, Elem: elem, Len: n} }

// Struct returns the type for a struct declaration.
func Struct(s *StructType) *Type { return &Type{Kind: KindStruct, Struct: s} }

// Sampler returns an opaque sampler type.
func Sampler(s SamplerType) *Type { return &Type{Kind: KindSampler, Sampler: s} }

// IsScalar, IsVector ... are kind tests that tolerate a nil receiver.
func (t *Type) IsScalar() bool  { return t != nil && t.Kind == KindScalar }
func (t *Type) IsVector() bool  { return t != nil && t.Kind == KindVector }
func (t *Type) IsMatrix() bool  { return t != nil && t.Kind == KindMatrix }
func (t *Type) IsArray() bool   { return t != nil && t.Kind == KindArray }
func (t *Type) IsStruct() bool  { return t != nil && t.Kind == KindStruct }
func (t *Type) IsSampler() bool { return t != nil && t.Kind == KindSampler }
func (t *Type) IsVoid() bool    { return t != nil && t.Kind == KindVoid }
func (t *Type) IsInvalid() bool { return t == nil || t.Kind == KindInvalid }

// IsNumeric reports whether t is a scalar, vector or matrix (of any base).
func (t *Type) IsNumeric() bool {
	return t != nil && (t.Kind == KindScalar || t.Kind == KindVector || t.Kind == KindMatrix)
}

// Components is the number of scalar components of a scalar/vector/matrix (0 otherwise).
func (t *Type) Components() int {
	if !t.IsNumeric() {
		return 0
	}
	return t.Rows * t.Cols
}

// Slots is the number of 32-bit words a value of type t occupies when flattened
// (arrays and structs in declaration order, matrices column-major). Samplers take one.
func (t *Type) Slots() int {
	if t == nil {
		return 0
	}
	switch t.Kind {
	case KindScalar, KindVector, KindMatrix:
		return t.Rows * t.Cols
	case KindArray:
		return t.Len * t.Elem.Slots()
	case KindStruct:
		n := 0
		for _, f := range t.Struct.Fields {
			n += f.Type.Slots()
		}
		return n
	case KindSampler:
		return 1
	}
	return 0
}

// Column returns the column vector type of a matrix.
func (t *Type) Column() *Type { return Vector(t.Base, t.Rows) }

// ScalarType returns the scalar type of t's base.
func (t *Type) ScalarType() *Type { return Scalar(t.Base) }

// WithBase returns a type of the same shape as scalar/vector t but base b.
func (t *Type) WithBase(b Basic) *Type { return Vector(b, t.Rows) }

// ContainsSampler reports whether t is or holds an opaque sampler.
func (t *Type) ContainsSampler() bool {
	switch {
	case t == nil:
		return false
	case t.Kind == KindSampler:
		return true
	case t.Kind == KindArray:
		return t.Elem.ContainsSampler()
	case t.Kind == KindStruct:
		for _, f := range t.Struct.Fields {
			if f.Type.ContainsSampler() {
				return true
			}
		}
	}
	return false
}

// ContainsArray reports whether t is or holds an array.
func (t *Type) ContainsArray() bool {
	switch {
	case t == nil:
		return false
	case t.Kind == KindArray:
		return true
	case t.Kind == KindStruct:
		for _, f := range t.Struct.Fields {
			if f.Type.ContainsArray() {
				return true
			}
		}
	}
	return false
}

// Identical reports whether a and b denote the same type. spec: GLSL 4.50 §4.1.9/§4.1.8.
func Identical(a, b *Type) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case KindScalar, KindVector, KindMatrix:
		return a.Base == b.Base && a.Rows == b.Rows && a.Cols == b.Cols
	case KindArray:
		return a.Len == b.Len && Identical(a.Elem, b.Elem)
	case KindStruct:
		return a.Struct == b.Struct
	case KindSampler:
		return a.Sampler == b.Sampler
	}
	return true
}

// String spells t the way GLSL source does ("vec3", "mat2x3", "float[4]", "S").
func (t *Type) String() string {
	if t == nil {
		return "<nil>"
	}
	switch t.Kind {
	case KindVoid:
		return "void"
	case KindScalar:
		return t.Base.String()
	case KindVector:
		p := map[Basic]string{Bool: "b", Int: "i", Uint: "u", Float: ""}[t.Base]
		return fmt.Sprintf("%svec%d", p, t.Rows)
	case KindMatrix:
		if t.Rows == t.Cols {
			return fmt.Sprintf("mat%d", t.Cols)
		}
		return fmt.Sprintf("mat%dx%d", t.Cols, t.Rows)
	case KindArray:
		// Spell the outermost dimension first, as in float[2][3].
		var dims []string
		e := t
		for e.Kind == KindArray {
			if e.Len == 0 {
				dims = append(dims, "[]")
			} else {
				dims = append(dims, "["+strconv.Itoa(e.Len)+"]")
			}
			e = e.Elem
		}
		return e.String() + strings.Join(dims, "")
	case KindStruct:
		if t.Struct.Name == "" {
			return "struct"
		}
		return t.Struct.Name
	case KindSampler:
		return t.Sampler.String()
	}
	return "invalid type"
}

func (s SamplerType) String() string {
	if s.Atomic {
		return "atomic_uint"
	}
	var b strings.Builder
	switch s.Base {
	case Int:
		b.WriteString("i")
	case Uint:
		b.WriteString("u")
	}
	if s.Image {
		b.WriteString("image")
	} else {
		b.WriteString("sampler")
	}
	b.WriteString([...]string{"", "1D", "2D", "3D", "Cube", "2DRect", "Buffer", "2DMS"}[s.Dim])
	if s.Array {
		b.WriteString("Array")
	}
	if s.Shadow {
		b.WriteString("Shadow")
	}
	return b.String()
}

// CoordSize is the number of coordinate components a sampler of this kind is
// addressed with (without the array layer or shadow reference).
func (s SamplerType) CoordSize() int {
	switch s.Dim {
	case Dim1D, DimBuffer:
		return 1
	case Dim2D, DimRect, Dim2DMS:
		return 2
	}
	return 3
}
