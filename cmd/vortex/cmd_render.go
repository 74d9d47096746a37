package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"vortexgfx/gl/msaa"
	"vortexgfx/render"
	"vortexgfx/scene"
)

// parseInterleaved parses flags that may follow positional arguments
// (`vortex render scene.json -o x.png`) and returns the positionals.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// parseSize parses "WxH".
func parseSize(s string) (int, int, error) {
	ws, hs, ok := strings.Cut(strings.ToLower(s), "x")
	w, err1 := strconv.Atoi(ws)
	h, err2 := strconv.Atoi(hs)
	if !ok || err1 != nil || err2 != nil || w < 1 || h < 1 || w > 16384 || h > 16384 {
		return 0, 0, fmt.Errorf("--size %q: want WxH with 1..16384 each, e.g. 512x512", s)
	}
	return w, h, nil
}

// writePNG writes img to path.
func writePNG(path string, img image.Image) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	return f.Close()
}

// frameName returns out for a single frame, else out with "-NNNN" (the frame
// index) inserted before its extension.
func frameName(out string, frame, frames int) string {
	if frames <= 1 {
		return out
	}
	ext := filepath.Ext(out)
	return fmt.Sprintf("%s-%04d%s", strings.TrimSuffix(out, ext), frame, ext)
}

// progressBar draws a \r-based bar on a terminal; it is a no-op elsewhere.
type progressBar struct {
	w     io.Writer
	width int
}

// newProgress returns a bar on w when w is a terminal (a character device).
func newProgress(w io.Writer) *progressBar {
	f, ok := w.(*os.File)
	if !ok {
		return nil
	}
	st, err := f.Stat()
	if err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return nil
	}
	return &progressBar{w: w, width: 30}
}

func (p *progressBar) update(done, total int) {
	if p == nil || total <= 0 {
		return
	}
	n := done * p.width / total
	fmt.Fprintf(p.w, "\r[%s%s] %d/%d frames", strings.Repeat("#", n), strings.Repeat(".", p.width-n), done, total)
	if done == total {
		fmt.Fprint(p.w, "\r\033[K")
	}
}

// loadRenderScene loads SCENE: a scene JSON, a mesh (OBJ) or glTF/GLB, or the
// embedded demo when path is empty.
func loadRenderScene(path string, w, h int, mo scene.ModelOptions) (*scene.Description, error) {
	if path == "" {
		return scene.Demo()
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".json":
		return scene.LoadDescription(path)
	case ".obj", ".gltf", ".glb":
		if w == 0 {
			w, h = 640, 480
		}
		return scene.ModelDescriptionWith(path, w, h, mo)
	}
	return nil, fmt.Errorf("%s: unknown scene type %q (want .json, .obj, .gltf or .glb)", path, filepath.Ext(path))
}

// runRender implements `vortex render` (README "vortex render").
func runRender(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("vortex render", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "vortex.png", "output `PNG` (with --frames N > 1: NAME-0000.png, NAME-0001.png, ...)")
	size := fs.String("size", "", "image size `WxH` (default: the scene's; 640x480 for a bare model)")
	frames := fs.Int("frames", 1, "number of frames `N` (frame i advances the scene's per-frame rotations; a model's animation plays at --fps)")
	fps := fs.Float64("fps", 24, "frames per second `F` of a model's animation: frame i shows it at i/F seconds, looped")
	turntable := fs.Bool("turntable", false, "turn a model 3° per frame even when it has an animation (a model without one turns anyway)")
	animation := fs.Int("animation", 0, "play only a model's animation `N` (1 = the first; default: all that do not drive the same nodes, together)")
	msaaFlag := fs.Int("msaa", 0, "samples `1|2|4|8|16` (default: the scene's; supersampled on the reference path)")
	path := fs.String("path", "reference", "renderer `device|reference` (device: the whole device model; a scene with a draw it cannot take renders on reference, or fails with --strict)")
	strict := fs.Bool("strict", os.Getenv("VORTEX_STRICT") == "1", "turn every fallback or adaptation into an error (also VORTEX_STRICT=1)")
	cfgPath := fs.String("config", "", "device configuration `FILE.toml` for the device path (validated; default: built-in defaults)")
	statsPath := fs.String("stats", "", "write per-draw counters and routing decisions to `FILE.json`")
	heatPath := fs.String("heatmap", "", "write the last frame's fragments-shaded-per-pixel image to `FILE.png`")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the whole run (loading and compiling included) to `FILE` for go tool pprof")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: vortex render [SCENE] [-o out.png] [--size WxH] [--frames N] [--fps F] [--turntable] [--animation N] [--msaa 1|2|4|8|16]")
		fmt.Fprintln(stderr, "       [--path device|reference] [--strict] [--config FILE.toml] [--stats FILE.json] [--heatmap FILE.png]")
		fmt.Fprintln(stderr, "       [--cpuprofile FILE]")
		fmt.Fprintln(stderr, "Renders SCENE (a scene .json, an .obj mesh or a .gltf/.glb model; omitted: the embedded")
		fmt.Fprintln(stderr, "demo) to a PNG, on the reference renderer or (--path device) through the device model.")
		fs.PrintDefaults()
	}
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) > 1 {
		fmt.Fprintf(stderr, "vortex render: one SCENE at most, got %q\n", pos)
		return 2
	}
	var w, h int
	if *size != "" {
		if w, h, err = parseSize(*size); err != nil {
			fmt.Fprintf(stderr, "vortex render: %v\n", err)
			return 2
		}
	}
	if *frames < 1 {
		fmt.Fprintf(stderr, "vortex render: --frames %d: want at least 1\n", *frames)
		return 2
	}
	if *msaaFlag != 0 && !msaa.Valid(*msaaFlag) {
		fmt.Fprintf(stderr, "vortex render: --msaa %d: want 1, 2, 4, 8 or 16\n", *msaaFlag)
		return 2
	}
	stopProfile, err := startCPUProfile(*cpuProfile, "vortex render", stderr)
	if err != nil {
		fmt.Fprintf(stderr, "vortex render: %v\n", err)
		return 1
	}
	defer stopProfile()
	if *path != "reference" && *path != "device" {
		fmt.Fprintf(stderr, "vortex render: --path %q: want device or reference\n", *path)
		return 2
	}
	cfg, err := loadConfig(*cfgPath)
	if err != nil {
		fmt.Fprintf(stderr, "vortex render: %v\n", err)
		return 1
	}
	file := ""
	if len(pos) == 1 {
		file = pos[0]
	}
	if !(*fps > 0) {
		fmt.Fprintf(stderr, "vortex render: --fps %g: want > 0\n", *fps)
		return 2
	}
	desc, err := loadRenderScene(file, w, h, scene.ModelOptions{FPS: *fps, Turntable: *turntable, Animation: *animation,
		Rest: *frames == 1 && *animation == 0})
	if err != nil {
		fmt.Fprintf(stderr, "vortex render: %v\n", err)
		return 1
	}
	if !*strict {
		for _, w := range desc.Warnings {
			fmt.Fprintf(stderr, "vortex render: warning: %s\n", w)
		}
	}
	opts := render.Options{Path: render.Path(*path), Width: w, Height: h, Frames: *frames, MSAA: *msaaFlag,
		Strict: *strict, Config: &cfg, Stats: *statsPath != "", Heatmap: *heatPath != ""}
	ctx := context.Background()
	r, err := render.New(ctx, desc, opts)
	if err != nil {
		name := file
		if name == "" {
			name = "demo"
		}
		fmt.Fprintf(stderr, "vortex render: %s: %v\n", name, err)
		return 1
	}
	bar := newProgress(stdout)
	if *frames == 1 {
		bar = nil
	}
	for i := range *frames {
		if err := r.Draw(ctx, i); err != nil {
			fmt.Fprintf(stderr, "vortex render: %v\n", err)
			return 1
		}
		name := frameName(*out, i, *frames)
		img, err := r.ReadImage()
		if err != nil {
			fmt.Fprintf(stderr, "vortex render: %v\n", err)
			return 1
		}
		if err := writePNG(name, img); err != nil {
			fmt.Fprintf(stderr, "vortex render: %v\n", err)
			return 1
		}
		bar.update(i+1, *frames)
	}
	if *heatPath != "" {
		counts, hw, hh := r.Heatmap()
		if err := writePNG(*heatPath, render.HeatmapImage(counts, hw, hh)); err != nil {
			fmt.Fprintf(stderr, "vortex render: %v\n", err)
			return 1
		}
	}
	if *statsPath != "" {
		data, err := json.MarshalIndent(r.Stats(), "", "  ")
		if err == nil {
			err = os.WriteFile(*statsPath, append(data, '\n'), 0o644)
		}
		if err != nil {
			fmt.Fprintf(stderr, "vortex render: %s: %v\n", *statsPath, err)
			return 1
		}
	}
	return 0
}
