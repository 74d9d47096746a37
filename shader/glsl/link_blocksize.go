package glsl

import (
	"fmt"

	"vortexgfx/shader/glsl/ast"
)

// sizeBlockMembers fixes, across the units of one stage, the size of every
// input or output block member a unit left implicitly sized: an implicitly
// sized array is sized by the largest index used across all the shaders of
// the stage, so each unit's own compile-time size (its largest constant
// index, types.sizeArrays) gives way to the largest of the stage's units;
// where another unit declares the member with a size, that size holds and a
// unit indexing past it is an error. The sizes then agree within the stage
// and the later interface matching (checkBlocks, crossValidateGlobals, the
// stages' varyings) compares the stage's final types, so an implicitly sized
// member matches a sized one of the next stage exactly when the sizes agree.
// The types are resized in place (the block's member variable, the field of
// its instance's struct type and the member's global for an unnamed block are
// one *ast.Type). spec: GLSL 1.50 §4.3.7 (interface blocks), §4.1.9 (arrays
// implicitly sized by the largest index used, across the stage's shaders).
func sizeBlockMembers(units []*Shader, errs *ast.ErrorList) {
	type member struct {
		block string
		index int
	}
	implicit := map[member]int{} // largest implicit size among the units
	explicit := map[member]*ast.Var{}
	var order []member
	var vars = map[member][]*ast.Var{}
	for _, u := range units {
		for _, b := range u.File.Blocks {
			if b.Storage != ast.StorageIn && b.Storage != ast.StorageOut {
				continue
			}
			for i, m := range b.Members {
				if !m.Type.IsArray() {
					continue
				}
				k := member{b.Storage.String() + " " + b.Name + "." + m.Name, i}
				if _, seen := vars[k]; !seen {
					order = append(order, k)
				}
				vars[k] = append(vars[k], m)
				if m.ImplicitSize {
					implicit[k] = max(implicit[k], m.Type.Len)
				} else if explicit[k] == nil {
					explicit[k] = m
				}
			}
		}
	}
	for _, k := range order {
		n, ok := implicit[k]
		if !ok {
			continue // sized in every unit
		}
		if e := explicit[k]; e != nil {
			if n > e.Type.Len {
				for _, m := range vars[k] {
					if m.ImplicitSize && m.Type.Len > e.Type.Len {
						errs.Add(m.DeclPos, fmt.Sprintf("block member '%s' is indexed up to %d here but declared with size %d in another shader of the stage",
							m.Name, m.Type.Len-1, e.Type.Len))
						break
					}
				}
				continue
			}
			n = e.Type.Len
		}
		for _, m := range vars[k] {
			if m.ImplicitSize && m.Type.IsArray() {
				m.Type.Len = n
			}
		}
	}
}
