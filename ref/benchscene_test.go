package ref_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"vortexgfx/render"
	"vortexgfx/scene"
)

// benchGolden holds the SHA-256 of the RGBA8 images of the bench scene
// (../shared/data/bench) rendered through render's reference path by the
// straightforward rasterizer (per-pixel edge evaluation over the bounding
// box, per-lane barycentric interpolation, generic per-fragment operations),
// recorded before the rasterizer's fast paths were written. Every fast path
// must reproduce these bytes exactly, for any worker count.
var benchGolden = map[string]string{
	"bunny.obj/301x173/frame18": "7744d86739373e2db5257a76841501035de2784673b7aba5207130a0f461f2a8",
	"bunny.obj/301x173/frame19": "46ad4f5ce050e4e336317464e5f9c1bb6ae935e2450ae243a8dafe9baee95b98",
	"bunny.obj/512x512/frame18": "48c80813127ddbe057bfdd81209788a0062811f80635b0df9b024b5e86cef2a9",
	"bunny.obj/512x512/frame19": "9372838e857d72cf8c00d55138ccb787bd966d91cba8dcd4d5f45a65442dc3d8",
	"sphere/301x173/frame18":    "5a77875aede5d40b4702a364988aecdbe03f6902e49623c45a24ee9db5d98ffc",
	"sphere/301x173/frame19":    "f043cee89a1605af50065fcf53517df5e60496affef7a75a9eb08d7f414d5830",
	"sphere/512x512/frame18":    "b3fca174d4b3018e10b6f478acb563c1ae4d8a6c881916064817ea9b7cbf0913",
	"sphere/512x512/frame19":    "504ba6d81d59abd01c718d523c7b50b133f4071957064015505703a48f72f6ff",
}

// TestBenchSceneExact renders frames 18 and 19 of the bench meshes with 1, 2
// and 4 workers at 512x512 and at an odd size, and compares every image
// with the hash recorded from the straightforward path.
// spec: vortexpipe-driver §5.2 (the oracle's output must not change).
func TestBenchSceneExact(t *testing.T) {
	dir := filepath.Join("..", "..", "shared", "data", "bench")
	if _, err := os.Stat(filepath.Join(dir, "lambert.vert")); err != nil {
		t.Skipf("../shared data absent: %v", err)
	}
	sizes := [][2]int{{512, 512}, {301, 173}}
	for _, mesh := range []string{"bunny.obj", "sphere"} {
		path := mesh
		if mesh == "bunny.obj" {
			path = filepath.Join(dir, mesh)
		}
		for _, sz := range sizes {
			desc, err := scene.BenchDescription(path, dir, sz[0], sz[1])
			if err != nil {
				t.Fatal(err)
			}
			for _, workers := range []int{1, 2, 4} {
				frames, _, err := render.Render(context.Background(), desc, render.Options{FirstFrame: 18, Frames: 2, Workers: workers})
				if err != nil {
					t.Fatalf("%s %dx%d, %d workers: %v", mesh, sz[0], sz[1], workers, err)
				}
				for _, f := range frames {
					key := keyOf(mesh, sz, f.Index)
					sum := sha256.Sum256(f.Image.Pix)
					got := hex.EncodeToString(sum[:])
					if want, ok := benchGolden[key]; !ok {
						t.Errorf("%s: no recorded hash (got %q)", key, got)
					} else if got != want {
						t.Errorf("%s, %d workers: image hash %s, want %s", key, workers, got, want)
					}
				}
			}
		}
	}
}

func keyOf(mesh string, sz [2]int, frame int) string {
	return fmt.Sprintf("%s/%dx%d/frame%d", mesh, sz[0], sz[1], frame)
}

// BenchmarkBenchSceneCPU times render's reference path on the bench meshes
// (clear + draw + finish per frame, as BenchmarkBenchScene in render) at
// 512x512 and 1920x1080 with 1 and 2 workers and also reports the process
// CPU time per frame, which varies far less than wall time on a shared
// machine.
func BenchmarkBenchSceneCPU(b *testing.B) {
	dir := filepath.Join("..", "..", "shared", "data", "bench")
	if _, err := os.Stat(filepath.Join(dir, "lambert.vert")); err != nil {
		b.Skipf("../shared data absent: %v", err)
	}
	for _, mesh := range []string{"bunny.obj", "sphere", "grid"} {
		path := mesh
		if mesh == "bunny.obj" {
			path = filepath.Join(dir, mesh)
		}
		for _, sz := range [][2]int{{512, 512}, {1920, 1080}} {
			for _, workers := range []int{1, 2} {
				benchSceneCPU(b, dir, path, mesh, sz, workers)
			}
		}
	}
}

// benchSceneCPU is one case of BenchmarkBenchSceneCPU.
func benchSceneCPU(b *testing.B, dir, path, mesh string, sz [2]int, workers int) {
	b.Run(fmt.Sprintf("%s/%dx%d/workers=%d", mesh, sz[0], sz[1], workers), func(b *testing.B) {
		desc, err := scene.BenchDescription(path, dir, sz[0], sz[1])
		if err != nil {
			b.Fatal(err)
		}
		r, err := render.New(context.Background(), desc, render.Options{Workers: workers})
		if err != nil {
			b.Fatal(err)
		}
		defer r.Close()
		b.ResetTimer()
		cpu0 := cpuTime()
		for i := 0; b.Loop(); i++ {
			if err := r.Draw(context.Background(), i); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
	})
}

// cpuTime is the process's user+system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
