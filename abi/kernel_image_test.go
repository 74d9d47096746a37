package abi

import (
	"strings"
	"testing"
)

// A KernelCode entry round-trips, its warps start at the first payload word, and
// a payload that is not whole instructions is refused at encode and decode.
func TestKernelCodeEntry(t *testing.T) {
	code := []byte{0x13, 0, 0, 0, 0x0b, 0x00, 0x00, 0x00} // nop; vx_tmc zero
	img, err := EncodeKernelImage([]KernelImageEntry{LibraryEntry("k", "lib"), {Name: "cs1", Kind: KernelCode, Payload: code}})
	if err != nil {
		t.Fatal(err)
	}
	ents, err := DecodeKernelImage(img)
	if err != nil {
		t.Fatal(err)
	}
	e := ents[1]
	if e.Kind != KernelCode || e.Kind.String() != "code" || string(e.Payload) != string(code) {
		t.Fatalf("decoded %+v", e)
	}
	pc := KernelCodePC(uint64(e.EntryOffset))
	if pc%KernelStubAlign != 0 || string(img[pc:pc+uint64(len(code))]) != string(code) {
		t.Errorf("KernelCodePC %d does not hold the code", pc)
	}
	for _, tc := range []struct {
		n    int
		want string
	}{{0, "code of 0 bytes"}, {6, "code of 6 bytes"}, {KernelBlobMaxBytes + 4, "code of"}} {
		_, err := EncodeKernelImage([]KernelImageEntry{{Name: "c", Kind: KernelCode, Payload: make([]byte, tc.n)}})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%d-byte code: %v, want %q", tc.n, err, tc.want)
		}
	}
	// A decoder sees the same check: a stub whose length field is not whole words.
	bad := append([]byte(nil), img...)
	bad[e.EntryOffset+8] = 7
	if _, err := DecodeKernelImage(bad); err == nil || !strings.Contains(err.Error(), "code of 7 bytes") {
		t.Errorf("decode of a 7-byte code stub: %v", err)
	}
}

// FuzzDecodeKernelImage: any bytes decode to entries whose payloads lie inside
// the image, or to an error; never a panic.
func FuzzDecodeKernelImage(f *testing.F) {
	for _, ents := range [][]KernelImageEntry{
		{LibraryEntry("main", "fill")},
		{{Name: "cs1", Kind: KernelCode, Payload: []byte{0x13, 0, 0, 0}}, {Name: "b", Kind: KernelBlob, Payload: []byte("VXCP")}},
	} {
		img, err := EncodeKernelImage(ents)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(img)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		ents, err := DecodeKernelImage(b)
		if err != nil {
			return
		}
		for _, e := range ents {
			if uint64(e.EntryOffset)+KernelStubHeaderBytes+uint64(len(e.Payload)) > uint64(len(b)) {
				t.Fatalf("entry %q payload runs past the %d-byte image", e.Name, len(b))
			}
			if e.Kind == KernelCode && (len(e.Payload) == 0 || len(e.Payload)%4 != 0) {
				t.Fatalf("code entry %q of %d bytes accepted", e.Name, len(e.Payload))
			}
		}
	})
}
