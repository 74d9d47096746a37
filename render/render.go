package render

import (
	"context"
	"errors"
	"fmt"
	"image"
	"runtime"
	"strings"
	"time"
	"vortexgfx/gfx/session"

	"vortexgfx/config"
	"vortexgfx/gl/msaa"
	"vortexgfx/ref"
	"vortexgfx/scene"
)

// Path selects where draws run (README "vortex render", --path).
type Path string

// Paths.
const (
	PathReference Path = "reference"
	PathDevice    Path = "device"
)

// ErrSampleCount is returned for a sample count other than 1, 2, 4, 8 or 16.
var ErrSampleCount = errors.New("render: unsupported sample count")

// ErrUniform is returned with Options.Strict for a scene uniform the program
// does not have, and for a value that cannot be converted to the declared type.
var ErrUniform = errors.New("render: uniform mismatch")

// ErrIgnoredFeature is returned with Options.Strict for a scene whose loader
// left a feature out (scene.Description.Warnings).
var ErrIgnoredFeature = errors.New("render: scene feature not implemented")

// Options configure a render. The zero value renders frame 0 of the scene as
// described, on the reference path.
type Options struct {
	// Path is PathReference (or empty) or PathDevice.
	Path Path
	// Width and Height override the scene's image size when both are > 0.
	Width, Height int
	// Frames is the number of frames (0 means 1); FirstFrame the first index.
	Frames, FirstFrame int
	// MSAA overrides the scene's sample count when > 0 (1, 2, 4, 8 or 16).
	MSAA int
	// Strict turns every silent fallback or adaptation into an error: a
	// feature of the scene's files the loader left out (ErrIgnoredFeature), a
	// scene uniform the program does not have, and on the device path a draw
	// routed to the reference renderer (ErrRouted).
	Strict bool
	// Config is the device configuration for PathDevice (nil: defaults).
	Config *config.Config
	// Workers is the host worker count (0: runtime.NumCPU()): ref's fragment
	// workers and, on PathDevice, the raster's bin walkers unless Config sets
	// raster.workers.
	Workers int
	// Stats enables the per-draw counters (see the package doc).
	Stats bool
	// Heatmap keeps the per-pixel count of fragments shaded in the last frame.
	Heatmap bool
	// Progress, when set, is called after each frame with the frames done.
	Progress func(done, total int)
}

// Frame is one rendered image, row 0 at the top.
type Frame struct {
	Index int
	Image *image.NRGBA
}

// Renderer holds a scene prepared for rendering: programs compiled, meshes and
// textures uploaded, the target allocated. It is not safe for concurrent use.
type Renderer struct {
	desc          *scene.Description
	opts          Options
	width, height int
	msaa          int
	draws         []*drawObj
	order         []int        // the frame's draw order (scene.Description.DrawOrder)
	offsets       [][2]float32 // viewport offset per sample pass
	resolve       *image.NRGBA
	heat          []uint32
	stats         Stats
	dev           *deviceRun // the device path (nil: reference)
	ref           *refRun    // the reference path (nil: device)
}

// New prepares desc for rendering with opts: it validates the options,
// compiles every draw's program and uploads meshes and textures. Nothing is
// drawn.
func New(ctx context.Context, desc *scene.Description, opts Options) (*Renderer, error) {
	if desc == nil {
		return nil, errors.New("render: nil scene description")
	}
	switch opts.Path {
	case "", PathReference:
	case PathDevice:
	default:
		return nil, fmt.Errorf("render: unknown path %q (want reference or device)", opts.Path)
	}
	r := &Renderer{desc: desc, opts: opts, width: desc.Width, height: desc.Height, msaa: desc.MSAA}
	if opts.Width > 0 && opts.Height > 0 {
		r.width, r.height = opts.Width, opts.Height
	}
	if r.width < 1 || r.height < 1 || r.width > ref.MaxTargetSize || r.height > ref.MaxTargetSize {
		return nil, fmt.Errorf("render: image size %dx%d outside 1..%d", r.width, r.height, ref.MaxTargetSize)
	}
	if opts.MSAA > 0 {
		r.msaa = opts.MSAA
	}
	if r.msaa == 0 {
		r.msaa = 1
	}
	if !msaa.Valid(r.msaa) {
		return nil, fmt.Errorf("%w: %d (1, 2, 4, 8 or 16: the device's software raster takes each, the reference path supersamples)", ErrSampleCount, r.msaa)
	}
	if r.opts.Workers <= 0 {
		r.opts.Workers = runtime.NumCPU()
	}
	r.offsets = sampleOffsets(r.msaa)
	r.resolve = image.NewNRGBA(image.Rect(0, 0, r.width, r.height))
	if opts.Heatmap {
		r.heat = make([]uint32, r.width*r.height)
	}
	r.stats = Stats{Path: string(PathReference), Route: "reference: every draw on the reference renderer (--path reference)",
		Width: r.width, Height: r.height, MSAA: r.msaa, Warnings: append([]string(nil), desc.Warnings...)}
	if opts.Strict && len(desc.Warnings) > 0 {
		return nil, fmt.Errorf("%w (--strict): %s", ErrIgnoredFeature, strings.Join(desc.Warnings, "; "))
	}
	for i := range desc.Draws {
		d, err := r.prepareDraw(i)
		if err != nil {
			return nil, err
		}
		r.draws = append(r.draws, d)
		r.stats.Draws = append(r.stats.Draws, DrawStats{Name: d.name, Route: "reference"})
	}
	if opts.Path == PathDevice {
		if err := r.openDevice(); err != nil {
			return nil, err
		}
	}
	if r.dev == nil {
		if err := r.openReference(); err != nil {
			r.Close()
			return nil, err
		}
	}
	return r, nil
}

// sampleOffsets returns each sample pass's viewport offset: the shift that
// puts a pass's pixel-centre sample on the pattern's sample position. The
// pattern is in 1/16 pixel from the corner at the lowest raster x and y, and
// the raster's rows are ref's and the device's rows (row 0 the bottom), so a
// sample at (sx, sy) is window position (x + sx/16, y + sy/16) — where the
// device's software raster tests it. The positions are gl/msaa's standard
// pattern of n samples (4: vortexpipe's rotated grid). spec: vortexpipe
// §3.4.1 (the 4x pattern)
func sampleOffsets(n int) [][2]float32 {
	if n == 1 {
		return [][2]float32{{0, 0}}
	}
	out := make([][2]float32, n)
	for i := range n {
		sx, sy := msaa.Position(n, i)
		out[i] = [2]float32{0.5 - float32(sx)/16, 0.5 - float32(sy)/16}
	}
	return out
}

// Size returns the rendered image size.
func (r *Renderer) Size() (w, h int) { return r.width, r.height }

// Samples returns the sample count (1, or 2, 4, 8, 16: on the device's
// software raster, supersampled on the reference path).
func (r *Renderer) Samples() int { return r.msaa }

// Triangles returns the number of triangles one frame submits.
func (r *Renderer) Triangles() int {
	n := 0
	for _, d := range r.draws {
		n += d.triangles
	}
	return n
}

// Draw renders frame into the renderer's target: for each sample pass it
// clears colour, depth and stencil to the scene's values and runs every draw
// with that frame's uniforms. It returns when the frame is complete (the
// reference renderer is synchronous), so the time it takes is the benchmark's
// clear + draw + finish. Read the image with Image.
func (r *Renderer) Draw(ctx context.Context, frame int) error {
	for _, d := range r.draws {
		if err := r.setUniforms(d, frame); err != nil {
			return err
		}
		if sd := &r.desc.Draws[d.index]; sd.Animated() {
			if err := r.setVertices(d, sd.MeshAt(frame)); err != nil {
				return fmt.Errorf("render: frame %d: draw %d (%s): %w", frame, d.index, d.name, err)
			}
		}
	}
	r.order = r.desc.DrawOrder(frame)
	if r.heat != nil {
		clear(r.heat)
	}
	start := time.Now()
	if r.dev != nil {
		if err := r.drawDevice(); err != nil {
			return fmt.Errorf("render: frame %d: %w", frame, err)
		}
		r.stats.Frames++
		r.stats.Elapsed += time.Since(start)
		return nil
	}
	if err := r.drawReference(ctx, frame); err != nil {
		return err
	}
	r.stats.Frames++
	r.stats.Elapsed += time.Since(start)
	return nil
}

// setVertices lays out a morphed mesh's vertices for this frame and writes
// them into the draw's vertex buffer on the active path.
func (r *Renderer) setVertices(d *drawObj, m *scene.Mesh) error {
	d.in.Data = d.layVertices(m, d.in.Data)
	var pd *pipeDraw
	switch {
	case r.dev != nil:
		pd = r.dev.draws[d.index]
	case r.ref != nil:
		pd = r.ref.draws[d.index]
	}
	if pd == nil {
		return nil
	}
	return pd.setVertices(d.in.Data)
}

// Image reads the last frame back (resolving supersampled passes), row 0 at
// the top. The returned image is reused by the next call. On either path
// the frame is read back here, not by Draw; a read-back that fails leaves
// the previous image, and ReadImage reports why.
func (r *Renderer) Image() *image.NRGBA {
	img, _ := r.ReadImage()
	return img
}

// ReadImage is Image with the read-back's error.
func (r *Renderer) ReadImage() (*image.NRGBA, error) {
	if r.dev != nil {
		if r.dev.stale {
			r.dev.stale = false
			r.dev.readErr = r.readDevice()
		}
		return r.dev.img, r.dev.readErr
	}
	if err := r.ref.readReference(); err != nil {
		return r.resolve, err
	}
	r.refImage()
	return r.resolve, nil
}

// Heatmap returns the per-pixel count of fragments shaded in the last frame
// (row 0 at the top, summed over sample passes), or nil without
// Options.Heatmap.
func (r *Renderer) Heatmap() (counts []uint32, w, h int) {
	if r.heat == nil {
		return nil, 0, 0
	}
	out := make([]uint32, len(r.heat))
	for y := range r.height {
		copy(out[y*r.width:(y+1)*r.width], r.heat[(r.height-1-y)*r.width:(r.height-y)*r.width])
	}
	return out, r.width, r.height
}

// Stats returns the counters so far (a copy).
func (r *Renderer) Stats() Stats {
	s := r.stats
	s.Draws = append([]DrawStats(nil), r.stats.Draws...)
	for i := range s.Draws {
		s.Draws[i].Device = s.Draws[i].Device.clone()
	}
	s.LastFrame = r.stats.LastFrame.clone()
	s.Kernels = session.AddKernels(r.stats.Kernels, nil)
	s.Notes = append([]string(nil), r.stats.Notes...)
	s.Warnings = append([]string(nil), r.stats.Warnings...)
	return s
}

// Render renders opts.Frames frames of desc (from opts.FirstFrame) and returns
// them with the counters. Programs are compiled once for all frames.
func Render(ctx context.Context, desc *scene.Description, opts Options) ([]Frame, Stats, error) {
	r, err := New(ctx, desc, opts)
	if err != nil {
		return nil, Stats{}, err
	}
	defer r.Close()
	n := max(opts.Frames, 1)
	frames := make([]Frame, 0, n)
	for i := range n {
		f := opts.FirstFrame + i
		if err := r.Draw(ctx, f); err != nil {
			return nil, r.Stats(), err
		}
		img, err := r.ReadImage()
		if err != nil {
			return nil, r.Stats(), err
		}
		cp := image.NewNRGBA(img.Rect)
		copy(cp.Pix, img.Pix)
		frames = append(frames, Frame{Index: f, Image: cp})
		if opts.Progress != nil {
			opts.Progress(i+1, n)
		}
	}
	return frames, r.Stats(), nil
}
