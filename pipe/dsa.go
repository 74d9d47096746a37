package pipe

import (
	"fmt"

	"vortexgfx/abi"
	"vortexgfx/gl/compare"
	"vortexgfx/gl/stencil"
)

// StencilState is one face of the stencil test (pipe_stencil_state).
type StencilState struct {
	Enabled                  bool
	Func                     compare.Func
	FailOp, ZFailOp, ZPassOp stencil.Op
	ValueMask, WriteMask     uint8
}

// DepthStencilAlphaState is the depth/stencil/alpha CSO description
// (pipe_depth_stencil_alpha_state). Stencil[1] is the back face, used only when its
// Enabled is set (otherwise the front state applies to both faces, as in Gallium).
type DepthStencilAlphaState struct {
	DepthEnabled   bool
	DepthWrite     bool
	DepthFunc      compare.Func
	Stencil        [2]StencilState
	AlphaEnabled   bool
	AlphaFunc      compare.Func
	AlphaRef       float32
	DepthBounds    bool
	DepthBoundsMin float64
	DepthBoundsMax float64
}

// DSA is a depth/stencil/alpha CSO captured as OM register words at creation: a
// draw writes them to the DCRs unchanged. Flags lists the state the merger cannot
// express (alpha test, depth bounds) in Routes: they run on the software
// merger. spec: vortexpipe §1.4,
// §3.3 step 2, §3.7; vortex-hardware-facts §5
type DSA struct {
	State DepthStencilAlphaState

	DepthFunc        uint32 // OM_DEPTH_FUNC (abi.CompareFunc)
	DepthWriteMask   uint32 // OM_DEPTH_WRITEMASK
	StencilFunc      uint32 // OM_STENCIL_FUNC, front [15:0], back [31:16]
	StencilZPass     uint32
	StencilZFail     uint32
	StencilFail      uint32
	StencilMask      uint32
	StencilWriteMask uint32

	// EARLYZ_SAFE inputs: the compare is monotone (LESS/LEQUAL/GREATER/GEQUAL with
	// the test on) and no stencil value can change. spec: vortexpipe §3.3 step 2
	MonotoneDepth bool
	StencilWrites bool

	// Routes lists what runs on the software merger (alpha test, depth
	// bounds): the draw stays on the device with OM in software.
	Routes []Reason
	Flags  []Reason
}

// stencilFace returns a face's {func, fail, zfail, zpass} codes; a disabled face is
// ALWAYS with KEEP everywhere (the OM's "stencil disabled" state, facts §5).
func stencilFace(s StencilState) ([4]uint32, error) {
	if !s.Enabled {
		return [4]uint32{uint32(abi.CmpAlways), uint32(abi.StencilKeep), uint32(abi.StencilKeep), uint32(abi.StencilKeep)}, nil
	}
	f, ok := s.Func.OM()
	if !ok {
		return [4]uint32{}, fmt.Errorf("stencil func %d undefined", s.Func)
	}
	out := [4]uint32{uint32(f)}
	for i, o := range [3]stencil.Op{s.FailOp, s.ZFailOp, s.ZPassOp} {
		v, ok := o.OM()
		if !ok {
			return [4]uint32{}, fmt.Errorf("stencil op %d undefined", o)
		}
		out[i+1] = uint32(v)
	}
	return out, nil
}

// NewDSA captures s. It fails on an undefined enum value.
// spec: vortexpipe §1.4 (vp_create_dsa_state)
func NewDSA(s DepthStencilAlphaState) (*DSA, error) {
	d := &DSA{State: s, DepthFunc: uint32(abi.CmpAlways)}
	if s.DepthEnabled {
		f, ok := s.DepthFunc.OM()
		if !ok {
			return nil, fmt.Errorf("pipe: dsa: depth func %d undefined", s.DepthFunc)
		}
		d.DepthFunc = uint32(f)
		if s.DepthWrite {
			d.DepthWriteMask = 1
		}
		switch s.DepthFunc {
		case compare.Less, compare.LessEqual, compare.Greater, compare.GreaterEqual:
			d.MonotoneDepth = true
		}
	}
	front := s.Stencil[0]
	back := s.Stencil[1]
	if !back.Enabled {
		back = front
	}
	var words [2][4]uint32
	var masks, wmasks [2]uint32
	for i, face := range [2]StencilState{front, back} {
		w, err := stencilFace(face)
		if err != nil {
			return nil, fmt.Errorf("pipe: dsa: face %d: %w", i, err)
		}
		words[i] = w
		masks[i] = 0xFF
		if face.Enabled {
			masks[i] = uint32(face.ValueMask)
			wmasks[i] = uint32(face.WriteMask)
			if face.WriteMask != 0 && (face.FailOp != stencil.Keep || face.ZFailOp != stencil.Keep || face.ZPassOp != stencil.Keep) {
				d.StencilWrites = true
			}
		}
	}
	d.StencilFunc = abi.PackHalves(words[0][0], words[1][0])
	d.StencilFail = abi.PackHalves(words[0][1], words[1][1])
	d.StencilZFail = abi.PackHalves(words[0][2], words[1][2])
	d.StencilZPass = abi.PackHalves(words[0][3], words[1][3])
	d.StencilMask = abi.PackHalves(masks[0], masks[1])
	d.StencilWriteMask = abi.PackHalves(wmasks[0], wmasks[1])
	if s.AlphaEnabled {
		if _, ok := s.AlphaFunc.OM(); !ok {
			return nil, fmt.Errorf("pipe: dsa: alpha func %d undefined", s.AlphaFunc)
		}
		if s.AlphaFunc != compare.Always {
			d.Routes = append(d.Routes, Reason{RouteAlphaTest, "func " + s.AlphaFunc.String()})
		}
	}
	if s.DepthBounds {
		d.Routes = append(d.Routes, Reason{RouteDepthBounds, fmt.Sprintf("[%g, %g]", s.DepthBoundsMin, s.DepthBoundsMax)})
	}
	return d, nil
}

// StencilEnabled reports whether either face runs the stencil test.
func (d *DSA) StencilEnabled() bool { return d.State.Stencil[0].Enabled }

// WritesDepthOrStencil reports whether the CSO can change the depth/stencil plane.
func (d *DSA) WritesDepthOrStencil() bool { return d.DepthWriteMask != 0 || d.StencilWrites }

// EarlyZSafe is the OM_EARLYZ_SAFE word: early-Z culls strictly-behind fragments
// only when the depth compare is monotone, no stencil value can change and the
// fragment shader does not write its depth. spec: vortexpipe §3.3 step 2;
// rasterizer §7.5
func (d *DSA) EarlyZSafe(fsWritesDepth bool) uint32 {
	if d.MonotoneDepth && !d.StencilWrites && !fsWritesDepth {
		return 1
	}
	return 0
}

// PackStencilRef packs the front and back stencil references (pipe_stencil_ref)
// into OM_STENCIL_REF. spec: vortex-hardware-facts §2 (front low, back high)
func PackStencilRef(front, back uint8) uint32 { return abi.PackHalves(uint32(front), uint32(back)) }
