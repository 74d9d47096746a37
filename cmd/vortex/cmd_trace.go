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
	"strings"
	"time"

	"vortexgfx/config"
	"vortexgfx/device/raster"
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
	fill   string
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
	if replay {
		fs.StringVar(&f.planes, "planes", "grx", "attribute-plane convention of the generation matched: grx (1/w-premultiplied) or v1")
	} else {
		// compare has no default convention: a golden does not record which one
		// made it, so without --planes compare tries both (see runTraceCompare).
		fs.StringVar(&f.planes, "planes", "", "attribute-plane convention to compare: grx (1/w-premultiplied) or v1 (default: try both and say which matches)")
	}
	if replay {
		fs.StringVar(&f.fill, "fill", "top_left", "RASTER's rule for a pixel exactly on an edge: top_left (the documents' QE) or inclusive (the RTL QE, VX_raster_qe.sv)")
	} else {
		fs.StringVar(&f.fill, "fill", "", "RASTER tie rule to compare: top_left or inclusive (default: try both and say which matches)")
	}
	fs.BoolVar(&f.host, "host-binning", false, "bin on the host (draw3d's own flow) instead of the device front end")
}

// planesGiven reports whether --planes was on the command line (fs parsed).
func planesGiven(fs *flag.FlagSet) bool { return flagGiven(fs, "planes") }

// flagGiven reports whether the flag name was on the command line.
func flagGiven(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(fl *flag.Flag) { given = given || fl.Name == name })
	return given
}

// allFills are the RASTER tie rules compare tries without --fill, the
// default (top_left) first so that it wins ties. Both exist because the
// Vortex sources disagree on the QE (spec: rasterizer.md §7.4 and the C++
// models against the RTL's VX_raster_qe.sv; raster.FillRule), and a golden
// with a pixel centre exactly on an edge tells them apart.
var allFills = []string{"top_left", "inclusive"}

// allPlanes are the conventions compare tries without --planes, the default
// (grx) first so that it wins ties. Both exist because Vortex's goldens come
// from generations that disagree on whether colour and texcoord planes are
// premultiplied by the normalised 1/w (spec: vortex-hardware-facts.md §3.1
// rast_prim_t and plane semantics, §3.2 perspective handling).
var allPlanes = []string{"grx", "v1"}

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
	if f.fill != "" {
		if _, err := raster.ParseFillRule(f.fill); err != nil {
			return r, fmt.Errorf("--fill %q: want top_left or inclusive", f.fill)
		}
		cfg.Raster.FillRule = f.fill
	}
	if err := cfg.Validate(); err != nil {
		return r, err
	}
	r.Config = cfg
	return r, nil
}

// traceStats is the --stats document.
type traceStats struct {
	Trace  string `json:"trace"`
	Size   int    `json:"size"`
	Flavor string `json:"flavor"`
	Planes string `json:"planes"`
	// Fill is the RASTER tie rule when it is not the default top_left
	// (absent otherwise, so default replays' stats are unchanged); fill is
	// the rule always.
	Fill        string `json:"fill,omitempty"`
	fill        string
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
	st := &traceStats{Trace: path, Size: size, Flavor: r.Config.CP.Flavor, Planes: f.planes, fill: r.Config.Raster.FillRule, HostBinning: f.host,
		Millis: float64(time.Since(t0).Microseconds()) / 1000, Draws: draws}
	if st.fill != "top_left" {
		st.Fill = st.fill
	}
	return img, st, nil
}

// writeStats writes st to --stats, if given. It is separate from render because
// compare without --planes renders twice and keeps only the chosen run's stats.
func (f *traceFlags) writeStats(st *traceStats) error {
	if f.stats == "" {
		return nil
	}
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(f.stats, append(b, '\n'), 0o644)
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
		fmt.Fprintln(stderr, "usage: vortex trace replay FILE.cgltrace [--size N] [-o out.png] [--stats FILE.json] [--config FILE.toml] [--flavor emu|rtl] [--planes grx|v1] [--fill top_left|inclusive] [--host-binning]")
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
	if err == nil {
		err = f.writeStats(st)
	}
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
	// The image depends on the plane convention and nothing in the trace or the
	// PNG records it, so say which one was used and whether it was chosen.
	fmt.Fprintf(stdout, "planes: %s\n", planesNote(f.planes, planesGiven(fs)))
	fmt.Fprintf(stdout, "fill: %s\n", fillNote(st.fill, flagGiven(fs, "fill")))
	return 0
}

// fillNote is replay's plain statement of the RASTER tie rule it used.
func fillNote(fill string, given bool) string {
	if given {
		return fill + " (given by --fill)"
	}
	return fill + " (default; use --fill inclusive for goldens whose edge pixels the RTL's E >= 0 test decides; vortex trace compare tells which a golden needs)"
}

// planesNote is replay's plain statement of the convention it used.
func planesNote(planes string, given bool) string {
	if given {
		return planes + " (given by --planes)"
	}
	return planes + " (default; use --planes v1 for goldens made without 1/w-premultiplied colour and texcoord planes; vortex trace compare tells which a golden needs)"
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
		fmt.Fprintln(stderr, "usage: vortex trace compare FILE.cgltrace GOLDEN.png [--stats FILE.json] [--config FILE.toml] [--flavor emu|rtl] [--planes grx|v1] [--fill top_left|inclusive] [--host-binning]")
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
	// One run per convention: the one given, or (without --planes) each of
	// allPlanes, since the golden cannot say which generation made it.
	planes := allPlanes
	if planesGiven(fs) {
		planes = []string{f.planes}
	}
	// And one per tie rule: the one given, or each of allFills.
	fills := allFills
	if flagGiven(fs, "fill") {
		fills = []string{f.fill}
	}
	var runs []planesRun
	for _, fl := range fills {
		for _, p := range planes {
			g := f
			g.planes, g.fill = p, fl
			img, st, err := g.render(pos[0], b.Dx())
			if err != nil {
				fmt.Fprintf(stderr, "vortex trace compare: %v\n", err)
				return 1
			}
			n, maxd := diffGolden(img, ref)
			label := p
			if fl != "top_left" {
				label += ", fill " + fl
			}
			fmt.Fprintf(stdout, "%s vs %s at %dx%d (planes %s): %d differing pixels, max channel difference %d\n",
				pos[0], pos[1], img.Width, img.Height, label, n, maxd)
			runs = append(runs, planesRun{st, n, maxd})
		}
	}
	best, matched := choosePlanes(runs)
	if len(planes) > 1 {
		fmt.Fprintln(stdout, planesVerdict(runsWith(runs, runFill, runs[best].st.fill)))
	}
	if len(fills) > 1 {
		fmt.Fprintln(stdout, fillVerdict(runsWith(runs, runPlanes, runs[best].st.Planes)))
	}
	if err := f.writeStats(runs[best].st); err != nil {
		fmt.Fprintf(stderr, "vortex trace compare: %v\n", err)
		return 1
	}
	if !matched {
		return 1
	}
	return 0
}

// planesRun is one convention's render compared against the golden.
type planesRun struct {
	st      *traceStats
	n, maxd int // differing pixels, largest channel difference
}

// choosePlanes picks the run whose stats --stats writes: the first exact match
// (so grx when both match, as then the golden does not tell them apart), else
// the closest — fewest differing pixels, then smallest channel difference.
func choosePlanes(runs []planesRun) (best int, matched bool) {
	for i, r := range runs {
		if r.n == 0 {
			return i, true
		}
		if r.n < runs[best].n || r.n == runs[best].n && r.maxd < runs[best].maxd {
			best = i
		}
	}
	return best, false
}

// runsWith is the runs whose key (a plane convention or a tie rule) is want.
func runsWith(runs []planesRun, key func(planesRun) string, want string) []planesRun {
	var out []planesRun
	for _, r := range runs {
		if key(r) == want {
			out = append(out, r)
		}
	}
	return out
}

// runPlanes and runFill are the two keys compare searches.
func runPlanes(r planesRun) string { return r.st.Planes }
func runFill(r planesRun) string   { return r.st.fill }

// matched is every key the runs tried and those that matched exactly, in run
// order.
func matched(runs []planesRun, key func(planesRun) string) (names, exact []string) {
	for _, r := range runs {
		names = append(names, key(r))
		if r.n == 0 {
			exact = append(exact, key(r))
		}
	}
	return names, exact
}

// planesVerdict is compare's closing line when it tried every convention: the
// one that matched, both when the golden cannot tell them apart (a scene
// without perspective-varying colour or texcoords renders the same either
// way), or the closer one and that none matched.
func planesVerdict(runs []planesRun) string {
	names, exact := matched(runs, runPlanes)
	switch {
	case len(exact) == 0:
		best, _ := choosePlanes(runs)
		r := runs[best]
		return fmt.Sprintf("planes: neither %s matches exactly; closer is %s (%d differing pixels, max channel difference %d)",
			strings.Join(names, " nor "), r.st.Planes, r.n, r.maxd)
	case len(exact) == len(runs):
		return fmt.Sprintf("planes: %s both match exactly (this golden does not tell the conventions apart; either --planes reproduces it)",
			strings.Join(exact, " and "))
	}
	return fmt.Sprintf("planes: %s matches exactly; replay with --planes %s", exact[0], exact[0])
}

// fillVerdict is compare's line on the tie rule, over the runs of the chosen
// plane convention: the rule that matched, both when the golden has no pixel
// the rules decide differently, or the closer one and that none matched.
func fillVerdict(runs []planesRun) string {
	names, exact := matched(runs, runFill)
	switch {
	case len(exact) == 0:
		best, _ := choosePlanes(runs)
		r := runs[best]
		return fmt.Sprintf("fill: neither %s matches exactly (planes %s); closer is %s (%d differing pixels, max channel difference %d)",
			strings.Join(names, " nor "), r.st.Planes, r.st.fill, r.n, r.maxd)
	case len(exact) == len(runs):
		return fmt.Sprintf("fill: %s both match exactly (no pixel of this golden lies exactly on an edge the rules decide differently; either --fill reproduces it)",
			strings.Join(exact, " and "))
	}
	return fmt.Sprintf("fill: %s matches exactly; replay with --fill %s", exact[0], exact[0])
}

// diffGolden counts the pixels of img that differ from the golden and the
// largest channel difference among them.
func diffGolden(img *draw3d.Image, ref image.Image) (n, maxd int) {
	b := ref.Bounds()
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
	return n, maxd
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
