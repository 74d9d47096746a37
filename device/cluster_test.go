package device

import (
	"context"
	"strings"
	"testing"

	"vortexgfx/abi"
	"vortexgfx/config"
	"vortexgfx/device/mem"
)

// whereKernel records, per CTA, 1 + the core it ran on; args {out}.
func whereKernel(c *CTA) error {
	out := c.Arg(0)
	gx, gy := uint64(c.GridDim[0]), uint64(c.GridDim[1])
	id := uint64(c.BlockIdx[0]) + gx*(uint64(c.BlockIdx[1])+gy*uint64(c.BlockIdx[2]))
	c.ForEachThread(func(tid int) {
		if tid == 0 {
			c.WriteU32(out+4*id, uint32(c.Core+1))
		}
	})
	return nil
}

// spec: vortex-hardware-facts §1.4 (CLUSTER_DIM) — the CTAs of one cluster run on
// distinct cores of one hardware cluster (group g on cluster g mod C, rank r on its
// core r); a cluster larger than a hardware cluster is a launch error, never ignored.
func TestClusterScheduling(t *testing.T) {
	cfg := config.Default()
	cfg.Device.Clusters, cfg.Device.SocketsPerCluster, cfg.Device.CoresPerSocket = 2, 2, 2 // 8 cores, 4 per cluster
	m := mem.NewDevice(0x1000_0000, 1<<24)
	lib := NewLibrary()
	if err := lib.Register("where", whereKernel); err != nil {
		t.Fatal(err)
	}
	dev, err := New(cfg, m, lib)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dev.Close() })
	img, err := abi.EncodeKernelImage([]abi.KernelImageEntry{abi.LibraryEntry("where", "where")})
	if err != nil {
		t.Fatal(err)
	}
	ents, _ := abi.DecodeKernelImage(img)
	base, _ := m.Alloc(uint64(len(img)), 64)
	if err := m.Write(base, img); err != nil {
		t.Fatal(err)
	}
	r := &rig{t: t, mem: m, dev: dev, base: base, ents: ents}
	tests := []struct {
		name    string
		grid    [3]uint32
		cluster [3]uint32
		wantErr string
	}{
		{"2x2 clusters", [3]uint32{4, 2, 2}, [3]uint32{2, 2, 1}, ""},
		{"pairs in z", [3]uint32{3, 1, 4}, [3]uint32{1, 1, 2}, ""},
		{"one cluster fills a hardware cluster", [3]uint32{4, 1, 1}, [3]uint32{4, 1, 1}, ""},
		{"uneven group count", [3]uint32{6, 1, 1}, [3]uint32{2, 1, 1}, ""},
		{"too big to co-schedule", [3]uint32{8, 2, 2}, [3]uint32{2, 2, 2}, "co-scheduled"},
		{"grid not a multiple", [3]uint32{3, 1, 1}, [3]uint32{2, 1, 1}, "CLUSTER_DIM"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			total := int(tc.grid[0] * tc.grid[1] * tc.grid[2])
			out := r.alloc(make([]uint32, total))
			r.program(abi.LaunchInfo{StartupAddr: base, KernelEntry: r.entry("where"), Args: r.args(out),
				NDim: 3, Grid: tc.grid, Block: [3]uint32{16, 1, 1}, Cluster: tc.cluster})
			_, err := dev.Launch(context.Background())
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want one mentioning %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			cores := r.read(out, total)
			cx, cy, cz := tc.cluster[0], tc.cluster[1], tc.cluster[2]
			ngx, ngy := tc.grid[0]/cx, tc.grid[1]/cy
			for z := uint32(0); z < tc.grid[2]; z++ {
				for y := uint32(0); y < tc.grid[1]; y++ {
					for x := uint32(0); x < tc.grid[0]; x++ {
						core := cores[x+tc.grid[0]*(y+tc.grid[1]*z)]
						if core == 0 {
							t.Fatalf("CTA (%d,%d,%d) never ran", x, y, z)
						}
						core--
						g := x/cx + ngx*(y/cy+ngy*(z/cz))
						rank := x%cx + cx*(y%cy+cy*(z%cz))
						if want := (g%2)*4 + rank; core != want {
							t.Errorf("CTA (%d,%d,%d) of group %d rank %d ran on core %d, want %d", x, y, z, g, rank, core, want)
						}
					}
				}
			}
			if s := dev.LastLaunch(); s.CTAs != uint64(total) {
				t.Errorf("ran %d CTAs, want %d", s.CTAs, total)
			}
		})
	}
}
