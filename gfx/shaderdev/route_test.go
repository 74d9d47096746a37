package shaderdev_test

import (
	"strings"
	"testing"

	"vortexgfx/abi"
	"vortexgfx/config"
	"vortexgfx/device/swom"
	"vortexgfx/gfx/shaderdev"
	"vortexgfx/ref/format"
)

// TestParseForceSW checks VORTEX_FORCE_SW's grammar. spec: vortexpipe §2.3.3
func TestParseForceSW(t *testing.T) {
	tests := []struct {
		in   string
		want shaderdev.Units
		bad  bool
	}{
		{"", 0, false}, {"tex", shaderdev.UnitTex, false}, {"om|raster", shaderdev.UnitOM | shaderdev.UnitRaster, false},
		{"all", shaderdev.UnitsAll, false}, {"TEX, om", shaderdev.UnitTex | shaderdev.UnitOM, false}, {"rop", 0, true},
	}
	for _, tc := range tests {
		got, err := shaderdev.ParseForceSW(tc.in)
		if (err != nil) != tc.bad || got != tc.want {
			t.Errorf("%q: %v, %v; want %v (error %v)", tc.in, got, err, tc.want, tc.bad)
		}
	}
	if s := (shaderdev.UnitOM | shaderdev.UnitRaster).String(); s != "om|raster" {
		t.Errorf("String: %q", s)
	}
}

// FuzzParseForceSW: any input parses to a subset of the units or an error
// naming the unit, never a panic.
func FuzzParseForceSW(f *testing.F) {
	for _, s := range []string{"tex|om", "all", "raster,,", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, err := shaderdev.ParseForceSW(s)
		if err == nil && u&^shaderdev.UnitsAll != 0 {
			t.Fatalf("%q: units %b outside the set", s, u)
		}
		if err != nil && !strings.Contains(err.Error(), "unknown unit") {
			t.Fatalf("%q: %v", s, err)
		}
	})
}

// TestShaderVariantKey checks the FS variant key: a unit it sets runs in
// software (named "variant key" in the route), and a key that disagrees with
// the pass (sample count, BGRA mask) is refused. spec: vortexpipe §2.3.1
func TestShaderVariantKey(t *testing.T) {
	c := unitCase{name: "key", fs: unitsFS, colors: []format.Format{format.RGBA8, format.BGRA8}}
	p := link(t, unitsVS, fsMRT2)
	sp, err := shaderdev.NewProgram("key", p.IR)
	if err != nil {
		t.Fatal(err)
	}
	dev, err := shaderdev.OpenTargets(config.Default(), uW, uH, shaderdev.TargetConfig{Colors: c.colors}, []*shaderdev.Program{sp})
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	_, raw := vertexBytes(p, unitTris(false)[0])
	attrs := make([]shaderdev.AttribBinding, len(sp.Attributes()))
	for i, s := range sp.Attributes() {
		attrs[i] = shaderdev.AttribBinding{Data: raw, Offset: uint64(4 * s.Word), Stride: uint64(4 * p.AttribWords())}
	}
	var ms swom.State
	baseState(0, &ms)
	ms.DepthWrite = false // MRT with depth writes would route OM to software
	tests := []struct {
		key            shaderdev.Variant
		om, raster, ok bool
	}{
		{shaderdev.Variant{}, false, false, true},
		{shaderdev.Variant{Samples: 1, BGRAMask: 2}, false, false, true},
		{shaderdev.Variant{SWOM: true, Samples: 1, BGRAMask: 2}, true, false, true},
		{shaderdev.Variant{SWRaster: true, Samples: 1, BGRAMask: 2}, true, true, true},
		{shaderdev.Variant{Samples: 1, BGRAMask: 1}, false, false, false},
		{shaderdev.Variant{Samples: 4, BGRAMask: 2}, false, false, false},
	}
	for _, tc := range tests {
		st, err := dev.Draw(&shaderdev.Draw{Program: sp, Attribs: attrs, Count: 3, Uniforms: p.Uniforms, Merge: ms, Key: tc.key})
		if (err == nil) != tc.ok {
			t.Errorf("key %+v: error %v, want ok %v", tc.key, err, tc.ok)
			continue
		}
		if err != nil {
			continue
		}
		if st.Route.SWOM != tc.om || st.Route.SWRaster != tc.raster {
			t.Errorf("key %+v: routed %+v", tc.key, st.Route)
		}
		if (tc.key.SWOM || tc.key.SWRaster) && !strings.Contains(strings.Join(st.Route.Why, ";"), "variant key") {
			t.Errorf("key %+v: route reasons %v do not name the key", tc.key, st.Route.Why)
		}
	}
	// Fewer targets than the program's outputs: the extra output is dropped,
	// as GL does, on the FF merger too (rendered against the reference by
	// TestShaderUnitsMatchRef's "extra outputs dropped" rows).
	one, err := shaderdev.OpenTargets(config.Default(), uW, uH, shaderdev.TargetConfig{}, []*shaderdev.Program{sp})
	if err != nil {
		t.Fatal(err)
	}
	defer one.Close()
	ms.DepthFunc = abi.CmpLess
	if st, err := one.Draw(&shaderdev.Draw{Program: sp, Attribs: attrs, Count: 3, Uniforms: p.Uniforms, Merge: ms}); err != nil || st.Route.SWOM {
		t.Errorf("a 2-output program on 1 FF target: %v, routed %+v", err, st.Route)
	}
}
