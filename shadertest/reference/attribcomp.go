package reference

import (
	"fmt"

	"vortexgfx/shader/glsl"
	"vortexgfx/shadertest"
)

// componentAttributes refuses a program whose vertex inputs share a
// location by layout(component) (GLSL 4.40 §4.4.1 lets two inputs read
// different components of one attribute): the driver's vertex fetch binds
// one vertex element to one attribute (pipe.AttributeLayout), so such a
// program is a skip with its reason, not a wrong image.
func componentAttributes(lp *glsl.Program) error {
	for _, a := range lp.Attributes {
		if a.Component != 0 {
			return fmt.Errorf("vertex input '%s' takes components of its location (layout(component)), which the vertex fetch cannot split: %w",
				a.Name, shadertest.ErrUnsupported)
		}
	}
	return nil
}
