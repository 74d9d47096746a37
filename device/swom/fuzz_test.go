package swom_test

import (
	"testing"

	"vortexgfx/abi"
	"vortexgfx/device/swom"
	"vortexgfx/gl/format"
)

// FuzzUnmarshal feeds arbitrary descriptors to the decoder the FS wrapper
// runs on device memory: it returns a state that passes Check or an error,
// never panics, and a decoded state merges a fragment without panicking.
func FuzzUnmarshal(f *testing.F) {
	s := swom.State{Width: 4, Height: 4, Samples: 4, NumTargets: 2, HasDS: true, DepthFormat: abi.OMDepthD24S8}
	s.Targets[0].Format, s.Targets[1].Format = format.RGBA8, format.R32F
	b, err := s.Marshal()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Add(b[:20])
	f.Fuzz(func(t *testing.T, b []byte) {
		var s swom.State
		if err := s.Unmarshal(b); err != nil {
			return
		}
		if err := s.Check(); err != nil {
			t.Fatalf("decoded state fails Check: %v", err)
		}
		var tex [swom.MaxTargets][]byte
		for i := 0; i < s.NumTargets; i++ {
			tex[i] = make([]byte, s.Targets[i].Format.Info().Bytes)
		}
		ds := make([]byte, swom.DepthBytes(s.DepthFormat))
		var fr swom.Fragment
		s.Coverage(&fr, 0xF)
		s.Merge(&fr, swom.PlaneDepth(0x123456), ds, &tex)
	})
}
