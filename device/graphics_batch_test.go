package device_test

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"vortexgfx/abi"
	"vortexgfx/config"
	"vortexgfx/device"
)

// testBatch is a WaveBatch of the test kernels below: per staged wave its
// FRAG_POS words, which Finish exports as the whole kernel does.
type testBatch struct {
	pos    [][]uint32
	shades int
	done   int
	failAt uint32 // Finish fails the wave whose first FRAG_POS is this (0: none)
	t      *testing.T
}

func (b *testBatch) Shade(*device.CTA) { b.shades++ }

func (b *testBatch) Finish(c *device.CTA, i int) error {
	p := b.pos[i]
	for l := range c.Threads {
		if c.FragPos(l) != p[l] {
			b.t.Errorf("staged wave %d finishes with FRAG_POS[%d] %#x, staged %#x", i, l, c.FragPos(l), p[l])
			break
		}
	}
	return testTail(c, p, b.failAt)
}

func (b *testBatch) Done() { b.pos, b.done = b.pos[:0], b.done+1 }

// testHead is the test kernels' head: two argument reads (counted memory
// operations) whose values the tail does not need.
func testHead(c *device.CTA) {
	c.ReadU32(c.Args)
	c.ReadU64(c.Args + 8)
}

// testTail exports each covered lane of pos with a colour of its position
// and the lane, one more read per wave, and fails the wave whose first
// FRAG_POS is failAt.
func testTail(c *device.CTA, pos []uint32, failAt uint32) error {
	c.ReadU32(c.Args + 4)
	if failAt != 0 && pos[0] == failAt {
		return errors.New("the chosen wave fails")
	}
	for l, p := range pos {
		if p>>31 != 0 {
			c.OMExport(int(p&0xFFFF), int(p>>16&0x7FFF), 0, 0, 0xFF000000|p&0xFFFF|uint32(l)<<16, 0, 0)
		}
	}
	return nil
}

// TestWaveBatching: a kernel that stages its waves (head on the wave's CTA,
// the tail in Finish, flushing every three waves and at the end of the walk)
// writes the same image, with the same frame counters and MPM core counters,
// as one that runs each wave whole, for any core and worker count; a failing
// staged wave fails the launch as the whole kernel's does; Stage refuses a
// second batch while one is pending.
func TestWaveBatching(t *testing.T) {
	whole := func(failAt uint32) device.Kernel {
		return func(c *device.CTA) error {
			testHead(c)
			pos := make([]uint32, c.Threads)
			for l := range pos {
				pos[l] = c.FragPos(l)
			}
			return testTail(c, pos, failAt)
		}
	}
	var batches []*testBatch // every batch a staged kernel made (one per worker)
	staged := func(failAt uint32) device.Kernel {
		return func(c *device.CTA) error {
			if !c.CanStage() {
				return errors.New("a raster worker's fragment wave cannot stage")
			}
			b, _ := c.WorkerBatch().(*testBatch)
			if b == nil {
				b = &testBatch{failAt: failAt, t: t}
				batches = append(batches, b)
			}
			if len(b.pos) == 3 {
				c.FlushWaves()
			}
			if c.PendingWaves() == nil && len(b.pos) != 0 {
				t.Error("no waves pending, the batch holds some")
			}
			testHead(c)
			pos := make([]uint32, c.Threads)
			for l := range pos {
				pos[l] = c.FragPos(l)
			}
			b.pos = append(b.pos, pos)
			if err := c.Stage(b, len(b.pos)-1); err != nil {
				return err
			}
			if err := c.Stage(&testBatch{}, 0); err == nil {
				t.Error("Stage took a second batch while one is pending")
			}
			return nil
		}
	}
	counters := func(d *device.Device) []uint64 {
		var v []uint64
		for k := 0; k < d.NumCores(); k++ {
			for _, csr := range []int{abi.CSRMCycle, abi.CSRMInstret, device.CSRCoreWaves, device.CSRCoreThreads, device.CSRCoreMemOps} {
				lo, err := d.DCRRead(abi.DCRMPMValue, abi.MPMTag(abi.MPMCore, csr, k, false))
				if err != nil {
					t.Fatal(err)
				}
				v = append(v, uint64(lo))
			}
		}
		return v
	}
	for _, shape := range []struct{ cores, workers int }{{1, 1}, {2, 3}, {4, 2}} {
		cfg := config.Default()
		cfg.Device.CoresPerSocket, cfg.Device.SocketsPerCluster = shape.cores, 1
		cfg.Raster.Workers = shape.workers
		name := fmt.Sprintf("%d cores, %d workers", shape.cores, shape.workers)
		batches = nil
		want, wgs, wd, err := kickWith(t, cfg, whole(0), nil)
		if err != nil {
			t.Fatal(err)
		}
		got, ggs, gd, err := kickWith(t, cfg, staged(0), nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if string(got) != string(want) || wgs.OMWrites == 0 {
			t.Errorf("%s: the staged kernel's image differs (%d fragments written whole)", name, wgs.OMWrites)
		}
		if !reflect.DeepEqual(ggs, wgs) {
			t.Errorf("%s: frame counters staged %+v, whole %+v", name, ggs, wgs)
		}
		if g, w := counters(gd), counters(wd); !slices.Equal(g, w) {
			t.Errorf("%s: MPM core counters staged %v, whole %v", name, g, w)
		}
		shades, done := 0, 0
		for _, b := range batches {
			shades, done = shades+b.shades, done+b.done
			if len(b.pos) != 0 {
				t.Errorf("%s: %d waves left staged after the kick", name, len(b.pos))
			}
		}
		if waves := wgs.Raster.Waves; shades == 0 || int64(shades) >= waves || done != shades {
			t.Errorf("%s: %d waves in %d flushes (%d done)", name, waves, shades, done)
		}
	}
	// A failing wave: the same error, naming its core.
	cfg := config.Default()
	cfg.Raster.Workers = 1
	var fail uint32
	probe := func(c *device.CTA) error {
		if fail == 0 && c.Threads > 0 {
			fail = c.FragPos(0)
		}
		return nil
	}
	if _, _, _, err := kickWith(t, cfg, probe, nil); err != nil || fail == 0 {
		t.Fatalf("no first wave: %v", err)
	}
	wimg, wgs, _, werr := kickWith(t, cfg, whole(fail), nil)
	simg, sgs, _, serr := kickWith(t, cfg, staged(fail), nil)
	if werr == nil || serr == nil || werr.Error() != serr.Error() || !strings.Contains(serr.Error(), "the chosen wave fails") {
		t.Errorf("a failing wave: staged %v, whole %v", serr, werr)
	}
	if string(wimg) != string(simg) || !reflect.DeepEqual(wgs, sgs) {
		t.Errorf("a failing wave: the staged kernel's image or counters differ (%+v, whole %+v)", sgs, wgs)
	}
}
