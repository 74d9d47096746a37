package ir

import (
	"fmt"
	"math"
	"strings"
)

// String prints p in the IR's stable text form (see Print).
func (p *Program) String() string {
	var sb strings.Builder
	Print(&sb, p)
	return sb.String()
}

// Print writes p in a stable text form: a header with the stage, the buffer layouts
// and the sampler and texture records, then each function and the main body, one
// instruction per line with its index, indented by control-flow nesting. The form is
// what `vortex glsl` prints and what golden tests compare.
func Print(sb *strings.Builder, p *Program) {
	fmt.Fprintf(sb, "stage %s\n", p.Stage)
	fmt.Fprintf(sb, "regs %d", len(p.Regs))
	for i, t := range p.Regs {
		if i%16 == 0 {
			sb.WriteString("\n ")
		}
		fmt.Fprintf(sb, " r%d:%s", i, t)
	}
	sb.WriteString("\n")
	slots := func(kind string, words int, ss []Slot) {
		fmt.Fprintf(sb, "%s words %d\n", kind, words)
		for _, s := range ss {
			fmt.Fprintf(sb, "  @%d+%d %s %q", s.Word, s.Words, s.Type, s.Name)
			if s.Location >= 0 {
				fmt.Fprintf(sb, " location=%d", s.Location)
			}
			if s.Index != 0 {
				fmt.Fprintf(sb, " index=%d", s.Index)
			}
			if s.Flat {
				sb.WriteString(" flat")
			}
			if s.NoPerspective {
				sb.WriteString(" noperspective")
			}
			if s.Sample {
				sb.WriteString(" sample")
			}
			if s.Centroid {
				sb.WriteString(" centroid")
			}
			sb.WriteString("\n")
		}
	}
	slots("inputs", p.InputWords, p.Inputs)
	slots("outputs", p.OutputWords, p.Outputs)
	slots("uniforms", p.UniformWords, p.Uniforms)
	for i, s := range p.Samplers {
		fmt.Fprintf(sb, "sampler s%d %q unit=%d %s %s\n", i, s.Name, s.Unit, s.Kind, s.Result)
	}
	for i := range p.Tex {
		fmt.Fprintf(sb, "tex t%d %s\n", i, texString(&p.Tex[i]))
	}
	if p.Stage == Geometry {
		g := &p.Geometry
		fmt.Fprintf(sb, "geometry in %s out %s max_vertices %d vertex_words %d\n", g.In, g.Out, g.MaxVertices, g.VertexWords)
	}
	if p.Stage == Compute {
		fmt.Fprintf(sb, "local_size %d %d %d shared %d\n", p.LocalSize[0], p.LocalSize[1], p.LocalSize[2], p.SharedBytes)
	}
	for _, b := range p.Buffers {
		fmt.Fprintf(sb, "buffer %q binding=%d fixed=%d stride=%d", b.Name, b.Binding, b.Fixed, b.Stride)
		if b.ReadOnly {
			sb.WriteString(" readonly")
		}
		if b.WriteOnly {
			sb.WriteString(" writeonly")
		}
		sb.WriteString("\n")
	}
	for _, c := range p.Counters {
		fmt.Fprintf(sb, "counter %q binding=%d offset=%d count=%d\n", c.Name, c.Binding, c.Offset, c.Count)
	}
	for _, im := range p.Images {
		fmt.Fprintf(sb, "image %q binding=%d %s %s", im.Name, im.Binding, im.Dim, im.Format)
		if im.ReadOnly {
			sb.WriteString(" readonly")
		}
		if im.WriteOnly {
			sb.WriteString(" writeonly")
		}
		sb.WriteString("\n")
	}
	for i, fn := range p.Funcs {
		fmt.Fprintf(sb, "func f%d %q\n", i, fn.Name)
		printCode(sb, p, fn.Code)
	}
	sb.WriteString("main\n")
	printCode(sb, p, p.Code)
}

func regList(rs []Reg) string {
	var parts []string
	for _, r := range rs {
		if r == NoReg {
			parts = append(parts, "_")
		} else {
			parts = append(parts, fmt.Sprintf("r%d", r))
		}
	}
	return strings.Join(parts, " ")
}

func texString(t *TexInfo) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s s%d coord(%s)", t.Op, t.Sampler, regList(t.Coord[:t.NCoord]))
	if t.Lod != NoReg {
		fmt.Fprintf(&sb, " lod=r%d", t.Lod)
	}
	if t.Bias != NoReg {
		fmt.Fprintf(&sb, " bias=r%d", t.Bias)
	}
	if t.Compare != NoReg {
		fmt.Fprintf(&sb, " compare=r%d", t.Compare)
	}
	if t.DPdx[0] != NoReg || t.DPdy[0] != NoReg {
		fmt.Fprintf(&sb, " ddx(%s) ddy(%s)", regList(t.DPdx[:]), regList(t.DPdy[:]))
	}
	if t.HasOffset {
		fmt.Fprintf(&sb, " offset(%d %d %d)", t.Offset[0], t.Offset[1], t.Offset[2])
	}
	if t.HasOffsets {
		fmt.Fprintf(&sb, " offsets(%d %d, %d %d, %d %d, %d %d)", t.Offsets[0][0], t.Offsets[0][1],
			t.Offsets[1][0], t.Offsets[1][1], t.Offsets[2][0], t.Offsets[2][1], t.Offsets[3][0], t.Offsets[3][1])
	}
	if t.HasDynOffset {
		fmt.Fprintf(&sb, " offset(r%d r%d)", t.DynOffset[0], t.DynOffset[1])
	}
	if t.Op == TexGather {
		fmt.Fprintf(&sb, " comp=%d", t.Comp)
	}
	fmt.Fprintf(&sb, " -> (%s)", regList(t.Dst[:]))
	return sb.String()
}

func printCode(sb *strings.Builder, p *Program, code []Inst) {
	depth := 1
	for pc := range code {
		in := &code[pc]
		switch in.Op {
		case Else, EndIf, EndLoop, EndScope, Continuing:
			depth--
		}
		fmt.Fprintf(sb, "%4d %s%s\n", pc, strings.Repeat("  ", max(depth, 0)), InstString(p, in))
		switch in.Op {
		case If, Else, Loop, Scope, Continuing:
			depth++
		}
	}
}

// InstString formats one instruction of p.
func InstString(p *Program, in *Inst) string {
	var sb strings.Builder
	if in.Op.HasDst() {
		t := TNone
		if int64(in.Dst) < int64(len(p.Regs)) {
			t = p.Regs[in.Dst]
		}
		fmt.Fprintf(&sb, "r%d:%s = ", in.Dst, t)
	}
	sb.WriteString(in.Op.String())
	n := in.Op.NumSrc()
	switch in.Op {
	case Const:
		t := TNone
		if int64(in.Dst) < int64(len(p.Regs)) {
			t = p.Regs[in.Dst]
		}
		sb.WriteString(" " + constString(t, in.Imm))
		return sb.String()
	case LoadInput, LoadUniform:
		fmt.Fprintf(&sb, " @%d", in.Imm)
		return sb.String()
	case StoreOutput:
		fmt.Fprintf(&sb, " @%d, r%d", in.Imm, in.Src[0])
		return sb.String()
	case LoadUniformIdx:
		fmt.Fprintf(&sb, " @%d[r%d <%d x%d]", in.Imm, in.Src[0], in.Len, in.Stride)
		return sb.String()
	case ArrayLoad:
		fmt.Fprintf(&sb, " r%d[r%d <%d x%d]", in.Imm, in.Src[0], in.Len, in.Stride)
		return sb.String()
	case ArrayStore:
		fmt.Fprintf(&sb, " r%d[r%d <%d x%d], r%d", in.Imm, in.Src[0], in.Len, in.Stride, in.Src[1])
		return sb.String()
	case Tex:
		fmt.Fprintf(&sb, " t%d", in.Imm)
		return sb.String()
	case Call:
		fmt.Fprintf(&sb, " f%d", in.Imm)
		return sb.String()
	case MemLoad, MemStore, MemAtomic, MemSize:
		fmt.Fprintf(&sb, " %s%d", Space(in.Len), in.Imm)
		if in.Op == MemAtomic {
			fmt.Fprintf(&sb, " %s", AtomicOp(in.Stride))
		}
		if n > 0 {
			sb.WriteString(",")
		}
	case ImageExtent:
		fmt.Fprintf(&sb, " image%d .%d", in.Imm, in.Stride)
		return sb.String()
	case ImageFormatOf:
		fmt.Fprintf(&sb, " image%d", in.Imm)
		return sb.String()
	}
	for i := 0; i < n; i++ {
		if i == 0 {
			sb.WriteString(" ")
		} else {
			sb.WriteString(", ")
		}
		fmt.Fprintf(&sb, "r%d", in.Src[i])
	}
	switch in.Op {
	case UnpackSnorm2x16, UnpackUnorm2x16, UnpackHalf2x16, UnpackSnorm4x8, UnpackUnorm4x8:
		fmt.Fprintf(&sb, " .%d", in.Imm)
	}
	return sb.String()
}

func constString(t Type, w uint32) string {
	switch t {
	case F32:
		v := math.Float32frombits(w)
		return fmt.Sprintf("%v (0x%08x)", v, w)
	case I32:
		return fmt.Sprint(int32(w))
	case Bool:
		if w != 0 {
			return "true"
		}
		return "false"
	}
	return fmt.Sprint(w)
}
