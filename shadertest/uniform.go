package shadertest

import (
	"fmt"
	"strings"
)

// BaseType is the scalar type of a uniform or attribute.
type BaseType int

// Scalar types of uniform commands.
const (
	BaseFloat BaseType = iota
	BaseInt
	BaseUint
	BaseDouble
	BaseInt64
	BaseUint64
)

var baseNames = [...]string{"float", "int", "uint", "double", "int64", "uint64"}

// String returns the name used in test files and messages.
func (b BaseType) String() string {
	if b >= 0 && int(b) < len(baseNames) {
		return baseNames[b]
	}
	return "?"
}

// Uniform is the value of a "uniform TYPE NAME values..." command, set on
// the linked program with the matching glUniform* call. "int" is also
// how tests set bool and sampler uniforms (glUniform1i).
type Uniform struct {
	// TypeName is the TYPE word as written (float, vec4, mat3x2, ...).
	TypeName string
	Base     BaseType
	// Cols and Rows: 1,1 for scalars; 1,N for vectors; C,R for matCxR.
	Cols, Rows int
	// Name is the uniform name as written ("a", "a[2]", "s.f", ...).
	Name string
	// Location is the explicit location when Name is a number, else -1.
	Location int
	// BlockIndex is the element of a uniform block array a "Block.member"
	// name sets (the runner's "ubo array index"; 0 otherwise).
	BlockIndex int
	// Exactly one of the value slices is set, Cols*Rows long, matrices in
	// column-major order.
	Floats  []float32
	Doubles []float64
	Ints    []int32
	Uints   []uint32
	Int64s  []int64
	Uint64s []uint64
	// Short counts the trailing components the line left out (set to 0).
	Short int
}

// Count is the number of scalar components.
func (u *Uniform) Count() int { return u.Cols * u.Rows }

// parseUniform follows shader_runner's set_uniform: type prefixes are
// tested in its order, so "float" matches any word starting with "float".
func parseUniform(s string) (*Uniform, error) {
	typ, rest, ok := parseWord(s)
	if !ok {
		return nil, fmt.Errorf("invalid set uniform command")
	}
	name, rest, ok := parseWord(rest)
	if !ok {
		return nil, fmt.Errorf("invalid set uniform command: no name")
	}
	u := &Uniform{TypeName: typ, Name: name, Location: -1, Cols: 1, Rows: 1}
	if isDigit(name[0]) {
		v, _, _ := strtol(name, 0, 0)
		u.Location = int(int32(v))
	}
	vecN := func(prefix string, base BaseType) bool {
		if !strings.HasPrefix(typ, prefix) {
			return false
		}
		u.Base = base
		if len(typ) > len(prefix) && typ[len(prefix)] >= '2' && typ[len(prefix)] <= '4' {
			u.Rows = int(typ[len(prefix)] - '0')
		} else {
			u.Rows = 0
		}
		return true
	}
	matCR := func(prefix string, base BaseType) bool {
		if !strings.HasPrefix(typ, prefix) || len(typ) == len(prefix) {
			return false
		}
		u.Base = base
		cols := typ[len(prefix)]
		rows := cols
		if len(typ) > len(prefix)+1 && typ[len(prefix)+1] == 'x' {
			rows = 0
			if len(typ) > len(prefix)+2 {
				rows = typ[len(prefix)+2]
			}
		}
		if cols < '2' || cols > '4' || rows < '2' || rows > '4' {
			u.Rows = 0
		} else {
			u.Cols, u.Rows = int(cols-'0'), int(rows-'0')
		}
		return true
	}
	switch {
	case strings.HasPrefix(typ, "float"):
		u.Base = BaseFloat
	case strings.HasPrefix(typ, "int64_t"):
		u.Base = BaseInt64
	case strings.HasPrefix(typ, "uint64_t"):
		u.Base = BaseUint64
	case strings.HasPrefix(typ, "int"):
		u.Base = BaseInt
	case strings.HasPrefix(typ, "uint"):
		u.Base = BaseUint
	case strings.HasPrefix(typ, "double"):
		u.Base = BaseDouble
	case vecN("vec", BaseFloat), vecN("ivec", BaseInt), vecN("uvec", BaseUint), vecN("dvec", BaseDouble),
		vecN("i64vec", BaseInt64), vecN("u64vec", BaseUint64):
	case matCR("mat", BaseFloat), matCR("dmat", BaseDouble):
	case strings.HasPrefix(typ, "handle"):
		return nil, fmt.Errorf("bindless texture handles are not supported")
	default:
		return nil, fmt.Errorf("unknown uniform type %q", typ)
	}
	if u.Rows == 0 {
		return nil, fmt.Errorf("unknown uniform type %q", typ)
	}
	n := u.Count()
	var got int
	switch u.Base {
	case BaseFloat:
		u.Floats, _ = parseFloats(rest, n)
		got = len(u.Floats)
	case BaseDouble:
		u.Doubles, _ = parseDoubles(rest, n)
		got = len(u.Doubles)
	case BaseInt:
		u.Ints, _ = parseInts(rest, n)
		got = len(u.Ints)
	case BaseUint:
		u.Uints, _ = parseUints(rest, n)
		got = len(u.Uints)
	case BaseInt64:
		u.Int64s, _ = parseInt64s(rest, n)
		got = len(u.Int64s)
	case BaseUint64:
		u.Uint64s, _ = parseUint64s(rest, n)
		got = len(u.Uint64s)
	}
	if got == 0 {
		return nil, fmt.Errorf("uniform %s %s wants %d values, got none", typ, name, n)
	}
	if got < n {
		// shader_runner passes the rest of its uninitialised array; three
		// tests llvmpipe passes rely on that (e.g. "uniform vec4 v 0.1 0.9
		// 0.9"). The missing components are zero here.
		u.Short = n - got
		u.Floats = pad(u.Floats, n)
		u.Doubles = pad(u.Doubles, n)
		u.Ints = pad(u.Ints, n)
		u.Uints = pad(u.Uints, n)
		u.Int64s = pad(u.Int64s, n)
		u.Uint64s = pad(u.Uint64s, n)
	}
	return u, nil
}

func pad[T any](v []T, n int) []T {
	if v == nil {
		return nil
	}
	for len(v) < n {
		var zero T
		v = append(v, zero)
	}
	return v
}
