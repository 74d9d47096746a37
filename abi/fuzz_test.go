package abi

import (
	"bytes"
	"testing"
)

// FuzzWalkLine: any 64 bytes walk without panicking, the walk never reads past the
// line, offsets are increasing, and re-packing the decoded commands then walking again
// gives the same commands. spec: command-processor §2.1
func FuzzWalkLine(f *testing.F) {
	seed, _ := PackLines([]Command{DCRWrite(0x60, 1), Launch(), CacheFlush(2)})
	f.Add(seed, false)
	f.Add(bytes.Repeat([]byte{0x0B, 0x01}, 32), true)
	f.Add(make([]byte, 64), false)
	f.Fuzz(func(t *testing.T, data []byte, rtl bool) {
		l := make([]byte, LineBytes)
		copy(l, data)
		fl := FlavorEmu
		if rtl {
			fl = FlavorRTL
		}
		cmds, end, endOff := WalkLine(l, fl)
		prev := -1
		for _, c := range cmds {
			if c.Offset <= prev || c.Offset+c.Size() > LineBytes {
				t.Fatalf("bad offset %d size %d", c.Offset, c.Size())
			}
			prev = c.Offset
		}
		if endOff > LineBytes || (end == EndNoRoom && endOff+HeaderBytes <= LineBytes) {
			t.Fatalf("end %v at %d", end, endOff)
		}
		p := NewPacker()
		for _, c := range cmds {
			if _, _, err := p.Add(c.Command); err != nil {
				t.Fatalf("re-pack: %v", err)
			}
		}
		var again []Command
		for i := 0; i < p.Lines(); i++ {
			lc, _, _ := WalkLine(p.Bytes()[i*LineBytes:(i+1)*LineBytes], fl)
			for _, c := range lc {
				again = append(again, c.Command)
			}
		}
		if len(again) != len(cmds) {
			t.Fatalf("re-walk found %d commands, want %d", len(again), len(cmds))
		}
		for i := range again {
			if again[i] != cmds[i].Command {
				t.Fatalf("command %d: %+v != %+v", i, again[i], cmds[i].Command)
			}
		}
	})
}
