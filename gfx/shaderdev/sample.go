package shaderdev

import (
	"math"
	"math/bits"

	"vortexgfx/abi"
	"vortexgfx/gl/msaa"
	"vortexgfx/shader/exec"
	"vortexgfx/shader/lower"
)

// PerSample reports whether the fragment program reads gl_SampleID or
// gl_SamplePosition or has an input with the sample qualifier, which makes
// GL shade each covered sample on its own (sample shading implied, fraction
// 1). On a multisampled pass the software raster then emits every covered
// quad once per sample it covers (abi.FSFlagPerSample, which Draw.MinSamples
// sets too), each lane with that sample alone in its mask, every input
// interpolated at the sample's position.
// spec: GL 4.6 §14.3.1.1 (sample shading); GLSL 4.00 §4.3.6, §7.1
func (sp *Program) PerSample() bool { return sp.sampleID >= 0 || sp.samplePos >= 0 || sp.sampleQual }

// emitQuad emits a covered quad: once, or once per covered sample (each
// lane's mask cut to that sample) when the draw shades per sample
// (abi.FSFlagPerSample) on a multisampled pass.
func (w *swWalk) emitQuad(q swQuad, samples int) error {
	if samples == 1 || w.s.flags&abi.FSFlagPerSample == 0 {
		return w.emit(q)
	}
	all := q.cov[0] | q.cov[1] | q.cov[2] | q.cov[3]
	for m := all; m != 0; m &= m - 1 {
		k := bits.TrailingZeros16(m)
		one := q
		one.smp = int8(k)
		for p := range one.cov {
			one.cov[p] &= 1 << k
		}
		if err := w.emit(one); err != nil {
			return err
		}
	}
	return nil
}

// interpSample is the sample lane l's inputs are interpolated at (-1: the
// pixel centre): a per-sample lane's own, and for a program with centroid
// inputs on a multisampled pass the first covered sample of a partly
// covered pixel, which lies inside the primitive where the centre may not
// (GL lets inputs without a qualifier be evaluated anywhere in the pixel,
// so they move with it). spec: GLSL 4.00 §4.3.6; GL 4.6 §14.3.1.1
func (s *fsScratch) interpSample(sp *Program, l int) int {
	if k := s.smp[l]; k >= 0 {
		return int(k)
	}
	if !sp.centroid || s.samples == 1 {
		return -1
	}
	if m := s.cov[l]; m != 0 && m != msaa.Full(s.samples) {
		return bits.TrailingZeros16(m)
	}
	return -1
}

// sampleEdges is the three Q15.16 edge values of primitive p at sample k of
// pixel (x, y) as the wrapper's float edge values: the centre value (int32
// wrapping, as RASTER's) moved by the edge slopes to the sample, E·16 +
// A·(sx−8) + B·(sy−8) in 64 bits, the same sum the tile walk's coverage test
// takes. spec: vortexpipe §3.4, §3.4.1
func sampleEdges(p *[abi.PrimWords]int32, x, y int32, samples, k int) [3]float32 {
	sx, sy := msaa.Position(samples, k)
	var F [3]float32
	for e := range 3 {
		a, b := p[3*e], p[3*e+1]
		v := int64(a*x+b*y+p[3*e+2])*16 + int64(a)*int64(sx-8) + int64(b)*int64(sy-8)
		F[e] = float32(v) / (16 * 65536)
	}
	return F
}

// sampleInputs fills the per-sample built-ins of each lane in present:
// gl_SampleID and gl_SamplePosition of the lane's sample (sample 0 and the
// pixel centre for a lane shading the whole pixel, which only a program
// reading neither has, or a single-sample pass), and gl_SampleMaskIn, the
// lane's coverage (its one sample for a per-sample lane); and the pass's
// gl_NumSamples and sample positions (lower.SamplePositionTable, for
// interpolateAtSample). spec: GLSL 4.00 §7.1, §7.4, §8.13
func (s *fsScratch) sampleInputs(sp *Program, present uint64) {
	if sp.numSamples >= 0 || sp.sampleTable >= 0 {
		t := lower.PackSamplePositions(s.samples, func(k int) (int, int) { return msaa.Position(s.samples, k) })
		for m := present; m != 0; m &= m - 1 {
			l := bits.TrailingZeros64(m)
			if sp.numSamples >= 0 {
				s.m.Input(sp.numSamples)[l] = uint32(s.samples)
			}
			if sp.sampleTable >= 0 {
				for i, v := range t {
					s.m.Input(sp.sampleTable + i)[l] = v
				}
			}
		}
	}
	if sp.sampleID < 0 && sp.samplePos < 0 && sp.sampleIn < 0 {
		return
	}
	for m := present; m != 0; m &= m - 1 {
		l := bits.TrailingZeros64(m)
		k, sx, sy := 0, 8, 8
		if s.smp[l] >= 0 {
			k = int(s.smp[l])
			sx, sy = msaa.Position(s.samples, k)
		} else if s.samples > 1 {
			sx, sy = msaa.Position(s.samples, 0)
		}
		if sp.sampleID >= 0 {
			s.m.Input(sp.sampleID)[l] = uint32(k)
		}
		if sp.samplePos >= 0 {
			s.m.Input(sp.samplePos)[l] = math.Float32bits(float32(sx) / 16)
			s.m.Input(sp.samplePos + 1)[l] = math.Float32bits(float32(sy) / 16)
		}
		if sp.sampleIn >= 0 {
			s.m.Input(sp.sampleIn)[l] = uint32(s.cov[l])
		}
	}
}

// outMask is lane l's gl_SampleMask[0] (every sample when the program does
// not write it) less the samples the draw's GL_SAMPLE_MASK drops (the FS
// flags' abi.FSFlagSampleDropShift field): the samples the fragment may
// still cover. spec: GLSL 4.00 §7.1 (gl_SampleMask); GL 4.6 §14.9.3
func (s *fsScratch) outMask(sp *Program, req *exec.ExportRequest, l int) msaa.Mask {
	drop := msaa.Mask(s.flags >> abi.FSFlagSampleDropShift & abi.FSFlagSampleDropMask)
	w := sp.sampleMask
	if w < 0 || (w+1)*req.Width > len(req.Words) {
		return msaa.Full(msaa.MaxSamples) &^ drop
	}
	return msaa.Mask(req.Words[w*req.Width+l]) &^ drop
}
