package pipe

import (
	"bytes"
	"errors"
	"math"
	"testing"

	"vortexgfx/gl/blend"
	"vortexgfx/gl/compare"
	"vortexgfx/gl/format"
)

// TestStrictGates: for every gate of reasons.go, a state that trips it makes
// DrawVBO under Options.Strict return a *StrictError naming that gate with
// nothing drawn, and without STRICT the fallback is counted in Stats.
// spec: vortexpipe §1.5 (STRICT), §1.5.1 (gated fallbacks)
func TestStrictGates(t *testing.T) {
	type mutator func(t *testing.T, e *drawEnv, info *DrawInfo)
	rast := func(s RasterizerState) mutator {
		return func(t *testing.T, e *drawEnv, _ *DrawInfo) {
			r, err := e.c.CreateRasterizerState(s)
			if err != nil {
				t.Fatal(err)
			}
			e.c.BindRasterizerState(r)
		}
	}
	dsa := func(s DepthStencilAlphaState) mutator {
		return func(t *testing.T, e *drawEnv, _ *DrawInfo) {
			d, err := e.c.CreateDSAState(s)
			if err != nil {
				t.Fatal(err)
			}
			e.c.BindDSAState(d)
		}
	}
	withBlend := func(s BlendState) mutator {
		return func(t *testing.T, e *drawEnv, _ *DrawInfo) {
			b, err := e.c.CreateBlendState(s)
			if err != nil {
				t.Fatal(err)
			}
			e.c.BindBlendState(b)
		}
	}
	fb := func(f func(t *testing.T, e *drawEnv) Framebuffer) mutator {
		return func(t *testing.T, e *drawEnv, _ *DrawInfo) {
			if err := e.c.SetFramebufferState(f(t, e)); err != nil {
				t.Fatal(err)
			}
		}
	}
	shaders := func(vs, fs string) mutator {
		return func(t *testing.T, e *drawEnv, _ *DrawInfo) { e.program(t, vs, fs) }
	}
	cases := []struct {
		gate ReasonCode
		mut  mutator
	}{
		// A fragment shader reading a varying the fixed-function vertex
		// stage does not write: no vertex stage can be generated (ffgen.go).
		{GateNoVS, func(t *testing.T, e *drawEnv, _ *DrawInfo) {
			e.program(t, "#version 110\nattribute vec4 p;\nvarying vec4 v;\nvoid main() { gl_Position = p; v = p; }\n",
				"#version 110\nvarying vec4 v;\nvoid main() { gl_FragColor = v; }\n")
			_ = e.c.BindVSState(nil)
		}},
		{GateVSNotCompiled, func(t *testing.T, e *drawEnv, _ *DrawInfo) {
			_ = e.c.BindVSState(&Shader{Desc: ShaderDesc{Stage: StageVertex, GLSL: "precompiled elsewhere"}})
		}},
		{GateFSNotCompiled, func(t *testing.T, e *drawEnv, _ *DrawInfo) {
			_ = e.c.BindFSState(&Shader{Desc: ShaderDesc{Stage: StageFragment, GLSL: "precompiled elsewhere"}})
		}},
		{GateTopology, func(t *testing.T, e *drawEnv, info *DrawInfo) { info.Mode = PrimLinesAdjacency }},
		{GatePolygonMode, rast(RasterizerState{FillFront: PolygonLine, FillBack: PolygonLine, OffsetLine: true})},
		{GatePolygonOffset, rast(RasterizerState{OffsetTri: true, OffsetUnits: float32(math.Inf(1))})},
		{GateSampleCount, fb(func(t *testing.T, e *drawEnv) Framebuffer {
			return Framebuffer{Width: e.w, Height: e.h, Samples: 3, Cbufs: []*Surface{{Resource: e.rt}}}
		})},
		{GateQuery, func(t *testing.T, e *drawEnv, _ *DrawInfo) {
			q, _ := e.c.CreateQuery(QueryPipelineStatistics)
			_ = e.c.BeginQuery(q)
		}},
		{GateStreamOutput, func(t *testing.T, e *drawEnv, info *DrawInfo) { info.CountFromStreamOutput = true }},
		{GateColorFormat, fb(func(t *testing.T, e *drawEnv) Framebuffer {
			return Framebuffer{Width: e.w, Height: e.h, Cbufs: []*Surface{{Resource: newTex(t, e.s, format.D16, e.w, e.h)}}}
		})},
		{GateDepthFormat, func(t *testing.T, e *drawEnv, info *DrawInfo) {
			fb(func(t *testing.T, e *drawEnv) Framebuffer {
				return Framebuffer{Width: e.w, Height: e.h, Cbufs: []*Surface{{Resource: e.rt}}, Zsbuf: &Surface{Resource: newTex(t, e.s, format.R32F, e.w, e.h)}}
			})(t, e, info)
			dsa(DepthStencilAlphaState{DepthEnabled: true, DepthFunc: compare.Less})(t, e, info)
		}},
		{GateDualSource, func(t *testing.T, e *drawEnv, info *DrawInfo) {
			fb(func(t *testing.T, e *drawEnv) Framebuffer {
				return Framebuffer{Width: e.w, Height: e.h, Cbufs: []*Surface{{Resource: e.rt}, {Resource: newTex(t, e.s, format.RGBA8, e.w, e.h)}}}
			})(t, e, info)
			withBlend(BlendState{RT: [8]RTBlendState{{BlendEnable: true, RGBSrc: blend.Src1Color, RGBDst: blend.Zero,
				AlphaSrc: blend.One, AlphaDst: blend.Zero, ColorMask: MaskRGBA}}})(t, e, info)
		}},
		{GateDepthClip, func(t *testing.T, e *drawEnv, info *DrawInfo) {
			fb(func(t *testing.T, e *drawEnv) Framebuffer {
				return Framebuffer{Width: e.w, Height: e.h, Cbufs: []*Surface{{Resource: e.rt}}, Zsbuf: &Surface{Resource: newTex(t, e.s, format.D32F, e.w, e.h)}}
			})(t, e, info)
			rast(RasterizerState{DepthClipDisable: true})(t, e, info)
		}},
		{GateVaryings, shaders(`#version 330
layout(location = 0) in vec4 pos;
out vec4 a[16];
out vec4 b;
void main() { gl_Position = pos; for (int i = 0; i < 16; i++) a[i] = pos; b = pos; }
`, `#version 330
in vec4 a[16];
in vec4 b;
out vec4 o;
void main() { o = a[0] + a[15] + b; }
`)},
		{GateFramebufferSize, fb(func(t *testing.T, e *drawEnv) Framebuffer {
			return Framebuffer{Width: 1 << 16, Height: 1, Cbufs: []*Surface{{Resource: newTex(t, e.s, format.R8, 1<<16, 1)}}}
		})},
		{GateForcedReference, func(t *testing.T, e *drawEnv, _ *DrawInfo) { e.c.opts.ForceReference = true }},
		{GateDeviceBackend, func(t *testing.T, e *drawEnv, _ *DrawInfo) {
			// Viewports of any size and position run on the device
			// (TestViewportScissorDepthRangeDifferential); one reaching past
			// the device coordinate range does not.
			e.c.SetViewport(Viewport{Scale: [3]float32{16000, 8, 0.5}, Translate: [3]float32{40000, 8, 0.5}})
		}},
	}
	seen := map[ReasonCode]bool{}
	for _, tc := range cases {
		seen[tc.gate] = true
		t.Run(tc.gate.String(), func(t *testing.T) {
			for _, strict := range []bool{true, false} {
				e := newDrawEnv(t, Options{Strict: strict}, false)
				e.program(t, testVS, testFS)
				e.posCol(t, quadVerts(0, [4]float32{1, 1, 1, 1}, -1, -1, 1, 1)...)
				if err := e.c.Clear(ClearColor, [4]float32{0.2, 0.4, 0.6, 1}, 1, 0); err != nil {
					t.Fatal(err)
				}
				if err := e.c.Finish(); err != nil {
					t.Fatal(err)
				}
				before := make([]byte, e.rt.Size())
				_ = e.rt.Read(0, before)
				info := &DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Count: 4}}}
				tc.mut(t, e, info)
				err := e.c.DrawVBO(info)
				if !strict {
					if len(e.c.Stats().FallbackDetails) == 0 {
						t.Error("no fallback detail counted")
					}
					if n := e.c.Stats().Fallbacks[tc.gate]; n == 0 {
						t.Errorf("without STRICT the fallback is not counted (err %v, stats %+v)", err, e.c.Stats())
					}
					continue
				}
				var se *StrictError
				if !errors.As(err, &se) || !errors.Is(err, ErrStrict) {
					t.Fatalf("STRICT: %v, want a *StrictError", err)
				}
				found := false
				for _, r := range se.Reasons {
					found = found || r.Code == tc.gate
				}
				if !found {
					t.Errorf("STRICT error %v does not name %v", err, tc.gate)
				}
				after := make([]byte, e.rt.Size())
				_ = e.rt.Read(0, after)
				if !bytes.Equal(before, after) {
					t.Error("STRICT draw changed the framebuffer")
				}
				if st := e.c.Stats(); st.Reference != 0 {
					t.Errorf("STRICT draw ran on the reference renderer: %+v", st)
				}
			}
		})
	}
	// Retired gates: that state runs on the software merger now
	// (TestDrawMergerSW); the codes keep their values.
	// Texture targets, formats, ops, wraps and anisotropy sample on the
	// device's software sampler (TestTEXCoverageRows, TestDrawSoftwareTextures,
	// TestTexRoutesSW); GateTexTarget/GateTexFormat remain only for descriptors
	// CreateTexture refuses.
	// Outputs without an attachment are dropped (TestDrawDroppedOutputs).
	// 4x MSAA with several attachments runs on the device (TestDrawMSAAMRT).
	// A render condition is evaluated on the host at each call
	// (TestQueriesAndConditions).
	// 5 to 8 attachments run on the software merger (TestDrawManyTargets);
	// SetFramebufferState refuses more.
	// The fixed-function fragment stage runs on the device as a generated
	// program for every vertex stage (TestFFDeviceMatchesFixedFunction).
	retired := map[ReasonCode]bool{GateNoFS: true, GateTooManyRTs: true, GateRenderCondition: true, GateMRTMultisample: true, GateMissingAttachment: true, GateAlphaToCoverage: true, GateAlphaToOne: true, GateDepthClamp: true,
		GateTexFormat: true, GateTexTarget: true, GateTexOp: true, GateAnisotropy: true, GateWrap: true}
	for c := GateNoVS; c <= GateDeviceBackend; c++ {
		if !seen[c] && !retired[c] {
			t.Errorf("gate %v has no STRICT test", c)
		}
	}
}
