package runtime_test

import (
	"bytes"
	"testing"

	"vortexgfx/runtime"
)

// box3 returns the bytes of box e in a buffer laid out as r (reference model).
func box3(buf []byte, r runtime.Region, e runtime.Extent) []byte {
	var out []byte
	for z := uint64(0); z < e.Depth; z++ {
		for y := uint64(0); y < e.Height; y++ {
			o := r.Off + z*r.SlicePitch + y*r.RowPitch
			out = append(out, buf[o:o+e.Width]...)
		}
	}
	return out
}

// spec: command-processor §9 (vx_copy_rect) — 3-D boxes with row and slice pitches,
// host↔device and device↔device, each call one batch and one doorbell.
func TestRect3(t *testing.T) {
	for _, f := range flavors {
		for _, tc := range []struct {
			name       string
			host, d, s runtime.Region
			e          runtime.Extent
		}{
			{"pitched", runtime.Region{Off: 3, RowPitch: 40, SlicePitch: 200}, runtime.Region{Off: 64, RowPitch: 48, SlicePitch: 256},
				runtime.Region{Off: 5, RowPitch: 33, SlicePitch: 170}, runtime.Extent{Width: 30, Height: 5, Depth: 3}},
			{"packed", runtime.Region{RowPitch: 16, SlicePitch: 64}, runtime.Region{Off: 128, RowPitch: 16, SlicePitch: 64},
				runtime.Region{RowPitch: 16, SlicePitch: 64}, runtime.Extent{Width: 16, Height: 4, Depth: 4}},
			{"packed rows", runtime.Region{RowPitch: 8, SlicePitch: 100}, runtime.Region{Off: 1, RowPitch: 8, SlicePitch: 77},
				runtime.Region{Off: 7, RowPitch: 8, SlicePitch: 90}, runtime.Extent{Width: 8, Height: 9, Depth: 2}},
			{"one row", runtime.Region{}, runtime.Region{Off: 9}, runtime.Region{Off: 1}, runtime.Extent{Width: 100, Height: 1, Depth: 1}},
		} {
			e := open(t, f, nil)
			hostBuf := make([]byte, 1024)
			for i := range hostBuf {
				hostBuf[i] = byte(i*13 + 1)
			}
			a, b := e.alloc(1024), e.alloc(1024)
			want := box3(hostBuf, tc.host, tc.e)
			q := e.dev.DefaultQueue()
			bells := e.dev.Stats().Doorbells
			if err := q.EnqueueWriteRect3(a, tc.d, hostBuf, tc.host, tc.e).Wait(); err != nil {
				t.Fatalf("%s %s: write: %v", f, tc.name, err)
			}
			devA := make([]byte, 1024)
			if err := e.dev.Read(a, 0, devA); err != nil {
				t.Fatal(err)
			}
			if got := box3(devA, tc.d, tc.e); !bytes.Equal(got, want) {
				t.Fatalf("%s %s: device box after write differs", f, tc.name)
			}
			if err := q.EnqueueCopyRect3(b, tc.s, a, tc.d, tc.e).Wait(); err != nil {
				t.Fatalf("%s %s: copy: %v", f, tc.name, err)
			}
			back := make([]byte, 1024)
			if err := q.EnqueueReadRect3(b, tc.s, back, tc.host, tc.e).Wait(); err != nil {
				t.Fatalf("%s %s: read: %v", f, tc.name, err)
			}
			if got := box3(back, tc.host, tc.e); !bytes.Equal(got, want) {
				t.Fatalf("%s %s: round trip differs", f, tc.name)
			}
			if f == "emu" {
				if n := e.dev.Stats().Doorbells - bells; n != 4 { // write, read-back check, copy, read
					t.Errorf("%s %s: %d doorbells, want 4", f, tc.name, n)
				}
			}
		}
	}
	// Bad boxes are refused before anything runs.
	e := open(t, "emu", nil)
	a := e.alloc(256)
	q := e.dev.DefaultQueue()
	for _, bad := range []struct {
		d runtime.Region
		e runtime.Extent
	}{
		{runtime.Region{RowPitch: 8, SlicePitch: 64}, runtime.Extent{Width: 16, Height: 2, Depth: 1}},  // row pitch < width
		{runtime.Region{RowPitch: 16, SlicePitch: 20}, runtime.Extent{Width: 16, Height: 2, Depth: 2}}, // slice pitch < slice
		{runtime.Region{RowPitch: 16, SlicePitch: 64}, runtime.Extent{Width: 16, Height: 4, Depth: 5}}, // past the end
		{runtime.Region{Off: 1 << 63, RowPitch: 1 << 62, SlicePitch: 1 << 63}, runtime.Extent{Width: 1, Height: 3, Depth: 3}},
		{runtime.Region{}, runtime.Extent{Width: 1 << 40, Height: 1 << 40, Depth: 1 << 40}},
	} {
		if err := q.EnqueueCopyRect3(a, bad.d, a, runtime.Region{RowPitch: 16, SlicePitch: 64}, bad.e).Wait(); err == nil {
			t.Errorf("copy rect %+v %+v accepted", bad.d, bad.e)
		}
		if err := q.EnqueueWriteRect3(a, bad.d, make([]byte, 256), runtime.Region{RowPitch: 16, SlicePitch: 64}, bad.e).Wait(); err == nil {
			t.Errorf("write rect %+v %+v accepted", bad.d, bad.e)
		}
		if err := q.EnqueueReadRect3(a, bad.d, make([]byte, 256), runtime.Region{RowPitch: 16, SlicePitch: 64}, bad.e).Wait(); err == nil {
			t.Errorf("read rect %+v %+v accepted", bad.d, bad.e)
		}
	}
}
