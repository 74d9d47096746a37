package shaderdev

import (
	"math"
	"math/bits"
	"math/rand"
	"testing"
)

// interpLane is the §3.4 interpolation of one lane written plainly, lane by
// lane and word by word: the reference interp's specialised loops must match.
func interpLane(s *fsScratch, sp *Program, l int, out [][]uint32) {
	for i := range sp.fsInterp {
		iw := &sp.fsInterp[i]
		if iw.unread {
			continue
		}
		pl, np := iw.front, iw.frontNP
		if s.face[l] != 0 {
			pl, np = iw.back, iw.backNP
		}
		if pl < 0 {
			continue
		}
		c := s.coef[int(s.coefAt[l])+3*pl:]
		v := float32(float32(float32(s.fdx[l]*c[0])+float32(s.fdy[l]*c[1]))+c[2]) * s.invW[l]
		if np {
			v *= s.fw[l]
		}
		out[i][l] = math.Float32bits(v)
	}
}

// TestInterpMatchesPerLane: interp writes the words the plain per-lane form
// writes — and leaves the lanes a face has no plane for, and the lanes not
// present, as they were — for dense waves of one face (its run-per-primitive
// loop), dense waves of both faces and sparse waves, with perspective and
// noperspective words, words on one face only, a word the program never
// reads and several primitives a wave.
// spec: vortexpipe §3.4
func TestInterpMatchesPerLane(t *testing.T) {
	const np = 5
	sp := &Program{fsInterp: []fsInterpWord{
		{w: 0, front: 0, back: 0},
		{w: 1, front: 1, back: 4, frontNP: true},
		{w: 2, front: -1, back: 2},
		{w: 3, front: 3, back: -1, backNP: true},
		{w: 4, front: 0, back: 2, unread: true}, // never loaded: every lane keeps its word
	}}
	r := rand.New(rand.NewSource(9))
	for trial := range 300 {
		width := 4 * (1 + r.Intn(16))
		s := &fsScratch{coef: make([]float32, 3*(width+1)*np)}
		for i := range s.coef {
			s.coef[i] = r.Float32()*4 - 2
		}
		var present uint64
		switch trial % 3 {
		case 0, 1: // dense
			present = 1<<(1+r.Intn(width)) - 1
		default:
			present = r.Uint64() & (1<<width - 1)
		}
		face := uint32(r.Intn(2))
		slot := 0
		for l := range width {
			if r.Intn(4) == 0 {
				slot = min(slot+1, width)
			}
			s.coefAt[l] = int32(3 * slot * np)
			s.fdx[l], s.fdy[l], s.invW[l], s.fw[l] = r.Float32(), r.Float32(), r.Float32()+0.5, r.Float32()+0.5
			s.face[l] = face
			if trial%3 == 1 {
				s.face[l] = uint32(r.Intn(2)) // both faces in one dense wave
			}
		}
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
		for mm := present; mm != 0; mm &= mm - 1 {
			interpLane(s, sp, bits.TrailingZeros64(mm), want)
		}
		s.interp(sp, present)
		for i := range want {
			for l := range width {
				if got[i][l] != want[i][l] {
					t.Fatalf("trial %d (present %#x): word %d lane %d = %#x, want %#x", trial, present, i, l, got[i][l], want[i][l])
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
