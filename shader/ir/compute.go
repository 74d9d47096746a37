package ir

import "fmt"

// Space is the memory a MemLoad, MemStore, MemAtomic or MemSize instruction
// addresses (carried in Inst.Len). Addresses are byte addresses inside the binding;
// every access is one aligned 32-bit word. spec: vortexpipe-driver §2.5 (storage
// buffers and images are descriptors relocated to device memory), §2.2 (shared
// variables live in the CTA's local memory).
type Space uint8

// Memory spaces.
const (
	// SpaceBuffer is a shader storage buffer (GLSL `buffer` block) at a binding
	// (Program.Buffers).
	SpaceBuffer Space = iota
	// SpaceShared is the workgroup's shared memory (GLSL `shared` variables),
	// Program.SharedBytes long; the binding is 0.
	SpaceShared
	// SpaceCounter is an atomic counter buffer at a binding (Program.Counters).
	SpaceCounter
	// SpaceImage is the texel storage of a storage image at a binding
	// (Program.Images): texel (x, y, z) of an image of extent W×H×D starts at byte
	// ((z*H+y)*W+x)*Format.TexelBytes(), its words in component order.
	SpaceImage
	numSpaces
)

var spaceNames = [...]string{"buffer", "shared", "counter", "image"}

func (s Space) String() string {
	if s < numSpaces {
		return spaceNames[s]
	}
	return "space?"
}

// AtomicOp is the read-modify-write a MemAtomic instruction performs (carried in
// Inst.Stride). spec: vortexpipe-driver §2.5 (an SSBO atomic makes a descriptor
// written).
type AtomicOp uint8

// Atomic operations. The signed/unsigned min and max differ; the others are bit
// patterns.
const (
	AtomicAdd AtomicOp = iota
	AtomicIMin
	AtomicUMin
	AtomicIMax
	AtomicUMax
	AtomicAnd
	AtomicOr
	AtomicXor
	AtomicExchange
	AtomicCompSwap
	numAtomicOps
)

var atomicNames = [...]string{"add", "imin", "umin", "imax", "umax", "and", "or", "xor", "exchange", "compswap"}

func (o AtomicOp) String() string {
	if o < numAtomicOps {
		return atomicNames[o]
	}
	return "atomic?"
}

// AtomicResult returns the word an atomic operation stores given the word in
// memory (old), the operand (val) and, for AtomicCompSwap, the comparand (cmp): the
// single definition every Memory implementation and the shared-memory path use.
// The instruction itself returns old.
func AtomicResult(op AtomicOp, old, val, cmp uint32) uint32 {
	switch op {
	case AtomicAdd:
		return old + val
	case AtomicIMin:
		return uint32(min(int32(old), int32(val)))
	case AtomicUMin:
		return min(old, val)
	case AtomicIMax:
		return uint32(max(int32(old), int32(val)))
	case AtomicUMax:
		return max(old, val)
	case AtomicAnd:
		return old & val
	case AtomicOr:
		return old | val
	case AtomicXor:
		return old ^ val
	case AtomicExchange:
		return val
	case AtomicCompSwap:
		if old == cmp {
			return val
		}
		return old
	}
	return old
}

// BufferBinding is one shader storage block: its binding point and std430 layout.
// A block of Fixed bytes with a trailing unsized array of Stride-byte elements
// (Stride 0: none) holds (size-Fixed)/Stride elements when a buffer of size bytes
// is bound. spec: vortexpipe-driver §2.5 (descriptor kind, elem_bytes, writable).
type BufferBinding struct {
	Name      string
	Binding   uint32
	Fixed     uint32 // std430 size of the block without its unsized trailing array
	Stride    uint32 // std430 stride of the unsized trailing array, 0 if none
	ReadOnly  bool   // `readonly`: the shader never stores or does atomics
	WriteOnly bool   // `writeonly`: the shader never loads
}

// CounterBinding is one atomic_uint uniform (or array): it lives in the atomic
// counter buffer at Binding at byte Offset, Count consecutive words.
type CounterBinding struct {
	Name    string
	Binding uint32
	Offset  uint32
	Count   uint32
}

// ImageDim is the dimensionality of a storage image.
type ImageDim uint8

// Image dimensionalities.
const (
	Image2D ImageDim = iota
	Image3D
	Image2DArray
	numImageDims
)

var imageDimNames = [...]string{"2d", "3d", "2darray"}

func (d ImageDim) String() string {
	if d < numImageDims {
		return imageDimNames[d]
	}
	return "imagedim?"
}

// Coords returns the number of integer coordinates the dimensionality addresses with.
func (d ImageDim) Coords() int {
	if d == Image2D {
		return 2
	}
	return 3
}

// ImageFormat is a storage image's layout(format) qualifier: how a texel is stored.
type ImageFormat uint8

// Image formats. spec: GLSL 4.30 §4.4.7 "Format Layout Qualifiers".
const (
	FormatRGBA32F  ImageFormat = iota // 4 words, float
	FormatRGBA16F                     // 2 words, half floats (r|g<<16, b|a<<16)
	FormatR32F                        // 1 word, float
	FormatRGBA8                       // 1 word, unorm bytes r|g<<8|b<<16|a<<24
	FormatRGBA32UI                    // 4 words, uint
	FormatRGBA32I                     // 4 words, int
	FormatR32UI                       // 1 word, uint
	FormatR32I                        // 1 word, int
	numFormats

	// FormatUnknown marks a writeonly image declared without a format qualifier
	// (GLSL 4.50 §4.4.7 allows it): its stores convert to the format of the image
	// bound at run time, which the program reads with the ImageFormatOf op.
	FormatUnknown ImageFormat = 0xff
)

var formatNames = [...]string{"rgba32f", "rgba16f", "r32f", "rgba8", "rgba32ui", "rgba32i", "r32ui", "r32i"}

func (f ImageFormat) String() string {
	if f < numFormats {
		return formatNames[f]
	}
	if f == FormatUnknown {
		return "unknown"
	}
	return "format?"
}

// Formats returns the defined image formats (FormatUnknown excluded).
func Formats() []ImageFormat {
	out := make([]ImageFormat, numFormats)
	for i := range out {
		out[i] = ImageFormat(i)
	}
	return out
}

// FormatByName returns the format of a GLSL format qualifier ("rgba8", "r32ui", ...).
// spec: GLSL 4.50 §4.4.7.
func FormatByName(name string) (ImageFormat, bool) {
	for i, n := range formatNames {
		if n == name {
			return ImageFormat(i), true
		}
	}
	return 0, false
}

// TexelBytes returns the bytes one texel occupies (0 for FormatUnknown). spec:
// OpenGL 4.5 §8.26 (image unit formats: texel sizes).
func (f ImageFormat) TexelBytes() uint32 {
	switch f {
	case FormatRGBA32F, FormatRGBA32UI, FormatRGBA32I:
		return 16
	case FormatRGBA16F:
		return 8
	case FormatUnknown:
		return 0
	}
	return 4
}

// Result returns the register type of the format's texel components (F32 for float
// and normalised formats).
func (f ImageFormat) Result() Type {
	switch f {
	case FormatRGBA32UI, FormatR32UI:
		return U32
	case FormatRGBA32I, FormatR32I:
		return I32
	}
	return F32
}

// ImageBinding is one storage image uniform (image2D, iimage3D, ...): its unit,
// dimensionality, format and access qualifiers. spec: vortexpipe-driver §2.5
// (VP_DESC_IMAGE).
type ImageBinding struct {
	Name      string
	Binding   uint32
	Dim       ImageDim
	Format    ImageFormat
	ReadOnly  bool
	WriteOnly bool
}

// Compute-program input words: every compute program has ComputeInputWords input
// words per lane, filled by the workgroup runner (package shader/exec) before the
// warp starts — the values the device derives from the CTA CSRs and the dispatch
// base (spec: vortexpipe-driver §2.3.2: workgroup id = CSR block id + base from arg
// slots 2/3; global id = workgroup id × local size + local id). All are uint words.
const (
	InLocalID         = 0  // gl_LocalInvocationID.xyz at words 0..2
	InWorkGroupID     = 3  // gl_WorkGroupID.xyz (base included) at words 3..5
	InNumWorkGroups   = 6  // gl_NumWorkGroups.xyz at words 6..8
	InGlobalID        = 9  // gl_GlobalInvocationID.xyz at words 9..11
	InLocalIndex      = 12 // gl_LocalInvocationIndex at word 12
	ComputeInputWords = 13
)

// Invocations returns the number of invocations in one workgroup of p.
func (p *Program) Invocations() uint64 {
	return uint64(p.LocalSize[0]) * uint64(p.LocalSize[1]) * uint64(p.LocalSize[2])
}

// verifyCompute checks the compute layout tables of p.
func verifyCompute(p *Program) error {
	if p.Stage != Compute {
		if p.LocalSize != ([3]uint32{}) || p.SharedBytes != 0 {
			return &Error{PC: -1, Msg: "local size or shared memory in a " + p.Stage.String() + " program"}
		}
	} else {
		for i, s := range p.LocalSize {
			if s == 0 {
				return &Error{PC: -1, Msg: fmt.Sprintf("local size %c is 0", "xyz"[i])}
			}
		}
		if p.InputWords != ComputeInputWords {
			return &Error{PC: -1, Msg: fmt.Sprintf("compute program has %d input words, want %d", p.InputWords, ComputeInputWords)}
		}
	}
	if p.SharedBytes%4 != 0 {
		return &Error{PC: -1, Msg: fmt.Sprintf("shared memory size %d is not a whole number of words", p.SharedBytes)}
	}
	for i, b := range p.Buffers {
		if b.Fixed%4 != 0 || b.Stride%4 != 0 {
			return &Error{PC: -1, Msg: fmt.Sprintf("buffer %d (%s): size %d or stride %d not word aligned", i, b.Name, b.Fixed, b.Stride)}
		}
		for _, c := range p.Buffers[:i] {
			if c.Binding == b.Binding {
				return &Error{PC: -1, Msg: fmt.Sprintf("buffers %s and %s share binding %d", c.Name, b.Name, b.Binding)}
			}
		}
	}
	for i, c := range p.Counters {
		if c.Offset%4 != 0 || c.Count == 0 {
			return &Error{PC: -1, Msg: fmt.Sprintf("atomic counter %d (%s): offset %d not word aligned or no words", i, c.Name, c.Offset)}
		}
	}
	for i, im := range p.Images {
		if im.Dim >= numImageDims || (im.Format >= numFormats && !(im.Format == FormatUnknown && im.WriteOnly)) {
			return &Error{PC: -1, Msg: fmt.Sprintf("image %d (%s): bad dimensionality or format", i, im.Name)}
		}
		for _, c := range p.Images[:i] {
			if c.Binding == im.Binding {
				return &Error{PC: -1, Msg: fmt.Sprintf("images %s and %s share binding %d", c.Name, im.Name, im.Binding)}
			}
		}
	}
	return nil
}

// hasBinding reports whether p declares binding b in space s.
func (p *Program) hasBinding(s Space, b uint32) bool {
	switch s {
	case SpaceShared:
		return b == 0
	case SpaceBuffer:
		for _, x := range p.Buffers {
			if x.Binding == b {
				return true
			}
		}
	case SpaceCounter:
		for _, x := range p.Counters {
			if x.Binding == b {
				return true
			}
		}
	case SpaceImage:
		for _, x := range p.Images {
			if x.Binding == b {
				return true
			}
		}
	}
	return false
}

// verifyMem checks the memory operands of one instruction.
func (v *verifier) verifyMem(in *Inst, dt Type, fail func(string, ...any) error) error {
	switch in.Op {
	case MemLoad, MemStore, MemAtomic, MemSize:
		s := Space(in.Len)
		if s >= numSpaces {
			return fail("unknown memory space %d", in.Len)
		}
		if s == SpaceShared && v.p.Stage != Compute {
			return fail("shared memory outside a compute program")
		}
		if !v.p.hasBinding(s, in.Imm) {
			return fail("no %s binding %d", s, in.Imm)
		}
		if in.Op == MemLoad && dt == Bool {
			return fail("bool destination")
		}
		if in.Op == MemAtomic && AtomicOp(in.Stride) >= numAtomicOps {
			return fail("unknown atomic op %d", in.Stride)
		}
	case ImageExtent:
		if !v.p.hasBinding(SpaceImage, in.Imm) {
			return fail("no image binding %d", in.Imm)
		}
		if in.Stride > 2 {
			return fail("extent component %d out of range", in.Stride)
		}
	case ImageFormatOf:
		if !v.p.hasBinding(SpaceImage, in.Imm) {
			return fail("no image binding %d", in.Imm)
		}
	case Barrier:
		if v.p.Stage != Compute {
			return fail("only allowed in compute programs")
		}
	}
	return nil
}

// UsesImage reports whether p (its main code or a function) has an
// instruction on the image at binding: an element of an array of images that
// no index can select has none, and needs no image bound.
func (p *Program) UsesImage(binding uint32) bool {
	return p.AnyInst(func(in *Inst) bool {
		switch in.Op {
		case MemLoad, MemStore, MemAtomic:
			return Space(in.Len) == SpaceImage && in.Imm == binding
		case ImageExtent, ImageFormatOf:
			return in.Imm == binding
		}
		return false
	})
}
