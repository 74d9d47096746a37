package shaderdev_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"vortexgfx/gfx/shaderdev"
)

// TestRouteError checks NewProgram's typed refusal: errors.Is ErrRoute and
// errors.As *RouteError both hold, the message is ErrRoute's, the program's
// name and the detail, and the reason writes a program's own count as "N" so
// two programs with the same cause share it. spec: vortexpipe §1.5.1
func TestRouteError(t *testing.T) {
	varyings := func(n int) (string, string) {
		var decl, vsum, fsum strings.Builder
		for i := range n {
			fmt.Fprintf(&decl, "out vec4 v%d; ", i)
			fmt.Fprintf(&vsum, "v%d = a * %d.0; ", i, i+1)
			if i > 0 {
				fsum.WriteString(" + ")
			}
			fmt.Fprintf(&fsum, "v%d", i)
		}
		vs := "#version 130\nin vec4 a; " + decl.String() + "void main() { gl_Position = a; " + vsum.String() + "}"
		fs := "#version 130\n" + strings.ReplaceAll(decl.String(), "out ", "in ") + "out vec4 o; void main() { o = " + fsum.String() + "; }"
		return vs, fs
	}
	const reason = "N varying words exceed the 12 interpolation planes and 52 side-array words"
	for _, n := range []int{17, 18} {
		vs, fs := varyings(n)
		_, err := shaderdev.NewProgram(fmt.Sprintf("prog%d", n), link(t, vs, fs).IR)
		var re *shaderdev.RouteError
		if !errors.Is(err, shaderdev.ErrRoute) || !errors.As(err, &re) {
			t.Fatalf("%d vec4 varyings: %v, want a *RouteError", n, err)
		}
		detail := fmt.Sprintf("%d varying words exceed the 12 interpolation planes and 52 side-array words", 4*n)
		want := fmt.Sprintf("shaderdev: compiled program routed off the device: prog%d: %s", n, detail)
		if re.Reason != reason || re.Detail != detail || re.Program != fmt.Sprintf("prog%d", n) || err.Error() != want {
			t.Errorf("%d vec4 varyings: %+v (%q), want reason %q, message %q", n, re, err, reason, want)
		}
	}
	const vs = "#version 330\nin vec4 a; void main() { gl_Position = a; }"
	const fs = "#version 330\nlayout(location = 9) out vec4 o; void main() { o = vec4(1.0); }"
	_, err := shaderdev.NewProgram("loc9", link(t, vs, fs).IR)
	var re *shaderdev.RouteError
	if !errors.As(err, &re) || re.Reason != "colour output o at location 9 (at most 8)" || re.Detail != re.Reason {
		t.Errorf("location 9: %v, want the reason without a count", err)
	}
}
