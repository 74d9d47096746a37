package exec

import (
	"context"
	"testing"

	"vortexgfx/shader/glsl"
	"vortexgfx/shader/ir"
	"vortexgfx/shader/lower"
)

// dispatch runs every workgroup of a groups[0]×groups[1]×groups[2] grid in order on
// one Workgroup, as a device dispatch would (in some order).
func dispatch(t testing.TB, src string, width int, groups [3]uint32, mem *sliceMemory) *Workgroup {
	t.Helper()
	p, err := lower.CompileCompute("t.comp", src, glsl.Options{})
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	wg, err := NewWorkgroup(p, Config{Width: width})
	if err != nil {
		t.Fatalf("workgroup: %v", err)
	}
	runGrid(t, wg, groups, mem)
	return wg
}

func runGrid(t testing.TB, wg *Workgroup, groups [3]uint32, mem Memory) {
	t.Helper()
	ids := WorkgroupIDs{Num: groups}
	for z := uint32(0); z < groups[2]; z++ {
		for y := uint32(0); y < groups[1]; y++ {
			for x := uint32(0); x < groups[0]; x++ {
				ids.ID = [3]uint32{x, y, z}
				if err := wg.Run(context.Background(), ids, mem); err != nil {
					t.Fatalf("group %v: %v", ids.ID, err)
				}
			}
		}
	}
}

func TestComputeSmoke(t *testing.T) {
	src := `#version 430
layout(local_size_x = 4, local_size_y = 2) in;
layout(std430, binding = 0) buffer Out { uint v[]; } o;
void main() {
	uint i = gl_GlobalInvocationID.y * 8u + gl_GlobalInvocationID.x;
	o.v[i] = gl_WorkGroupID.x * 1000u + gl_LocalInvocationIndex * 10u + uint(o.v.length());
}
`
	mem := newSliceMemory()
	mem.buf[0] = make([]uint32, 16)
	dispatch(t, src, 4, [3]uint32{2, 2, 1}, mem)
	t.Log(mem.buf[0])
	_ = ir.SpaceBuffer
}
