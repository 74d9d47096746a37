package shadertest

import (
	"math"
	"strings"
)

// ComputeCmd holds the arguments of the compute commands, with the syntax and
// semantics of shader_runner (piglit tests/shaders/shader_runner.c, read for
// these facts):
//
//	compute X Y Z                        glDispatchCompute between two full memory barriers
//	ssbo N SIZE                          a zero-filled SIZE-byte storage buffer at binding N
//	ssbo N subdata TYPE OFF VALUE        glBufferSubData of one float, int (4 bytes),
//	                                     double, int64 or uint64 at byte OFF
//	probe ssbo TYPE N OFF OP VALUE       compare the TYPE (uint, int, float, double,
//	                                     int64, uint64) at byte OFF of buffer N
//	atomic counter buffer N COUNT        a zeroed buffer of COUNT counters at binding N
//	atomic counters COUNT                the same at binding 0
//	atomic counter N I VALUE             set counter I of buffer N
//	probe atomic counter I OP VALUE      compare counter I of buffer 0
//	probe atomic counter buffer N OFF OP VALUE   compare the uint at byte OFF of buffer N
//	image texture UNIT GL_FORMAT         bind texture UNIT to image unit UNIT
//	fb tex 2d UNIT                       render (clear, probe) to texture UNIT
//
// OP is ==, !=, <, <=, > or >=. spec: piglit tests/shaders/shader_runner.c
// (compute, probe ssbo, atomic counters).
type ComputeCmd struct {
	Groups  [3]uint32
	Binding uint32
	Offset  uint32
	Size    uint32 // ssbo size, counter count
	Index   uint32 // atomic counter index
	// Type is the value type of subdata and probe ssbo; Cmp the comparison.
	Type, Cmp string
	// Bits is the value as its little-endian bit pattern (4 or 8 bytes by
	// Type); Float the value of float/double probes.
	Bits  uint64
	Float float64
	// Unit and Format are the texture unit and GL format of image texture
	// and fb tex 2d.
	Unit   int
	Format string
	// Buffer marks probe atomic counter buffer (Offset is a byte offset).
	Buffer bool
}

// comparisons shader_runner's parse_comparison_op accepts.
var comparisons = []string{"==", "!=", "<=", ">=", "<", ">"}

// parseComputeCommand parses the compute commands (see ComputeCmd) in
// shader_runner's order; it reports whether the line was one of them.
func (f *File) parseComputeCommand(c *Command, t string, fail func(string, ...any)) bool {
	has := func(format string, n int) ([]scanItem, bool) {
		it, k := scanf(t, format)
		return it, k == n
	}
	add := func(op Op, cc *ComputeCmd) bool {
		c.Op, c.Compute = op, cc
		f.Commands = append(f.Commands, *c)
		return true
	}
	cmp := func(s string) bool {
		if !oneOf(s, comparisons) {
			fail("invalid comparison operation %q", s)
			return false
		}
		return true
	}
	if it, ok := has("atomic counter buffer %u %u", 2); ok {
		return add(OpAtomicCounters, &ComputeCmd{Binding: uint32(it[0].u), Size: uint32(it[1].u)})
	}
	if it, ok := has("atomic counters %d", 1); ok {
		return add(OpAtomicCounters, &ComputeCmd{Size: uint32(it[0].i)})
	}
	if it, ok := has("atomic counter %u %u %u", 3); ok {
		return add(OpAtomicCounterSet, &ComputeCmd{Binding: uint32(it[0].u), Index: uint32(it[1].u), Bits: it[2].u})
	}
	if it, ok := has("compute %d %d %d", 3); ok {
		cc := &ComputeCmd{}
		for i := range cc.Groups {
			if it[i].i < 0 {
				fail("negative group count")
				return true
			}
			cc.Groups[i] = uint32(it[i].i)
		}
		return add(OpCompute, cc)
	}
	if it, ok := has("probe atomic counter buffer %u %u %s %u", 4); ok {
		if !cmp(it[2].s) {
			return true
		}
		return add(OpProbeAtomic, &ComputeCmd{Binding: uint32(it[0].u), Offset: uint32(it[1].u), Cmp: it[2].s, Bits: it[3].u, Buffer: true})
	}
	if it, ok := has("probe atomic counter %u %s %u", 3); ok {
		if !cmp(it[1].s) {
			return true
		}
		return add(OpProbeAtomic, &ComputeCmd{Offset: 4 * uint32(it[0].u), Cmp: it[1].s, Bits: it[2].u})
	}
	if rest, ok := parseStr(t, "probe ssbo "); ok {
		typ, r2, _ := parseWord(rest)
		it, k := scanf(r2, "%d %d %s")
		if k != 3 || it[0].i < 0 || it[1].i < 0 {
			fail("want probe ssbo TYPE binding offset op value")
			return true
		}
		if !cmp(it[2].s) {
			return true
		}
		cc := &ComputeCmd{Type: typ, Binding: uint32(it[0].i), Offset: uint32(it[1].i), Cmp: it[2].s}
		val := strings.TrimSpace(r2[strings.Index(r2, it[2].s)+len(it[2].s):])
		if !cc.parseValue(val) {
			fail("bad %s value %q", typ, val)
			return true
		}
		return add(OpProbeSSBO, cc)
	}
	if rest, ok := parseStr(t, "ssbo "); ok {
		if it, k := scanf(rest, "%d subdata %s %d %s"); k == 4 {
			if it[0].i < 0 || it[2].i < 0 {
				fail("negative binding or offset")
				return true
			}
			cc := &ComputeCmd{Binding: uint32(it[0].i), Type: it[1].s, Offset: uint32(it[2].i)}
			if !oneOf(cc.Type, []string{"float", "int", "double", "int64", "uint64"}) {
				fail("unknown subdata type %q", cc.Type)
				return true
			}
			if !cc.parseValue(it[3].s) {
				fail("bad %s value %q", cc.Type, it[3].s)
				return true
			}
			return add(OpSSBOSubdata, cc)
		}
		if it, k := scanf(rest, "%d %d"); k == 2 {
			if it[0].i < 0 || it[1].i <= 0 || it[1].i > 1<<28 {
				fail("bad ssbo binding or size")
				return true
			}
			return add(OpSSBO, &ComputeCmd{Binding: uint32(it[0].i), Size: uint32(it[1].i)})
		}
		return false
	}
	if it, ok := has("image texture %d %s", 2); ok {
		if it[0].i < 0 || it[0].i >= 32 {
			fail("texture unit %d out of range", it[0].i)
			return true
		}
		return add(OpImageTexture, &ComputeCmd{Unit: int(it[0].i), Format: it[1].s})
	}
	if rest, ok := parseStr(t, "fb tex 2d "); ok {
		units, _ := parseInts(rest, 32)
		if len(units) > 1 && len(units) <= maxColorAttachments {
			// Several attachments: a draw framebuffer (framebuffer.go).
			fb := &FBCmd{Draw: true, Read: true}
			for _, u := range units {
				if u < 0 || u >= 32 {
					fail("texture unit %d out of range", u)
					return true
				}
				fb.Attach = append(fb.Attach, FBAttach{Unit: int(u), Target: Tex2D})
			}
			c.Op, c.FB = OpFramebuffer, fb
			f.Commands = append(f.Commands, *c)
			return true
		}
		if len(units) != 1 || units[0] < 0 || units[0] >= 32 {
			// None, or more than the attachments there are: not run here.
			c.Op, c.Name = OpUnsupported, "fb tex 2d"
			f.Commands = append(f.Commands, *c)
			return true
		}
		return add(OpFBTex2D, &ComputeCmd{Unit: int(units[0])})
	}
	return false
}

// parseValue reads a value of cc.Type: uint accepts 0x hex (as shader_runner
// tries "0x%x" first), the integers C's strtol/strtoul rules, floats strtod.
func (cc *ComputeCmd) parseValue(s string) bool {
	w, _, _ := parseWord(s)
	switch cc.Type {
	case "float", "double":
		v, n, ok := strtod(w, 0)
		if !ok || n == 0 {
			return false
		}
		cc.Float = v
		if cc.Type == "float" {
			cc.Float = roundToFloat32(w[:n], v)
			cc.Bits = uint64(math.Float32bits(float32(cc.Float)))
		} else {
			cc.Bits = math.Float64bits(v)
		}
		return true
	case "uint":
		if strings.HasPrefix(w, "0x") || strings.HasPrefix(w, "0X") {
			v, _, ok := strtoul(w, 2, 16)
			cc.Bits = uint64(uint32(v))
			return ok
		}
		v, _, ok := strtol(w, 0, 10)
		cc.Bits = uint64(uint32(v))
		return ok
	case "int":
		v, _, ok := strtol(w, 0, 0)
		cc.Bits = uint64(uint32(int32(v)))
		return ok
	case "int64":
		v, _, ok := strtol(w, 0, 0)
		cc.Bits = uint64(v)
		return ok
	case "uint64":
		v, _, ok := strtoul(w, 0, 0)
		cc.Bits = v
		return ok
	}
	return false
}

// isCompute reports whether the op is one of the compute commands.
func (o Op) isCompute() bool { return o >= OpCompute && o <= OpFBTex2D }

// HasCompute reports whether the file has a compute shader.
func (f *File) HasCompute() bool {
	for _, s := range f.Shaders {
		if s.Stage == StageCompute {
			return true
		}
	}
	return false
}
