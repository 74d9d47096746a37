package exec

import (
	"math"
	"math/bits"

	"vortexgfx/shader/ir"
)

// TexRequest is one texture instruction for a whole warp. The executor fills the
// lane arrays the op uses (every array has Width entries; only lanes in Mask are
// meaningful) and the Sampler writes the result words of the lanes in Mask into Out
// (raw bits: floats for float samplers and shadow compares, ints or uints for
// integer samplers, ints for TexSize and TexQueryLevels, floats for TexQueryLod).
// A TexFetch on a multisample kind carries its sample number in ILod. The request
// and its arrays belong to the Machine and are reused: a Sampler must not keep
// them.
//
// For TexSample in a fragment program the executor supplies the coordinate
// gradients from the quad (DPdx/DPdy, Grads > 0) so that the sampler can choose the
// level of detail as the device does (spec: vortexpipe-driver §2.2 "the implicit
// texture LOD is built from the quad shuffle"); in a vertex program Grads is 0 and
// the level is the base level plus Bias.
type TexRequest struct {
	Op      ir.TexOp
	Sampler int               // index into Program.Samplers
	Binding ir.SamplerBinding // that binding (unit, kind, result type)
	Mask    uint64
	Width   int

	NCoord  int
	Coord   [4][]float32 // float coordinates (s, t, r/layer, q)
	ICoord  [4][]int32   // TexFetch integer coordinates
	HasLod  bool
	Lod     []float32 // TexSampleLod
	ILod    []int32   // TexFetch, TexSize
	HasBias bool
	Bias    []float32
	HasRef  bool
	Compare []float32    // shadow reference
	Grads   int          // number of valid gradient components (0 = none)
	DPdx    [3][]float32 // TexSampleGrad, or quad gradients for TexSample
	DPdy    [3][]float32

	Offset    [3]int32
	HasOffset bool
	Comp      int // TexGather component
	// Offsets gives each gathered texel its own offset (textureGatherOffsets)
	// when HasOffsets is set.
	Offsets    [4][2]int32
	HasOffsets bool
	// DynOffset, when HasDynOffset, is each lane's (s, t) offset of a
	// TexGather (ir.TexInfo.DynOffset).
	DynOffset    [2][]int32
	HasDynOffset bool

	Out [4][]uint32
}

// Sampler is a texture unit: the device TEX model or a software sampler. Texture is
// called once per Tex instruction, never once per lane. spec: vortexpipe-driver
// §2.2 (vx_tex), §2.3.3 (hardware or software sampler behind one contract).
type Sampler interface {
	Texture(req *TexRequest) error
}

// ExportRequest hands a fragment warp's outputs to the output merger: Words holds
// the output buffer (word w of lane l at w*Width+l) and Mask the lanes to export —
// active and live, so helpers, discarded and demoted lanes are never exported.
// spec: vortexpipe-driver §3.4 ("cov &= live" before vx_om_export).
type ExportRequest struct {
	Mask  uint64
	Width int
	Words []uint32
}

// OutputSink receives Export instructions: the device OM model or a software
// merger. Export is called once per Export instruction with all lanes.
type OutputSink interface {
	Export(req *ExportRequest) error
}

func (r *TexRequest) init(w int) {
	r.Width = w
	for i := range r.Coord {
		r.Coord[i] = make([]float32, w)
		r.ICoord[i] = make([]int32, w)
		r.Out[i] = make([]uint32, w)
	}
	for i := range r.DPdx {
		r.DPdx[i] = make([]float32, w)
		r.DPdy[i] = make([]float32, w)
	}
	r.DynOffset[0], r.DynOffset[1] = make([]int32, w), make([]int32, w)
	r.Lod = make([]float32, w)
	r.ILod = make([]int32, w)
	r.Bias = make([]float32, w)
	r.Compare = make([]float32, w)
}

func (m *Machine) floats(dst []float32, r ir.Reg) {
	s := m.reg(r)
	for l := range dst {
		dst[l] = math.Float32frombits(s[l])
	}
}

func (m *Machine) ints(dst []int32, r ir.Reg) {
	s := m.reg(r)
	for l := range dst {
		dst[l] = int32(s[l])
	}
}

// tex gathers a Tex instruction's operands, calls the sampler once, and scatters
// the results to the active lanes.
func (m *Machine) tex(t *ir.TexInfo, exec uint64) error {
	if m.sampler == nil {
		return ErrNoSampler
	}
	r := &m.texReq
	r.Op, r.Sampler, r.Binding, r.Mask = t.Op, t.Sampler, m.prog.Samplers[t.Sampler], exec
	r.NCoord, r.Offset, r.HasOffset, r.Comp = t.NCoord, t.Offset, t.HasOffset, t.Comp
	r.Offsets, r.HasOffsets = t.Offsets, t.HasOffsets
	r.HasDynOffset = t.HasDynOffset
	if t.HasDynOffset {
		m.ints(r.DynOffset[0], t.DynOffset[0])
		m.ints(r.DynOffset[1], t.DynOffset[1])
	}
	for i := 0; i < t.NCoord; i++ {
		if t.Op == ir.TexFetch {
			m.ints(r.ICoord[i], t.Coord[i])
		} else {
			m.floats(r.Coord[i], t.Coord[i])
		}
	}
	r.HasLod = t.Lod != ir.NoReg
	if r.HasLod {
		if t.Op == ir.TexFetch || t.Op == ir.TexSize {
			m.ints(r.ILod, t.Lod)
		} else {
			m.floats(r.Lod, t.Lod)
		}
	}
	r.HasBias = t.Bias != ir.NoReg
	if r.HasBias {
		m.floats(r.Bias, t.Bias)
	}
	r.HasRef = t.Compare != ir.NoReg
	if r.HasRef {
		m.floats(r.Compare, t.Compare)
	}
	r.Grads = 0
	switch {
	case t.Op == ir.TexSampleGrad:
		for i := 0; i < 3 && t.DPdx[i] != ir.NoReg; i++ {
			m.floats(r.DPdx[i], t.DPdx[i])
			m.floats(r.DPdy[i], m.or(t.DPdy[i], t.DPdx[i]))
			r.Grads = i + 1
		}
	case (t.Op == ir.TexSample || t.Op == ir.TexGather || t.Op == ir.TexQueryLod) && m.prog.Stage == ir.Fragment:
		n := min(t.NCoord, 3, r.Binding.Kind.Dims()) // the layer is not differentiated
		for i := 0; i < n; i++ {
			m.quadGrad(r.DPdx[i], r.DPdy[i], m.reg(t.Coord[i]), exec)
		}
		r.Grads = n
	}
	if err := m.sampler.Texture(r); err != nil {
		return err
	}
	for i, dr := range t.Dst {
		if dr == ir.NoReg {
			continue
		}
		d, s := m.reg(dr), r.Out[i]
		for mm := exec; mm != 0; mm &= mm - 1 {
			l := bits.TrailingZeros64(mm)
			d[l] = s[l]
		}
	}
	return nil
}

func (m *Machine) or(r, alt ir.Reg) ir.Reg {
	if r == ir.NoReg {
		return alt
	}
	return r
}

// quadGrad computes fine x and y derivatives of s for the active lanes with the
// quad rule of deriv.
func (m *Machine) quadGrad(dx, dy []float32, s []uint32, exec uint64) {
	w := m.w
	val := func(l, n int) float32 {
		if n < w && exec>>n&1 != 0 {
			return math.Float32frombits(s[n])
		}
		return math.Float32frombits(s[l])
	}
	for mm := exec; mm != 0; mm &= mm - 1 {
		l := bits.TrailingZeros64(mm)
		q := l &^ 3
		x0 := q + l&2
		y0 := q + l&1
		dx[l] = val(l, x0+1) - val(l, x0)
		dy[l] = val(l, y0+2) - val(l, y0)
	}
}
