package shadertest

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"
)

// Storage buffers, atomic counters and images in draw tests: the vertex and
// fragment stages of a test without a [compute shader] section bind the
// buffers shader_runner's commands make (ssbo, atomic counter buffer, image
// texture; ComputeCmd lists their syntax) by binding point, as compute tests
// do, and the probes read what the draws left there. A back end whose Context
// implements StorageContext takes them; with any other such tests skip.
// "memory barrier BITS" (glMemoryBarrier) orders nothing more here: every draw
// and dispatch has finished, its writes visible, before the next command
// runs. spec: piglit tests/shaders/shader_runner.c (ssbo, atomic counters,
// image texture, memory barrier); GL 4.6 §7.13 (shader memory access).

// StorageKind is the kind of buffer a StorageContext binds.
type StorageKind int

// The storage buffer kinds.
const (
	// StorageSSBO is a shader storage buffer (GL_SHADER_STORAGE_BUFFER).
	StorageSSBO StorageKind = iota
	// StorageCounters is an atomic counter buffer (GL_ATOMIC_COUNTER_BUFFER).
	StorageCounters
)

func (k StorageKind) String() string {
	if k == StorageCounters {
		return "atomic counter buffer"
	}
	return "ssbo"
}

// StorageContext is a Context whose draws' vertex and fragment stages read and
// write storage buffers, atomic counter buffers and images.
type StorageContext interface {
	// NewStorageBuffer binds a new zeroed buffer of size bytes at binding
	// (replacing the buffer bound there).
	NewStorageBuffer(kind StorageKind, binding uint32, size int) error
	// WriteStorageBuffer writes b at byte off of the buffer at binding; an
	// error when none is bound or the range leaves it.
	WriteStorageBuffer(kind StorageKind, binding uint32, off int, b []byte) error
	// ReadStorageBuffer reads len(b) bytes at off of the buffer at binding
	// (what the draws left there).
	ReadStorageBuffer(kind StorageKind, binding uint32, off int, b []byte) error
	// BindImageTexture binds level 0 of t (the texture on unit, every
	// layer) to image unit unit with the GL image format (GL_RGBA8, ...).
	BindImageTexture(unit int, t *Texture, format string) error
}

// storageOp reports whether o is a command StorageContext runs in a draw test.
func (o Op) storageOp() bool {
	switch o {
	case OpSSBO, OpSSBOSubdata, OpProbeSSBO, OpAtomicCounters, OpAtomicCounterSet, OpProbeAtomic, OpImageTexture:
		return true
	}
	return false
}

// storage runs a storage command of a draw test.
func (r *runner) storage(c *Command) error {
	sc, ok := r.c.(StorageContext)
	if !ok {
		return &stop{Skip, fmt.Sprintf("command %q is not supported by this back end", c.Text)}
	}
	cc := c.Compute
	fatal := func(err error) error {
		if err == nil || errors.Is(err, ErrUnsupported) {
			return err
		}
		return &stop{Fail, err.Error()}
	}
	switch c.Op {
	case OpSSBO:
		return fatal(sc.NewStorageBuffer(StorageSSBO, cc.Binding, int(cc.Size)))
	case OpSSBOSubdata:
		var v [8]byte
		binary.LittleEndian.PutUint64(v[:], cc.Bits)
		return fatal(sc.WriteStorageBuffer(StorageSSBO, cc.Binding, int(cc.Offset), v[:valueBytes(cc.Type)]))
	case OpProbeSSBO:
		n := valueBytes(cc.Type)
		var v [8]byte
		if err := sc.ReadStorageBuffer(StorageSSBO, cc.Binding, int(cc.Offset), v[:n]); err != nil {
			r.fail(c, "ssbo %d has no %d bytes at offset %d: %v", cc.Binding, n, cc.Offset, err)
			return nil
		}
		if msg := probeValue(cc, c.Text, binary.LittleEndian.Uint64(v[:])); msg != "" {
			r.fail(c, "%s", msg)
		}
	case OpAtomicCounters:
		return fatal(sc.NewStorageBuffer(StorageCounters, cc.Binding, max(4*int(cc.Size), 4)))
	case OpAtomicCounterSet:
		var v [4]byte
		binary.LittleEndian.PutUint32(v[:], uint32(cc.Bits))
		return fatal(sc.WriteStorageBuffer(StorageCounters, cc.Binding, 4*int(cc.Index), v[:]))
	case OpProbeAtomic:
		var v [4]byte
		if err := sc.ReadStorageBuffer(StorageCounters, cc.Binding, int(cc.Offset), v[:]); err != nil {
			r.fail(c, "no atomic counter at buffer %d offset %d: %v", cc.Binding, cc.Offset, err)
			return nil
		}
		if got := binary.LittleEndian.Uint32(v[:]); !compareValues(cc.Cmp, int64(uint32(cc.Bits)), int64(got)) {
			r.fail(c, "atomic counter at %d: expected %s %d, observed %d", cc.Offset, cc.Cmp, uint32(cc.Bits), got)
		}
	case OpImageTexture:
		t := r.unitTex[cc.Unit]
		if t == nil {
			return &stop{Fail, fmt.Sprintf("image texture: no texture on unit %d", cc.Unit)}
		}
		return fatal(sc.BindImageTexture(cc.Unit, t, cc.Format))
	}
	return nil
}

// valueBytes is the size of a subdata or probe ssbo value of type typ.
func valueBytes(typ string) int {
	switch typ {
	case "double", "int64", "uint64":
		return 8
	}
	return 4
}

// probeValue compares the little-endian value w (4 or 8 bytes by cc.Type)
// with a probe ssbo's expectation; "" when it holds, else the failure as
// shader_runner words it. text is the command's line.
func probeValue(cc *ComputeCmd, text string, w uint64) string {
	ok := false
	var obs string
	switch cc.Type {
	case "uint":
		ok, obs = compareValues(cc.Cmp, int64(uint32(cc.Bits)), int64(uint32(w))), fmt.Sprint(uint32(w))
	case "int":
		ok, obs = compareValues(cc.Cmp, int64(int32(cc.Bits)), int64(int32(w))), fmt.Sprint(int32(w))
	case "int64":
		ok, obs = compareValues(cc.Cmp, int64(cc.Bits), int64(w)), fmt.Sprint(int64(w))
	case "uint64":
		ok, obs = cc.Cmp == "==" && w == cc.Bits || cc.Cmp == "!=" && w != cc.Bits ||
			cc.Cmp != "==" && cc.Cmp != "!=" && compareValues(cc.Cmp, float64(cc.Bits), float64(w)), fmt.Sprint(w)
	case "float":
		f := math.Float32frombits(uint32(w))
		ok, obs = compareValues(cc.Cmp, cc.Float, float64(f)), fmt.Sprint(f)
	case "double":
		f := math.Float64frombits(w)
		ok, obs = compareValues(cc.Cmp, cc.Float, f), fmt.Sprint(f)
	default:
		return fmt.Sprintf("unknown probe ssbo type %q", cc.Type)
	}
	if ok {
		return ""
	}
	return fmt.Sprintf("SSBO %d offset %d: expected %s %s, observed %s", cc.Binding, cc.Offset, cc.Cmp,
		strings.TrimSpace(text[strings.LastIndex(text, cc.Cmp)+len(cc.Cmp):]), obs)
}
