package ref

import (
	"fmt"
	"math"
	"testing"

	"vortexgfx/gl/format"
)

// fetchFS adds its varyings 0..3 to the destination colour of target 0 (an
// inout output's shader), reading the colours ref hands it.
type fetchFS struct {
	dest  []FetchedColors
	calls int // ShadeQuads calls
}

func (f *fetchFS) FetchTargets() uint32 { return 1 }

// CloneFragment makes the 4-worker draw run four shaders.
func (f *fetchFS) CloneFragment() FragmentShader       { return &fetchFS{} }
func (f *fetchFS) SetDestination(dest []FetchedColors) { f.dest = dest }
func (f *fetchFS) ShadeQuads(qs []Quad, _ Textures) error {
	f.calls++
	if len(f.dest) != len(qs) {
		return fmt.Errorf("%d destination quads for %d quads", len(f.dest), len(qs))
	}
	for i := range qs {
		q := &qs[i]
		for l := range 4 {
			var c [4]float32
			for k := range 4 {
				c[k] = math.Float32frombits(f.dest[i][0][l][k]) + q.Varying(l, 4, k)
			}
			q.SetColor(0, l, c)
		}
	}
	return nil
}

// TestFetchOrder draws overlapping primitives in one draw with a shader that
// reads the framebuffer: every fragment sees the writes of the primitives
// before it (three layers of +0.25 on a clear red of 0 give 192: 64, then
// 64/255 + 0.25 -> 128, then 128/255 + 0.25 -> 192, each store rounding; the
// clear blue of 0.25 reaches 1.0), for 1 and 4 workers alike; and
// the destination of an integer target reads as its integers.
// spec: EXT_shader_framebuffer_fetch §15.1
func TestFetchOrder(t *testing.T) {
	quarter := [4]float32{0.25, 0, 0.25, 0}
	// Three full-screen rectangles (six triangles) in one draw.
	in := quadVerts(-1, -1, 1, 1, 0, quarter)
	for range 2 {
		more := quadVerts(-1, -1, 1, 1, 0, quarter)
		in.Data = append(in.Data, more.Data...)
	}
	var want []byte
	for _, workers := range []int{1, 4} {
		tg := newTarget(t, 40, 40, []format.Format{format.RGBA8}, format.Invalid)
		tg.ClearColor(0, [4]float32{0, 0, 0.25, 1})
		s := DefaultState(40, 40)
		s.Workers = workers
		s.Vertex = passVS(4)
		fs := &fetchFS{}
		s.Fragment = fs
		draw(t, tg, &s, in, DrawParams{Topology: Triangles, Count: 18})
		for _, p := range [][2]int{{0, 0}, {39, 39}, {20, 7}} {
			if got := tg.Color[0].Raw(p[0], p[1]); got != (format.Raw{192, 0, 255, 255}) {
				t.Errorf("workers %d: pixel %v = %v, want (192, 0, 255, 255)", workers, p, got)
			}
		}
		if workers == 1 && fs.calls < 6 {
			t.Errorf("%d ShadeQuads calls for 6 triangles: batches must not span primitives", fs.calls)
		}
		if want == nil {
			want = append([]byte(nil), tg.Color[0].Data...)
		} else if string(want) != string(tg.Color[0].Data) {
			t.Errorf("workers %d: image differs from 1 worker's", workers)
		}
	}

	tg := newTarget(t, 4, 4, []format.Format{format.RGBA8I}, format.Invalid)
	tg.ClearColorInt(0, [4]uint32{uint32(0xFFFFFFFF), 5, 0, 0})
	s := DefaultState(4, 4)
	s.Workers = 4 // destProbe is no FragmentCloner: one worker all the same
	s.Vertex = passVS(4)
	var seen [4]uint32
	s.Fragment = &destProbe{seen: &seen}
	draw(t, tg, &s, quadVerts(-1, -1, 1, 1, 0, [4]float32{}), DrawParams{Topology: Triangles, Count: 6})
	if seen != [4]uint32{0xFFFFFFFF, 5, 0, 0} {
		t.Errorf("RGBA8I destination read %v, want (-1, 5, 0, 0)", seen)
	}
}

// destProbe records the destination of lane 0 of the first quad shaded
// (later ones read the zeros it writes).
type destProbe struct {
	dest []FetchedColors
	seen *[4]uint32
	done bool
}

func (f *destProbe) FetchTargets() uint32                { return 1 }
func (f *destProbe) SetDestination(dest []FetchedColors) { f.dest = dest }
func (f *destProbe) ShadeQuads(qs []Quad, _ Textures) error {
	if !f.done {
		*f.seen, f.done = f.dest[0][0][0], true
	}
	return nil
}
