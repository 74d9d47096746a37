package render

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"vortexgfx/scene"
)

// TestReadBackOnDemand: on either path Draw leaves the frame in the
// framebuffer (on the device, or in the reference path's sample passes'
// attachments) and Image reads the last frame back, so two frames drawn
// without an Image between give the second one's image, byte for byte the
// image of a renderer that drew only that frame — single-sample and with the
// 4× resolve (the device's as the frame's last pass, the reference path's
// four passes' box filter).
func TestReadBackOnDemand(t *testing.T) {
	dir := benchDir(t)
	for _, c := range []struct {
		path Path
		msaa int
	}{{PathDevice, 1}, {PathDevice, 4}, {PathReference, 1}, {PathReference, 4}} {
		msaa := c.msaa
		t.Run(fmt.Sprintf("%s/msaa%d", c.path, msaa), func(t *testing.T) {
			desc, err := scene.BenchDescription(filepath.Join(dir, "bunny.obj"), dir, 64, 48)
			if err != nil {
				t.Fatal(err)
			}
			image := func(frames ...int) []byte {
				t.Helper()
				r, err := New(context.Background(), desc, Options{Path: c.path, Strict: true, MSAA: msaa})
				if err != nil {
					t.Fatal(err)
				}
				defer r.Close()
				for _, f := range frames {
					if err := r.Draw(context.Background(), f); err != nil {
						t.Fatal(err)
					}
				}
				img, err := r.ReadImage()
				if err != nil {
					t.Fatal(err)
				}
				return bytes.Clone(img.Pix)
			}
			last, first := image(0, 30), image(0)
			if bytes.Equal(last, first) {
				t.Fatal("frames 0 and 30 render alike: the test cannot tell them apart")
			}
			if only := image(30); !bytes.Equal(last, only) {
				t.Error("Image after frames 0 and 30 differs from frame 30 drawn alone")
			}
		})
	}
}
