package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"os"
	"time"

	"vortexgfx/config"
	"vortexgfx/gfx/draw3d"
	"vortexgfx/gfx/frontend"
	"vortexgfx/gfx/session"
	"vortexgfx/trace"
)

// traceFlags are the flags `trace replay` and `trace compare` share.
type traceFlags struct {
	size   int
	out    string
	stats  string
	cfg    string
	flavor string
	planes string
	host   bool
}

func (f *traceFlags) register(fs *flag.FlagSet, replay bool) {
	if replay {
		fs.IntVar(&f.size, "size", 128, "render size N (an N×N target; the trace's viewport is ignored, as in draw3d)")
		fs.StringVar(&f.out, "o", "", "write the image to this PNG (flipped vertically, as draw3d saves it)")
	}
	fs.StringVar(&f.stats, "stats", "", "write per-draw counters as JSON to this file")
	fs.StringVar(&f.cfg, "config", "", "device configuration TOML (default: the built-in configuration)")
	fs.StringVar(&f.flavor, "flavor", "", "CP flavour: emu or rtl (overrides the configuration)")
	fs.StringVar(&f.planes, "planes", "grx", "attribute-plane convention of the generation matched: grx (1/w-premultiplied) or v1")
	fs.BoolVar(&f.host, "host-binning", false, "bin on the host (draw3d's own flow) instead of the device front end")
}

// parseInterspersed parses flags that may follow the positional arguments.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

func (f *traceFlags) replay(size int) (draw3d.Device, error) {
	r := draw3d.Device{Width: size, Height: size, HostBinning: f.host}
	switch f.planes {
	case "grx":
		r.Planes = frontend.PlanesGrx
	case "v1":
		r.Planes = frontend.PlanesV1
	default:
		return r, fmt.Errorf("--planes %q: want grx or v1", f.planes)
	}
	cfg := config.Default()
	if f.cfg != "" {
		var err error
		if cfg, err = config.Load(f.cfg); err != nil {
			return r, err
		}
	}
	switch f.flavor {
	case "":
	case "emu", "rtl":
		cfg.CP.Flavor = f.flavor
	default:
		return r, fmt.Errorf("--flavor %q: want emu or rtl", f.flavor)
	}
	if err := cfg.Validate(); err != nil {
		return r, err
	}
	r.Config = cfg
	return r, nil
}

// traceStats is the --stats document.
type traceStats struct {
	Trace       string              `json:"trace"`
	Size        int                 `json:"size"`
	Flavor      string              `json:"flavor"`
	Planes      string              `json:"planes"`
	HostBinning bool                `json:"host_binning"`
	Millis      float64             `json:"ms"`
	Draws       []session.DrawStats `json:"draws"`
}

func (f *traceFlags) render(path string, size int) (*draw3d.Image, *traceStats, error) {
	r, err := f.replay(size)
	if err != nil {
		return nil, nil, err
	}
	tr, err := trace.Load(path)
	if err != nil {
		return nil, nil, err
	}
	t0 := time.Now()
	img, draws, err := r.Replay(tr)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	st := &traceStats{Trace: path, Size: size, Flavor: r.Config.CP.Flavor, Planes: f.planes, HostBinning: f.host,
		Millis: float64(time.Since(t0).Microseconds()) / 1000, Draws: draws}
	if f.stats != "" {
		b, err := json.MarshalIndent(st, "", "  ")
		if err != nil {
			return nil, nil, err
		}
		if err := os.WriteFile(f.stats, append(b, '\n'), 0o644); err != nil {
			return nil, nil, err
		}
	}
	return img, st, nil
}

// toNRGBA is the frame as draw3d's PNG writer stores it: non-premultiplied RGBA.
func toNRGBA(img *draw3d.Image) *image.NRGBA {
	out := image.NewNRGBA(image.Rect(0, 0, img.Width, img.Height))
	for i, p := range img.Pix {
		out.Pix[4*i], out.Pix[4*i+1], out.Pix[4*i+2], out.Pix[4*i+3] = byte(p>>16), byte(p>>8), byte(p), byte(p>>24)
	}
	return out
}

func runTraceReplay(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("trace replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f traceFlags
	f.register(fs, true)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: vortex trace replay FILE.cgltrace [--size N] [-o out.png] [--stats FILE.json] [--config FILE.toml] [--flavor emu|rtl] [--planes grx|v1] [--host-binning]")
		fs.PrintDefaults()
	}
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) != 1 {
		fs.Usage()
		return 2
	}
	if f.size <= 0 || f.size > 4096 {
		fmt.Fprintf(stderr, "vortex trace replay: --size %d: want 1..4096\n", f.size)
		return 2
	}
	img, st, err := f.render(pos[0], f.size)
	if err != nil {
		fmt.Fprintf(stderr, "vortex trace replay: %v\n", err)
		return 1
	}
	if f.out != "" {
		if err := writeTracePNG(f.out, toNRGBA(img)); err != nil {
			fmt.Fprintf(stderr, "vortex trace replay: %v\n", err)
			return 1
		}
	}
	fmt.Fprintf(stdout, "%s: %d draws at %dx%d in %.2f ms\n", pos[0], len(st.Draws), f.size, f.size, st.Millis)
	return 0
}

func writeTracePNG(path string, img image.Image) error {
	fh, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(fh, img); err != nil {
		fh.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	return fh.Close()
}

func runTraceCompare(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("trace compare", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f traceFlags
	f.register(fs, false)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: vortex trace compare FILE.cgltrace GOLDEN.png [--stats FILE.json] [--config FILE.toml] [--flavor emu|rtl] [--planes grx|v1] [--host-binning]")
		fs.PrintDefaults()
	}
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) != 2 {
		fs.Usage()
		return 2
	}
	ref, err := readTracePNG(pos[1])
	if err != nil {
		fmt.Fprintf(stderr, "vortex trace compare: %v\n", err)
		return 1
	}
	b := ref.Bounds()
	if b.Dx() != b.Dy() {
		fmt.Fprintf(stderr, "vortex trace compare: %s: golden is %dx%d, draw3d renders square targets\n", pos[1], b.Dx(), b.Dy())
		return 1
	}
	img, _, err := f.render(pos[0], b.Dx())
	if err != nil {
		fmt.Fprintf(stderr, "vortex trace compare: %v\n", err)
		return 1
	}
	n, maxd := 0, 0
	for y := 0; y < img.Height; y++ {
		for x := 0; x < img.Width; x++ {
			c := color.NRGBAModel.Convert(ref.At(b.Min.X+x, b.Min.Y+y)).(color.NRGBA)
			want := uint32(c.A)<<24 | uint32(c.R)<<16 | uint32(c.G)<<8 | uint32(c.B)
			got := img.Pix[y*img.Width+x]
			if got == want {
				continue
			}
			n++
			for s := 0; s < 32; s += 8 {
				d := int(got>>s&0xFF) - int(want>>s&0xFF)
				maxd = max(maxd, d, -d)
			}
		}
	}
	fmt.Fprintf(stdout, "%s vs %s at %dx%d: %d differing pixels, max channel difference %d\n", pos[0], pos[1], img.Width, img.Height, n, maxd)
	if n != 0 {
		return 1
	}
	return 0
}

func readTracePNG(path string) (image.Image, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	img, err := png.Decode(fh)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if img.Bounds().Empty() {
		return nil, fmt.Errorf("%s: %w", path, errors.New("empty image"))
	}
	return img, nil
}
