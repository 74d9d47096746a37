package runtime

import (
	"bytes"
	"testing"

	"vortexgfx/config"
	"vortexgfx/device"
	"vortexgfx/device/sim"
)

// TestFillPattern: filling by doubling writes the pattern repeated, the last
// copy truncated, for any pattern and length. spec: vx_fill_buffer
func TestFillPattern(t *testing.T) {
	tests := []struct {
		pat []byte
		n   int
	}{
		{[]byte{1}, 0}, {[]byte{1}, 1}, {[]byte{1, 2, 3, 4}, 3}, {[]byte{1, 2, 3, 4}, 4},
		{[]byte{1, 2, 3, 4}, 4097}, {[]byte{9, 8, 7}, 1000}, {[]byte("0123456789abcdefg"), 65536 + 5},
	}
	for _, tc := range tests {
		got := make([]byte, tc.n)
		fillPattern(got, tc.pat)
		want := make([]byte, tc.n)
		for i := range want {
			want[i] = tc.pat[i%len(tc.pat)]
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("pattern %v over %d bytes differs", tc.pat, tc.n)
		}
	}
}

// copyingTransport hides the simulator's HostView, so the runtime stages
// through HostWrite/HostRead.
type copyingTransport struct{ Transport }

// TestDirectStagingMatchesCopying: staging a batch in place in pinned host
// memory (HostViewer) leaves the same device memory, read-back data and host
// staging bytes as building the image and writing it, for small batches (the
// queue's persistent staging) and large ones (temporary staging), on both CP
// flavours. spec: command-processor §9, §10 item 1
func TestDirectStagingMatchesCopying(t *testing.T) {
	for _, flavor := range []string{"emu", "rtl"} {
		for _, size := range []uint64{1000, 3 * stageBytes} {
			run := func(direct bool) (dev, back, stage []byte) {
				cfg := config.Default()
				cfg.CP.Flavor = flavor
				s, err := sim.Open(cfg, device.NewLibrary(), sim.Options{})
				if err != nil {
					t.Fatal(err)
				}
				var tr Transport = s
				if !direct {
					tr = copyingTransport{s}
				}
				d, err := Open(tr)
				if err != nil {
					t.Fatal(err)
				}
				defer d.Close()
				buf, err := d.Alloc(2*size + 100)
				if err != nil {
					t.Fatal(err)
				}
				data := make([]byte, size-3)
				for i := range data {
					data[i] = byte(i*31 + 7)
				}
				back = make([]byte, size+50)
				q := d.DefaultQueue()
				b := q.NewBatch().Fill(buf, 0, 2*size+100, []byte{0xDE, 0xAD, 0xBE}).Write(buf, 5, data).Read(buf, 1, back)
				if err := b.Submit().Wait(); err != nil {
					t.Fatal(err)
				}
				dev = make([]byte, 2*size+100)
				if err := d.Read(buf, 0, dev); err != nil {
					t.Fatal(err)
				}
				stage = make([]byte, stageBytes)
				if err := s.HostRead(q.hostStage, stage); err != nil {
					t.Fatal(err)
				}
				return dev, back, stage
			}
			d1, b1, s1 := run(true)
			d2, b2, s2 := run(false)
			if !bytes.Equal(d1, d2) || !bytes.Equal(b1, b2) || !bytes.Equal(s1, s2) {
				t.Fatalf("%s, %d bytes: direct staging differs (device %v, read-back %v, staging %v)",
					flavor, size, bytes.Equal(d1, d2), bytes.Equal(b1, b2), bytes.Equal(s1, s2))
			}
		}
	}
}
