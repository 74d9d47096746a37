package compute

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"vortexgfx/shader/glsl/ast"
	"vortexgfx/shader/ir"
)

// ErrNoUniform is a uniform name the program has no storage for.
var ErrNoUniform = errors.New("compute: no such uniform")

// uniformVar is one linked uniform: its GL name, type and first word.
type uniformVar struct {
	name string
	typ  *ast.Type
	word int
}

// SetUniformValue sets a uniform by its GL name — "u", "a[2]", "s.f",
// "arr[1].v" — as the glUniform* call for the values' type does: consecutive
// words from the named element on, a bool word set to 1 when its value is
// nonzero (as a float when isFloat). Later dispatches use the words.
// spec: GL 4.6 §7.6.1
func (p *Program) SetUniformValue(name string, isFloat bool, vals []uint32) error {
	word, typ, err := p.resolveUniform(name)
	if err != nil {
		return err
	}
	bases := ast.WordBases(typ)
	p.uniMu.Lock()
	defer p.uniMu.Unlock()
	for k, v := range vals {
		if k >= len(bases) || word+k >= len(p.uniforms) {
			break
		}
		if bases[k] == ast.Bool {
			nz := v != 0
			if isFloat {
				nz = ir.BitsF32(v) != 0
			}
			v = 0
			if nz {
				v = 1
			}
		}
		p.uniforms[word+k] = v
	}
	return nil
}

// resolveUniform finds the first word and type a GL uniform name names.
func (p *Program) resolveUniform(name string) (int, *ast.Type, error) {
	i := strings.IndexAny(name, "[.")
	base, rest := name, ""
	if i >= 0 {
		base, rest = name[:i], name[i:]
	}
	var u *uniformVar
	for k := range p.uvars {
		if p.uvars[k].name == base {
			u = &p.uvars[k]
			break
		}
	}
	if u == nil {
		return 0, nil, fmt.Errorf("%w: %q", ErrNoUniform, name)
	}
	word, typ := u.word, u.typ
	for rest != "" {
		switch rest[0] {
		case '[':
			j := strings.IndexByte(rest, ']')
			if j < 0 || typ.Kind != ast.KindArray {
				return 0, nil, fmt.Errorf("%w: %q: bad index", ErrNoUniform, name)
			}
			idx, err := strconv.Atoi(strings.TrimSpace(rest[1:j]))
			if err != nil || idx < 0 || idx >= typ.Len {
				return 0, nil, fmt.Errorf("%w: %q: index out of range", ErrNoUniform, name)
			}
			word += idx * typ.Elem.Slots()
			typ, rest = typ.Elem, rest[j+1:]
		case '.':
			j := strings.IndexAny(rest[1:], "[.")
			field := rest[1:]
			if j >= 0 {
				field, rest = rest[1:j+1], rest[j+1:]
			} else {
				rest = ""
			}
			if typ.Kind != ast.KindStruct || typ.Struct == nil {
				return 0, nil, fmt.Errorf("%w: %q: not a structure", ErrNoUniform, name)
			}
			found := false
			for _, f := range typ.Struct.Fields {
				if f.Name == field {
					typ, found = f.Type, true
					break
				}
				word += f.Type.Slots()
			}
			if !found {
				return 0, nil, fmt.Errorf("%w: %q: no member %q", ErrNoUniform, name, field)
			}
		default:
			return 0, nil, fmt.Errorf("%w: %q", ErrNoUniform, name)
		}
	}
	return word, typ, nil
}
