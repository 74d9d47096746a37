package rv32

import "testing"

// FuzzDecode: Decode never panics; a word it accepts re-encodes to itself and
// disassembles to something other than "invalid".
func FuzzDecode(f *testing.F) {
	for _, w := range []uint32{0x00c5f553, 0x06c5a52f, 0x8330000f, 0x0005000b, 0x4501, 0xffffffff, 0x2000202b, 0x02b5562b, 0xe27352ab} {
		f.Add(w)
	}
	f.Fuzz(func(t *testing.T, w uint32) {
		in, err := Decode(w)
		if err != nil {
			if DisasmWord(w, 0) == "" {
				t.Fatal("empty rendering of an illegal word")
			}
			return
		}
		back, err := Encode(in)
		if err != nil || back != w {
			t.Fatalf("0x%08x: decoded %+v re-encodes to 0x%08x (%v)", w, in, back, err)
		}
		if Disasm(in, 0x80000000) == "invalid" {
			t.Fatalf("0x%08x: decoded but renders as invalid", w)
		}
	})
}
