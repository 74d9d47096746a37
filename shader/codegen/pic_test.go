package codegen

import (
	"bytes"
	"testing"

	"vortexgfx/abi"
)

// The kernels are position independent: every corpus kernel placed at another
// base (as a module entry places it) leaves the same bytes as at LinkBaseFS.
func TestPositionIndependent(t *testing.T) {
	for _, c := range corpus {
		p := compileCS(t, c.name, c.src)
		k, err := Compile(p)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		in := wordsBytes(inputWords(3, 4096))
		var outs [][]byte
		for _, base := range []uint32{abi.LinkBaseFS, 0x9000_1230} {
			k.Base = base
			bufs := map[Binding][]byte{{Kind: abi.DescStorageBuffer, Slot: 0}: append([]byte(nil), in...),
				{Kind: abi.DescStorageBuffer, Slot: 1}: make([]byte, 4*4096)}
			l := &Launch{Groups: c.groups, Threads: 8, Uniforms: c.uniforms, Buffers: bufs}
			if _, err := Run(k, l); err != nil {
				t.Fatalf("%s at 0x%08x: %v", c.name, base, err)
			}
			outs = append(outs, bufs[Binding{Kind: abi.DescStorageBuffer, Slot: 1}])
		}
		if !bytes.Equal(outs[0], outs[1]) {
			t.Errorf("%s: the kernel at another base wrote other bytes", c.name)
		}
	}
}

// A kernel compiled for a core with less local memory than its frames need
// keeps them in device memory (arg slot abi.ArgCSFrames) and leaves the same
// bytes as with its frames in LMEM, for every corpus kernel.
func TestFramesInMemory(t *testing.T) {
	for _, c := range corpus {
		p := compileCS(t, c.name, c.src)
		in := wordsBytes(inputWords(5, 4096))
		var outs [][]byte
		for _, lmem := range []uint32{0, 1} {
			k, err := CompileWith(p, Options{LMemBytes: lmem})
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			if k.Layout.FramesInMemory != (lmem == 1) || (lmem == 1 && k.Layout.LMemBytes() != k.Layout.SharedBytes) ||
				k.Layout.FrameMemBytes(3) != map[bool]uint64{true: 3 * uint64(k.Layout.FrameBytes) * uint64(k.Layout.Invocations())}[lmem == 1] {
				t.Fatalf("%s: LMEM %d: layout %+v", c.name, lmem, k.Layout)
			}
			bufs := map[Binding][]byte{{Kind: abi.DescStorageBuffer, Slot: 0}: append([]byte(nil), in...),
				{Kind: abi.DescStorageBuffer, Slot: 1}: make([]byte, 4*4096)}
			l := &Launch{Groups: c.groups, Threads: 8, Uniforms: c.uniforms, Buffers: bufs}
			if _, err := Run(k, l); err != nil {
				t.Fatalf("%s with LMEM %d: %v", c.name, lmem, err)
			}
			outs = append(outs, bufs[Binding{Kind: abi.DescStorageBuffer, Slot: 1}])
		}
		if !bytes.Equal(outs[0], outs[1]) {
			t.Errorf("%s: frames in device memory wrote other bytes than frames in LMEM", c.name)
		}
	}
}
