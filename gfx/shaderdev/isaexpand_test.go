package shaderdev

import (
	"encoding/binary"
	"math/rand/v2"
	"strings"
	"testing"

	"vortexgfx/config"
	"vortexgfx/gfx/fecode"
	"vortexgfx/runtime"
)

// The differential test of expand_k's machine code: over random VS records,
// the front-end module's code with expandTable's word table writes the
// program's Go expand_k's bytes, for programs with smooth and flat
// varyings, gl_ClipDistance (with and without clipping), two-sided colour
// (each pair on and off) and more varyings than planes; a noperspective
// varying or legacy clip planes are refused with the reason (the Go kernel
// runs). spec: vortexpipe-driver.md §3.2 step 1
func TestExpandISAMatchesGoKernel(t *testing.T) {
	const fs = `#version 130
in vec3 v_col; flat in int v_id; out vec4 o;
void main() { o = vec4(v_col, float(v_id)); }`
	cases := []struct {
		name, vs, fs string
		masks        []uint8
		twoMasks     []uint64
		refused      string
	}{
		{"flat", compactVS, fs, []uint8{0}, []uint64{0}, ""},
		{"clipdist", `#version 130
in vec3 a_pos; in vec3 a_col; out vec3 v_col; flat out int v_id; out float gl_ClipDistance[3];
void main() { gl_Position = vec4(a_pos, 1.0); v_col = a_col; v_id = gl_VertexID;
 gl_ClipDistance[0] = a_pos.x; gl_ClipDistance[1] = a_pos.y; gl_ClipDistance[2] = a_col.z; }`, fs, []uint8{0, 1, 5, 7}, []uint64{0}, ""},
		{"many", `#version 130
in vec3 a_pos; in vec3 a_col; out vec3 v_col; flat out int v_id; out vec4 v_a, v_b, v_c, v_d;
void main() { gl_Position = vec4(a_pos, 1.0); v_col = a_col; v_id = gl_VertexID;
 v_a = a_pos.xyzx; v_b = a_col.zyxz; v_c = vec4(1.0); v_d = vec4(a_pos, 2.0); }`, `#version 130
in vec3 v_col; flat in int v_id; in vec4 v_a, v_b, v_c, v_d; out vec4 o;
void main() { o = vec4(v_col, float(v_id)) + v_a + v_b + v_c + v_d; }`, []uint8{0}, []uint64{0}, ""},
		{"twoside", `#version 110
attribute vec3 a_pos; attribute vec3 a_col;
void main() { gl_Position = vec4(a_pos, 1.0); gl_FrontColor = vec4(a_col, 1.0); gl_BackColor = vec4(a_col.zyx, 0.5); }`, `#version 110
void main() { gl_FragColor = gl_Color; }`, []uint8{0}, []uint64{0, 1}, ""},
		{"noperspective", `#version 130
in vec3 a_pos; in vec3 a_col; noperspective out vec3 v_col; flat out int v_id;
void main() { gl_Position = vec4(a_pos, 1.0); v_col = a_col; v_id = gl_VertexID; }`, `#version 130
noperspective in vec3 v_col; flat in int v_id; out vec4 o;
void main() { o = vec4(v_col, float(v_id)); }`, []uint8{0}, []uint64{0}, "noperspective"},
		{"legacy planes", `#version 110
attribute vec3 a_pos;
void main() { gl_Position = vec4(a_pos, 1.0); gl_ClipVertex = gl_Position; }`, `#version 110
void main() { gl_FragColor = vec4(1.0); }`, []uint8{3}, []uint64{0}, "legacy clip planes"},
	}
	isa := config.Default()
	isa.Device.Cores = config.CoresISA
	rng := rand.New(rand.NewPCG(11, 13))
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sp, _ := compileProgram(t, c.name, c.vs, c.fs)
			d, err := Open(isa, 16, 16, []*Program{sp})
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			m, err := d.resident(sp)
			if err != nil {
				t.Fatal(err)
			}
			ds := d.ds
			ow := sp.prog.VS.OutputWords
			const n = 77
			recs := make([]byte, 4*ow*n)
			for i := range recs {
				recs[i] = byte(rng.Uint32())
			}
			var keep []*runtime.Buffer
			defer func() {
				for _, b := range keep {
					b.Free()
				}
			}()
			in, err := ds.Alloc(len(recs), &keep)
			if err != nil {
				t.Fatal(err)
			}
			if err := ds.Queue.NewBatch().Write(in, 0, recs).Submit().Wait(); err != nil {
				t.Fatal(err)
			}
			for _, mask := range c.masks {
				for _, two := range c.twoMasks {
					rec := sp.recordBytesClip(mask)
					args := make([]byte, 8*ExpandArgSlots)
					out := [2]*runtime.Buffer{}
					for k := range out {
						if out[k], err = ds.Alloc(rec*n, &keep); err != nil {
							t.Fatal(err)
						}
					}
					put := func(dst *runtime.Buffer) {
						for i, v := range []uint64{in.Addr(), dst.Addr(), n, uint64(ow), uint64(mask) | two<<expandTwoSideShift} {
							binary.LittleEndian.PutUint64(args[8*i:], v)
						}
					}
					tbl, err := sp.expandTable(n, two, ow, mask)
					if c.refused != "" {
						if err == nil || !strings.Contains(err.Error(), c.refused) {
							t.Fatalf("mask %d two %d: expandTable %v, want a refusal naming %q", mask, two, err, c.refused)
						}
						continue
					}
					if err != nil {
						t.Fatalf("mask %d two %d: %v", mask, two, err)
					}
					lp := func(a []byte) runtime.LaunchParams {
						return runtime.LaunchParams{NDim: 1, Grid: [3]uint32{ds.Grid, 1, 1}, Block: [3]uint32{ds.Block, 1, 1}, Args: a}
					}
					put(out[0])
					if err := ds.Queue.EnqueueLaunch(m.expandK, lp(append([]byte(nil), args...))).Wait(); err != nil {
						t.Fatal(err)
					}
					put(out[1])
					k0 := ds.Kernels()["expand_k"]
					if err := ds.Queue.EnqueueLaunch(ds.Expand, lp(fecode.ExpandArgs(args, tbl))).Wait(); err != nil {
						t.Fatal(err)
					}
					var got [2][]byte
					for k := range out {
						got[k] = make([]byte, rec*n)
						if err := ds.Queue.EnqueueRead(out[k], 0, got[k]).Wait(); err != nil {
							t.Fatal(err)
						}
					}
					if string(got[0]) != string(got[1]) {
						t.Errorf("mask %d two %d: the machine code's records differ from the Go kernel's", mask, two)
					}
					if k := ds.Kernels()["expand_k"]; k.MachineCode != k0.MachineCode+1 || k.WarpInstructions == k0.WarpInstructions {
						t.Errorf("mask %d two %d: the launch was not counted as machine code: %+v", mask, two, k)
					}
				}
			}
		})
	}
}
