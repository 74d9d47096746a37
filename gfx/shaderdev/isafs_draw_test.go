package shaderdev_test

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"

	"vortexgfx/config"
	"vortexgfx/device/swom"
	"vortexgfx/gfx/shaderdev"
	"vortexgfx/gl/compare"
	"vortexgfx/gl/format"
)

// Fragment programs for the machine-code wrapper: discard (at top level, in
// a loop and inside a function), demote-free helpers, fine and coarse
// derivatives, gl_FragCoord / gl_FrontFacing, integer arithmetic feeding the
// outputs, MRT and gl_FragDepth.
const (
	isaFSDiscard = `#version 330
in vec4 v_col; out vec4 o;
bool keep(float x) { if (x > 0.7) { discard; } return x > 0.1; }
void main() {
	if (fract(gl_FragCoord.x * 0.25) < 0.3) discard;
	float a = 0.0;
	for (int i = 0; i < 6; i++) { a += v_col.g * 0.2; if (a > 0.9) discard; if (a > 0.5) break; }
	if (!keep(v_col.b)) discard;
	o = vec4(v_col.rgb, a);
}`
	isaFSDeriv = `#version 330
#extension GL_ARB_derivative_control : enable
in vec4 v_col; out vec4 o;
void main() {
	float s = v_col.r * v_col.g * 40.0;
	o = vec4(abs(dFdxFine(s)) * 8.0, abs(dFdyFine(s)) * 8.0, abs(dFdxCoarse(v_col.b * 30.0)) + abs(dFdyCoarse(v_col.a * 30.0)), fwidth(s));
	if (gl_FragCoord.y > 20.0 && v_col.r > 0.5) { o.a = dFdx(gl_FragCoord.x) * 0.5; }
}`
	isaFSInt = `#version 330
in vec4 v_col; out vec4 o;
void main() {
	ivec2 p = ivec2(gl_FragCoord.xy);
	int h = (p.x * 73856093) ^ (p.y * 19349663);
	uint u = uint(h) >> 7u;
	o = vec4(float(u % 256u) / 255.0, float((h >> 3) & 255) / 255.0, gl_FrontFacing ? v_col.b : 1.0 - v_col.b, gl_FragCoord.z);
}`
	isaFSDepth = `#version 330
in vec4 v_col; layout(location = 0) out vec4 o0; layout(location = 1) out vec4 o1;
void main() { o0 = v_col; o1 = v_col.gbra * 1.5 - 0.2; gl_FragDepth = v_col.g * 1.4 - 0.2; }`
)

// isaFSCases are the unit cases the machine-code fragment stage must take on
// the FF OM, plus the rows of unitCases that route to the FF OM.
func isaFSCases() []unitCase {
	lessZ := func(_ int, s *swom.State) { s.DepthTest, s.DepthWrite, s.DepthFunc = true, true, compare.Less }
	cs := []unitCase{
		{name: "isa discard", fs: isaFSDiscard, colors: []format.Format{format.BGRA8}, clearZ: 1, state: lessZ},
		{name: "isa derivatives", fs: isaFSDeriv, colors: []format.Format{format.RGBA8}, clearZ: 1, state: lessZ},
		{name: "isa integer", fs: isaFSInt, colors: []format.Format{format.BGRA8}, clearZ: 1, back: true},
		{name: "isa mrt fragdepth", fs: isaFSDepth, colors: []format.Format{format.RGBA8, format.BGRA8}, clearZ: 1,
			state: func(_ int, s *swom.State) { s.DepthTest, s.DepthWrite, s.DepthFunc = true, false, compare.Less }},
		{name: "isa fragdepth", fs: isaFSDepth, colors: []format.Format{format.BGRA8}, clearZ: 1, state: lessZ},
	}
	for _, c := range unitCases() {
		if !c.swOM && !c.swRast {
			cs = append(cs, c)
		}
	}
	return cs
}

// TestFragmentStageISAMatchesIR is the differential test of the machine-code
// fragment stage: every case rendered with cores = "ir" (the Go wrapper round
// the IR executor) and cores = "isa" (CompileFragment's code on the SIMT
// cores) gives byte-identical targets, and under cores = "isa" every draw's
// fragment stage ran as machine code (Route.FSISA, with its instruction
// counts in DrawStats.ISA). spec: vortexpipe-driver.md §3.4
func TestFragmentStageISAMatchesIR(t *testing.T) {
	isa := config.Default()
	isa.Device.Cores = config.CoresISA
	for _, c := range isaFSCases() {
		t.Run(c.name, func(t *testing.T) {
			want, irSt := renderDevice(t, &c, config.Default(), 0)
			got, st := renderDevice(t, &c, isa, 0)
			for k := range st {
				if irSt[k].Route.FSISA || irSt[k].ISA != nil {
					t.Errorf("draw %d: cores = ir reports machine code: %+v", k, irSt[k].Route)
				}
				if !st[k].Route.FSISA {
					t.Errorf("draw %d: the fragment stage did not run as machine code: %v", k, st[k].Route.Why)
				} else if st[k].Shaded > 0 && (st[k].ISA == nil || st[k].ISA.FSWarpInstructions == 0 || st[k].ISA.FSThreadInstructions < st[k].ISA.FSWarpInstructions) {
					t.Errorf("draw %d: fragment instruction counts %+v", k, st[k].ISA)
				}
				if st[k].Shaded != irSt[k].Shaded || st[k].Written != irSt[k].Written {
					t.Errorf("draw %d: %d shaded, %d written; cores = ir %d, %d", k, st[k].Shaded, st[k].Written, irSt[k].Shaded, irSt[k].Written)
				}
			}
			drawn := false
			for i := range want {
				if !bytes.Equal(got[i], want[i]) {
					n := 0
					for j := range want[i] {
						if got[i][j] != want[i][j] {
							n++
						}
					}
					t.Errorf("target %d: %d of %d bytes differ from cores = ir", i, n, len(want[i]))
				}
				drawn = drawn || slices.ContainsFunc(want[i], func(b byte) bool { return b != want[i][0] })
			}
			if !drawn {
				t.Errorf("the case drew nothing: the comparison proves nothing")
			}
		})
	}
}

// TestFragmentStageISAFallback: a draw the machine-code wrapper cannot take
// (the software merger, a texture) runs the Go wrapper with the reason in
// Route.Why — the image is cores = "ir"'s — and fails with ErrISARefused
// under StrictISA.
func TestFragmentStageISAFallback(t *testing.T) {
	isa := config.Default()
	isa.Device.Cores = config.CoresISA
	var sw unitCase
	for _, c := range unitCases() {
		if c.swOM && !c.swRast && c.samples <= 1 {
			sw = c
			break
		}
	}
	if sw.name == "" {
		t.Fatal("no software-merger unit case")
	}
	want, _ := renderDevice(t, &sw, config.Default(), 0)
	got, st := renderDevice(t, &sw, isa, 0)
	for k := range st {
		if st[k].Route.FSISA || !slices.ContainsFunc(st[k].Route.Why, func(w string) bool {
			return strings.HasPrefix(w, "fs: IR executor: ") && strings.Contains(w, "software merger")
		}) {
			t.Errorf("%s draw %d: route %+v, want the Go wrapper with the reason", sw.name, k, st[k].Route)
		}
	}
	for i := range want {
		if !bytes.Equal(got[i], want[i]) {
			t.Errorf("%s target %d differs from cores = ir", sw.name, i)
		}
	}
	cfg := isa
	cfg.Device.LocalMemBytes = 512 // too small for the draw test's vertex frames too
	if _, _, err := drawTestProgram(t, isa, true); err != nil {
		t.Errorf("strict draw the machine code takes: %v", err)
	}
	if _, _, err := drawTestProgram(t, cfg, true); !errors.Is(err, shaderdev.ErrISARefused) {
		t.Errorf("strict draw with refused stages: %v, want ErrISARefused", err)
	}
}
