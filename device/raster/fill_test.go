package raster

import (
	"strings"
	"testing"

	"vortexgfx/abi"
)

// coverCount runs one frame of the given primitives, every one listed in
// every bin of a binLog grid over w×h, and counts how many primitives cover
// each pixel.
func coverCount(t *testing.T, prims [][9]int32, w, h, binLog int, fill FillRule) [][]int {
	t.Helper()
	m := make(mem, 0x40000)
	for pid, e := range prims {
		putPrim(m, pid, e, 0)
	}
	var hs []abi.BinHeader
	var pids []uint32
	for by := 0; by<<binLog < h; by++ {
		for bx := 0; bx<<binLog < w; bx++ {
			hs = append(hs, abi.BinHeader{BinX: uint16(bx), BinY: uint16(by), PidsOffset: uint32(len(pids)), PidsCount: uint32(len(prims))})
			for pid := range prims {
				pids = append(pids, uint32(pid))
			}
		}
	}
	putBins(m, hs, pids)
	launch, frags, _ := collect(t, 1, binLog)
	if _, err := Run(m, state(len(hs), w, h), Config{BinLog: binLog, Workers: 2, Fill: fill}, launch); err != nil {
		t.Fatal(err)
	}
	n := make([][]int, h)
	for y := range n {
		n[y] = make([]int, w)
	}
	for _, f := range *frags {
		n[f.y][f.x]++
	}
	return n
}

// TestFillRuleTie is the QE's test of a pixel an edge evaluates to exactly 0,
// per gradient class and rule: top-left passes it only on a top-left edge
// (A > 0, or A = 0 and B > 0), inclusive on every edge (VX_raster_qe.sv: the
// NOR of the sign bits). The other two edges cover everything. spec:
// rasterizer §7.4
func TestFillRuleTie(t *testing.T) {
	const x, y = 5, 6
	for _, tc := range []struct {
		name        string
		a, b        int32
		topLeft     bool
		inclusiveIn bool
	}{
		{"A>0", 3 << 16, 1 << 16, true, true},
		{"A<0", -3 << 16, 1 << 16, false, true},
		{"A=0,B>0 (top)", 0, 1 << 16, true, true},
		{"A=0,B<0 (bottom)", 0, -1 << 16, false, true},
		{"A<0,B<0", -1 << 16, -1 << 16, false, true},
	} {
		c := -(tc.a*x + tc.b*y) // E(x, y) = 0
		e := [9]int32{tc.a, tc.b, c, 0, 0, 1, 0, 0, 1}
		for _, r := range []struct {
			fill FillRule
			want bool
		}{{FillTopLeft, tc.topLeft}, {FillInclusive, tc.inclusiveIn}} {
			n := coverCount(t, [][9]int32{e}, 16, 16, 4, r.fill)
			if got := n[y][x] == 1; got != r.want {
				t.Errorf("%s, %v: tie pixel covered %v, want %v", tc.name, r.fill, got, r.want)
			}
			// Off the edge both rules agree with the sign of E.
			for py := 0; py < 16; py++ {
				for px := 0; px < 16; px++ {
					ev := int64(tc.a)*int64(px) + int64(tc.b)*int64(py) + int64(c)
					if ev == 0 {
						continue
					}
					if want := ev > 0; (n[py][px] == 1) != want {
						t.Errorf("%s, %v: pixel (%d,%d) E=%d covered %d times", tc.name, r.fill, px, py, ev, n[py][px])
					}
				}
			}
		}
	}
}

// quadPrims are the edges setup (gfx_setup.h: per-triangle 1/maxVal
// normalisation, truncation to Q15.16) gives the two triangles of a 250×250
// quad whose w is 1 + x/2 (frontend TestSharedEdgeNormalisation builds them
// from the vertices). Triangle 0's shared edge (its edge 0) is normalised by
// its own |A|, so it is {−1, −1, 249} exactly and evaluates to 0 on the 218
// pixel centres x + y = 249 inside the quad; triangle 1's copy (its edge 2) is
// normalised by a maxVal three times larger and truncates to {21845, 21845,
// −5439488} = −(1/3)·{65535, 65535, −16318464}, which is −83 there.
var quadPrims = [][9]int32{
	{-65536, -65536, 16318464, 21845, 0, -330410, 0, 65536, -991232},
	{-65536, 0, 15327231, 0, -21845, 5109077, 21845, 21845, -5439488},
}

// TestFillRuleSharedEdge: under the top-left rule the pixels of the quad's
// shared diagonal are covered by neither triangle (triangle 0's edge is 0
// there but not top-left, triangle 1's is −83); the inclusive rule gives them
// to triangle 0, so the quad is covered exactly once. spec: rasterizer §7.4;
// vortex-hardware-facts §3.2
func TestFillRuleSharedEdge(t *testing.T) {
	for _, tc := range []struct {
		fill          FillRule
		holes, double int
	}{{FillTopLeft, 218, 0}, {FillInclusive, 0, 0}} {
		n := coverCount(t, quadPrims, 250, 250, 7, tc.fill)
		holes, double := 0, 0
		for y := 16; y < 234; y++ {
			for x := 16; x < 234; x++ {
				switch n[y][x] {
				case 0:
					holes++
					if x+y != 249 {
						t.Errorf("%v: hole at (%d,%d), off the shared edge", tc.fill, x, y)
					}
				case 2:
					double++
				}
			}
		}
		if holes != tc.holes || double != tc.double {
			t.Errorf("%v: %d holes, %d double-covered; want %d, %d", tc.fill, holes, double, tc.holes, tc.double)
		}
	}
}

func TestParseFillRule(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want FillRule
		err  string
	}{
		{"top_left", FillTopLeft, ""}, {"top-left", FillTopLeft, ""}, {"inclusive", FillInclusive, ""},
		{"", 0, `fill rule ""`}, {"topleft", 0, `fill rule "topleft": want top_left or inclusive`},
	} {
		got, err := ParseFillRule(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseFillRule(%q) = %v, %v; want error containing %q", tc.in, got, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("ParseFillRule(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
		if tc.in != "top-left" && got.String() != tc.in {
			t.Errorf("%v.String() = %q, want %q", got, got.String(), tc.in)
		}
	}
	if _, err := (Config{Fill: 2}).resolve(); err == nil || !strings.Contains(err.Error(), "fill rule 2") {
		t.Errorf("Config{Fill: 2}.resolve() = %v, want a fill rule error", err)
	}
}
