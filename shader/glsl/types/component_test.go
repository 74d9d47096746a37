package types

import (
	"testing"

	"vortexgfx/shader/glsl/ast"
	"vortexgfx/shader/glsl/parser"
)

// checkExt is check with the extensions these tests enable.
func checkExt(t *testing.T, src string) (*ast.File, error) {
	t.Helper()
	f, err := parser.ParseFile("t", src, parser.Options{Extensions: []string{ExtEnhancedLayouts, ExtSeparateShaderObjects, ExtStorageBuffer}})
	if err != nil {
		return f, err
	}
	return f, Check(f, Config{Stage: ast.StageVertex})
}

// TestExplicitBlockOffsets pins uniform and storage block member offsets
// under layout(offset) and layout(align) (member and block level) with
// GL_ARB_enhanced_layouts. spec: GLSL 4.40 §4.4.5, OpenGL 4.5 §7.6.2.2.
func TestExplicitBlockOffsets(t *testing.T) {
	const head = "#version 150\n#extension GL_ARB_enhanced_layouts : require\n#extension GL_ARB_shader_storage_buffer_object : require\n"
	tests := []struct {
		name string
		src  string
		offs []int
		size int
	}{
		{"std140 without qualifiers", "layout(std140) uniform B { float a; vec3 b; float c; };", []int{0, 16, 28}, 32},
		{"member offset", "layout(std140) uniform B { float a; layout(offset = 32) vec2 b; float c; };", []int{0, 32, 40}, 48},
		{"member align rounds up", "layout(std140) uniform B { float a; layout(align = 64) float b; };", []int{0, 64}, 80},
		{"offset then align", "layout(std140) uniform B { layout(offset = 4, align = 16) float a; };", []int{16}, 32},
		{"block align", "layout(std140, align = 32) uniform B { float a; float b; };", []int{0, 32}, 48},
		{"member align overrides block", "layout(std140, align = 32) uniform B { float a; layout(align = 8) float b; };", []int{0, 8}, 16},
		{"std430 member offset", "layout(std430) buffer S { float a; layout(offset = 8) float b; layout(align = 16) vec2 c; };", []int{0, 8, 16}, 24},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, err := checkExt(t, head+tc.src+"\nvoid main() { gl_Position = vec4(0.0); }")
			if err != nil {
				t.Fatal(err)
			}
			b := f.Blocks[0]
			for i, m := range b.Members {
				if m.Offset != tc.offs[i] {
					t.Errorf("member %s at %d, want %d", m.Name, m.Offset, tc.offs[i])
				}
			}
			if b.Size != tc.size {
				t.Errorf("size %d, want %d", b.Size, tc.size)
			}
		})
	}
}

// TestComponentsAndMemberLocations pins the component and location a
// declaration takes: layout(component), and the locations of an in/out
// block's members assigned from the block's location onward.
// spec: GLSL 4.40 §4.4.1.
func TestComponentsAndMemberLocations(t *testing.T) {
	src := "#version 150\n#extension GL_ARB_enhanced_layouts : require\n#extension GL_ARB_separate_shader_objects : require\n" +
		"layout(location = 2, component = 1) out vec2 v;\n" +
		"layout(location = 4) out B { vec4 a; mat2 m; layout(location = 9, component = 3) float f; float g[2]; vec4 h; } blk;\n" +
		"void main() { gl_Position = vec4(0.0); }"
	f, err := checkExt(t, src)
	if err != nil {
		t.Fatal(err)
	}
	var v *ast.Var
	for _, g := range f.Globals {
		if g.Name == "v" {
			v = g
		}
	}
	if v == nil || v.Location != 2 || v.Component != 1 {
		t.Fatalf("v: %+v, want location 2 component 1", v)
	}
	want := []struct{ loc, comp int }{{4, 0}, {5, 0}, {9, 3}, {10, 0}, {12, 0}}
	for i, m := range f.Blocks[0].Members {
		if m.Location != want[i].loc || m.Component != want[i].comp {
			t.Errorf("member %s at location %d component %d, want %d %d", m.Name, m.Location, m.Component, want[i].loc, want[i].comp)
		}
	}
	if inst := f.Blocks[0].InstanceVar; inst.Location != 4 {
		t.Errorf("block instance location %d, want 4", inst.Location)
	}
}

// TestSSOInOldVersions: GL_ARB_separate_shader_objects brings global in and
// out with layout(location) to GLSL 1.10 and 1.20 (as Mesa reads the
// extension); without it they stay GLSL 1.30's. spec: ARB_separate_shader_objects.
func TestSSOInOldVersions(t *testing.T) {
	src := "#version 120\n#extension GL_ARB_separate_shader_objects : require\nlayout(location = 0) out vec4 a;\nin vec4 p;\nvoid main() { gl_Position = p; a = p; }"
	if _, err := checkExt(t, src); err != nil {
		t.Errorf("with the extension: %v", err)
	}
	if _, err := check(t, "#version 120\nout vec4 a;\nvoid main() { gl_Position = vec4(0.0); a = vec4(1.0); }", vs); err == nil {
		t.Errorf("GLSL 1.20 global out without the extension compiled")
	}
}
