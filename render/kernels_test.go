package render

import (
	"bytes"
	"context"
	"testing"

	"vortexgfx/config"
	"vortexgfx/scene"
)

// With cores = "isa" a multisampled device frame runs expand_k, binning_k's
// stages and msaa_resolve_k as machine code: the image is the cores = "ir"
// frame's, byte for byte, and Stats.Kernels counts the three kernels'
// machine-code launches and instructions (nil on "ir"). spec: docs/ABI.md row 47
func TestDeviceFrontEndKernelsISA(t *testing.T) {
	js := `{"width": 24, "height": 16, "msaa": 4, "clear": {"color": [0, 0, 0, 1]},
 "camera": {"projection": "orthographic", "xmag": 0.5, "ymag": 0.5, "near": -1, "far": 1},
 "draws": [{"name": "q", "mesh": {"generator": "quad"}, "vertex_shader": "v.vert", "fragment_shader": "f.frag",
  "model": [{"rotate_z_deg": 23}, {"scale": [0.7, 0.7, 1]}],
  "uniforms": {"u_mvp": "mvp", "u_color": [1, 0.5, 0.25, 1], "u_mode": 2}}]}`
	d, err := scene.LoadDescription(writeScene(t, js, testVert, testFrag))
	if err != nil {
		t.Fatal(err)
	}
	isa := config.Default()
	isa.Device.Cores = config.CoresISA
	want, irSt, err := Render(context.Background(), d, Options{Path: PathDevice, Strict: true, Stats: true})
	if err != nil {
		t.Fatal(err)
	}
	// Not Strict: the multisampled draw's fragment stage is the software
	// raster's Go wrapper (a counted fallback).
	got, st, err := Render(context.Background(), d, Options{Path: PathDevice, Stats: true, Config: &isa})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got[0].Image.Pix, want[0].Image.Pix) {
		t.Error("the cores = isa frame differs from the cores = ir frame")
	}
	if irSt.Kernels != nil {
		t.Errorf("cores = ir counted %v", irSt.Kernels)
	}
	for name, launches := range map[string]uint64{"msaa_resolve_k": 1, "binning_k": 6, "expand_k": 1} {
		k := st.Kernels[name]
		if k.Launches != launches || k.MachineCode != launches || k.WarpInstructions == 0 || len(k.GoKernel) != 0 {
			t.Errorf("%s: %+v, want %d machine-code launches with instructions", name, k, launches)
		}
	}
	if is := st.Draws[0].Device.ISA; is == nil || is.BinningWarpInstructions == 0 || is.ExpandWarpInstructions == 0 {
		t.Errorf("the draw's ISA counts %+v lack binning_k's or expand_k's", is)
	}
}
