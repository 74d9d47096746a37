package program

import (
	"fmt"
	"math"

	"vortexgfx/gl/msaa"
	"vortexgfx/shader/lower"
)

// sampleWords is the number of input words of each fsSample entry.
var sampleWords = [5]int{1, 2, 1, 1, 4}

// layoutSample finds the per-sample built-ins' words: gl_SampleID,
// gl_SamplePosition, gl_SampleMaskIn, gl_NumSamples and the sample table of
// interpolateAtSample (lower.SamplePositionTable) among the fragment inputs
// and gl_SampleMask among the outputs. spec: GLSL 4.00 §7.1, §7.4, §8.13
func (p *Program) layoutSample() {
	fs := p.IR.FS
	for i, n := range []string{"gl_SampleID", "gl_SamplePosition", "gl_SampleMaskIn", "gl_NumSamples", lower.SamplePositionTable} {
		if s, ok := slotNamed(fs.Inputs, n); ok {
			p.fsSample[i] = s.Word
		}
	}
	if s, ok := slotNamed(fs.Outputs, "gl_SampleMask"); ok {
		p.fsMask = s.Word
	}
}

// PerSample reports whether the fragment stage reads gl_SampleID or
// gl_SamplePosition or has an input with the sample qualifier, which makes
// GL shade every sample on its own (sample shading is implied). The
// reference renderer's sample passes shade every sample whatever it says.
// spec: GL 4.6 §14.3.1.1 (sample shading)
func (p *Program) PerSample() bool {
	if p.fsSample[0] >= 0 || p.fsSample[1] >= 0 {
		return true
	}
	for _, s := range p.IR.FS.Inputs {
		if s.Sample {
			return true
		}
	}
	return false
}

// SetSample tells the fragment stage which sample of an S-sample pixel the
// reference renderer's pass draws: the reference renderer is single-sampled,
// and a multisampled frame is drawn as one pass per sample, pass k with its
// pixel centres moved onto sample k's position (sx, sy) in 1/16 pixel from
// the pixel's lower corner. In that pass the shader reads gl_SampleID = k,
// gl_SamplePosition = (sx/16, sy/16), gl_SampleMaskIn[0] = 1 << k and
// gl_NumSamples = samples, and a fragment whose gl_SampleMask[0] has bit k
// clear is discarded. A program calling interpolateAtSample reads the
// positions of every sample, gl/msaa's for the count (which must then be
// one it has). Without a call the stage draws the one sample of a
// single-sample pixel: k = 0 at (0.5, 0.5), mask 1.
// spec: GLSL 4.00 §7.1, §8.13
func (f *FragmentShader) SetSample(k, samples, sx, sy int) error {
	if samples < 1 || samples > 32 || k < 0 || k >= samples || sx < 0 || sx > 15 || sy < 0 || sy > 15 {
		return fmt.Errorf("program: sample %d of %d at (%d, %d)/16", k, samples, sx, sy)
	}
	if f.p.fsSample[4] >= 0 {
		if err := msaa.Check(samples); err != nil {
			return fmt.Errorf("program: interpolateAtSample: %w", err)
		}
	}
	f.sample = k
	p, m := f.p, f.m
	fill := func(w int, v uint32) {
		a := m.Input(w)
		for i := range a {
			a[i] = v
		}
	}
	if w := p.fsSample[0]; w >= 0 {
		fill(w, uint32(k))
	}
	if w := p.fsSample[1]; w >= 0 {
		fill(w, math.Float32bits(float32(sx)/16))
		fill(w+1, math.Float32bits(float32(sy)/16))
	}
	if w := p.fsSample[2]; w >= 0 {
		fill(w, 1<<k)
	}
	if w := p.fsSample[3]; w >= 0 {
		fill(w, uint32(samples))
	}
	if w := p.fsSample[4]; w >= 0 {
		t := lower.PackSamplePositions(samples, func(i int) (int, int) { return msaa.Position(samples, i) })
		for i, v := range t {
			fill(w+i, v)
		}
	}
	return nil
}

// maskLive clears from live (bit j: lane j of the last run) the lanes whose
// gl_SampleMask[0] drops the pass's sample. lanes is the run's width.
func (f *FragmentShader) maskLive(live uint64, lanes int) uint64 {
	w := f.p.fsMask
	if w < 0 {
		return live
	}
	a := f.m.Output(w)
	for j := 0; j < lanes && j < len(a); j++ {
		if a[j]>>uint(f.sample)&1 == 0 {
			live &^= 1 << uint(j)
		}
	}
	return live
}

// copySample gives a clone the sample f draws: the constant input words and
// the sample index.
func (f *FragmentShader) copySample(from *FragmentShader) {
	f.sample = from.sample
	for i, w := range from.p.fsSample {
		if w < 0 {
			continue
		}
		for c := range sampleWords[i] {
			copy(f.m.Input(w+c), from.m.Input(w+c))
		}
	}
}
