package shadertest

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
)

const basicTest = `comment before the first section is ignored
[require]
GLSL >= 1.10
SIZE 64 32

[vertex shader]
void main() { gl_Position = gl_Vertex; }

[fragment shader]
uniform vec4 color;
void main() { gl_FragColor = color; }

[test]
# a comment
clear color 0.0 0.0 1.0 0.0
clear
uniform vec4 color 0 1 0 1
draw rect -1 -1 2 2
probe all rgba 0 1 0 1
`

func TestParseBasic(t *testing.T) {
	f, err := Parse("basic.shader_test", []byte(basicTest))
	if err != nil {
		t.Fatal(err)
	}
	if f.Width != 64 || f.Height != 32 || f.GLSL.Num != 110 || !f.HasRequire || !f.HasTest {
		t.Fatalf("file = %+v", f)
	}
	if len(f.Shaders) != 2 {
		t.Fatalf("%d shaders", len(f.Shaders))
	}
	vs := f.Shaders[0]
	if vs.Stage != StageVertex || vs.Line != 6 || !vs.AddedVersion ||
		vs.Source != "#version 110\nvoid main() { gl_Position = gl_Vertex; }\n\n" {
		t.Errorf("vertex shader = %+v", vs)
	}
	if fs := f.Shaders[1]; fs.Stage != StageFragment || !strings.HasPrefix(fs.Source, "#version 110\nuniform vec4 color;") {
		t.Errorf("fragment shader = %+v", fs)
	}
	var ops []Op
	for _, c := range f.Commands {
		ops = append(ops, c.Op)
	}
	if want := []Op{OpClearColor, OpClear, OpUniform, OpDrawRect, OpProbe}; !reflect.DeepEqual(ops, want) {
		t.Errorf("ops = %v, want %v", ops, want)
	}
	if f.Commands[0].Line != 15 {
		t.Errorf("first command on line %d, want 15", f.Commands[0].Line)
	}
}

func TestVersionInsertion(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string // source prefixes per shader
		err       string
	}{
		{"es", "[require]\nGL ES >= 3.0\nGLSL ES >= 3.00\n[vertex shader]\nx\n",
			[]string{"#version 300 es\nx\n"}, ""},
		{"es100", "[require]\nGL ES >= 2.0\nGLSL ES >= 1.00\n[vertex shader]\nx\n",
			[]string{"#version 100\nx\n"}, ""},
		{"own version kept", "[require]\nGLSL >= 1.30\n[fragment shader]\n#version 130\ny\n",
			[]string{"#version 130\ny\n"}, ""},
		// strstr runs to the end of the file: the fragment shader's
		// #version stops the vertex shader from getting one.
		{"later version suppresses", "[require]\nGLSL >= 1.20\n[vertex shader]\nx\n[fragment shader]\n#version 120\ny\n",
			[]string{"x\n", "#version 120\ny\n"}, ""},
		{"earlier version does not", "[require]\nGLSL >= 1.20\n[vertex shader]\n#version 120\nx\n[fragment shader]\ny\n",
			[]string{"#version 120\nx\n", "#version 120\ny\n"}, ""},
		{"passthrough", "[require]\nGLSL >= 1.30\n[vertex shader passthrough]\nignored\n[fragment shader]\n#version 130\ny\n",
			[]string{"#version 130\n" + PassthroughVertexShader, "#version 130\ny\n"}, ""},
		{"missing requirement", "[require]\n[vertex shader]\nx\n", []string{"x\n"}, "GLSL version requirement missing"},
		{"two vertex sections", "[require]\nGLSL >= 1.10\n[vertex shader]\na\n[vertex shader]\nb\n",
			[]string{"#version 110\na\n", "#version 110\nb\n"}, ""},
		{"no final newline", "[require]\nGLSL >= 1.10\n[fragment shader]\nz", []string{"#version 110\nz"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Parse("v.shader_test", []byte(tc.src))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, s := range f.Shaders {
				got = append(got, s.Source)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("sources = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestRequirements(t *testing.T) {
	for _, tc := range []struct {
		line string
		want Requirement
		err  string
	}{
		{"GLSL >= 1.30", Requirement{Kind: ReqGLSL, Cmp: GreaterEqual, Version: Version{Num: 130}}, ""},
		{"GLSL ES >= 3.00", Requirement{Kind: ReqGLSL, Cmp: GreaterEqual, Version: Version{Num: 300, ES: true}}, ""},
		{"GL >= 3.0", Requirement{Kind: ReqGL, Cmp: GreaterEqual, Version: Version{Num: 30}}, ""},
		{"GL ES >= 3.0", Requirement{Kind: ReqGL, Cmp: GreaterEqual, Version: Version{Num: 30, ES: true}}, ""},
		{"GL COMPAT >= 3.1", Requirement{Kind: ReqGL, Cmp: GreaterEqual, Version: Version{Num: 31, Compat: true}}, ""},
		{"GL != 2.1", Requirement{Kind: ReqGL, Cmp: Greater, Version: Version{Num: 21}}, ""}, // != parses as >
		{"GL_ARB_texture_rg", Requirement{Kind: ReqExtension, Name: "GL_ARB_texture_rg"}, ""},
		{"!GL_ARB_foo", Requirement{Kind: ReqNotExtension, Name: "GL_ARB_foo"}, ""},
		{"GL_MAX_VARYING_COMPONENTS >= 64", Requirement{Kind: ReqLimit, Name: "GL_MAX_VARYING_COMPONENTS", Cmp: GreaterEqual, Value: 64}, ""},
		{"INT GL_MAX_CLIP_PLANES >= 8", Requirement{Kind: ReqInt, Name: "GL_MAX_CLIP_PLANES", Cmp: GreaterEqual, Value: 8}, ""},
		{"rlimit 1000", Requirement{Kind: ReqRlimit, Value: 1000}, ""},
		{"depthbuffer", Requirement{Kind: ReqDepthBuffer}, ""},
		{"SIZE 10 20", Requirement{Kind: ReqSize, Value: 10}, ""},
		{"/* a comment */", Requirement{}, ""},
		{"GLSL > 1.10", Requirement{}, "unsupported GLSL version comparison"},
		{"GLSL >= 1.10 # note", Requirement{}, "unexpected characters"},
		{"GLSL = 1.10", Requirement{}, "invalid comparison"},
		{"GL >= three", Requirement{}, "invalid version"},
		{"SIZE 0 10", Requirement{}, "invalid SIZE"},
	} {
		f, err := Parse("r.shader_test", []byte("[require]\n"+tc.line+"\n"))
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: err = %v, want %q", tc.line, err, tc.err)
			} else if !strings.HasPrefix(err.Error(), "r.shader_test:2: ") {
				t.Errorf("%q: error %q does not name file:line", tc.line, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tc.line, err)
			continue
		}
		if tc.want.Kind == ReqIgnored {
			if len(f.Requires) != 0 {
				t.Errorf("%q: got %+v, want nothing", tc.line, f.Requires)
			}
			continue
		}
		if len(f.Requires) != 1 {
			t.Fatalf("%q: %d requirements", tc.line, len(f.Requires))
		}
		got := f.Requires[0]
		got.Line, got.Text = 0, ""
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q = %+v, want %+v", tc.line, got, tc.want)
		}
	}
}

func parseOne(t *testing.T, line string) (*Command, error) {
	t.Helper()
	f, err := Parse("c.shader_test", []byte("[require]\nGLSL >= 1.10\n[test]\n"+line+"\n"))
	if err != nil {
		return nil, err
	}
	if len(f.Commands) != 1 {
		t.Fatalf("%q: %d commands", line, len(f.Commands))
	}
	return &f.Commands[0], nil
}

func TestCommands(t *testing.T) {
	for _, tc := range []struct {
		line  string
		check func(c *Command) bool
	}{
		{"clear color 0.0 0.5 1.0 0.25", func(c *Command) bool {
			return c.Op == OpClearColor && reflect.DeepEqual(c.F, []float32{0, 0.5, 1, 0.25})
		}},
		{"clear depth 0.5", func(c *Command) bool { return c.Op == OpClearDepth && c.F[0] == 0.5 }},
		{"clear", func(c *Command) bool { return c.Op == OpClear }},
		{"  clear  ", func(c *Command) bool { return c.Op == OpClear }},
		{"clip plane 2 0 1 0 -0.5", func(c *Command) bool {
			return c.Op == OpClipPlane && c.Index == 2 && c.Plane == [4]float64{0, 1, 0, -0.5}
		}},
		{"color 0.25 0.75 0.5 0.25", func(c *Command) bool { return c.Op == OpColor && c.F[1] == 0.75 }},
		{"draw rect -1 -1 2 2", func(c *Command) bool {
			return c.Op == OpDrawRect && *c.Rect == RectCmd{X: -1, Y: -1, W: 2, H: 2, Instances: 1}
		}},
		{"draw rect ortho 0 0 10 20", func(c *Command) bool { return c.Rect.Ortho && !c.Rect.Patch && c.Rect.H == 20 }},
		{"draw rect ortho patch 0 0 10 20", func(c *Command) bool { return c.Rect.Ortho && c.Rect.Patch }},
		{"draw rect patch -1 -1 2 2", func(c *Command) bool { return !c.Rect.Ortho && c.Rect.Patch }},
		{"draw rect tex -1 -1 2 2 0 0 1 1", func(c *Command) bool { return c.Rect.Tex && c.Rect.TW == 1 }},
		{"draw instanced rect 3 -1 -1 2 2", func(c *Command) bool { return c.Rect.Instances == 3 && c.Rect.FixedFunction }},
		{"draw instanced rect ortho 3 0 0 2 2", func(c *Command) bool { return c.Rect.Instances == 3 && c.Rect.Ortho }},
		{"draw arrays GL_TRIANGLE_FAN 0 4", func(c *Command) bool {
			return c.Op == OpDrawArrays && *c.Draw == ArraysCmd{Mode: TriangleFan, Count: 4, Instances: 1}
		}},
		{"draw arrays instanced GL_TRIANGLES 1 3 5", func(c *Command) bool {
			return *c.Draw == ArraysCmd{Mode: Triangles, First: 1, Count: 3, Instances: 5}
		}},
		{"draw arrays instanced base GL_POINTS 0 1 2 3", func(c *Command) bool {
			return *c.Draw == ArraysCmd{Mode: Points, Count: 1, Instances: 2, BaseInstance: 3}
		}},
		{"draw elements GL_TRIANGLES 6 1", func(c *Command) bool {
			return c.Op == OpDrawElements && *c.Draw == ArraysCmd{Mode: Triangles, Count: 6, BaseVertex: 1, Instances: 1, Elements: true}
		}},
		{"enable GL_CLIP_PLANE3", func(c *Command) bool { return c.Op == OpEnable && c.Cap == "GL_CLIP_PLANE3" && c.Enable }},
		{"disable GL_DEPTH_TEST", func(c *Command) bool { return c.Op == OpEnable && c.Cap == "GL_DEPTH_TEST" && !c.Enable }},
		{"enable GL_VERTEX_PROGRAM_TWO_SIDE", func(c *Command) bool { return c.Cap == "GL_VERTEX_PROGRAM_TWO_SIDE" }},
		{"depthfunc GL_GEQUAL", func(c *Command) bool { return c.Op == OpDepthFunc && c.Name == "GL_GEQUAL" }},
		{"frustum -1 1 -1 1 1 10", func(c *Command) bool { return c.Op == OpFrustum && len(c.F) == 6 }},
		{"hint GL_FRAGMENT_SHADER_DERIVATIVE_HINT GL_NICEST", func(c *Command) bool { return c.Op == OpHint && c.Value == "GL_NICEST" }},
		{"ortho", func(c *Command) bool { return c.Op == OpOrtho && len(c.F) == 0 }},
		{"ortho 0 10 0 20", func(c *Command) bool { return c.Op == OpOrtho && reflect.DeepEqual(c.F, []float32{0, 10, 0, 20}) }},
		{"probe rgba 1 2 0.1 0.2 0.3 0.4", func(c *Command) bool {
			return c.Op == OpProbe && *c.Probe == ProbeCmd{Kind: ProbePixel, Components: 4, X: 1, Y: 2, W: 1, H: 1, Expected: [4]float32{0.1, 0.2, 0.3, 0.4}}
		}},
		{"probe rgb 1.9 2 0 1 0", func(c *Command) bool { return c.Probe.Components == 3 && c.Probe.X == 1 }}, // (int) truncation
		{"probe rect rgba (1, 2, 3, 4) (0, 1, 0, 1)", func(c *Command) bool {
			return *c.Probe == ProbeCmd{Kind: ProbeRect, Components: 4, X: 1, Y: 2, W: 3, H: 4, Expected: [4]float32{0, 1, 0, 1}}
		}},
		{"probe rect rgb (1, 2, 3, 4) (0, 1, 0)", func(c *Command) bool { return c.Probe.Kind == ProbeRect && c.Probe.Components == 3 }},
		{"probe all rgba 0 1 0 1", func(c *Command) bool { return c.Probe.Kind == ProbeAll && c.Probe.Components == 4 }},
		{"probe all rgb 0 1 0", func(c *Command) bool { return c.Probe.Kind == ProbeAll && c.Probe.Components == 3 }},
		{"probe warn all rgba 0 1 0 1", func(c *Command) bool { return c.Probe.Warn }},
		{"relative probe rgba (0.5, 0.25) (0, 1, 0, 1)", func(c *Command) bool {
			return c.Probe.Relative && c.Probe.RX == 0.5 && c.Probe.RY == 0.25 && c.Probe.Components == 4
		}},
		{"relative probe rgb (0.5, 0.25) (0, 1, 0)", func(c *Command) bool { return c.Probe.Relative && c.Probe.Components == 3 }},
		{"relative probe rect rgb (0.1, 0.2, 0.3, 0.4) (0, 1, 0)", func(c *Command) bool {
			return c.Probe.Kind == ProbeRect && c.Probe.Relative && c.Probe.RW == float32(0.3)
		}},
		{"relative probe rect rgba (0.1, 0.2, 0.3, 0.4) (0, 1, 0, 1)", func(c *Command) bool { return c.Probe.Components == 4 }},
		{"probe depth 3 4 0.5", func(c *Command) bool { return c.Op == OpProbeDepth && c.Probe.X == 3 && c.Probe.Expected[0] == 0.5 }},
		{"tolerance 0.05 0.05 0.05 0.05", func(c *Command) bool { return c.Op == OpTolerance && len(c.F) == 4 }},
		{"tolerance 0.02", func(c *Command) bool { return len(c.F) == 1 }},
		{"shade model flat", func(c *Command) bool { return c.Op == OpShadeModel && c.Flat }},
		{"shade model smooth", func(c *Command) bool { return c.Op == OpShadeModel && !c.Flat }},
		{"provoking vertex first", func(c *Command) bool { return c.Op == OpProvokingVertex && c.Flat }},
		{"provoking vertex last", func(c *Command) bool { return c.Op == OpProvokingVertex && !c.Flat }},
		{"polygon mode GL_FRONT_AND_BACK GL_LINE", func(c *Command) bool {
			return c.Op == OpPolygonMode && c.Name == "GL_FRONT_AND_BACK" && c.Value == "GL_LINE"
		}},
		{"polygon mode GL_BACK GL_POINT", func(c *Command) bool { return c.Op == OpPolygonMode && c.Name == "GL_BACK" && c.Value == "GL_POINT" }},
		{"polygon mode GL_FRONT GL_FILL", func(c *Command) bool { return c.Op == OpPolygonMode && c.Name == "GL_FRONT" && c.Value == "GL_FILL" }},
		{"ubo array index 3", func(c *Command) bool { return c.Op == OpUBOArrayIndex && c.Index == 3 }},
		{"texture junk 2DArray 2 (8, 4, 3)", func(c *Command) bool {
			return c.Op == OpTexture && *c.Texture == TextureCmd{Kind: TexJunk2DArray, Unit: 2, W: 8, H: 4, D: 3}
		}},
		{"texture rgbw 1 (8, 4)", func(c *Command) bool {
			return *c.Texture == TextureCmd{Kind: TexRGBW, Unit: 1, W: 8, H: 4, D: 1}
		}},
		{"texture rgbw 0 (8, 8) GL_RGBA8", func(c *Command) bool { return c.Texture.Format == "GL_RGBA8" }},
		{"verify program_interface_query GL_SHADER_STORAGE_BLOCK a[1] GL_BUFFER_DATA_SIZE 48", func(c *Command) bool {
			return c.Op == OpResourceQuery && c.Iface == "GL_SHADER_STORAGE_BLOCK" && c.Name == "a[1]" && c.Cap == "GL_BUFFER_DATA_SIZE" && c.Value == "48"
		}},
		{"active uniform s[0].m GL_UNIFORM_MATRIX_STRIDE 16", func(c *Command) bool {
			return c.Op == OpActiveUniform && c.Name == "s[0].m" && c.Cap == "GL_UNIFORM_MATRIX_STRIDE" && c.Value == "16"
		}},
		{"texture integer 1 (2,2) (2,10) GL_R32I", func(c *Command) bool {
			tc := c.Texture
			return tc.Kind == TexInteger && tc.Unit == 1 && tc.W == 2 && tc.H == 2 && tc.Colors[0][0] == 2 && tc.Colors[0][1] == 10 && tc.Format == "GL_R32I"
		}},
		{"texture checkerboard 0 0 (32, 32) (0.5, 0.0, 0.0, 1.0) (0.0, 0.0, 1.0, 0.0)", func(c *Command) bool {
			tc := c.Texture
			return tc.Kind == TexCheckerboard && tc.SW == 16 && tc.Colors[1] == [4]float32{0, 0, 1, 0}
		}},
		{"texture miptree 2", func(c *Command) bool { return c.Texture.Kind == TexMiptree && c.Texture.Unit == 2 && c.Texture.W == 8 }},
		{"texture shadow2D 0 (32, 32)", func(c *Command) bool { return c.Texture.Kind == TexShadow2D && c.Texture.H == 32 }},
		{"texture shadow1D 0 (32)", func(c *Command) bool { return c.Texture.Kind == TexShadow1D && c.Texture.H == 1 }},
		{"texture shadow2DArray 0 (4, 4, 3)", func(c *Command) bool { return c.Texture.D == 3 }},
		{"texture rgbw 1D 0", func(c *Command) bool { return c.Texture.Kind == TexRGBW1D }},
		{"texture rgbw 2DArray 0 (4, 4, 3)", func(c *Command) bool { return c.Texture.Kind == TexRGBW2DArray && c.Texture.D == 3 }},
		{"texcoord 1 (0.5, 0.25, 0, 1)", func(c *Command) bool { return c.Op == OpTexCoord && c.Index == 1 && c.F[1] == 0.25 }},
		{"texparameter 2D compare_func greater", func(c *Command) bool {
			return *c.TexParam == TexParamCmd{Target: Tex2D, Param: "compare_func", Value: "greater"}
		}},
		{"texparameter 1D depth_mode luminance", func(c *Command) bool { return c.TexParam.Target == Tex1D && c.TexParam.Value == "luminance" }},
		{"texparameter 2D min nearest_mipmap_linear", func(c *Command) bool { return c.TexParam.Param == "min" }},
		{"texparameter 2D max_level 2", func(c *Command) bool { return c.TexParam.Int == 2 }},
		{"texparameter 2D lod_bias -1.5", func(c *Command) bool { return c.TexParam.Float == -1.5 }},
		{"texparameter 2D border_color 1 0 0 1", func(c *Command) bool { return c.TexParam.Color == [4]float32{1, 0, 0, 1} }},
		{"parameter local_fp 3 (0.5, -1, INF, 2)", func(c *Command) bool {
			return c.Op == OpParameter && c.Name == "local_fp" && c.Index == 3 && len(c.F) == 4 && c.F[1] == -1 && c.F[3] == 2 &&
				math.IsInf(float64(c.F[2]), 1)
		}},
		{"parameter env_vp 0 (1,2,3,4)", func(c *Command) bool { return c.Op == OpParameter && c.Name == "env_vp" && c.F[3] == 4 }},
		{"link error", func(c *Command) bool { return c.Op == OpLinkError }},
		{"link success", func(c *Command) bool { return c.Op == OpLinkSuccess }},
		{"light 0 GL_POSITION float 0.2 0.5 0.8 0.1", func(c *Command) bool {
			return c.Op == OpLight && c.Name == "GL_POSITION" && len(c.F) == 4
		}},
		{"ssbo 0 1024", func(c *Command) bool { return c.Op == OpSSBO && c.Compute.Size == 1024 }},
		{"fb tex 2d 0", func(c *Command) bool { return c.Op == OpFBTex2D && c.Compute.Unit == 0 }},
		{"fb tex 2d 0 1", func(c *Command) bool {
			return c.Op == OpFramebuffer && c.FB.Draw && c.FB.Read && len(c.FB.Attach) == 2 && c.FB.Attach[1] == FBAttach{Unit: 1, Target: Tex2D}
		}},
		{"fb tex 2d 0 1 2 3 4 5 6 7 8", func(c *Command) bool { return c.Op == OpUnsupported && c.Name == "fb tex 2d" }},
		{"fb winsys", func(c *Command) bool { return c.Op == OpFramebuffer && c.FB.Window && c.FB.Draw && c.FB.Read }},
		{"fb draw winsys", func(c *Command) bool { return c.Op == OpFramebuffer && c.FB.Window && c.FB.Draw && !c.FB.Read }},
		{"fb read tex 2d 3", func(c *Command) bool {
			return c.Op == OpFramebuffer && !c.FB.Draw && c.FB.Read && len(c.FB.Attach) == 1 && c.FB.Attach[0].Unit == 3
		}},
		{"fb tex slice 2DArray 1 2 3", func(c *Command) bool {
			return c.Op == OpFramebuffer && c.FB.Attach[0] == FBAttach{Unit: 1, Target: Tex2DArray, Level: 2, Layer: 3}
		}},
		{"fb tex slice Cube 0 0 5", func(c *Command) bool { return c.FB.Attach[0] == FBAttach{Target: TexCube, Layer: 5} }},
		{"fb ms GL_RGBA8 250 200 4", func(c *Command) bool {
			return c.Op == OpFramebuffer && c.FB.Samples == 4 && c.FB.W == 250 && c.FB.H == 200 && c.FB.Format == "GL_RGBA8"
		}},
		{"fb tex layered 2", func(c *Command) bool {
			return c.Op == OpFramebuffer && len(c.FB.Attach) == 1 && c.FB.Attach[0].Layered && c.FB.Attach[0].Unit == 2
		}},
		{"fb tex layered 2DArray 0", func(c *Command) bool { return c.Op == OpUnsupported && c.Name == "fb" }},
		{"fb tex 2d", func(c *Command) bool { return c.Op == OpUnsupported }},
		{"blit color linear", func(c *Command) bool { return c.Op == OpBlit && c.FB.Linear }},
		{"blit color nearest", func(c *Command) bool { return c.Op == OpBlit && !c.FB.Linear }},
		{"blit depth nearest", func(c *Command) bool { return c.Op == OpUnsupported && c.Name == "blit" }},
		{"fbfetch barrier", func(c *Command) bool { return c.Op == OpFetchBarrier }},
		{"memory barrier GL_SHADER_IMAGE_ACCESS_BARRIER_BIT", func(c *Command) bool {
			return c.Op == OpMemoryBarrier && c.Name == "GL_SHADER_IMAGE_ACCESS_BARRIER_BIT"
		}},
		{"memory barrier GL_SHADER_STORAGE_BARRIER_BIT | GL_ATOMIC_COUNTER_BARRIER_BIT", func(c *Command) bool {
			return c.Op == OpMemoryBarrier && c.Name == "GL_SHADER_STORAGE_BARRIER_BIT|GL_ATOMIC_COUNTER_BARRIER_BIT"
		}},
		{"memory barrier GL_ALL_BARRIER_BITS", func(c *Command) bool { return c.Op == OpMemoryBarrier }},
		{"image texture 3 GL_R32UI", func(c *Command) bool {
			return c.Op == OpImageTexture && c.Compute.Unit == 3 && c.Compute.Format == "GL_R32UI" && c.Op.storageOp()
		}},
		{"texture storage 0 2DArray GL_RGBA8 (4 250 250 2)", func(c *Command) bool {
			tc := c.Texture
			return c.Op == OpTexture && tc.Kind == TexStorage && tc.Target == Tex2DArray && tc.Levels == 4 && tc.W == 250 && tc.H == 250 && tc.D == 2
		}},
		{"texture storage 1 Cube GL_RGBA8I (1 16 16)", func(c *Command) bool {
			return c.Texture.Target == TexCube && c.Texture.D == 6 && c.Texture.Unit == 1 && c.Texture.Format == "GL_RGBA8I"
		}},
		{"texture storage 0 1D GL_RGBA8 (1 64)", func(c *Command) bool { return c.Texture.W == 64 && c.Texture.H == 1 && c.Texture.D == 1 }},
		{"relative probe rect rgba int (0.5, 0.0, 0.5, 1.0) (1, -2, 3, 127)", func(c *Command) bool {
			return c.Op == OpProbe && c.Probe.Int && c.Probe.ExpectedInt == [4]int32{1, -2, 3, 127} && c.Probe.RX == 0.5
		}},
		{"compute 1 2 3", func(c *Command) bool { return c.Op == OpCompute && c.Compute.Groups == [3]uint32{1, 2, 3} }},
		{"compute group size 1 1 1 4 4 1", func(c *Command) bool { return c.Op == OpUnsupported }},
		{"ssbo 5 subdata float 8 0.5", func(c *Command) bool {
			return c.Op == OpSSBOSubdata && c.Compute.Binding == 5 && c.Compute.Offset == 8 && c.Compute.Bits == 0x3f000000
		}},
		{"ssbo 0 subdata int 4 -1", func(c *Command) bool { return c.Compute.Bits == 0xffffffff }},
		{"probe ssbo uint 0 4 == 0xdeadbeef", func(c *Command) bool { return c.Op == OpProbeSSBO && c.Compute.Bits == 0xdeadbeef }},
		{"probe ssbo int 1 0 >= -3", func(c *Command) bool { return c.Compute.Cmp == ">=" && int32(c.Compute.Bits) == -3 }},
		{"probe ssbo float 1 0 == 0.25", func(c *Command) bool { return c.Compute.Float == 0.25 }},
		{"atomic counter buffer 2 3", func(c *Command) bool {
			return c.Op == OpAtomicCounters && c.Compute.Binding == 2 && c.Compute.Size == 3
		}},
		{"atomic counters 4", func(c *Command) bool {
			return c.Op == OpAtomicCounters && c.Compute.Binding == 0 && c.Compute.Size == 4
		}},
		{"atomic counter 1 2 17", func(c *Command) bool {
			return c.Op == OpAtomicCounterSet && c.Compute.Index == 2 && c.Compute.Bits == 17
		}},
		{"probe atomic counter 3 == 5", func(c *Command) bool { return c.Op == OpProbeAtomic && c.Compute.Offset == 12 && !c.Compute.Buffer }},
		{"probe atomic counter buffer 1 8 != 0  # a[1]", func(c *Command) bool { return c.Compute.Buffer && c.Compute.Offset == 8 }},
		{"image texture 0 GL_RGBA8", func(c *Command) bool { return c.Op == OpImageTexture && c.Compute.Format == "GL_RGBA8" }},
	} {
		c, err := parseOne(t, tc.line)
		if err != nil {
			t.Errorf("%q: %v", tc.line, err)
			continue
		}
		if !tc.check(c) {
			t.Errorf("%q parsed as %+v", tc.line, *c)
		}
	}
}

func TestUniforms(t *testing.T) {
	for _, tc := range []struct {
		line string
		want Uniform
	}{
		{"uniform float f 1.5", Uniform{TypeName: "float", Base: BaseFloat, Cols: 1, Rows: 1, Name: "f", Location: -1, Floats: []float32{1.5}}},
		{"uniform int i -3", Uniform{TypeName: "int", Base: BaseInt, Cols: 1, Rows: 1, Name: "i", Location: -1, Ints: []int32{-3}}},
		{"uniform uint u 0xCAFED00D", Uniform{TypeName: "uint", Base: BaseUint, Cols: 1, Rows: 1, Name: "u", Location: -1, Uints: []uint32{0xcafed00d}}},
		{"uniform ivec3 a[2] 1 2 3", Uniform{TypeName: "ivec3", Base: BaseInt, Cols: 1, Rows: 3, Name: "a[2]", Location: -1, Ints: []int32{1, 2, 3}}},
		{"uniform uvec2 s.m 1 2", Uniform{TypeName: "uvec2", Base: BaseUint, Cols: 1, Rows: 2, Name: "s.m", Location: -1, Uints: []uint32{1, 2}}},
		{"uniform vec4 3 1 2 3 4", Uniform{TypeName: "vec4", Base: BaseFloat, Cols: 1, Rows: 4, Name: "3", Location: 3, Floats: []float32{1, 2, 3, 4}}},
		{"uniform mat2x3 m 1 2 3 4 5 6", Uniform{TypeName: "mat2x3", Base: BaseFloat, Cols: 2, Rows: 3, Name: "m", Location: -1, Floats: []float32{1, 2, 3, 4, 5, 6}}},
		{"uniform mat2 m 1 2 3 4", Uniform{TypeName: "mat2", Base: BaseFloat, Cols: 2, Rows: 2, Name: "m", Location: -1, Floats: []float32{1, 2, 3, 4}}},
		{"uniform dvec2 d 0.5 0x3ff0000000000000", Uniform{TypeName: "dvec2", Base: BaseDouble, Cols: 1, Rows: 2, Name: "d", Location: -1, Doubles: []float64{0.5, 1}}},
		{"uniform int64_t x -5", Uniform{TypeName: "int64_t", Base: BaseInt64, Cols: 1, Rows: 1, Name: "x", Location: -1, Int64s: []int64{-5}}},
		{"uniform vec4 v 0.1 0.9 0.9", Uniform{TypeName: "vec4", Base: BaseFloat, Cols: 1, Rows: 4, Name: "v", Location: -1, Floats: []float32{0.1, 0.9, 0.9, 0}, Short: 1}},
	} {
		c, err := parseOne(t, tc.line)
		if err != nil {
			t.Errorf("%q: %v", tc.line, err)
			continue
		}
		if !reflect.DeepEqual(*c.Uniform, tc.want) {
			t.Errorf("%q = %+v, want %+v", tc.line, *c.Uniform, tc.want)
		}
	}
	m, _ := parseOne(t, "uniform mat4 m 1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1")
	if m.Uniform.Count() != 16 {
		t.Errorf("mat4 count = %d", m.Uniform.Count())
	}
}

func TestCommandErrors(t *testing.T) {
	for _, tc := range []struct{ line, err string }{
		{"frobnicate", "unknown command"},
		{"parameter env_gp 0 (1, 2, 3, 4)", "could not parse parameter command"},
		{"parameter local_vp 0 (1, 2, 3)", "could not parse parameter command"},
		{"clear color 1 0", "want 4 numbers"},
		{"probe rgba 1 2 0 0", "want 6 numbers"},
		{"draw arrays GL_TRIANGLE_FANS 0 4", "unknown drawing mode"},
		{"enable GL_LIGHTING", "bad enable/disable enum"},
		{"uniform bool b 1", "unknown uniform type"},
		{"uniform vec5 v 1 2 3 4 5", "unknown uniform type"},
		{"uniform mat2x5 m 1", "unknown uniform type"},
		{"uniform vec4 v", "got none"},
		{"texparameter 4D min nearest", "bad texture target"},
		{"texparameter 2D min bilinear", "bad min"},
		{"texparameter 2D anisotropy 4", "unknown texture parameter"},
		{"texture rgbw 0 (0, 4)", "bad texture size"},
		{"texture junk 2DArray 0 (0, 4, 2)", "bad texture size"},
		{"ubo array index -1", "negative uniform block array index"},
		{"texture rgbw 40 (4, 4)", "out of range"},
		{"texture checkerboard 0 0 (1, 1) (0, 0, 0, 0) (1, 1, 1, 1)", "empty squares"},
		{"light 9 GL_POSITION float 1", "bad light index"},
		{"hint GL_FOO GL_NICEST", "bad hint"},
		{"depthfunc GL_SOMETIMES", "unknown depth function"},
		{"polygon mode GL_FRONT_AND_BACK", "want polygon mode FACE MODE"},
		{"polygon mode GL_LEFT GL_LINE", "bad polygon mode face"},
		{"polygon mode GL_FRONT GL_WIRE", "bad polygon mode \"GL_WIRE\""},
		{"polygon mode GL_FRONT GL_LINE GL_POINT", "want polygon mode FACE MODE"},
		{"[vertex data]", "unknown command"},
		{"fb tex 2d 0 40", "texture unit 40 out of range"},
		{"fb tex slice 4D 0 0 0", "fb tex slice: unknown or unsupported target \"4D\""},
		{"fb tex slice 2DArray 0 20 0", "level 20 or layer 0 out of range"},
		{"fb ms GL_RGBA8 0 250 4", "fb ms: bad size 0x250"},
		{"blit color bicubic", "blit filter must be linear or nearest"},
		{"texture storage 0 2D GL_RGBA8 (1 4)", "texture storage 2D takes 2 sizes, not 1"},
		{"texture storage 0 4D GL_RGBA8 (1 4 4)", "texture storage: unknown or unsupported target \"4D\""},
		{"texture storage 0 2D GL_RGBA8 (9 4 4)", "texture storage: 9 levels for 4x4x1"},
		{"texture storage 0 2D GL_RGBA8 (1 0 4)", "bad texture size"},
		{"texture storage 0 2D", "invalid texture storage command"},
	} {
		_, err := parseOne(t, tc.line)
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%q: err = %v, want %q", tc.line, err, tc.err)
			continue
		}
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Line != 4 || pe.Path != "c.shader_test" {
			t.Errorf("%q: error %v does not carry c.shader_test:4", tc.line, err)
		}
	}
}

func TestSections(t *testing.T) {
	src := "[require]\nGLSL >= 1.50\n[geometry shader]\nx\n[vertex program]\n!!ARBvp1.0\n[bogus]\n[test]\nclear\n"
	f, err := Parse("s.shader_test", []byte(src))
	if err == nil || !strings.Contains(err.Error(), "s.shader_test:7: unknown section") {
		t.Fatalf("err = %v", err)
	}
	if len(f.Shaders) != 2 || f.Shaders[0].Stage != StageGeometry || f.Shaders[0].Assembly {
		t.Errorf("shaders = %+v", f.Shaders)
	}
	if sh := f.Shaders[len(f.Shaders)-1]; !sh.Assembly || sh.Stage != StageVertex || sh.Source != "!!ARBvp1.0\n" || sh.Line != 5 {
		t.Errorf("vertex program = %+v", sh)
	}
	if len(f.Commands) != 1 {
		t.Errorf("commands = %+v", f.Commands)
	}
}

func TestVertexData(t *testing.T) {
	src := `[require]
GLSL >= 1.30
[vertex data]
# leading comment
piglit_vertex/float/vec4  v[1]/int/int  m/float/mat2x3/1  c/ubyte/4  h/half/float
-1 -1 0 1   7   1 2 3   1 2 3 4   0.5   # trailing comment
 1 -1 0 1  -7   4 5 6   255 0 0 0  0x3c00 extra values ignored
`
	f, err := Parse("vd.shader_test", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	vd := f.VertexData
	if vd == nil || vd.Rows != 2 || len(vd.Columns) != 5 {
		t.Fatalf("vertex data = %+v", vd)
	}
	want := []VertexColumn{
		{Name: "piglit_vertex", Location: -1, Type: TypeFloat, Base: BaseFloat, Components: 4, Cols: 1, Floats: []float64{-1, -1, 0, 1, 1, -1, 0, 1}},
		{Name: "v", Location: -1, ArrayIndex: 1, Type: TypeInt, Base: BaseInt, Components: 1, Cols: 1, Ints: []int64{7, -7}},
		{Name: "m", Location: -1, Type: TypeFloat, Base: BaseFloat, Components: 3, Cols: 2, MatrixColumn: 1, Floats: []float64{1, 2, 3, 4, 5, 6}},
		{Name: "c", Location: -1, Type: TypeUByte, Base: BaseUint, Components: 4, Cols: 1, Ints: []int64{1, 2, 3, 4, 255, 0, 0, 0}},
		{Name: "h", Location: -1, Type: TypeHalf, Base: BaseFloat, Components: 1, Cols: 1, Floats: []float64{0.5, 1}},
	}
	if !reflect.DeepEqual(vd.Columns, want) {
		t.Errorf("columns =\n%+v\nwant\n%+v", vd.Columns, want)
	}
	for _, tc := range []struct{ header, row, err string }{
		{"a/float", "1", "want name"},
		{"a/quad/vec2", "1 2", "unrecognized GL type"},
		{"a/float/vec5", "1", "rows must be between"},
		{"a/float/blob", "1", "unrecognized GLSL type"},
		{"a/ubyte/uint", "256", "could not parse as unsigned"},
		{"a/byte/int", "-129", "could not parse as signed"},
		{"a/float/vec2", "1", "could not parse as float"},
		{"a/float/int", "1", "integer attribute"},
		{"a/float/mat2/4", "1 2", "matrix column index"},
	} {
		_, err := Parse("vd.shader_test", []byte("[require]\nGLSL >= 1.30\n[vertex data]\n"+tc.header+"\n"+tc.row+"\n"))
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s / %s: err = %v, want %q", tc.header, tc.row, err, tc.err)
		}
	}
}

// TestShaderIncludes: [shader include] sections name a string by their first
// line (a later one at the same clean path replaces it) and hold the rest as
// written; [shader include paths] lists search points in order.
func TestShaderIncludes(t *testing.T) {
	src := "[require]\nGLSL >= 1.10\n[shader include]\n/a b/./c.h\n\nint x;\n[shader include]\n/a b/d/../c.h\nint y;\n" +
		"[shader include paths]\n/a b/\n\n/lib\n[shader include]\nrelative\n[fragment shader]\nvoid main() {}\n"
	f, err := Parse("s.shader_test", []byte(src))
	if err == nil || !strings.Contains(err.Error(), `s.shader_test:15: shader include path "relative" does not start with '/'`) {
		t.Fatalf("err = %v", err)
	}
	if f.Includes == nil || !reflect.DeepEqual(f.Includes.Strings, map[string]string{"/a b/c.h": "int y;\n"}) ||
		!reflect.DeepEqual(f.Includes.Paths, []string{"/a b/", "/lib"}) {
		t.Errorf("includes = %+v", f.Includes)
	}
}

// TestParseMemoryBarrierErrors: a memory barrier without bits or with a word
// that is no barrier bit is a parse error naming it.
func TestParseMemoryBarrierErrors(t *testing.T) {
	for _, line := range []string{"memory barrier", "memory barrier frobnicate"} {
		_, err := Parse("t.shader_test", []byte("[require]\nGLSL >= 1.10\n[test]\n"+line+"\n"))
		if err == nil || !strings.Contains(err.Error(), "memory barrier") {
			t.Errorf("%q: %v, want a parse error naming the memory barrier", line, err)
		}
	}
}
