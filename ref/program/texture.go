package program

import (
	"fmt"

	"vortexgfx/gl/texunit"
	"vortexgfx/ref"
	"vortexgfx/shader/exec"
	"vortexgfx/shader/ir"
)

// texUnit is the executor's texture unit on top of ref.Textures: it turns one
// exec.TexRequest (a whole warp) into one sampler.Request over every lane of
// the warp (package texunit, the mapping the device's software sampler shares),
// so there is one interface call per texture instruction, never per lane.
// spec: vortexpipe-driver §2.2 (vx_tex per warp), §3.6.
type texUnit struct {
	p   *Program
	tex ref.Textures
	u   texunit.Unit
	all []int // 0, 1, …, width-1
}

func newTexUnit(p *Program, width int) *texUnit {
	all := make([]int, width)
	for i := range all {
		all[i] = i
	}
	return &texUnit{p: p, all: all}
}

// Texture implements exec.Sampler.
func (t *texUnit) Texture(r *exec.TexRequest) error {
	if t.tex == nil {
		return fmt.Errorf("program: texture instruction without textures")
	}
	n := r.Width
	if n > len(t.all) {
		return fmt.Errorf("program: texture request of %d lanes on a %d-lane unit", n, len(t.all))
	}
	if r.Sampler < 0 || r.Sampler >= len(t.p.Units) {
		return fmt.Errorf("program: sampler %d out of range", r.Sampler)
	}
	lanes := t.all[:n]
	req, out, err := t.u.Request(r, lanes)
	if err != nil {
		return fmt.Errorf("program: %w", err)
	}
	// The binding slot is KindTarget's, the one the renderers bind by (pipe's
	// reference path binds the unit's view there whatever its dimensionality).
	unit := TextureIndex(t.p.Units[r.Sampler], KindTarget(r.Binding.Kind))
	if err := t.tex.Sample(unit, req, out); err != nil {
		return err
	}
	t.u.Scatter(r, lanes)
	return nil
}

// Target is the texture target a sampler reads: GL binds one texture per target
// per unit. spec: vortexpipe-driver §2.3.2 (2D, 3D, cube, array, shadow).
type Target uint8

// Texture targets.
const (
	Target1D Target = iota
	Target2D
	Target3D
	TargetCube
	Target1DArray
	Target2DArray
	TargetCubeArray
	TargetRect
	TargetBuffer
	NumTargets
)

// TextureIndex is the index into ref.State.Textures that texture unit unit's
// target t occupies.
func TextureIndex(unit int, t Target) int { return unit*int(NumTargets) + int(t) }

// KindTarget returns the target a sampler kind reads.
func KindTarget(k ir.SamplerKind) Target {
	switch k {
	case ir.Sampler3D:
		return Target3D
	case ir.SamplerCube, ir.SamplerCubeShadow:
		return TargetCube
	case ir.Sampler2DArray, ir.Sampler2DArrayShadow:
		return Target2DArray
	case ir.Sampler1D, ir.Sampler1DShadow:
		return Target1D
	case ir.Sampler1DArray, ir.Sampler1DArrayShadow:
		return Target1DArray
	case ir.SamplerCubeArray, ir.SamplerCubeArrayShadow:
		return TargetCubeArray
	case ir.Sampler2DRect, ir.Sampler2DRectShadow:
		return TargetRect
	case ir.Sampler2DMSArray:
		return Target2DArray
	case ir.SamplerBuffer:
		return TargetBuffer
	}
	return Target2D
}
