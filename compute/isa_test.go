package compute

import (
	"errors"
	"strings"
	"testing"

	"vortexgfx/config"
	"vortexgfx/shader/glsl"
)

// bothCores runs a test on the IR executor and as machine code ([device] cores).
func bothCores(t *testing.T, test func(t *testing.T, cores string)) {
	for _, cores := range []string{config.CoresIR, config.CoresISA} {
		t.Run(cores, func(t *testing.T) { test(t, cores) })
	}
}

// openCores opens a device with device.cores set; on "isa" the test fails if any
// program it loads falls back to the IR executor or runs no instructions.
func openCores(t *testing.T, cores string, mut func(*config.Config)) *Device {
	t.Helper()
	d := openDevice(t, func(c *config.Config) {
		if mut != nil {
			mut(c)
		}
		c.Device.Cores = cores
	})
	if cores == config.CoresISA {
		t.Cleanup(func() {
			st := d.Stats()
			if st.ISAFallbacks != 0 || st.ISAPrograms == 0 || st.Instructions == 0 || st.ThreadInstructions < st.Instructions {
				t.Errorf("isa device: %d programs as machine code, %d fallbacks, %d instructions (%d thread-instructions)",
					st.ISAPrograms, st.ISAFallbacks, st.Instructions, st.ThreadInstructions)
			}
		})
	}
	return d
}

const addSrc = `#version 430
layout(local_size_x = 4) in;
layout(std430, binding = 0) buffer B { uint v[]; };
uniform uint k;
void main() { v[gl_GlobalInvocationID.x] += k * gl_WorkGroupID.x; }
`

// A program codegen refuses falls back to the IR executor with the reason,
// counted; under Strict it is a Load error naming it. A program it takes runs
// as machine code with its instructions credited to it per launch.
func TestISAFallbackAndStrict(t *testing.T) {
	d := openDevice(t, func(c *config.Config) { c.Device.Cores = config.CoresISA })
	// codegen refuses textures.
	tex, err := d.Compile("tex", `#version 430
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer B { vec4 v; };
uniform sampler2D s;
void main() { v = textureLod(s, vec2(0.5), 0.0); }
`)
	if err != nil {
		t.Fatal(err)
	}
	if tex.ISA() || !strings.Contains(tex.Fallback(), "texture") {
		t.Errorf("texture program: ISA %v fallback %q, want a fallback naming textures", tex.ISA(), tex.Fallback())
	}
	add := compile(t, d, "add", addSrc)
	if !add.ISA() || add.Fallback() != "" || add.Kernel() == nil {
		t.Fatalf("add: ISA %v fallback %q", add.ISA(), add.Fallback())
	}
	if err := add.SetUniform("k", []uint32{10}); err != nil {
		t.Fatal(err)
	}
	buf, _ := d.NewBuffer(words(1, 2, 3, 4, 5, 6, 7, 8))
	for range 2 {
		if err := d.Dispatch(add, [3]uint32{2, 1, 1}, StorageBuffer(0, buf)); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := u32s(buf.Bytes()), []uint32{1, 2, 3, 4, 25, 26, 27, 28}; string(words(got...)) != string(words(want...)) {
		t.Errorf("buffer %v, want %v", got, want)
	}
	st, ds := add.ISAStats(), d.Stats()
	if st.Launches != 2 || st.CTAs != 4 || st.Instructions == 0 || st.Instructions != ds.Instructions || st.ThreadInstructions != ds.ThreadInstructions || st.Cycles == 0 {
		t.Errorf("program stats %+v, device stats %+v", st, ds)
	}
	if ds.ISAPrograms != 1 || ds.ISAFallbacks != 1 {
		t.Errorf("device counts %d machine-code programs and %d fallbacks, want 1 and 1", ds.ISAPrograms, ds.ISAFallbacks)
	}

	strict, err := OpenWith(d.Config(), Options{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	defer strict.Close()
	_, err = strict.CompileWith([]Source{{Name: "tex", Text: `#version 430
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer B { vec4 v; };
uniform sampler2D s;
void main() { v = textureLod(s, vec2(0.5), 0.0); }
`}}, glsl.Options{})
	if !errors.Is(err, ErrISARefused) || !strings.Contains(err.Error(), "tex") {
		t.Errorf("strict load of a texture program: %v, want ErrISARefused naming it", err)
	}
	if _, err := strict.Compile("add", addSrc); err != nil {
		t.Errorf("strict load of a program codegen takes: %v", err)
	}
}

// An indirect dispatch of a machine-code program runs its IR kernel (codegen
// reads no indirect record), counted, with the same results.
func TestISAIndirectRunsTheIRKernel(t *testing.T) {
	d := openDevice(t, func(c *config.Config) { c.Device.Cores = config.CoresISA })
	add := compile(t, d, "add", addSrc)
	if err := add.SetUniform("k", []uint32{10}); err != nil {
		t.Fatal(err)
	}
	buf, _ := d.NewBuffer(words(1, 2, 3, 4, 5, 6, 7, 8))
	ind, _ := d.NewBuffer(words(2, 1, 1))
	if err := d.DispatchIndirect(add, ind, 0, StorageBuffer(0, buf)); err != nil {
		t.Fatal(err)
	}
	if got, want := u32s(buf.Bytes()), []uint32{1, 2, 3, 4, 15, 16, 17, 18}; string(words(got...)) != string(words(want...)) {
		t.Errorf("buffer %v, want %v", got, want)
	}
	if st := d.Stats(); st.ISAIndirectIR != 1 || st.Instructions != 0 || add.ISAStats().Launches != 0 {
		t.Errorf("stats %+v, program %+v: want one indirect dispatch on the IR kernel", st, add.ISAStats())
	}
	// Under Strict the dispatch is refused when recorded.
	strict, err := OpenWith(d.Config(), Options{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	defer strict.Close()
	sadd := compile(t, strict, "add", addSrc)
	sbuf, _ := strict.NewBuffer(words(1, 2, 3, 4, 5, 6, 7, 8))
	sind, _ := strict.NewBuffer(words(2, 1, 1))
	if err := strict.DispatchIndirect(sadd, sind, 0, StorageBuffer(0, sbuf)); !errors.Is(err, ErrISARefused) || !strings.Contains(err.Error(), "indirect") {
		t.Errorf("strict indirect dispatch: %v, want ErrISARefused naming the indirect dispatch", err)
	}
}

// Spill frames that do not fit LMEM beside the shared variables live in a
// device buffer (arg slot abi.ArgCSFrames): the program still runs as machine
// code, with the IR executor's bytes, on any core count.
func TestISAFramesInDeviceMemory(t *testing.T) {
	src := `#version 430
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint v[]; };
shared uint s[4000];
void main() {
	uint t[64];
	uint i = gl_LocalInvocationIndex, g = gl_WorkGroupID.x * 64u;
	for (uint k = 0u; k < 64u; k++)
		t[k] = v[g + k] * (i + 1u);
	s[i] = t[v[g + i] & 63u];
	barrier();
	v[g + i] = s[63u - i] + t[i];
}
`
	in := randWords(9, 64*5, 1000)
	var want []byte
	for _, m := range []struct {
		cores string
		n     int
	}{{config.CoresIR, 4}, {config.CoresISA, 4}, {config.CoresISA, 1}} {
		d := openCores(t, m.cores, func(c *config.Config) { c.Device.CoresPerSocket, c.Device.SocketsPerCluster = m.n, 1 })
		p := compile(t, d, "frames", src)
		if m.cores == config.CoresISA && (!p.Kernel().Layout.FramesInMemory || p.Kernel().Layout.LMemBytes() != 16000) {
			t.Fatalf("layout %+v: want the frames in device memory", p.Kernel().Layout)
		}
		buf, _ := d.NewBuffer(words(in...))
		if err := d.Dispatch(p, [3]uint32{5, 1, 1}, StorageBuffer(0, buf)); err != nil {
			t.Fatal(err)
		}
		if want == nil {
			want = buf.Bytes()
		} else if string(buf.Bytes()) != string(want) {
			t.Errorf("%s on %d cores: bytes differ from the IR executor's", m.cores, m.n)
		}
		if err := p.Release(); err != nil {
			t.Fatal(err)
		}
	}
}
