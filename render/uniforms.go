package render

import (
	"fmt"
	"math"

	"vortexgfx/shader/glsl/ast"
	"vortexgfx/shader/ir"
)

// uniformDst is a scene uniform resolved against the program: the declared
// type's shape and the word buffer the converted value is staged in.
type uniformDst struct {
	name  string
	base  ast.Basic
	comps int // declared components (rows*cols)
	rows  int // matrix rows (1 for scalars and vectors)
	cols  int
	elems int // array length (1 for a non-array)
	words []uint32
}

// resolveUniforms matches draw di's scene uniforms and texture bindings with
// the program's uniforms and sets the sampler units (the renderer converts
// values to the type the shader declares; package scene's doc, "Scene files").
func (r *Renderer) resolveUniforms(d *drawObj, di int) (map[string]*uniformDst, error) {
	sd := &r.desc.Draws[di]
	decl := map[string]*ast.Type{}
	for _, u := range d.prog.Linked.Uniforms {
		decl[u.Name] = u.Type
	}
	out := map[string]*uniformDst{}
	miss := func(name, why string) error {
		if r.opts.Strict {
			return fmt.Errorf("uniform %s: %s (%s + %s): %w", name, why, sd.VertexShader.Path, sd.FragmentShader.Path, ErrUniform)
		}
		r.stats.Notes = append(r.stats.Notes, fmt.Sprintf("draw %d (%s): uniform %s: %s; value ignored", di, d.name, name, why))
		return nil
	}
	for _, u := range sd.Uniforms {
		t, ok := decl[u.Name]
		if !ok {
			if err := miss(u.Name, "not declared by the shaders"); err != nil {
				return nil, err
			}
			continue
		}
		if !d.prog.HasUniform(u.Name) {
			if err := miss(u.Name, "declared but unused (optimised away)"); err != nil {
				return nil, err
			}
			continue
		}
		elem, n := t, 1
		if t.Kind == ast.KindArray && t.Elem != nil {
			elem, n = t.Elem, t.Len
		}
		if elem.Kind != ast.KindScalar && elem.Kind != ast.KindVector && elem.Kind != ast.KindMatrix {
			return nil, fmt.Errorf("uniform %s: declared %s; scene values set scalars, vectors, matrices and arrays of them: %w", u.Name, t, ErrUniform)
		}
		out[u.Name] = &uniformDst{name: u.Name, base: elem.Base, comps: elem.Rows * elem.Cols, rows: elem.Rows, cols: elem.Cols,
			elems: n, words: make([]uint32, n*elem.Rows*elem.Cols)}
	}
	for _, tb := range sd.Textures {
		t, ok := decl[tb.Uniform]
		if !ok || !t.IsSampler() {
			if err := miss(tb.Uniform, "texture binding names no sampler uniform"); err != nil {
				return nil, err
			}
			continue
		}
		if err := d.prog.SetUniform(tb.Uniform, ir.I32, []uint32{uint32(tb.Unit)}); err != nil {
			if err := miss(tb.Uniform, "sampler unused (optimised away)"); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// setUniforms writes frame's uniform values into every draw's program.
func (r *Renderer) setUniforms(d *drawObj, frame int) error {
	di := d.index
	for _, v := range r.desc.UniformValues(di, frame) {
		u, ok := d.uniforms[v.Name]
		if !ok {
			continue
		}
		typ, err := u.convert(v.Value)
		if err != nil {
			return fmt.Errorf("render: draw %d (%s): %w", di, d.name, err)
		}
		if err := d.prog.SetUniform(u.name, typ, u.words); err != nil {
			return fmt.Errorf("render: draw %d (%s): %w", di, d.name, err)
		}
	}
	return nil
}

// convert stages vals (1-4, 9 or 16 floats; for an array, one element's
// worth per element, exactly the array's) as the declared type's words and
// returns their register type.
func (u *uniformDst) convert(vals []float32) (ir.Type, error) {
	w := u.words
	clear(w)
	if u.elems > 1 {
		if len(vals) != u.elems*u.comps {
			return 0, fmt.Errorf("uniform %s: %d values for %d elements of %d components: %w", u.name, len(vals), u.elems, u.comps, ErrUniform)
		}
		switch u.base {
		case ast.Int, ast.Uint, ast.Bool:
			return 0, fmt.Errorf("uniform %s: arrays of %s are not set from scene values: %w", u.name, u.base, ErrUniform)
		}
		for i, v := range vals {
			w[i] = math.Float32bits(v)
		}
		return ir.F32, nil
	}
	switch {
	case u.cols > 1 && (len(vals) == 9 || len(vals) == 16):
		// Matrix to matrix: copy the overlapping block, identity elsewhere.
		n := 3
		if len(vals) == 16 {
			n = 4
		}
		for c := range u.cols {
			for rr := range u.rows {
				v := float32(0)
				if c == rr {
					v = 1
				}
				if c < n && rr < n {
					v = vals[c*n+rr]
				}
				w[c*u.rows+rr] = math.Float32bits(v)
			}
		}
		return ir.F32, nil
	case len(vals) == u.comps:
	default:
		return 0, fmt.Errorf("uniform %s: %d values for a declared %d-component %s: %w", u.name, len(vals), u.comps, u.base, ErrUniform)
	}
	switch u.base {
	case ast.Int:
		for i, v := range vals {
			w[i] = uint32(int32(v))
		}
		return ir.I32, nil
	case ast.Uint:
		for i, v := range vals {
			w[i] = uint32(max(v, 0))
		}
		return ir.U32, nil
	case ast.Bool:
		for i, v := range vals {
			if v != 0 {
				w[i] = 1
			}
		}
		return ir.I32, nil
	}
	for i, v := range vals {
		w[i] = math.Float32bits(v)
	}
	return ir.F32, nil
}
