package codegen

import (
	"testing"

	"vortexgfx/shader"
	"vortexgfx/shader/glsl"
)

// FuzzCompileGLSL: any compute shader the front end accepts either compiles to a
// kernel that encodes, or is refused with an error; never a panic. Seeds: the
// differential corpus.
func FuzzCompileGLSL(f *testing.F) {
	for _, c := range corpus {
		f.Add(c.src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		cp, err := shader.Compile(shader.Source{Name: "fuzz.comp", Stage: glsl.Compute, Text: src})
		if err != nil {
			return
		}
		k, err := Compile(cp.Stage(glsl.Compute))
		if err != nil {
			return
		}
		if len(k.Code) == 0 || len(k.VXBin()) != 16+4*len(k.Code) {
			t.Fatalf("kernel of %d words, vxbin of %d bytes", len(k.Code), len(k.VXBin()))
		}
	})
}
