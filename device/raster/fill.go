package raster

import "fmt"

// FillRule is the quad evaluator's rule for a pixel whose edge value is
// exactly zero: which of two triangles sharing an edge owns the pixels the
// edge passes through. The Vortex sources disagree, by generation:
//
//   - FillTopLeft: an edge passes a pixel at E ≥ 0 when it is top-left
//     (A > 0, or A = 0 and B > 0) and at E > 0 otherwise. This is the newest
//     documents' QE (rasterizer.md §7.4) and the C++ models of the grxgpu
//     generation: gfx_frag_rast.h rast_emit_quad and SimX raster_core.cpp
//     compute_quad (vortex-hardware-facts §3.3). The default.
//   - FillInclusive: every edge passes a pixel at E ≥ 0. This is the RTL: the
//     stored VX_raster_qe.sv sets a pixel's overlap bit as the NOR of the three
//     edge values' sign bits (no tie rule), and the v1 SimX
//     Rasterizer::renderQuad tests ee0, ee1, ee2 ≥ 0 alike.
//
// The two differ only on pixels some edge evaluates to exactly 0. Setup
// normalises each triangle's edges by its own max |A|, |B| and truncates them
// to Q15.16 (gfx_setup.h EdgeToFixed, facts §3.2), so the two copies of a
// shared edge are not exact negatives: where one evaluates to exactly 0 the
// other may be a few LSB negative. Top-left then covers such a pixel with
// neither triangle (a crack a pixel wide along the edge), inclusive with the
// one whose value is 0. Where the copies are exact negatives (equal
// normalisation) top-left covers a tie pixel once and inclusive twice.
// spec: rasterizer.md §7.4; vortex-hardware-facts §3.3, §9 item 5
type FillRule uint8

// The fill rules.
const (
	FillTopLeft FillRule = iota
	FillInclusive
)

// String names the rule as the configuration and the command line spell it.
func (r FillRule) String() string {
	switch r {
	case FillTopLeft:
		return "top_left"
	case FillInclusive:
		return "inclusive"
	}
	return fmt.Sprintf("FillRule(%d)", uint8(r))
}

// ParseFillRule reads a rule's name: "top_left" (or "top-left") or
// "inclusive".
func ParseFillRule(s string) (FillRule, error) {
	switch s {
	case "top_left", "top-left":
		return FillTopLeft, nil
	case "inclusive":
		return FillInclusive, nil
	}
	return 0, fmt.Errorf("raster: fill rule %q: want top_left or inclusive", s)
}

// passesTie reports whether an edge with gradient (a, b) passes a pixel it
// evaluates to exactly 0 under the rule: whether its least passing value is
// 0 rather than 1 (leastPassing).
func (r FillRule) passesTie(a, b int32) bool {
	return r == FillInclusive || a > 0 || (a == 0 && b > 0)
}
