package device

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vortexgfx/shadertest"
	"vortexgfx/shadertest/reference"
)

// maxDiffPixels bounds the pixels of one read-back where the device window
// may differ from the reference renderer's by more than ColorTolerance. The
// checked-in tests keep primitive edges off pixel centres, so none may.
const maxDiffPixels = 0

// TestShaderTestFiles runs every checked-in shader test on the reference back
// end and on the device back end (strict, comparing the windows at every
// read-back): both must pass, every draw must have run on the device, and the
// windows must agree within ColorTolerance per channel (depth within
// DepthTolerance) at every pixel: every test that passes on the reference
// renderer should pass here, and the two paths' images are compared.
func TestShaderTestFiles(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.shader_test"))
	if err != nil || len(files) < 12 {
		t.Fatalf("%d test files (%v)", len(files), err)
	}
	be := New(Options{Strict: true, Compare: true})
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".shader_test"), func(t *testing.T) {
			rr := shadertest.RunFile(context.Background(), f, reference.New())
			if rr.Status != shadertest.Pass {
				t.Fatalf("reference: %s %s", rr.Status, rr.Reason)
			}
			var rec Record
			dr := shadertest.RunFile(context.Background(), f, be.Test(&rec))
			if dr.Status != shadertest.Pass {
				t.Errorf("device: %s %s", dr.Status, dr.Reason)
			}
			if !rec.OnDevice() {
				t.Errorf("not entirely on the device: %s", rec.String())
			}
			// The *-sw tests sample what only the software sampler can.
			if sw := strings.HasSuffix(f, "-sw.shader_test"); sw != (rec.SWTex == rec.DeviceDraws) {
				t.Errorf("software TEX in %d of %d draws", rec.SWTex, rec.DeviceDraws)
			}
			if rec.Compared == 0 || rec.DiffPixels > maxDiffPixels {
				t.Errorf("%d read-backs compared; %d pixels differ (largest channel difference %d)", rec.Compared, rec.DiffPixels, rec.MaxDiff)
			}
		})
	}
	tot, n := be.Total()
	if n < len(files) || tot.RoutedDraws() != 0 {
		t.Errorf("total over %d contexts: %s", n, tot.String())
	}
}

// TestFallback checks the fallback contract on draws the device cannot take:
// without strict each runs on the reference renderer in the middle of the test
// (the window carried across both switches) and is counted by reason; under
// strict the draw fails naming the reason. spec: vortexpipe-driver §1.5.1
func TestFallback(t *testing.T) {
	// A device draw, a quad with a flat varying through row 125 (the
	// reference renderer's: GateFlatPolygons), then a device draw
	// depth-tested against the depth both wrote.
	src := `[require]
GLSL >= 1.30
depthbuffer

[vertex shader]
in vec4 piglit_vertex;
uniform vec4 color;
flat out vec4 c;
void main() { gl_Position = piglit_vertex; c = color; }

[fragment shader]
flat in vec4 c;
void main() { gl_FragColor = c; }

[vertex data]
piglit_vertex/float/2
-1.0 -0.002
 1.0 -0.002
 1.0  0.010
-1.0  0.010

[test]
clear color 0.0 0.0 0.0 1.0
clear
enable GL_DEPTH_TEST
uniform vec4 color 1.0 0.0 0.0 1.0
draw rect -1 -1 2 1
uniform vec4 color 0.0 0.0 1.0 1.0
draw arrays GL_QUADS 0 4
uniform vec4 color 0.0 1.0 0.0 1.0
draw rect -1 -1 2 2
relative probe rgb (0.5, 0.25) (1.0, 0.0, 0.0)
relative probe rgb (0.5, 0.75) (0.0, 1.0, 0.0)
probe rgb 125 125 0.0 0.0 1.0
`
	path := filepath.Join(t.TempDir(), "fallback.shader_test")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	const why = "flat varyings on quads"
	tests := []struct {
		strict bool
		status shadertest.Status
		reason string
		device int
	}{
		{false, shadertest.Pass, "", 2},
		{true, shadertest.Fail, ErrRouted.Error() + ": " + why, 1},
	}
	for _, tc := range tests {
		var rec Record
		be := New(Options{Strict: tc.strict, Compare: true})
		r := shadertest.RunFile(context.Background(), path, be.Test(&rec))
		if r.Status != tc.status || !strings.Contains(r.Reason, tc.reason) {
			t.Errorf("strict %v: %s %q, want %s containing %q", tc.strict, r.Status, r.Reason, tc.status, tc.reason)
		}
		if rec.DeviceDraws != tc.device {
			t.Errorf("strict %v: %s; want %d device draws", tc.strict, rec.String(), tc.device)
		}
		routed := 0
		for k, n := range rec.Routed {
			if strings.HasPrefix(k, why) {
				routed += n
			}
		}
		if want := map[bool]int{false: 1, true: 0}[tc.strict]; routed != want || rec.RoutedDraws() != want {
			t.Errorf("strict %v: %s; want %d routed (%s)", tc.strict, rec.String(), want, why)
		}
		if !tc.strict && rec.DiffPixels != 0 {
			t.Errorf("fallback: %d pixels differ from the reference renderer (largest %d)", rec.DiffPixels, rec.MaxDiff)
		}
	}
}

// TestNotReference checks that the accessors refuse a context of another
// back end with an error, not a panic.
func TestNotReference(t *testing.T) {
	be := New(Options{})
	c, err := be.NewContext(context.Background(), shadertest.ContextConfig{API: shadertest.APIGL, Width: 8, Height: 8})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := reference.Pipe(c); err == nil {
		t.Error("reference.Pipe accepted a device context")
	}
	if err := c.Draw(&shadertest.Draw{Mode: shadertest.Triangles, Count: 3, State: new(shadertest.State)}); err == nil || errors.Is(err, ErrRouted) {
		t.Errorf("draw without a program: %v", err)
	}
}
