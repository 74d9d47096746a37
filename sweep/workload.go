package sweep

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"image"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"vortexgfx/config"
	"vortexgfx/gfx/draw3d"
	"vortexgfx/gfx/frontend"
	"vortexgfx/render"
	"vortexgfx/scene"
	"vortexgfx/trace"
)

// Kind is what a workload is.
type Kind string

// The workload kinds.
const (
	KindTrace Kind = "trace" // a CGLTrace replayed through the device model (vortex trace replay)
	KindScene Kind = "scene" // a scene file rendered on the device path (vortex render --path device)
	KindMesh  Kind = "mesh"  // the benchmark scene on a mesh, on the device path (vortex bench render)
)

// DefaultTraceSize is the size a trace renders at without @SIZE: the
// default of `vortex trace replay --size`.
const DefaultTraceSize = 128

// Workload is one thing rendered per configuration, at one size.
type Workload struct {
	Kind Kind
	// Name is the file or mesh name as given on the command line; the
	// workload column is "KIND:NAME".
	Name string
	// Width and Height are the target size; 0 for a scene means its own.
	Width, Height int
}

// Label is the workload column's text.
func (w Workload) Label() string { return string(w.Kind) + ":" + w.Name }

// ParseTraces parses a --trace argument FILE.cgltrace[@SIZE,SIZE...] into one
// workload per size (DefaultTraceSize without @).
func ParseTraces(arg string) ([]Workload, error) {
	file, sizes, hasSizes := arg, "", false
	if i := strings.LastIndex(arg, "@"); i >= 0 {
		file, sizes, hasSizes = arg[:i], arg[i+1:], true
	}
	if file == "" {
		return nil, fmt.Errorf("--trace %q: want FILE.cgltrace[@SIZE,SIZE...]", arg)
	}
	if !hasSizes {
		return []Workload{{Kind: KindTrace, Name: file, Width: DefaultTraceSize, Height: DefaultTraceSize}}, nil
	}
	var out []Workload
	seen := map[int]bool{}
	for _, s := range strings.Split(sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		// The replay's own range (vortex trace replay --size: 1..4096).
		if err != nil || n < 1 || n > 4096 {
			return nil, fmt.Errorf("--trace %s: size %q: want 1..4096 (a square N×N target, as trace replay renders)", arg, s)
		}
		if seen[n] {
			return nil, fmt.Errorf("--trace %s: size %d given twice", arg, n)
		}
		seen[n] = true
		out = append(out, Workload{Kind: KindTrace, Name: file, Width: n, Height: n})
	}
	return out, nil
}

// Result is one rendered frame: its counter columns, its wall time and image.
type Result struct {
	Path     string // "device", or "reference" when render routed the scene there
	Draws    int
	Counters map[string]string
	Wall     time.Duration
	Image    *image.NRGBA
}

// ImageSHA256 is the hex SHA-256 of an image's bytes: its RGBA8
// non-premultiplied pixels, top row first, tightly packed — the pixels the
// PNG that `-o` writes holds, so equal hashes mean equal PNGs' pixels.
func ImageSHA256(img *image.NRGBA) string {
	h := sha256.New()
	w := 4 * img.Rect.Dx()
	for y := range img.Rect.Dy() {
		h.Write(img.Pix[y*img.Stride : y*img.Stride+w])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Loader loads workload inputs once per sweep and is safe for concurrent
// use: every configuration replays the same parsed trace.
type Loader struct {
	// BenchDir holds the bench shaders (lambert.vert, lambert.frag) and
	// bunny.obj; needed only for mesh workloads.
	BenchDir string

	mu     sync.Mutex
	traces map[string]*trace.Trace
}

func (l *Loader) trace(path string) (*trace.Trace, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if tr, ok := l.traces[path]; ok {
		return tr, nil
	}
	tr, err := trace.Load(path)
	if err != nil {
		return nil, err
	}
	if l.traces == nil {
		l.traces = map[string]*trace.Trace{}
	}
	l.traces[path] = tr
	return tr, nil
}

// description loads a scene or mesh workload's scene description. A scene
// is a scene JSON (or a model, as vortex render takes); a mesh is the bench
// scene, exactly as `vortex bench render` builds it.
func (l *Loader) description(w Workload) (*scene.Description, error) {
	if w.Kind == KindMesh {
		if l.BenchDir == "" {
			return nil, fmt.Errorf("mesh %s: no bench data directory (lambert shaders)", w.Name)
		}
		m := w.Name
		if m == "bunny" {
			m = filepath.Join(l.BenchDir, "bunny.obj")
		}
		return scene.BenchDescription(m, l.BenchDir, w.Width, w.Height)
	}
	switch strings.ToLower(filepath.Ext(w.Name)) {
	case ".json":
		return scene.LoadDescription(w.Name)
	case ".obj", ".gltf", ".glb":
		width, height := w.Width, w.Height
		if width == 0 {
			width, height = 640, 480 // vortex render's size for a bare model
		}
		return scene.ModelDescriptionWith(w.Name, width, height, scene.ModelOptions{FPS: 24})
	}
	return nil, fmt.Errorf("%s: unknown scene type %q (want .json, .obj, .gltf or .glb)", w.Name, filepath.Ext(w.Name))
}

// Run renders the given frames (ascending) of w on cfg and calls emit for
// each in order. A trace is replayed once per frame, each a whole replay as
// `vortex trace replay` does it (a trace is one frame, so its frames differ
// only in wall time); a scene or mesh is prepared once and frame i drawn as
// render and bench render draw it. wall is the replay, or the frame's clear +
// draws + finish (preparation not timed, as bench render times it).
func (l *Loader) Run(ctx context.Context, cfg config.Config, w Workload, frames []int, emit func(frame int, r Result) error) error {
	if w.Kind == KindTrace {
		tr, err := l.trace(w.Name)
		if err != nil {
			return err
		}
		// The replay's defaults: the grx plane convention and the device
		// front end (vortex trace replay without --planes/--host-binning).
		rp := draw3d.Device{Width: w.Width, Height: w.Height, Planes: frontend.PlanesGrx, Config: cfg}
		for _, f := range frames {
			if err := ctx.Err(); err != nil {
				return err
			}
			t0 := time.Now()
			img, draws, err := rp.Replay(tr)
			if err != nil {
				return err
			}
			r := Result{Path: "device", Draws: len(draws), Counters: traceCounters(draws), Wall: time.Since(t0), Image: traceNRGBA(img)}
			if err := emit(f, r); err != nil {
				return err
			}
		}
		return nil
	}
	desc, err := l.description(w)
	if err != nil {
		return err
	}
	opts := render.Options{Path: render.PathDevice, Width: w.Width, Height: w.Height, Config: &cfg, Stats: true}
	rd, err := render.New(ctx, desc, opts)
	if err != nil {
		return err
	}
	defer rd.Close()
	for _, f := range frames {
		before := rd.Stats().Draws
		t0 := time.Now()
		if err := rd.Draw(ctx, f); err != nil {
			return err
		}
		wall := time.Since(t0)
		img, err := rd.ReadImage()
		if err != nil {
			return err
		}
		st := rd.Stats()
		r := Result{Path: st.Path, Draws: len(st.Draws), Counters: renderCounters(before, st.Draws, st.LastFrame), Wall: wall, Image: img}
		if err := emit(f, r); err != nil {
			return err
		}
	}
	return nil
}

// traceNRGBA is the replayed frame as `vortex trace replay -o` stores it:
// non-premultiplied RGBA from draw3d's A8R8G8B8 words.
func traceNRGBA(img *draw3d.Image) *image.NRGBA {
	out := image.NewNRGBA(image.Rect(0, 0, img.Width, img.Height))
	for i, p := range img.Pix {
		out.Pix[4*i], out.Pix[4*i+1], out.Pix[4*i+2], out.Pix[4*i+3] = byte(p>>16), byte(p>>8), byte(p), byte(p>>24)
	}
	return out
}
