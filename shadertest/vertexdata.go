package shadertest

import (
	"fmt"
	"math"
	"strings"
)

// DataType is the GL type of a [vertex data] column.
type DataType int

// The GL types of piglit-vbo.cpp's decode_type.
const (
	TypeByte DataType = iota
	TypeUByte
	TypeShort
	TypeUShort
	TypeInt
	TypeUInt
	TypeHalf
	TypeFloat
	TypeDouble
)

var dataTypes = []struct {
	name string
	size int
	base BaseType
}{
	{"byte", 1, BaseInt}, {"ubyte", 1, BaseUint}, {"short", 2, BaseInt}, {"ushort", 2, BaseUint},
	{"int", 4, BaseInt}, {"uint", 4, BaseUint}, {"half", 2, BaseFloat}, {"float", 4, BaseFloat},
	{"double", 8, BaseDouble},
}

// String returns the name used in test files and messages.
func (d DataType) String() string {
	if d >= 0 && int(d) < len(dataTypes) {
		return dataTypes[d].name
	}
	return "?"
}

// Size is the size in bytes of one value.
func (d DataType) Size() int { return dataTypes[d].size }

// IsFloat reports half, float and double.
func (d DataType) IsFloat() bool { return d >= TypeHalf }

// VertexColumn is one column of [vertex data]: the header
// NAME[INDEX]/GLTYPE/GLSLTYPE[/MATRIXCOLUMN] and its values.
type VertexColumn struct {
	// Name is the attribute name; Location is set instead (Name "")
	// when the header names a location number.
	Name     string
	Location int
	// ArrayIndex is the [i] of an array attribute.
	ArrayIndex int
	// Type is the GL type of the values.
	Type DataType
	// Base is the GLSL base type: float attributes use
	// glVertexAttribPointer (integers converted, not normalised), int and
	// uint glVertexAttribIPointer, double glVertexAttribLPointer.
	Base BaseType
	// Components is the number of values per vertex (the GLSL rows).
	Components int
	// Cols is the matrix column count (1 for non-matrices); MatrixColumn
	// is the column this header feeds. The attribute slot used is
	// location + MatrixColumn + ArrayIndex*Cols.
	Cols, MatrixColumn int
	// Floats holds Components values per row for half/float/double
	// (half values already rounded to half precision); Ints for the
	// integer types.
	Floats []float64
	Ints   []int64
}

// VertexData is a [vertex data] table.
type VertexData struct {
	Columns []VertexColumn
	Rows    int
}

const maxVertexRows = 1 << 20

// parseVertexData decodes a [vertex data] section. Comments start at '#';
// the first non-blank line is the header. Extra values at the end of a row
// are ignored as piglit-vbo ignores them; missing ones are an error.
func parseVertexData(path string, body []line) (*VertexData, error) {
	vd := &VertexData{}
	header := false
	for _, ln := range body {
		t := ln.text
		if k := strings.IndexByte(t, '#'); k >= 0 {
			t = t[:k]
		}
		if strings.TrimSpace(t) == "" {
			continue
		}
		if !header {
			header = true
			for _, h := range strings.Fields(t) {
				col, err := parseColumnHeader(h)
				if err != nil {
					return vd, &ParseError{Path: path, Line: ln.num, Msg: err.Error()}
				}
				vd.Columns = append(vd.Columns, col)
			}
			continue
		}
		if vd.Rows >= maxVertexRows {
			return vd, &ParseError{Path: path, Line: ln.num, Msg: "too many vertex rows"}
		}
		i := 0
		for c := range vd.Columns {
			col := &vd.Columns[c]
			for range col.Components {
				end, err := col.parseDatum(t, i)
				if err != nil {
					return vd, &ParseError{Path: path, Line: ln.num, Msg: fmt.Sprintf("[vertex data] column %d: %v", c, err)}
				}
				i = end
			}
		}
		vd.Rows++
	}
	return vd, nil
}

// parseColumnHeader decodes NAME[INDEX]/GLTYPE/GLSLTYPE[/COLUMN].
func parseColumnHeader(h string) (VertexColumn, error) {
	col := VertexColumn{Location: -1, Cols: 1}
	parts := strings.SplitN(h, "/", 4)
	if len(parts) < 3 {
		return col, fmt.Errorf("column header %q: want name[array_index]/type/dimensions[/matrix_column]", h)
	}
	name := parts[0]
	if name == "" {
		return col, fmt.Errorf("column header %q: empty name", h)
	}
	if strings.HasSuffix(name, "]") {
		k := strings.IndexByte(name, '[')
		if k < 0 {
			return col, fmt.Errorf("column header %q looks like an array but has no '['", h)
		}
		v, _, _ := strtoul(name[k+1:], 0, 0)
		if v > 255 {
			return col, fmt.Errorf("column header %q: array index %d too large", h, v)
		}
		col.ArrayIndex = int(v)
		name = name[:k]
	}
	if name != "" && isDigit(name[0]) {
		col.Location = atoi(name)
		if col.Location < 0 || col.Location > 255 {
			return col, fmt.Errorf("column header %q: location out of range", h)
		}
	} else {
		col.Name = name
	}
	found := false
	for i, d := range dataTypes {
		if d.name == parts[1] {
			col.Type, col.Base, found = DataType(i), d.base, true
		}
	}
	if !found {
		return col, fmt.Errorf("unrecognized GL type %q", parts[1])
	}
	g := parts[2]
	rest := ""
	switch {
	case g != "" && isDigit(g[0]):
		// Deprecated form: a component count, base type from the GL type.
		v, end, _ := strtoul(g, 0, 10)
		col.Components, rest = int(min(v, 99)), g[end:]
	default:
		ok := false
		for _, gt := range []struct {
			prefix string
			base   BaseType
			kind   int // 0 scalar, 1 vector, 2 matrix
		}{{"int", BaseInt, 0}, {"uint", BaseUint, 0}, {"float", BaseFloat, 0}, {"double", BaseDouble, 0},
			{"ivec", BaseInt, 1}, {"uvec", BaseUint, 1}, {"vec", BaseFloat, 1}, {"dvec", BaseDouble, 1},
			{"mat", BaseFloat, 2}, {"dmat", BaseDouble, 2}} {
			if !strings.HasPrefix(g, gt.prefix) {
				continue
			}
			r := g[len(gt.prefix):]
			col.Base = gt.base
			switch gt.kind {
			case 0:
				col.Components = 1
			default:
				if r == "" || !isDigit(r[0]) {
					return col, fmt.Errorf("unrecognized GLSL type %q", g)
				}
				col.Components = int(r[0] - '0')
				r = r[1:]
				if gt.kind == 2 {
					col.Cols = col.Components
					if strings.HasPrefix(r, "x") {
						if len(r) < 2 || !isDigit(r[1]) {
							return col, fmt.Errorf("unrecognized GLSL type %q", g)
						}
						col.Components = int(r[1] - '0')
						r = r[2:]
					}
				}
			}
			rest, ok = r, true
			break
		}
		if !ok {
			return col, fmt.Errorf("unrecognized GLSL type %q", g)
		}
	}
	if rest != "" {
		return col, fmt.Errorf("column header %q: trailing %q in type", h, rest)
	}
	if len(parts) == 4 {
		v, end, ok := strtoul(parts[3], 0, 10)
		if !ok || end != len(parts[3]) {
			return col, fmt.Errorf("column header %q: bad matrix column", h)
		}
		if v > 3 {
			return col, fmt.Errorf("matrix column index must be between 0 and 3, got %d", v)
		}
		col.MatrixColumn = int(v)
	}
	if col.Components < 1 || col.Components > 4 {
		return col, fmt.Errorf("rows must be between 1 and 4, got %d", col.Components)
	}
	if col.Cols < 1 || col.Cols > 4 {
		return col, fmt.Errorf("columns must be between 1 and 4, got %d", col.Cols)
	}
	if col.Base == BaseDouble && col.Type != TypeDouble {
		return col, fmt.Errorf("double attributes need GL type double, not %s", col.Type)
	}
	if (col.Base == BaseInt || col.Base == BaseUint) && col.Type.IsFloat() {
		return col, fmt.Errorf("integer attribute with GL type %s", col.Type)
	}
	return col, nil
}

// parseDatum reads one value of the column's GL type at s[i:], with
// piglit-vbo's range checks.
func (col *VertexColumn) parseDatum(s string, i int) (int, error) {
	switch col.Type {
	case TypeHalf:
		v, end, ok := strtofHex(s, i)
		if !ok {
			return i, fmt.Errorf("could not parse as half float")
		}
		if j := skipBlank(s, i); strings.HasPrefix(s[j:], "0x") {
			u, _, _ := strtoul(s, j, 16)
			col.Floats = append(col.Floats, halfToFloat(uint16(u)))
			return end, nil
		}
		col.Floats = append(col.Floats, halfToFloat(floatToHalf(v)))
		return end, nil
	case TypeFloat:
		v, end, ok := strtofHex(s, i)
		if !ok {
			return i, fmt.Errorf("could not parse as float")
		}
		col.Floats = append(col.Floats, float64(v))
		return end, nil
	case TypeDouble:
		v, end, ok := strtodHex(s, i)
		if !ok {
			return i, fmt.Errorf("could not parse as double")
		}
		col.Floats = append(col.Floats, v)
		return end, nil
	case TypeByte, TypeShort, TypeInt:
		v, end, ok := strtolHex(s, i)
		if !ok {
			return i, fmt.Errorf("could not parse as %s", col.Type)
		}
		lo, hi := int64(math.MinInt32), int64(math.MaxInt32)
		switch col.Type {
		case TypeByte:
			lo, hi = math.MinInt8, math.MaxInt8
		case TypeShort:
			lo, hi = math.MinInt16, math.MaxInt16
		}
		if int64(v) < lo || int64(v) > hi {
			return i, fmt.Errorf("could not parse as signed %s", col.Type)
		}
		col.Ints = append(col.Ints, int64(v))
		return end, nil
	default:
		v, end, ok := strtoul(s, i, 0)
		if !ok {
			return i, fmt.Errorf("could not parse as %s", col.Type)
		}
		hi := uint64(math.MaxUint64)
		switch col.Type {
		case TypeUByte:
			hi = math.MaxUint8
		case TypeUShort:
			hi = math.MaxUint16
		}
		if v > hi || v == math.MaxUint64 {
			return i, fmt.Errorf("could not parse as unsigned %s", col.Type)
		}
		col.Ints = append(col.Ints, int64(uint32(v)))
		return end, nil
	}
}

// floatToHalf rounds a float to the nearest half (ties to even), with
// overflow to infinity.
func floatToHalf(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int(b>>23) & 0xff
	man := b & 0x7fffff
	switch {
	case exp == 0xff:
		if man != 0 {
			return sign | 0x7e00
		}
		return sign | 0x7c00
	case exp-127 > 15:
		return sign | 0x7c00
	case exp-127 >= -14:
		h := uint32(exp-127+15)<<10 | man>>13
		rem := man & 0x1fff
		if rem > 0x1000 || rem == 0x1000 && h&1 == 1 {
			h++
		}
		return sign | uint16(h)
	case exp-127 >= -25:
		m := man | 0x800000
		shift := uint(-14-(exp-127)) + 13
		h := m >> shift
		rem := m & (1<<shift - 1)
		half := uint32(1) << (shift - 1)
		if rem > half || rem == half && h&1 == 1 {
			h++
		}
		return sign | uint16(h)
	}
	return sign
}

func halfToFloat(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	exp := int(h>>10) & 0x1f
	man := float64(h & 0x3ff)
	switch exp {
	case 0:
		return sign * man * math.Ldexp(1, -24)
	case 0x1f:
		if man != 0 {
			return math.NaN()
		}
		return sign * math.Inf(1)
	}
	return sign * (1 + man/1024) * math.Ldexp(1, exp-15)
}

// Float returns row's value of a float or double column as the four
// components a vertex shader input sees: integer GL types converted
// without normalisation (glVertexAttribPointer with normalized false), the
// components the column omits filled from (0, 0, 0, 1).
func (col *VertexColumn) Float(row int) [4]float64 {
	v := [4]float64{0, 0, 0, 1}
	for k := range col.Components {
		i := row*col.Components + k
		if col.Type.IsFloat() {
			v[k] = col.Floats[i]
		} else {
			v[k] = float64(col.Ints[i])
		}
	}
	return v
}

// Int returns row's value of an integer column (glVertexAttribIPointer),
// the omitted components filled from (0, 0, 0, 1).
func (col *VertexColumn) Int(row int) [4]int64 {
	v := [4]int64{0, 0, 0, 1}
	for k := range col.Components {
		if i := row*col.Components + k; i < len(col.Ints) {
			v[k] = col.Ints[i]
		}
	}
	return v
}

// Slot is the attribute slot a column feeds once its name resolves to
// location loc: loc + MatrixColumn + ArrayIndex*Cols, as piglit-vbo binds
// it.
func (col *VertexColumn) Slot(loc int) int {
	return loc + col.MatrixColumn + col.ArrayIndex*col.Cols
}
