package shaderdev_test

import (
	"encoding/binary"
	"math"
	"testing"

	"vortexgfx/config"
	"vortexgfx/gfx/shaderdev"
	"vortexgfx/shader/ir"
)

// TestUniformsFollowEachDraw draws a full-target quad again and again on one
// device with a uniform that changes between some draws and not others: the
// fragment waves reuse their kept executors (and the uniforms those last
// decoded), so each draw must still show its own value.
func TestUniformsFollowEachDraw(t *testing.T) {
	const W, H = 32, 32
	p := link(t, `#version 130
in vec2 a_pos;
void main() { gl_Position = vec4(a_pos, 0.0, 1.0); }`, `#version 130
uniform float u_grey; out vec4 o; void main() { o = vec4(u_grey, u_grey, u_grey, 1.0); }`)
	sp, err := shaderdev.NewProgram("uniforms.follow", p.IR)
	if err != nil {
		t.Fatal(err)
	}
	words := p.AttribWords()
	pos, _ := p.Attribute("a_pos")
	raw := make([]byte, 4*6*words)
	for v, c := range [6][2]float32{{-1, -1}, {1, -1}, {1, 1}, {-1, -1}, {1, 1}, {-1, 1}} {
		binary.LittleEndian.PutUint32(raw[4*(v*words+pos.Word):], math.Float32bits(c[0]))
		binary.LittleEndian.PutUint32(raw[4*(v*words+pos.Word+1):], math.Float32bits(c[1]))
	}
	attrs := []shaderdev.AttribBinding{{Data: raw, Offset: uint64(4 * pos.Word), Stride: uint64(4 * words)}}
	dev, err := shaderdev.Open(config.Default(), W, H, []*shaderdev.Program{sp})
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	for i, grey := range []uint32{51, 51, 204, 0, 0, 255, 51} {
		if err := p.SetUniform("u_grey", ir.F32, []uint32{math.Float32bits(float32(grey) / 255)}); err != nil {
			t.Fatal(err)
		}
		if _, err := dev.Draw(&shaderdev.Draw{Program: sp, Attribs: attrs, Count: 6, Uniforms: p.Uniforms, Merge: omAll()}); err != nil {
			t.Fatal(err)
		}
		px, err := dev.Color()
		if err != nil {
			t.Fatal(err)
		}
		for k, c := range px {
			if c&0xFF != grey || c>>8&0xFF != grey || c>>16&0xFF != grey {
				t.Fatalf("draw %d (grey %d): pixel %d is %08x", i, grey, k, c)
			}
		}
	}
}
