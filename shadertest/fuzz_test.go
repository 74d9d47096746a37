package shadertest

import (
	"context"
	"errors"
	"testing"
)

// FuzzParse checks that any input parses without panicking, that every
// error names the file and a line inside it, and that executing the result
// on the fake back end cannot panic or hang. The seeds under
// testdata/fuzz/FuzzParse are small hand-written files.
func FuzzParse(f *testing.F) {
	f.Add([]byte(basicTest))
	f.Add([]byte(progHead + "ubo array index 2\nuniform vec4 color 0 1 0 1\ntexture junk 2DArray 1 (4, 4, 2)\ndraw rect -1 -1 2 2\n"))
	f.Add([]byte(progHead + "texture checkerboard 0 0 (4, 4) (0, 0, 0, 1) (1, 1, 1, 1)\nprobe rect rgba (0, 0, 4, 4) (0, 1, 0, 1)\n"))
	f.Add([]byte(progHead + "polygon mode GL_FRONT_AND_BACK GL_LINE\ndraw rect -1 -1 2 2\npolygon mode GL_BACK GL_POINT\npolygon mode GL_FRONT GL_WIRE\n"))
	f.Add([]byte(progHead + "verify program_interface_query GL_SHADER_STORAGE_BLOCK b[1] GL_BUFFER_DATA_SIZE 48\nverify program_interface_query GL_PROGRAM_INPUT a\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Parse("fuzz.shader_test", data)
		if file == nil {
			t.Fatal("nil file")
		}
		lines := 1
		for _, b := range data {
			if b == '\n' {
				lines++
			}
		}
		var joined interface{ Unwrap() []error }
		if errors.As(err, &joined) {
			for _, e := range joined.Unwrap() {
				var pe *ParseError
				if !errors.As(e, &pe) || pe.Path != "fuzz.shader_test" || pe.Line < 1 || pe.Line > lines {
					t.Fatalf("error without a valid file:line: %v", e)
				}
			}
		}
		if file.Width > 64 || file.Height > 64 {
			return // keep the fake renderer cheap
		}
		Execute(context.Background(), file, err, newFake())
	})
}
