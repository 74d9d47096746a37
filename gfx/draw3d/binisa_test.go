package draw3d

import (
	"path/filepath"
	"reflect"
	"testing"

	"vortexgfx/config"
	"vortexgfx/gfx/frontend"
	"vortexgfx/gfx/session"
	"vortexgfx/trace"
)

// The differential test of binning_k's machine code on real draws: every
// shared cgltrace replayed through the device front end with cores = "ir"
// (every binning stage a Go kernel) and cores = "isa" (all six as machine
// code) leaves byte-identical tile buffers and PBUFs and the
// same image and counters, but for the CP cycles (the machine code's issue
// cycles) and the ISA counts, which only cores = "isa" has.
// spec: rasterizer.md §3.1; docs/ABI.md row 47
func TestBinningISAMatchesGoKernel(t *testing.T) {
	dir := traceDir(t)
	isa := config.Default()
	isa.Device.Cores = config.CoresISA
	for _, name := range []string{"triangle", "box", "polybump", "scene", "carnival"} {
		t.Run(name, func(t *testing.T) {
			tr, err := trace.Load(filepath.Join(dir, name+".cgltrace"))
			if err != nil {
				t.Fatal(err)
			}
			type dump struct{ tile, prims []byte }
			var stats [][]session.DrawStats
			replay := func(cfg config.Config) (*Image, map[int]dump, []int64) {
				got := map[int]dump{}
				r := Device{Width: 128, Height: 128, Planes: frontend.PlanesGrx, Config: cfg,
					inspect: func(i int, tile, prims []byte) { got[i] = dump{tile, prims} }}
				img, st, err := r.Replay(tr)
				if err != nil {
					t.Fatal(err)
				}
				var instr []int64
				for i, s := range st {
					if s.ISA != nil {
						instr = append(instr, int64(s.ISA.BinningWarpInstructions))
						s.ISA = nil
					}
					s.CPCycles = 0
					st[i] = s
				}
				stats = append(stats, st)
				return img, got, instr
			}
			wantImg, want, irInstr := replay(config.Default())
			gotImg, got, isaInstr := replay(isa)
			if !reflect.DeepEqual(stats[0], stats[1]) {
				t.Errorf("the draws' counters differ:\n ir  %+v\n isa %+v", stats[0], stats[1])
			}
			if len(irInstr) != 0 {
				t.Errorf("cores = ir reports binning machine code: %v", irInstr)
			}
			if len(want) == 0 || len(got) != len(want) {
				t.Fatalf("%d draws inspected on isa, %d on ir", len(got), len(want))
			}
			for i, w := range want {
				if string(got[i].tile) != string(w.tile) {
					t.Errorf("draw %d: the tile buffers differ (%d and %d bytes)", i, len(got[i].tile), len(w.tile))
				}
				if string(got[i].prims) != string(w.prims) {
					t.Errorf("draw %d: the PBUFs differ", i)
				}
			}
			for i, n := range isaInstr {
				if n == 0 {
					t.Errorf("draw %d: no binning machine code counted", i)
				}
			}
			for k := range wantImg.Pix {
				if gotImg.Pix[k] != wantImg.Pix[k] {
					t.Fatalf("pixel %d differs", k)
				}
			}
		})
	}
}
