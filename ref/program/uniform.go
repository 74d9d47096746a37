package program

// The program's uniforms: where each GL name lives (uniform words or sampler
// units), the link-time initialisers, and SetUniform's resolution of GL names
// ("u", "a[2]", "s.f", "Block.m") and explicit locations.

import (
	"fmt"
	"strconv"
	"strings"

	"vortexgfx/shader/glsl"
	"vortexgfx/shader/glsl/ast"
	"vortexgfx/shader/ir"
)

// uniformRef is a resolved uniform: its type and storage.
type uniformRef struct {
	word    int
	typ     *ast.Type
	sampler int  // first sampler binding, -1 when the type holds no sampler
	words   bool // the uniform has data words
}

func (p *Program) layoutUniforms() {
	words := map[string]int{}
	for _, s := range p.IR.Uniforms {
		words[s.Name] = s.Word
	}
	for _, u := range p.Linked.Uniforms {
		w, hasWords := words[u.Name]
		if !hasWords && !u.Type.ContainsSampler() {
			continue
		}
		p.byName[u.Name] = uniformRef{word: w, typ: u.Type, sampler: -1, words: hasWords}
		if len(u.Vars) == 0 {
			continue
		}
		v := u.Vars[0]
		if b := v.Block; b != nil && b.Instance != "" {
			p.blocks[b.Name] = u.Name
		}
		if v.Binding >= 0 {
			k := 0
			for i, sb := range p.IR.Samplers {
				if underPath(sb.Name, u.Name) {
					p.Units[i] = v.Binding + k
					k++
				}
			}
		}
	}
}

// underPath reports whether a sampler binding's GLSL path is path or lies
// inside it (an element or member).
func underPath(name, path string) bool {
	if !strings.HasPrefix(name, path) {
		return false
	}
	return len(name) == len(path) || name[len(path)] == '[' || name[len(path)] == '.'
}

// firstSampler returns the first sampler binding at or inside path.
func (p *Program) firstSampler(path string) int {
	for i, sb := range p.IR.Samplers {
		if underPath(sb.Name, path) {
			return i
		}
	}
	return -1
}

// initUniforms stores the initialisers of uniforms (GLSL 1.20 §4.3.5: the
// value at link time).
func (p *Program) initUniforms() {
	for _, sp := range []*glsl.StageProgram{p.Linked.Vertex, p.Linked.Geometry, p.Linked.Fragment} {
		if sp == nil {
			continue
		}
		for _, u := range sp.Units {
			for _, d := range u.File.Decls {
				g, ok := d.(*ast.DeclGroup)
				if !ok {
					continue
				}
				for _, vs := range g.Vars {
					v := vs.Var
					if v == nil || v.Kind != ast.VarUniform || vs.Init == nil || vs.Init.Value() == nil {
						continue
					}
					r, ok := p.byName[v.Name]
					if !ok {
						continue
					}
					val := vs.Init.Value()
					if r.sampler >= 0 {
						for k, w := range val.Words {
							if r.sampler+k < len(p.Units) {
								p.Units[r.sampler+k] = int(int32(w))
							}
						}
						continue
					}
					for k, w := range val.Words {
						if r.word+k < len(p.Uniforms) {
							p.Uniforms[r.word+k] = w
						}
					}
				}
			}
		}
	}
}

// HasUniform reports whether the program uses the (built-in) uniform name.
func (p *Program) HasUniform(name string) bool {
	_, ok := slotNamed(p.IR.Uniforms, name)
	return ok
}

// SetBuiltin writes the words of a whole uniform slot (a legacy built-in such
// as gl_ModelViewProjectionMatrix, column-major); it does nothing when the
// program does not use the uniform. Extra words are ignored.
func (p *Program) SetBuiltin(name string, words []uint32) {
	s, ok := slotNamed(p.IR.Uniforms, name)
	if !ok {
		return
	}
	copy(p.Uniforms[s.Word:s.Word+s.Words], words)
}

// SetUniform sets a uniform by its GL name ("u", "a[2]", "s.f", "Block.m",
// "arr[1].v") to values of type src (ir.F32, ir.I32 or ir.U32), as the
// glUniform* call for the value's type does: consecutive words from the named
// element on, bools set to 1 when the value is nonzero; for samplers the values
// are texture units. spec: GL 4.6 §7.6.1.
func (p *Program) SetUniform(name string, src ir.Type, vals []uint32) error {
	return p.SetBlockUniform(name, 0, src, vals)
}

// SetBlockUniform is SetUniform for a member of element block of a uniform
// block array: "Block.m" names the member in every element (GL's active
// uniform names carry no block index), and the element is the block index
// glGetActiveUniformsiv gives plus block, as piglit's "ubo array index"
// does. block is ignored for a name outside a block array (shader_runner
// applies its index to block members only).
// spec: GL 4.6 §7.6.2.1 (block array names), ARB_gpu_shader5 §4.3.7
func (p *Program) SetBlockUniform(name string, block int, src ir.Type, vals []uint32) error {
	r, err := p.resolve(name, block)
	if err != nil {
		return err
	}
	if r.sampler >= 0 {
		for k, v := range vals {
			if r.sampler+k >= len(p.Units) {
				break
			}
			p.Units[r.sampler+k] = int(int32(v))
		}
		return nil
	}
	bases := ast.WordBases(r.typ)
	for k, v := range vals {
		if k >= len(bases) || r.word+k >= len(p.Uniforms) {
			break
		}
		if bases[k] == ast.Bool {
			nz := v != 0
			if src == ir.F32 {
				nz = ir.BitsF32(v) != 0
			}
			v = 0
			if nz {
				v = 1
			}
		}
		p.Uniforms[r.word+k] = v
	}
	return nil
}

// SetUniformLocation sets the uniform at an explicit layout(location) (arrays
// occupy one location per element).
func (p *Program) SetUniformLocation(loc int, src ir.Type, vals []uint32) error {
	for _, u := range p.Linked.Uniforms {
		if len(u.Vars) == 0 || u.Vars[0].Location < 0 {
			continue
		}
		l0 := u.Vars[0].Location
		n := 1
		if u.Type.Kind == ast.KindArray {
			n = u.Type.Len
		}
		if loc >= l0 && loc < l0+n {
			name := u.Name
			if u.Type.Kind == ast.KindArray {
				name += "[" + strconv.Itoa(loc-l0) + "]"
			}
			return p.SetUniform(name, src, vals)
		}
	}
	return fmt.Errorf("location %d: %w", loc, ErrNoUniform)
}

// resolve finds the storage of a GL uniform name, in element block of a
// uniform block array.
func (p *Program) resolve(name string, block int) (uniformRef, error) {
	i := strings.IndexAny(name, "[.")
	base, rest := name, ""
	if i >= 0 {
		base, rest = name[:i], name[i:]
	}
	r, ok := p.byName[base]
	path := base
	if !ok {
		inst, isBlock := p.blocks[base]
		if !isBlock {
			return r, fmt.Errorf("%q: %w", name, ErrNoUniform)
		}
		r, path = p.byName[inst], inst
		if r.typ.Kind == ast.KindArray && strings.HasPrefix(rest, ".") {
			// An array of arrays of blocks (ARB_arrays_of_arrays) numbers
			// its blocks in row-major order.
			total := 1
			for t := r.typ; t.Kind == ast.KindArray; t = t.Elem {
				total *= t.Len
			}
			if block < 0 || block >= total {
				return r, fmt.Errorf("%q: block array index %d out of range: %w", name, block, ErrNoUniform)
			}
			for r.typ.Kind == ast.KindArray {
				total /= r.typ.Len
				k := block / total
				block %= total
				r.word += k * r.typ.Elem.Slots()
				r.typ = r.typ.Elem
				path += "[" + strconv.Itoa(k) + "]"
			}
		}
	}
	for rest != "" {
		switch rest[0] {
		case '[':
			j := strings.IndexByte(rest, ']')
			if j < 0 || r.typ.Kind != ast.KindArray {
				return r, fmt.Errorf("%q: bad index: %w", name, ErrNoUniform)
			}
			idx, err := strconv.Atoi(strings.TrimSpace(rest[1:j]))
			if err != nil || idx < 0 || idx >= r.typ.Len {
				return r, fmt.Errorf("%q: index out of range: %w", name, ErrNoUniform)
			}
			r.word += idx * r.typ.Elem.Slots()
			r.typ = r.typ.Elem
			path += "[" + strconv.Itoa(idx) + "]"
			rest = rest[j+1:]
		case '.':
			j := strings.IndexAny(rest[1:], "[.")
			field := rest[1:]
			if j >= 0 {
				field, rest = rest[1:j+1], rest[j+1:]
			} else {
				rest = ""
			}
			if r.typ.Kind != ast.KindStruct || r.typ.Struct == nil {
				return r, fmt.Errorf("%q: not a structure: %w", name, ErrNoUniform)
			}
			found := false
			for _, f := range r.typ.Struct.Fields {
				if f.Name == field {
					r.typ, found = f.Type, true
					break
				}
				r.word += f.Type.Slots()
			}
			if !found {
				return r, fmt.Errorf("%q: no member %q: %w", name, field, ErrNoUniform)
			}
			path += "." + field
		default:
			return r, fmt.Errorf("%q: %w", name, ErrNoUniform)
		}
	}
	if r.typ.ContainsSampler() {
		r.sampler = p.firstSampler(path)
		if r.sampler < 0 {
			return r, fmt.Errorf("%q: sampler not used: %w", name, ErrNoUniform)
		}
	} else if !r.words {
		return r, fmt.Errorf("%q: %w", name, ErrNoUniform)
	}
	return r, nil
}
