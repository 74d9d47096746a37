package device

import (
	"context"
	"fmt"
	"maps"
	"regexp"
	"sort"
	"strings"
	"sync"

	"vortexgfx/config"
	"vortexgfx/gfx/session"
	"vortexgfx/pipe"
	"vortexgfx/shadertest"
	"vortexgfx/shadertest/reference"
)

// Options configure the device back end.
type Options struct {
	// Config is the device model's configuration (config.Default() when
	// nil).
	Config *config.Config
	// Strict turns every draw the device cannot take into an error naming
	// the reason (the test fails) instead of a counted fallback.
	// spec: vortexpipe-driver §1.5.1 (STRICT)
	Strict bool
	// Compare runs each test on a second reference context as well and
	// compares the two windows at every read-back (Record.Compared,
	// Record.DiffPixels).
	Compare bool
}

// Record is what one test's contexts did: the draws that ran on the device,
// the draws routed to the reference renderer by reason, and (with
// Options.Compare) how the device window compared with the reference
// renderer's at the read-backs.
type Record struct {
	DeviceDraws int
	// SWTex, SWOM and SWRaster count the device draws whose TEX, OM or
	// RASTER ran as the device's software unit (gfx.DrawRoute).
	SWTex, SWOM, SWRaster int
	Routed                map[string]int
	// VSISA and VSIR count, on a cores = "isa" device, the device draws
	// whose vertex stage ran as machine code and those whose vertex stage
	// codegen refused (run on the IR executor), VSWhy the refusals by reason.
	VSISA, VSIR int
	VSWhy       map[string]int
	// FSISA, FSIR and FSWhy are the same for the fragment stage (the §3.4
	// wrapper and the program).
	FSISA, FSIR int
	FSWhy       map[string]int
	// ISA sums the device draws' machine-code instruction counts
	// (session.ISAStats; nil on a cores = "ir" device).
	ISA *session.ISAStats
	// Compared counts the read-backs compared; DiffPixels is the most
	// pixels that differed at one of them (a colour channel by more than
	// ColorTolerance, or depth by more than DepthTolerance), and MaxDiff
	// the largest colour channel difference seen.
	Compared   int
	DiffPixels int
	MaxDiff    int
}

// RoutedDraws is the number of draws routed to the reference renderer.
func (r *Record) RoutedDraws() int {
	n := 0
	for _, c := range r.Routed {
		n += c
	}
	return n
}

// OnDevice reports whether the test drew and every draw ran on the device.
func (r *Record) OnDevice() bool { return r.DeviceDraws > 0 && r.RoutedDraws() == 0 }

func (r *Record) add(o *Record) {
	r.DeviceDraws += o.DeviceDraws
	r.SWTex += o.SWTex
	r.SWOM += o.SWOM
	r.SWRaster += o.SWRaster
	r.VSISA += o.VSISA
	r.VSIR += o.VSIR
	r.FSISA += o.FSISA
	r.FSIR += o.FSIR
	r.ISA = r.ISA.Add(o.ISA)
	for _, m := range []struct {
		dst *map[string]int
		src map[string]int
	}{{&r.VSWhy, o.VSWhy}, {&r.FSWhy, o.FSWhy}} {
		for k, v := range m.src {
			if *m.dst == nil {
				*m.dst = map[string]int{}
			}
			(*m.dst)[k] += v
		}
	}
	if len(o.Routed) > 0 && r.Routed == nil {
		r.Routed = map[string]int{}
	}
	for k, v := range o.Routed {
		r.Routed[k] += v
	}
	r.Compared += o.Compared
	r.DiffPixels += o.DiffPixels
	r.MaxDiff = max(r.MaxDiff, o.MaxDiff)
}

func (r *Record) route(why string) {
	if r.Routed == nil {
		r.Routed = map[string]int{}
	}
	r.Routed[why]++
}

// Reasons returns the routing reasons, most frequent first (ties by name).
func (r *Record) Reasons() []string {
	keys := make([]string, 0, len(r.Routed))
	for k := range maps.Keys(r.Routed) {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := r.Routed[keys[i]], r.Routed[keys[j]]
		if a != b {
			return a > b
		}
		return keys[i] < keys[j]
	})
	return keys
}

// String summarises the record on one line.
func (r *Record) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d draws on the device (software TEX %d, OM %d, RASTER %d), %d routed to the reference renderer",
		r.DeviceDraws, r.SWTex, r.SWOM, r.SWRaster, r.RoutedDraws())
	for i, k := range r.Reasons() {
		if i == 0 {
			b.WriteString(": ")
		} else {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%d× %s", r.Routed[k], k)
	}
	return b.String()
}

// vsAt matches the program and pc prefix of a codegen refusal.
var vsAt = regexp.MustCompile(`^.*?codegen: (main@\d+: )?`)

// vertexStage counts where a device draw's vertex and fragment stages ran
// (cores = "isa").
func (r *Record) vertexStage(rt session.Route) {
	stage := func(isa bool, prefix string, nISA, nIR *int, whys *map[string]int) {
		if isa {
			*nISA++
			return
		}
		for _, w := range rt.Why {
			if why, ok := strings.CutPrefix(w, prefix); ok {
				*nIR++
				if *whys == nil {
					*whys = map[string]int{}
				}
				(*whys)[vsAt.ReplaceAllString(why, "")]++
			}
		}
	}
	stage(rt.VSISA, "vs: IR executor: ", &r.VSISA, &r.VSIR, &r.VSWhy)
	stage(rt.FSISA, "fs: IR executor: ", &r.FSISA, &r.FSIR, &r.FSWhy)
}

// ColorTolerance is the largest colour channel difference (of 255) the
// comparison ignores: the device interpolates in its own fixed-point setup,
// the reference renderer in float.
const ColorTolerance = 2

// DepthTolerance is the largest depth difference (in units of 2^-24) the
// comparison ignores: the device interpolates depth in fixed point.
const DepthTolerance = 16

// Backend runs shader tests on the device model, wrapping the reference back
// end. It is a shadertest.Backend; Test returns one whose contexts count
// into a record of their own.
type Backend struct {
	opts Options
	cfg  config.Config
	// ref is the reference back end itself (the --compare shadow); dev the
	// same back end drawing through a screen over the device model.
	ref, dev *reference.Backend
	mu       sync.Mutex
	// total adds up every context's record; tests counts the contexts.
	total Record
	tests int
}

// New returns the device back end.
func New(opts Options) *Backend {
	cfg := config.Default()
	if opts.Config != nil {
		cfg = *opts.Config
	}
	b := &Backend{opts: opts, cfg: cfg, ref: reference.New()}
	b.dev = &reference.Backend{Screen: func() (*pipe.Screen, error) {
		s, err := pipe.OpenScreen(b.cfg, pipe.Options{Strict: opts.Strict})
		if err != nil {
			return nil, fmt.Errorf("device: %w", err)
		}
		return s, nil
	}}
	return b
}

// Caps implements shadertest.Backend: the reference back end's (a draw the
// device cannot take still runs).
func (b *Backend) Caps() shadertest.Caps { return b.ref.Caps() }

// NewContext implements shadertest.Backend.
func (b *Backend) NewContext(ctx context.Context, cfg shadertest.ContextConfig) (shadertest.Context, error) {
	return b.newContext(ctx, cfg, nil)
}

// Total returns the sum of the records of every closed context and the
// number of contexts.
func (b *Backend) Total() (Record, int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	t := b.total
	t.Routed = maps.Clone(b.total.Routed)
	return t, b.tests
}

// Test returns a back end whose contexts (one per test, as the runner makes
// them) add their draws and comparisons into rec as they close, as well as
// into b's total. Run one test per Test back end to know what each did.
func (b *Backend) Test(rec *Record) shadertest.Backend { return &testBackend{b: b, rec: rec} }

type testBackend struct {
	b   *Backend
	rec *Record
}

func (t *testBackend) Caps() shadertest.Caps { return t.b.Caps() }

// ComputeOptions implements shadertest.ComputeBackend.
func (t *testBackend) ComputeOptions() shadertest.ComputeOptions { return t.b.ComputeOptions() }

// ComputeOptions implements shadertest.ComputeBackend: compute tests run with
// the configuration's [device] cores, and fail rather than fall back to the IR
// executor under Options.Strict.
func (b *Backend) ComputeOptions() shadertest.ComputeOptions {
	return shadertest.ComputeOptions{Cores: b.cfg.Device.Cores, Strict: b.opts.Strict}
}

func (t *testBackend) NewContext(ctx context.Context, cfg shadertest.ContextConfig) (shadertest.Context, error) {
	return t.b.newContext(ctx, cfg, t.rec)
}

// closed adds a context's record to the total and to its test's record.
func (b *Backend) closed(r *Record, into *Record) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.total.add(r)
	b.tests++
	if into != nil {
		into.add(r)
	}
}
