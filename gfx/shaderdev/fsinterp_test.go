package shaderdev

import (
	"math"
	"math/rand"
	"testing"

	"vortexgfx/abi"
)

// refInterp is the §3.4 interpolation of one lane written plainly, from the
// primitive's words: word by word of Program.fsInterp, the plane of the
// lane's face decoded where it is used.
func refInterp(s *fsScratch, sp *Program, face uint32, l int, fdx, fdy, invW, fw float32, out [][]uint32) {
	for i := range sp.fsInterp {
		iw := &sp.fsInterp[i]
		if iw.unread {
			continue
		}
		pl, np := iw.front, iw.frontNP
		if face != 0 {
			pl, np = iw.back, iw.backNP
		}
		if pl < 0 {
			continue
		}
		var c [3]float32
		if pl < abi.NumVaryingPlanes {
			pw := abi.VaryingPlane(pl).Word()
			for k := range c {
				c[k] = math.Float32frombits(uint32(s.prim[pw+k]))
			}
		} else {
			e := s.side[3*(pl-abi.NumVaryingPlanes):]
			a0, a1, a2 := math.Float32frombits(e[0]), math.Float32frombits(e[1]), math.Float32frombits(e[2])
			c = [3]float32{a0 - a2, a1 - a2, a2}
		}
		v := float32(float32(float32(fdx*c[0])+float32(fdy*c[1]))+c[2]) * invW
		if np {
			v *= fw
		}
		out[i][l] = math.Float32bits(v)
	}
}

// TestInterpMatchesPerLane: bindInterp and interpLane write the words the
// plain per-lane form writes — and leave a word the lane's face has no
// plane for, a word the program never reads, and the lanes not written, as
// they were — on front and back faces, with perspective and noperspective
// words, planes of the primitive and varyings past them (the side array),
// several primitives a wave. spec: vortexpipe §3.4
func TestInterpMatchesPerLane(t *testing.T) {
	nv := abi.NumVaryingPlanes
	sp := &Program{fsInterp: []fsInterpWord{
		{w: 0, front: 0, back: 0},
		{w: 1, front: 1, back: 4, frontNP: true},
		{w: 2, front: -1, back: 2},
		{w: 3, front: 3, back: -1, backNP: true},
		{w: 4, front: 0, back: 2, unread: true}, // never loaded: every lane keeps its word
		{w: 5, front: nv + 1, back: nv, backNP: true},
	}}
	sp.faceInterp()
	r := rand.New(rand.NewSource(9))
	for trial := range 300 {
		width := 4 * (1 + r.Intn(16))
		s := &fsScratch{side: make([]uint32, 6), iref: make([]interpRef, 0, len(sp.fsInterp))}
		want := make([][]uint32, len(sp.fsInterp))
		got := make([][]uint32, len(sp.fsInterp))
		for i := range want {
			want[i], got[i] = make([]uint32, width), make([]uint32, width)
			for l := range width {
				want[i][l] = r.Uint32() // stale words that must survive where nothing is written
				got[i][l] = want[i][l]
			}
		}
		s.interpIn = got
		var pr primLanes
		for l := range width {
			if l == 0 || r.Intn(4) == 0 { // the next primitive
				for k := range s.prim {
					s.prim[k] = int32(math.Float32bits(r.Float32()*4 - 2))
				}
				s.prim[abi.PrimFacingWord] = int32(r.Intn(2))
				for k := range s.side {
					s.side[k] = math.Float32bits(r.Float32()*4 - 2)
				}
				pr.load(sp, &s.prim)
				s.bindInterp(sp, &pr)
			}
			if r.Intn(5) == 0 {
				continue // a lane not present
			}
			fdx, fdy, invW, fw := r.Float32(), r.Float32(), r.Float32()+0.5, r.Float32()+0.5
			refInterp(s, sp, pr.facing&1, l, fdx, fdy, invW, fw, want)
			interpLane(s.iref, l, fdx, fdy, invW, fw)
		}
		for i := range want {
			for l := range width {
				if got[i][l] != want[i][l] {
					t.Fatalf("trial %d: word %d lane %d = %#x, want %#x", trial, i, l, got[i][l], want[i][l])
				}
			}
		}
	}
}

// TestMarkUnreadInputs: the interpolated words no LoadInput reads are the
// unused inputs' (a declared, unused varying; components a swizzle drops),
// and every word a load reads — directly, through a dynamically indexed
// input array, inside a function — stays interpolated.
func TestMarkUnreadInputs(t *testing.T) {
	const vs = `#version 130
in vec4 a_pos; out vec3 v_n; out vec2 v_t; out vec4 v_c; out float v_a[3];
void main() { gl_Position = a_pos; v_n = a_pos.xyz; v_t = a_pos.xy; v_c = a_pos; v_a[0] = a_pos.x; v_a[1] = a_pos.y; v_a[2] = a_pos.z; }`
	for _, tc := range []struct {
		name, fs string
		unread   map[string][]bool // input name → per word unread
	}{
		{"unused varying", `#version 130
in vec3 v_n; in vec2 v_t; out vec4 o; void main() { o = vec4(normalize(v_n), 1.0); }`,
			map[string][]bool{"v_n": {false, false, false}, "v_t": {true, true}}},
		{"swizzle", `#version 130
in vec4 v_c; out vec4 o; void main() { o = vec4(v_c.x, v_c.z, 0.0, 1.0); }`,
			map[string][]bool{"v_c": {false, true, false, true}}},
		{"dynamic index", `#version 130
uniform int u_i; in float v_a[3]; out vec4 o; void main() { o = vec4(v_a[u_i]); }`,
			map[string][]bool{"v_a": {false, false, false}}},
		{"function", `#version 130
in vec2 v_t; out vec4 o; float f(float k) { return k * v_t.y; }
void main() { o = vec4(f(2.0)); }`,
			map[string][]bool{"v_t": {true, false}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sp, _ := compileProgram(t, tc.name, vs, tc.fs)
			unread := map[int]bool{}
			for _, iw := range sp.fsInterp {
				unread[iw.w] = iw.unread
			}
			for _, in := range sp.prog.FS.Inputs {
				want, ok := tc.unread[in.Name]
				if !ok {
					continue
				}
				delete(tc.unread, in.Name)
				for k, u := range want {
					got, ok := unread[in.Word+k]
					if !ok {
						t.Fatalf("%s word %d is not interpolated", in.Name, k)
					}
					if got != u {
						t.Errorf("%s word %d: unread %v, want %v", in.Name, k, got, u)
					}
				}
			}
			for name := range tc.unread {
				t.Errorf("no input %s", name)
			}
		})
	}
}
