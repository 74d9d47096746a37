package ref

import (
	"math"

	"vortexgfx/gl/format"
)

// FragmentFetch is implemented by fragment shaders that read the colour
// already in the framebuffer at their pixel (EXT_shader_framebuffer_fetch:
// an inout output, gl_LastFragData). FetchTargets returns a bit per render
// target read (bit i: target i). Before each ShadeQuads call the renderer
// calls SetDestination with, for quad k of the call, Dest[k][rt][lane] the
// stored colour of target rt at the lane's pixel, in the words the shader
// writes that target's colour in (float bits for float and normalized
// formats, sRGB decoded to linear; the integers, sign-extended, for integer
// formats; missing components read as (0, 0, 0, 1)). Helper lanes read the
// pixel they stand on (clamped into the target).
//
// Ordering: a draw whose fragment shader fetches is shaded one primitive at a
// time (the batch is flushed after every primitive, and the packed fast path
// is off), so every fragment sees the writes of every earlier primitive of
// the draw and of earlier draws, and none of its own primitive's (whose
// fragments each cover a different pixel). That is the coherent extension's
// rule, which the non-coherent one allows. With several workers each owns
// whole rows of pixels and walks the primitives in order, so the result is
// the same for any worker count (a shader that is not a FragmentCloner runs
// on one worker: SetDestination and ShadeQuads are one call pair). spec: EXT_shader_framebuffer_fetch §15.1
// (fragments read "the value ... prior to the execution of the fragment
// shader"; ordering as if primitives were processed in order),
// EXT_shader_framebuffer_fetch_non_coherent (ordering only after a
// FramebufferFetchBarrier, which this order satisfies).
type FragmentFetch interface {
	FetchTargets() uint32
	SetDestination(dest []FetchedColors)
}

// fetchWorkers is the number of fragment workers a draw of n may use: a
// fetching shader that cannot be cloned (FragmentCloner) runs on one, since
// SetDestination and ShadeQuads are one call pair per batch.
func (d *drawer) fetchWorkers(n int) int {
	if _, ok := d.s.Fragment.(FragmentCloner); d.fetchFS != nil && !ok {
		return 1
	}
	return n
}

// FetchedColors is one quad's destination colours: [render target][lane][component].
type FetchedColors [MaxRenderTargets][4][4]uint32

// setFetch records whether d's fragment shader fetches; called once per
// drawer (and clone) before scratch.
func (d *drawer) setFetch() {
	d.fetchFS, d.fetchRT = nil, 0
	if f, ok := d.fs.(FragmentFetch); ok && f.FetchTargets() != 0 {
		d.fetchFS, d.fetchRT = f, f.FetchTargets()
	}
}

// fetchFlush flushes the batch after a primitive when the shader fetches, so
// the next primitive's fragments read this one's writes.
func (d *drawer) fetchFlush() error {
	if d.fetchFS == nil {
		return nil
	}
	return d.flush()
}

// loadDestination fills d.dest for quads and hands it to the shader.
func (d *drawer) loadDestination(quads []Quad) {
	if cap(d.dest) < len(quads) {
		d.dest = make([]FetchedColors, d.quadCap)
	}
	dest := d.dest[:len(quads)]
	for i := range quads {
		for rt, surf := range d.t.Color {
			if rt >= MaxRenderTargets || d.fetchRT&(1<<rt) == 0 {
				continue
			}
			for l := range 4 {
				x := min(max(d.qpos[i][0]+l&1, 0), surf.W-1)
				y := min(max(d.qpos[i][1]+l>>1, 0), surf.H-1)
				dest[i][rt][l] = destinationWords(surf, x, y)
			}
		}
	}
	d.fetchFS.SetDestination(dest)
}

// destinationWords is the colour stored at (x, y) of surf as the words a
// fragment shader writes for it.
func destinationWords(surf *Surface, x, y int) [4]uint32 {
	f := surf.Format
	r := format.Unpack(f, surf.Data[surf.offset(x, y):])
	if f.IsInteger() {
		return format.ToInt(f, r)
	}
	c := format.ToFloat(f, r)
	return [4]uint32{math.Float32bits(c[0]), math.Float32bits(c[1]), math.Float32bits(c[2]), math.Float32bits(c[3])}
}
