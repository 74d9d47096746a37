package ast

import (
	"math"
	"strconv"
	"strings"
)

// Value is a folded constant: the flattened 32-bit words of a value of type Type
// (column-major for matrices, elements in order for arrays and structs). Words hold
// bool as 0/1, int as two's complement, uint as is and float as IEEE-754 single
// bits, which is exactly how the scalar IR reads a register. spec: GLSL 4.50 §4.3.3.
type Value struct {
	Type  *Type
	Words []uint32
}

// Float returns word i read as float32.
func (v *Value) Float(i int) float32 { return math.Float32frombits(v.Words[i]) }

// Int returns word i read as int32.
func (v *Value) Int(i int) int32 { return int32(v.Words[i]) }

// Uint returns word i.
func (v *Value) Uint(i int) uint32 { return v.Words[i] }

// Bool returns word i read as bool.
func (v *Value) Bool(i int) bool { return v.Words[i] != 0 }

// FloatValue builds a float scalar constant.
func FloatValue(f float32) *Value {
	return &Value{Type: Scalar(Float), Words: []uint32{math.Float32bits(f)}}
}

// IntValue builds an int scalar constant.
func IntValue(i int32) *Value { return &Value{Type: Scalar(Int), Words: []uint32{uint32(i)}} }

// UintValue builds a uint scalar constant.
func UintValue(u uint32) *Value { return &Value{Type: Scalar(Uint), Words: []uint32{u}} }

// BoolValue builds a bool scalar constant.
func BoolValue(b bool) *Value {
	w := uint32(0)
	if b {
		w = 1
	}
	return &Value{Type: Scalar(Bool), Words: []uint32{w}}
}

// String prints the value as a GLSL-like literal list, for dumps and tests.
func (v *Value) String() string {
	if v == nil {
		return "<nil>"
	}
	parts := make([]string, len(v.Words))
	bases := v.wordBases()
	for i, w := range v.Words {
		b := Float
		if i < len(bases) {
			b = bases[i]
		}
		switch b {
		case Bool:
			parts[i] = strconv.FormatBool(w != 0)
		case Int:
			parts[i] = strconv.Itoa(int(int32(w)))
		case Uint:
			parts[i] = strconv.FormatUint(uint64(w), 10) + "u"
		default:
			parts[i] = strconv.FormatFloat(float64(math.Float32frombits(w)), 'g', -1, 32)
		}
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return v.Type.String() + "(" + strings.Join(parts, ", ") + ")"
}

// WordBases returns the scalar base of each flattened word of a value of type t.
func WordBases(t *Type) []Basic {
	var out []Basic
	var walk func(t *Type)
	walk = func(t *Type) {
		switch t.Kind {
		case KindScalar, KindVector, KindMatrix:
			for i := 0; i < t.Rows*t.Cols; i++ {
				out = append(out, t.Base)
			}
		case KindArray:
			for i := 0; i < t.Len; i++ {
				walk(t.Elem)
			}
		case KindStruct:
			for _, f := range t.Struct.Fields {
				walk(f.Type)
			}
		case KindSampler:
			out = append(out, Int)
		}
	}
	if t != nil {
		walk(t)
	}
	return out
}

func (v *Value) wordBases() []Basic { return WordBases(v.Type) }
