package swom_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"vortexgfx/abi"
	"vortexgfx/device/om"
	"vortexgfx/device/swom"
	"vortexgfx/gl/blend"
	"vortexgfx/gl/compare"
	"vortexgfx/gl/format"
	"vortexgfx/gl/logicop"
	"vortexgfx/gl/stencil"
)

// flat is a physical memory of one slice for the FF OM.
type flat []byte

func (m flat) View(addr uint64, n int) ([]byte, error) {
	if addr+uint64(n) > uint64(len(m)) {
		return nil, fmt.Errorf("view [0x%x, +%d) outside %d bytes", addr, n, len(m))
	}
	return m[addr : addr+uint64(n)], nil
}

const tw, th = 4, 3

// randomFF draws a state the FF OM can run.
func randomFF(r *rand.Rand, targets int) swom.State {
	s := swom.State{Width: tw, Height: th, Samples: 1, NumTargets: targets, HasDS: r.IntN(4) != 0, DSAddr: 0}
	for i := 0; i < targets; i++ {
		f := format.BGRA8
		if r.IntN(2) == 0 {
			f = format.RGBA8
		}
		b := swom.Blend{Enable: r.IntN(2) == 0, WriteMask: uint8(r.IntN(16)),
			EqRGB: blend.Equation(r.IntN(5)), EqA: blend.Equation(r.IntN(5)),
			SrcRGB: blend.Factor(r.IntN(15)), SrcA: blend.Factor(r.IntN(15)), DstRGB: blend.Factor(r.IntN(15)), DstA: blend.Factor(r.IntN(15))}
		s.Targets[i] = swom.Target{Format: f, Addr: uint64(256 * (i + 1)), Blend: b}
	}
	s.DepthTest, s.DepthFunc, s.DepthWrite = r.IntN(4) != 0, compare.Func(r.IntN(8)), r.IntN(2) == 0
	s.StencilTest = r.IntN(2) == 0
	for _, f := range []*swom.Face{&s.Front, &s.Back} {
		*f = swom.Face{Func: compare.Func(r.IntN(8)), Fail: stencil.Op(r.IntN(8)), ZFail: stencil.Op(r.IntN(8)), ZPass: stencil.Op(r.IntN(8)),
			Ref: uint8(r.IntN(4)), ReadMask: uint8(r.Uint32()), WriteMask: uint8(r.Uint32())}
	}
	if targets > 1 {
		s.DepthWrite = false
		s.Front.WriteMask, s.Back.WriteMask = 0, 0
	}
	s.LogicOpEnable, s.LogicOp = r.IntN(5) == 0, logicop.Op(r.IntN(16))
	for c := range s.Constant {
		s.Constant[c] = float32(r.IntN(256)) / 255
	}
	return s
}

// TestMergeMatchesFF runs random FF-encodable states and fragments through the
// FF OM (device/om, programmed with FFDCRs) and through the software merger on
// the same planes: every byte must match (a draw forced to software renders the
// FF image exactly). spec: vortexpipe §2.3.3 (VORTEX_FORCE_SW A/B), facts §5
func TestMergeMatchesFF(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for iter := range 400 {
		s := randomFF(r, 1+iter%abi.OMMaxRT)
		if why := s.FFWhy(); why != "" {
			t.Fatalf("iter %d: random FF state refused: %s", iter, why)
		}
		pairs, err := s.FFDCRs()
		if err != nil {
			t.Fatal(err)
		}
		var st om.State
		for _, p := range pairs {
			st.Write(p.Addr, p.Value)
		}
		ff, sw := make(flat, 2048), make(flat, 2048)
		for i := range ff {
			ff[i] = byte(r.Uint32())
		}
		copy(sw, ff)
		units := make([]*om.Unit, s.NumTargets)
		for i := range units {
			if units[i], err = om.Bind(ff, &st, i, tw, th); err != nil {
				t.Fatal(err)
			}
		}
		for range 12 {
			x, y := r.IntN(tw), r.IntN(th)
			var f swom.Fragment
			f.Back = r.IntN(2) == 0
			z := swom.PlaneDepth(r.Uint32() & abi.DepthMask)
			if r.IntN(2) == 0 { // near the stored depth
				z = swom.PlaneDepth(binary.LittleEndian.Uint32(sw[4*(y*tw+x):]) + uint32(r.IntN(3)) - 1)
			}
			for i := 0; i < s.NumTargets; i++ {
				var ch [4]uint32
				for c := range 4 {
					ch[c] = uint32(r.IntN(256))
					f.Color[i][c] = math.Float32bits(float32(ch[c]) / 255)
				}
				word := swom.PackColor(s.Targets[i].Format, ch[0], ch[1], ch[2], ch[3])
				units[i].Export(x, y, b2u(f.Back), word, z.Z24)
			}
			var tex [swom.MaxTargets][]byte
			for i := 0; i < s.NumTargets; i++ {
				o := s.Targets[i].Addr + uint64(4*(y*tw+x))
				tex[i] = sw[o : o+4]
			}
			ds := sw[4*(y*tw+x):][:4]
			if s.NumTargets == 1 {
				s.Merge(&f, z, ds, &tex)
				continue
			}
			// The FF unit re-runs the (write-free) depth/stencil stage per
			// export; the software merger runs it once for all targets.
			s.Merge(&f, z, ds, &tex)
		}
		if !s.HasDS {
			copy(sw[:4*tw*th], ff[:4*tw*th])
		}
		if !bytes.Equal(ff, sw) {
			for i := range ff {
				if ff[i] != sw[i] {
					t.Fatalf("iter %d: byte %d: FF %02x, software %02x (state %+v)", iter, i, ff[i], sw[i], s)
				}
			}
		}
	}
}

func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}
