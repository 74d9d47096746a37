package ringdump

import (
	"bytes"
	"strings"
	"testing"

	"vortexgfx/abi"
)

func mustPack(t testing.TB, cmds ...abi.Command) []byte {
	t.Helper()
	b, err := abi.PackLines(cmds)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The exact output format of the README's `vortex cp decode` (command-processor §2.1).
func TestDecodeFormat(t *testing.T) {
	ring := mustPack(t,
		abi.Command{Op: abi.OpMemWrite, Flags: abi.FlagProfile, Args: [3]uint64{1, 2, 3}, ProfileSlot: 18446744073709551615},
		abi.Fence(3), abi.DCRWrite(0x060, 9))
	var out bytes.Buffer
	if err := Decode(&out, ring, abi.FlavorEmu); err != nil {
		t.Fatal(err)
	}
	want := `{"line":0,"offset":0,"op":"MEM_WRITE","opcode":1,"flags":1,"size":36,"arg0":1,"arg1":2,"arg2":3,"profile_slot":18446744073709551615}
{"line":0,"offset":36,"op":"FENCE","opcode":7,"flags":0,"size":8,"arg0":3}
{"line":0,"offset":44,"op":"DCR_WRITE","opcode":4,"flags":0,"size":20,"arg0":96,"arg1":9}
{"line":0,"end":"no_room","offset":64}
`
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
}

func TestDecodeEnds(t *testing.T) {
	l := make([]byte, 64)
	copy(l, abi.LaunchQMD(5).Append(nil))
	for _, tc := range []struct {
		flavor abi.Flavor
		want   string
	}{
		{abi.FlavorRTL, `{"line":0,"end":"unknown_opcode","offset":0}`},
		{abi.FlavorEmu, `{"line":0,"end":"sentinel","offset":12}`},
	} {
		var out bytes.Buffer
		if err := Decode(&out, l, tc.flavor); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), tc.want) {
			t.Errorf("%v: %s", tc.flavor, out.String())
		}
	}
	if err := Decode(&bytes.Buffer{}, make([]byte, 65), abi.FlavorEmu); err == nil || !strings.Contains(err.Error(), "1 bytes left over") {
		t.Errorf("a partial line must be a clear error, got %v", err)
	}
}

// encode∘decode is the identity on encoder-made rings, including padding lines.
func TestRoundTrip(t *testing.T) {
	ring := mustPack(t, abi.DCRWrite(1, 2), abi.DCRWrite(3, 4), abi.DCRWrite(5, 6), abi.Launch(),
		abi.EventWait(0x40, 7, abi.WaitGT), abi.Command{Op: abi.OpNop, Flags: abi.FlagFencePre},
		abi.CacheFlush(8), abi.Draw(0x1000))
	ring = append(ring, make([]byte, 128)...) // two padding lines
	var text bytes.Buffer
	if err := Decode(&text, ring, abi.FlavorEmu); err != nil {
		t.Fatal(err)
	}
	got, err := Encode(strings.NewReader(text.String()), "t.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, ring) {
		t.Errorf("round trip differs:\n% x\n% x", got, ring)
	}
}

func TestEncodeHandWritten(t *testing.T) {
	src := `{"op":"DCR_WRITE","arg0":96,"arg1":1}
{"op":"CMD_LAUNCH"}
{"opcode":10,"arg0":4}
`
	got, err := Encode(strings.NewReader(src), "h.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	want := mustPack(t, abi.DCRWrite(0x60, 1), abi.Launch(), abi.CacheFlush(4))
	if !bytes.Equal(got, want) {
		t.Errorf("% x", got)
	}
}

func TestEncodeErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{`{"op":"BOGUS"}`, `x.jsonl:1: unknown op "BOGUS"`},
		{`{"op":"LAUNCH","arg1":3}`, "LAUNCH has no arg1"},
		{`{"op":"NOP"}`, "line sentinel"},
		{`{"op":"FENCE","arg0":4294967296}`, "arg0 4294967296: want an unsigned 32-bit"},
		{`{"op":"LAUNCH","size":20}`, "size 20: LAUNCH with flags 0 is 12 bytes"},
		{`{"op":"LAUNCH","opcode":7}`, "is opcode 6, not 7"},
		{`{"opcode":77}`, "opcode 77 is not defined"},
		{`{"op":"LAUNCH","profile_slot":1}`, "without F_PROFILE"},
		{`{"line":1,"op":"LAUNCH"}` + "\n" + `{"line":0,"op":"LAUNCH"}`, "x.jsonl:2: line 0 comes after line 1"},
		{`{"line":0,"offset":4,"op":"LAUNCH"}`, "offset 4: the command lands at offset 0"},
		{`{"end":"sideways"}`, "end \"sideways\""},
		{`{"op":"LAUNCH","colour":1}`, "unknown field"},
		{`{"line":99999999999,"op":"LAUNCH"}`, "line 99999999999"},
		{`not json`, "bad JSON"},
		{`{"op":"MEM_COPY","line":0}` + "\n" + `{"op":"MEM_COPY","line":0}` + "\n" + `{"op":"MEM_COPY","line":0}`, "does not fit in line 0"},
	} {
		_, err := Encode(strings.NewReader(tc.src), "x.jsonl")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.src, err, tc.want)
		}
	}
}

// FuzzDecode: random ring bytes decode without panicking, and decode∘encode∘decode =
// decode whenever every line holds at most five commands.
func FuzzDecode(f *testing.F) {
	f.Add(mustPack(f, abi.DCRWrite(1, 2), abi.Launch()), false)
	f.Add(bytes.Repeat([]byte{0x0C, 1, 0, 0}, 32), true)
	f.Fuzz(func(t *testing.T, ring []byte, rtl bool) {
		ring = ring[:len(ring)/64*64]
		fl := abi.FlavorEmu
		if rtl {
			fl = abi.FlavorRTL
		}
		for l := 0; l < len(ring)/64; l++ {
			if c, _, _ := abi.WalkLine(ring[l*64:(l+1)*64], fl); len(c) > abi.MaxCmdsPerLine {
				return
			}
		}
		var a bytes.Buffer
		if err := Decode(&a, ring, fl); err != nil {
			t.Fatal(err)
		}
		enc, err := Encode(bytes.NewReader(a.Bytes()), "fuzz")
		if err != nil {
			t.Fatalf("re-encode: %v\n%s", err, a.String())
		}
		var b bytes.Buffer
		if err := Decode(&b, enc, fl); err != nil {
			t.Fatal(err)
		}
		// The re-encoded ring loses bytes the walk never decoded, so ends may move from
		// unknown_opcode/overrun to sentinel; the commands must be identical.
		if cmdLines(a.String()) != cmdLines(b.String()) {
			t.Fatalf("commands differ:\n%s\n--\n%s", a.String(), b.String())
		}
	})
}

func cmdLines(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, `"op"`) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// FuzzEncode: arbitrary JSON-lines input never panics and never builds a ring that is
// not whole lines.
func FuzzEncode(f *testing.F) {
	f.Add(`{"op":"DCR_WRITE","arg0":96,"arg1":1}` + "\n" + `{"line":3,"end":"sentinel","offset":0}`)
	f.Add(`{"opcode":1,"flags":1,"arg0":1,"arg1":2,"arg2":3,"profile_slot":4}`)
	f.Fuzz(func(t *testing.T, src string) {
		ring, err := Encode(strings.NewReader(src), "fuzz")
		if err == nil && len(ring)%64 != 0 {
			t.Fatalf("ring of %d bytes", len(ring))
		}
	})
}
