package ast

import "testing"

// TestTypeString checks GLSL spellings and flattened sizes. spec: GLSL 4.50 §4.1.
func TestTypeString(t *testing.T) {
	s := &StructType{Name: "S", Fields: []Field{{Name: "a", Type: Vector(Float, 3)}, {Name: "b", Type: Array(Scalar(Int), 2)}}}
	tests := []struct {
		t     *Type
		want  string
		slots int
	}{
		{Scalar(Float), "float", 1},
		{Vector(Bool, 2), "bvec2", 2},
		{Vector(Uint, 4), "uvec4", 4},
		{Vector(Int, 1), "int", 1},
		{Matrix(3, 3), "mat3", 9},
		{Matrix(2, 4), "mat2x4", 8},
		{Array(Vector(Float, 4), 3), "vec4[3]", 12},
		{Array(Array(Scalar(Float), 3), 2), "float[2][3]", 6},
		{Struct(s), "S", 5},
		{Sampler(SamplerType{Dim: Dim2D, Array: true, Shadow: true, Base: Float}), "sampler2DArrayShadow", 1},
		{Sampler(SamplerType{Dim: DimCube, Base: Uint}), "usamplerCube", 1},
		{Void(), "void", 0},
	}
	for _, tc := range tests {
		if got := tc.t.String(); got != tc.want {
			t.Errorf("String() = %q, want %q", got, tc.want)
		}
		if got := tc.t.Slots(); got != tc.slots {
			t.Errorf("%s: Slots() = %d, want %d", tc.want, got, tc.slots)
		}
	}
}

func TestIdentical(t *testing.T) {
	s1 := &StructType{Name: "S", Fields: []Field{{Name: "a", Type: Scalar(Float)}}}
	s2 := &StructType{Name: "S", Fields: []Field{{Name: "a", Type: Scalar(Float)}}}
	tests := []struct {
		a, b *Type
		want bool
	}{
		{Vector(Float, 3), Vector(Float, 3), true},
		{Vector(Float, 3), Vector(Int, 3), false},
		{Matrix(2, 3), Matrix(3, 2), false},
		{Array(Scalar(Float), 2), Array(Scalar(Float), 2), true},
		{Array(Scalar(Float), 2), Array(Scalar(Float), 3), false},
		{Struct(s1), Struct(s1), true},
		{Struct(s1), Struct(s2), false}, // name equivalence within a shader
	}
	for i, tc := range tests {
		if got := Identical(tc.a, tc.b); got != tc.want {
			t.Errorf("%d: Identical(%s, %s) = %v", i, tc.a, tc.b, got)
		}
	}
}

func TestValueString(t *testing.T) {
	v := &Value{Type: Vector(Float, 2), Words: []uint32{0x3f800000, 0xc0000000}}
	if got := v.String(); got != "vec2(1, -2)" {
		t.Errorf("got %q", got)
	}
	if got := IntValue(-3).String(); got != "-3" {
		t.Errorf("got %q", got)
	}
	if got := UintValue(7).String(); got != "7u" {
		t.Errorf("got %q", got)
	}
	if got := BoolValue(true).String(); got != "true" {
		t.Errorf("got %q", got)
	}
}

func TestErrorList(t *testing.T) {
	var l ErrorList
	l.Add(Pos{File: "a", Line: 3, Col: 1}, "second")
	l.Add(Pos{File: "a", Line: 1, Col: 9}, "first")
	l.Sort()
	if got := l.Error(); got != "a:1:9: error: first\na:3:1: error: second" {
		t.Errorf("got %q", got)
	}
	if (ErrorList{}).Err() != nil {
		t.Error("empty list must be a nil error")
	}
}

func TestLookupBuiltin(t *testing.T) {
	for _, name := range []string{"sin", "texture2D", "fwidthCoarse", "noise4"} {
		if b := LookupBuiltin(name); b == FnNone || b.String() != name {
			t.Errorf("LookupBuiltin(%q) = %v", name, b)
		}
	}
	if LookupBuiltin("nope") != FnNone {
		t.Error("unknown name must give FnNone")
	}
}
