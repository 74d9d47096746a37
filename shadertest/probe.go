package shadertest

import (
	"fmt"
	"math"
	"strings"
)

// Tolerance is piglit_tolerance: the allowed absolute error per channel.
type Tolerance [4]float32

// DefaultTolerance is piglit's initial tolerance.
var DefaultTolerance = Tolerance{0.01, 0.01, 0.01, 0.01}

// ProbePixelFloat compares an RGBA8 pixel the way piglit_probe_pixel_rgb[a]
// does: the pixel is read as float (see ReadFloat) and a channel fails when
// |observed - expected| > tolerance, in float arithmetic (so a NaN
// expectation never fails). It checks the first comps channels.
// spec: piglit tests/util/piglit-util-gl.c (piglit_probe_pixel_rgba and its
// tolerance).
func ProbePixelFloat(obs [4]byte, exp [4]float32, tol Tolerance, comps int, api API) bool {
	for i := range comps {
		if abs32(ReadFloat(obs[i], api)-exp[i]) > tol[i] {
			return false
		}
	}
	return true
}

// ReadFloat is the float an 8-bit channel reads back as. On desktop GL
// glReadPixels(GL_FLOAT) goes through Mesa's _mesa_unorm_to_float,
// b * (1.0f/255); on GLES piglit reads bytes and divides, b / 255.0f. The
// two differ in the last place for 126 of the 256 values.
func ReadFloat(b byte, api API) float32 {
	if api == APIGLES {
		return float32(b) / 255
	}
	return float32(b) * (float32(1) / 255)
}

// UbyteExpected converts an expected float to the byte piglit compares
// against on the unsigned-byte path: the float product e*255 truncated
// toward zero. Values outside 0..255 are undefined in C; this returns what
// x86-64 code does (truncate to 32 bits, keep the low byte; NaN and
// out-of-range give 0).
func UbyteExpected(e float32) byte {
	v := e * 255
	if v != v || v >= 1<<31 || v < -(1<<31) {
		return 0
	}
	return byte(int32(v))
}

// UbyteTolerance is the byte tolerance of piglit's unsigned-byte probes:
// ceil(t*255) (3 for the default 0.01).
func UbyteTolerance(t float32) byte {
	v := math.Ceil(float64(t * 255))
	if v != v || v >= 1<<31 || v < -(1<<31) {
		return 0
	}
	return byte(int32(v))
}

// ProbeUbyte compares an RGBA8 pixel on piglit's unsigned-byte path (rect
// and whole-window probes on desktop GL, where can_probe_ubyte holds): a
// channel fails when |observed - expected| > tolerance, all in bytes.
func ProbeUbyte(obs, exp, tol [4]byte, comps int) bool {
	for i := range comps {
		d := int(obs[i]) - int(exp[i])
		if d < 0 {
			d = -d
		}
		if d > int(tol[i]) {
			return false
		}
	}
	return true
}

// ProbeDepth is piglit_probe_pixel_depth: |observed - expected| < 0.01,
// whatever the tolerance command said.
func ProbeDepth(obs, exp float32) bool {
	return math.Abs(float64(obs-exp)) < 0.01
}

func abs32(v float32) float32 {
	return math.Float32frombits(math.Float32bits(v) &^ (1 << 31))
}

// probeWindow resolves a probe command to a window rectangle: relative
// coordinates are multiplied by the window size in float and truncated;
// single relative pixels are clamped to the last row and column; "probe
// all" covers the window.
func probeWindow(p *ProbeCmd, w, h int) (x, y, pw, ph int) {
	switch {
	case p.Kind == ProbeAll:
		return 0, 0, w, h
	case p.Relative && p.Kind == ProbePixel:
		x, y = truncInt(p.RX*float32(w)), truncInt(p.RY*float32(h))
		if x >= w {
			x = w - 1
		}
		if y >= h {
			y = h - 1
		}
		return x, y, 1, 1
	case p.Relative:
		return truncInt(p.RX * float32(w)), truncInt(p.RY * float32(h)),
			truncInt(p.RW * float32(w)), truncInt(p.RH * float32(h))
	}
	return p.X, p.Y, p.W, p.H
}

// truncInt is C's float to int conversion for in-range values.
func truncInt(v float32) int {
	if v != v || v >= 1<<31 || v < -(1<<31) {
		return math.MinInt32
	}
	return int(int32(v))
}

// evalProbe reads and checks a colour probe. It returns "" on success or
// piglit's description of the first bad pixel. Rectangle probes take the
// unsigned-byte path on desktop GL and the float path on GLES, where
// can_probe_ubyte fails for want of GL_ARB_framebuffer_object.
func evalProbe(c Context, p *ProbeCmd, tol Tolerance, w, h int, api API, buf *[]byte) (string, error) {
	x, y, pw, ph := probeWindow(p, w, h)
	if pw <= 0 || ph <= 0 {
		if pw < 0 || ph < 0 {
			return fmt.Sprintf("probe rectangle (%d, %d, %d, %d) has a negative size", x, y, pw, ph), nil
		}
		return "", nil
	}
	if x < 0 || y < 0 || x+pw > w || y+ph > h {
		return fmt.Sprintf("probe rectangle (%d, %d, %d, %d) leaves the %dx%d window", x, y, pw, ph, w, h), nil
	}
	n := pw * ph * 4
	if cap(*buf) < n {
		*buf = make([]byte, n)
	}
	px := (*buf)[:n]
	if err := c.ReadPixels(x, y, pw, ph, px); err != nil {
		return "", err
	}
	comps := p.Components
	if p.Kind == ProbePixel || api == APIGLES {
		for j := range ph {
			for i := range pw {
				var obs [4]byte
				copy(obs[:], px[(j*pw+i)*4:])
				if ProbePixelFloat(obs, p.Expected, tol, comps, api) {
					continue
				}
				var o [4]float32
				for k := range o {
					o[k] = ReadFloat(obs[k], api)
				}
				return fmt.Sprintf("probe color at (%d,%d): expected %s, observed %s", x+i, y+j,
					floatList(p.Expected[:comps]), floatList(o[:comps])), nil
			}
		}
		return "", nil
	}
	var exp, tb [4]byte
	for i := range 4 {
		exp[i] = UbyteExpected(p.Expected[i])
		tb[i] = UbyteTolerance(tol[i])
	}
	for j := range ph {
		for i := range pw {
			var obs [4]byte
			copy(obs[:], px[(j*pw+i)*4:])
			if !ProbeUbyte(obs, exp, tb, comps) {
				return fmt.Sprintf("probe color at (%d,%d): expected %s, observed %s", x+i, y+j,
					byteList(exp[:comps]), byteList(obs[:comps])), nil
			}
		}
	}
	return "", nil
}

func floatList(v []float32) string {
	s := make([]string, len(v))
	for i, f := range v {
		s[i] = fmt.Sprintf("%f", f)
	}
	return strings.Join(s, " ")
}

func byteList(v []byte) string {
	s := make([]string, len(v))
	for i, b := range v {
		s[i] = fmt.Sprint(b)
	}
	return strings.Join(s, " ")
}
