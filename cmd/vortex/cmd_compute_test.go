package main

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestComputeCommand runs a prefix scan over a raw buffer file and checks the
// output file against a Go running sum; then the error paths.
func TestComputeCommand(t *testing.T) {
	dir := t.TempDir()
	shader := filepath.Join(dir, "scan.comp")
	src := `#version 430
layout(local_size_x = 32) in;
layout(std430, binding = 0) readonly buffer In { uint v[]; } src;
layout(std430, binding = 1) writeonly buffer Out { uint v[]; } dst;
layout(binding = 0, offset = 0) uniform atomic_uint calls;
shared uint tmp[32];
void main() {
	uint i = gl_LocalInvocationIndex;
	tmp[i] = src.v[gl_GlobalInvocationID.x];
	barrier();
	for (uint off = 1u; off < 32u; off *= 2u) {
		uint x = i >= off ? tmp[i - off] : 0u;
		barrier();
		tmp[i] += x;
		barrier();
	}
	dst.v[gl_GlobalInvocationID.x] = tmp[i];
	atomicCounterIncrement(calls);
}
`
	in := make([]byte, 4*96)
	for i := 0; i < 96; i++ {
		binary.LittleEndian.PutUint32(in[4*i:], uint32(i*i%17))
	}
	inPath, outPath, ctrPath := filepath.Join(dir, "in.bin"), filepath.Join(dir, "out.bin"), filepath.Join(dir, "calls.bin")
	for p, b := range map[string][]byte{shader: []byte(src), inPath: in} {
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out, errb bytes.Buffer
	code := runCompute([]string{shader, "--groups", "3,1,1", "--buffer", "0=" + inPath, "--size", "1=384",
		"--out", "1=" + outPath, "--out", "counter:0=" + ctrPath}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "96 invocations, 1 launch, 1 doorbell") {
		t.Errorf("summary %q", out.String())
	}
	got, err := os.ReadFile(outPath)
	if err != nil {
		t.Fatal(err)
	}
	for g := 0; g < 3; g++ {
		var run uint32
		for i := 0; i < 32; i++ {
			k := g*32 + i
			run += uint32(k * k % 17)
			if v := binary.LittleEndian.Uint32(got[4*k:]); v != run {
				t.Fatalf("out[%d] = %d, want %d", k, v, run)
			}
		}
	}
	if c, _ := os.ReadFile(ctrPath); len(c) < 4 || binary.LittleEndian.Uint32(c) != 96 {
		t.Errorf("counter file %v, want 96", c)
	}
	// A storage image from raw rgba8 texels, inverted in place.
	inv := filepath.Join(dir, "invert.comp")
	os.WriteFile(inv, []byte("#version 430\nlayout(local_size_x = 2, local_size_y = 2) in;\n"+
		"layout(rgba8, binding = 1) uniform image2D img;\n"+
		"void main() { ivec2 p = ivec2(gl_GlobalInvocationID.xy); imageStore(img, p, vec4(1.0) - imageLoad(img, p)); }\n"), 0o644)
	texels := make([]byte, 4*4*4)
	for i := range texels {
		texels[i] = byte(i * 5)
	}
	texPath, texOut := filepath.Join(dir, "tex.bin"), filepath.Join(dir, "tex-out.bin")
	os.WriteFile(texPath, texels, 0o644)
	out.Reset()
	if code := runCompute([]string{inv, "--groups", "2,2", "--image", "1=4x4:" + texPath, "--out", "image:1=" + texOut}, &out, &errb); code != 0 {
		t.Fatalf("image: exit %d: %s", code, errb.String())
	}
	if got, _ := os.ReadFile(texOut); len(got) != len(texels) || got[7] != 255-texels[7] || got[63] != 255-texels[63] {
		t.Fatalf("inverted image %v", got)
	}
	bad := filepath.Join(dir, "bad.comp")
	os.WriteFile(bad, []byte("#version 430\nlayout(local_size_x = 128) in;\nvoid main() { nope(); }\n"), 0o644)
	big := filepath.Join(dir, "big.comp")
	os.WriteFile(big, []byte("#version 430\nlayout(local_size_x = 128) in;\nvoid main() {}\n"), 0o644)
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{nil, 2, "usage"},
		{[]string{shader, "--groups", "1,x"}, 2, "--groups"},
		{[]string{bad}, 1, "bad.comp:3:"},
		{[]string{big}, 1, "larger than the device's maximum block size"},
		{[]string{shader, "--buffer", "7=" + inPath}, 1, "declares no storage buffer at binding 7"},
		{[]string{shader, "--buffer", "0"}, 1, "want binding=VALUE"},
		{[]string{shader, "--out", "3=" + outPath}, 1, "nothing bound"},
		{[]string{filepath.Join(dir, "missing.comp")}, 1, "no such file"},
		{[]string{inv}, 1, "image binding 1 (img) needs --image 1=WxH:FILE"},
		{[]string{inv, "--image", "1=3x3:" + texPath}, 1, "needs 36 bytes, got 64"},
		{[]string{inv, "--image", "2=4x4:" + texPath}, 1, "declares no image at binding 2"},
	} {
		var o, e bytes.Buffer
		if got := runCompute(c.args, &o, &e); got != c.code || !strings.Contains(e.String(), c.msg) {
			t.Errorf("compute %v: exit %d, stderr %q; want %d and %q", c.args, got, e.String(), c.code, c.msg)
		}
	}
}

// FuzzComputeArgs: the binding, group and extent parsers of vortex compute
// return a value or an error for any text, never panic, and accept only what
// they can represent.
func FuzzComputeArgs(f *testing.F) {
	for _, s := range []string{"0=in.bin", "counter:3=x", "image:1=4x4:f", "1,2,3", "4x4x2", "buffer:9=", "7"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if k, v, err := splitBinding(s); err == nil && (v == "" || k.kind == 0) {
			t.Fatalf("splitBinding(%q) = %v %q", s, k, v)
		}
		if g, err := parseGroups(s); err == nil {
			for _, n := range g {
				if n > 65535 {
					t.Fatalf("parseGroups(%q) = %v", s, g)
				}
			}
		}
		if e, err := parseExtent(s); err == nil && (e[0] < 1 || e[1] < 1 || e[2] < 1) {
			t.Fatalf("parseExtent(%q) = %v", s, e)
		}
	})
}

// TestComputeCommandISA: with [device] cores = "isa" the scan runs as machine
// code — the same output bytes as the IR executor, and a line of instruction
// counts; a program codegen refuses says why it fell back, and is an error
// under --strict.
func TestComputeCommandISA(t *testing.T) {
	dir := t.TempDir()
	shader, cfg := filepath.Join(dir, "sq.comp"), filepath.Join(dir, "isa.toml")
	os.WriteFile(shader, []byte("#version 430\nlayout(local_size_x = 8) in;\n"+
		"layout(std430, binding = 0) buffer B { uint v[]; };\n"+
		"void main() { uint i = gl_GlobalInvocationID.x; v[i] = v[i] * v[i] + i; }\n"), 0o644)
	os.WriteFile(cfg, []byte("[device]\ncores = \"isa\"\n"), 0o644)
	in := make([]byte, 4*16)
	for i := range 16 {
		binary.LittleEndian.PutUint32(in[4*i:], uint32(3*i+1))
	}
	inPath := filepath.Join(dir, "in.bin")
	os.WriteFile(inPath, in, 0o644)
	outs := map[string][]byte{}
	for _, mode := range []string{"ir", "isa"} {
		outPath := filepath.Join(dir, mode+".bin")
		args := []string{shader, "--groups", "2", "--buffer", "0=" + inPath, "--out", "0=" + outPath}
		if mode == "isa" {
			args = append(args, "--config", cfg)
		}
		var o, e bytes.Buffer
		if code := runCompute(args, &o, &e); code != 0 {
			t.Fatalf("%s: exit %d: %s", mode, code, e.String())
		}
		if has := strings.Contains(o.String(), "machine code ("); has != (mode == "isa") || (mode == "isa" && !strings.Contains(o.String(), "thread-instructions")) {
			t.Errorf("%s: output %q", mode, o.String())
		}
		outs[mode], _ = os.ReadFile(outPath)
	}
	if len(outs["ir"]) != 64 || !bytes.Equal(outs["ir"], outs["isa"]) {
		t.Errorf("isa output %x differs from ir %x", outs["isa"], outs["ir"])
	}
	// codegen compiles compute texelFetch only: a textureLod program runs on the
	// IR executor, which the output says before the dispatch (which then wants a
	// texture vortex compute cannot bind).
	tex := filepath.Join(dir, "tex.comp")
	os.WriteFile(tex, []byte("#version 430\nlayout(local_size_x = 1) in;\n"+
		"layout(std430, binding = 0) buffer B { vec4 v; };\nuniform sampler2D s;\n"+
		"void main() { v = textureLod(s, vec2(0.5), 0.0); }\n"), 0o644)
	var o, e bytes.Buffer
	if code := runCompute([]string{tex, "--config", cfg}, &o, &e); code != 1 || !strings.Contains(o.String(), "IR executor (not machine code: codegen: compute-stage texture: texture op samplelod") ||
		!strings.Contains(e.String(), "no texture bound") {
		t.Errorf("fallback: exit %d, output %q %q", code, o.String(), e.String())
	}
	// Spill frames beyond LMEM (a 64-word local array per invocation beside 16
	// KiB of shared variables) live in device memory: still machine code, and the
	// IR executor's bytes.
	big := filepath.Join(dir, "big.comp")
	os.WriteFile(big, []byte("#version 430\nlayout(local_size_x = 64) in;\n"+
		"layout(std430, binding = 0) buffer B { uint v[]; };\nshared uint s[4096];\n"+
		"void main() { uint t[64]; uint i = gl_LocalInvocationIndex; for (uint k = 0u; k < 64u; k++) t[k] = v[k] + i;\n"+
		"s[i] = t[v[i] & 63u]; barrier(); v[i] = s[63u - i]; }\n"), 0o644)
	bigIn := filepath.Join(dir, "big.bin")
	raw := make([]byte, 4*64)
	for i := range 64 {
		binary.LittleEndian.PutUint32(raw[4*i:], uint32(i*7+3))
	}
	os.WriteFile(bigIn, raw, 0o644)
	bigOut := map[string][]byte{}
	for _, mode := range []string{"ir", "isa"} {
		out := filepath.Join(dir, "big-"+mode+".bin")
		args := []string{big, "--buffer", "0=" + bigIn, "--out", "0=" + out}
		if mode == "isa" {
			args = append(args, "--config", cfg)
		}
		o.Reset()
		e.Reset()
		if code := runCompute(args, &o, &e); code != 0 || (mode == "isa") != strings.Contains(o.String(), "machine code (") {
			t.Errorf("big %s: exit %d, output %q %q", mode, code, o.String(), e.String())
		}
		bigOut[mode], _ = os.ReadFile(out)
	}
	if len(bigOut["ir"]) != 256 || !bytes.Equal(bigOut["ir"], bigOut["isa"]) {
		t.Errorf("frames in device memory: isa %x, ir %x", bigOut["isa"], bigOut["ir"])
	}
	o.Reset()
	e.Reset()
	if code := runCompute([]string{tex, "--config", cfg, "--strict"}, &o, &e); code != 1 || !strings.Contains(e.String(), "STRICT") {
		t.Errorf("--strict: exit %d, stderr %q", code, e.String())
	}
}
