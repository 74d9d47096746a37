package pipe

import "fmt"

// Where decides where each direct draw of info would run with the state bound
// now, without drawing or counting anything: Route's decision and then, for a
// draw Route keeps on the device, the device backend's own gates
// (GateDeviceBackend: a program variant the backend refuses, a framebuffer it
// cannot load, a sampler without a texture; GateFlatShade and GateTwoSide on
// the legacy colours; GateNoVS and GateNoFS where no fixed-function stage
// can be generated, ffgen.go), exactly as DrawVBO decides. A
// caller that must know a draw's path before it draws (a renderer reporting
// routes up front, STRICT checks over a whole frame) asks here. Under
// Options.Strict DrawVBO would refuse every decision with Reference set.
// spec: vortexpipe §2.3.3 (per-unit routing), §3.1 (eligibility), §1.5.1
// (a gated fallback names its reason)
func (c *Context) Where(info *DrawInfo) ([]Decision, error) {
	if info == nil {
		return nil, fmt.Errorf("pipe: Where: nil draw info")
	}
	if info.Mode >= numPrimModes {
		return nil, fmt.Errorf("pipe: draw: topology %d undefined", info.Mode)
	}
	draws, err := ResolveDraws(info)
	if err != nil {
		return nil, err
	}
	st := c.Bound()
	var l *linked
	if st.VS != nil || st.FS != nil {
		if l, err = c.screen.progs.linkBound(st); err != nil {
			return nil, err
		}
	}
	out := make([]Decision, 0, len(draws))
	for i, d := range draws {
		dec := Route(c.screen.caps, c.opts, st, DrawShape{Mode: info.Mode, CountFromStreamOutput: info.CountFromStreamOutput, Draw: d})
		if !dec.Empty && l == nil {
			return nil, ErrNoProgram
		}
		if !dec.Empty && !dec.Reference {
			dl, gates, err := c.deviceLinked(st, l)
			if err == nil && len(gates) == 0 {
				_, _, gates, err = c.deviceGates(st, dl, dec.Key, info)
			}
			if err != nil {
				return nil, fmt.Errorf("pipe: draw %d: %w", i, err)
			}
			if len(gates) > 0 {
				dec.Reference, dec.Gates = true, gates
			}
		}
		out = append(out, dec)
	}
	return out, nil
}
