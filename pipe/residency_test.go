package pipe

import (
	"bytes"
	"errors"
	"fmt"
	"sync"
	"testing"

	"vortexgfx/config"
	"vortexgfx/device"
	"vortexgfx/device/sim"
	"vortexgfx/gl/format"
	"vortexgfx/runtime"
)

func openScreen(t *testing.T) *Screen {
	t.Helper()
	b, err := sim.Open(config.Default(), device.NewLibrary(), sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dev, err := runtime.Open(b)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dev.Close() })
	s, err := NewScreen(dev, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.res.Close)
	return s
}

// devRead reads n device bytes at addr through the entry that holds it.
func devRead(s *Screen, addr uint64, n int) ([]byte, error) {
	s.res.mu.Lock()
	var buf *runtime.Buffer
	var off uint64
	all := []*resident{}
	for _, l := range s.res.entries {
		all = append(all, l...)
	}
	for _, e := range s.res.tex {
		all = append(all, e)
	}
	for _, e := range all {
		if addr >= e.buf.Addr() && addr < e.buf.Addr()+e.size {
			buf, off = e.buf, addr-e.buf.Addr()
		}
	}
	s.res.mu.Unlock()
	if buf == nil {
		return nil, fmt.Errorf("address %#x not resident", addr)
	}
	p := make([]byte, n)
	if err := s.dev.Read(buf, off, p); err != nil {
		return nil, err
	}
	return p, nil
}

func devBytes(t *testing.T, s *Screen, addr uint64, n int) []byte {
	t.Helper()
	p, err := devRead(s, addr, n)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// spec: vortexpipe §1.3 (caps cached at screen creation)
func TestScreenCaps(t *testing.T) {
	s := openScreen(t)
	c := s.Caps()
	cfg := config.Default()
	if c.Threads != cfg.Device.Threads || c.Warps != cfg.Device.Warps || c.MaxBlockSize != c.Threads*c.Warps ||
		c.Cores != cfg.Device.NumCores() || !c.HasTEX || !c.HasRASTER || !c.HasOM {
		t.Errorf("caps %+v", c)
	}
}

// TestResidencyUploadOnce: an unchanged vertex buffer is uploaded once across
// frames; a write re-uploads; a fallback marks everything dirty. spec: vortexpipe §1.3
func TestResidencyUploadOnce(t *testing.T) {
	s := openScreen(t)
	vb, err := s.CreateBuffer(256)
	if err != nil {
		t.Fatal(err)
	}
	data := bytes.Repeat([]byte{0xAB}, 256)
	if err := vb.Write(0, data); err != nil {
		t.Fatal(err)
	}
	var addr uint64
	for frame := 0; frame < 5; frame++ {
		a, err := s.res.Resolve(vb, 0, 256)
		if err != nil {
			t.Fatal(err)
		}
		if frame > 0 && a != addr {
			t.Fatalf("frame %d: address moved %#x → %#x", frame, addr, a)
		}
		addr = a
	}
	if st := s.res.Stats(); st.Uploads != 1 || st.Allocs != 1 || st.Hits != 4 {
		t.Fatalf("5 frames: %+v", st)
	}
	if !bytes.Equal(devBytes(t, s, addr, 256), data) {
		t.Fatal("device copy differs")
	}
	// A sub-range inside the entry resolves to entry + offset without an upload.
	if a, err := s.res.Resolve(vb, 64, 16); err != nil || a != addr+64 {
		t.Fatalf("sub-range: %#x, %v", a, err)
	}
	if r, ok := s.res.Lookup(vb.ID(), 200); !ok || r.Addr != addr+200 || r.EntrySize != 256 || r.Dirty {
		t.Fatalf("lookup %+v %v", r, ok)
	}
	if _, ok := s.res.Lookup(vb.ID(), 256); ok {
		t.Fatal("lookup past the range resolved")
	}
	// A host write marks the range dirty; the next resolve re-uploads.
	if err := vb.Write(10, []byte{1, 2, 3}); err != nil {
		t.Fatal(err)
	}
	if r, _ := s.res.Lookup(vb.ID(), 0); !r.Dirty {
		t.Fatal("write did not mark dirty")
	}
	if _, err := s.res.Resolve(vb, 0, 256); err != nil {
		t.Fatal(err)
	}
	copy(data[10:], []byte{1, 2, 3})
	if st := s.res.Stats(); st.Uploads != 2 || !bytes.Equal(devBytes(t, s, addr, 256), data) {
		t.Fatalf("after write: %+v", st)
	}
	// Work on the reference renderer distrusts every entry.
	s.res.MarkAllDirty()
	if _, err := s.res.Resolve(vb, 0, 256); err != nil {
		t.Fatal(err)
	}
	if st := s.res.Stats(); st.Uploads != 3 {
		t.Fatalf("after fallback: %+v", st)
	}
	// A wider range merges the entry.
	if _, err := s.res.Resolve(vb, 0, 16); err != nil {
		t.Fatal(err)
	}
	if s.res.Entries() != 1 {
		t.Fatalf("%d entries", s.res.Entries())
	}
	if _, err := s.res.Resolve(vb, 250, 10); err == nil {
		t.Fatal("range past the resource resolved")
	}
}

// TestResidencyRecreate: destroy then re-create at the same id never serves the
// old resource's bytes. spec: vortexpipe §1.3 (resource_destroy eviction)
func TestResidencyRecreate(t *testing.T) {
	s := openScreen(t)
	a, _ := s.CreateBuffer(64)
	_ = a.Write(0, bytes.Repeat([]byte{0x11}, 64))
	if _, err := s.res.Resolve(a, 0, 64); err != nil {
		t.Fatal(err)
	}
	id := a.ID()
	if err := a.Destroy(); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.res.Lookup(id, 0); ok {
		t.Fatal("destroyed resource still resident")
	}
	if _, err := s.res.Resolve(a, 0, 64); !errors.Is(err, ErrDestroyed) {
		t.Fatalf("resolve destroyed: %v", err)
	}
	if err := a.Write(0, []byte{1}); !errors.Is(err, ErrDestroyed) {
		t.Fatalf("write destroyed: %v", err)
	}
	b, _ := s.CreateBuffer(64)
	if b.ID() != id {
		t.Fatalf("id not reused: %d vs %d", b.ID(), id)
	}
	want := bytes.Repeat([]byte{0x22}, 64)
	_ = b.Write(0, want)
	addr, err := s.res.Resolve(b, 0, 64)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(devBytes(t, s, addr, 64), want) {
		t.Fatal("re-created resource served stale data")
	}
}

// TestResidencyConcurrent exercises writers, resolvers and destroyers at once
// (run with -race); every resolve of a live resource returns its current bytes.
func TestResidencyConcurrent(t *testing.T) {
	s := openScreen(t)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				r, err := s.CreateBuffer(128)
				if err != nil {
					errs <- err
					return
				}
				v := bytes.Repeat([]byte{byte(g*20 + i)}, 128)
				if err := r.Write(0, v); err != nil {
					errs <- err
					return
				}
				addr, err := s.res.Resolve(r, 0, 128)
				if err != nil {
					errs <- err
					return
				}
				got, err := devRead(s, addr, 128)
				if err != nil {
					errs <- err
					return
				}
				if !bytes.Equal(got, v) {
					errs <- fmt.Errorf("goroutine %d iter %d: stale bytes %x", g, i, got[0])
					return
				}
				if i%3 == 0 {
					s.res.MarkAllDirty()
				}
				if err := r.Destroy(); err != nil {
					errs <- err
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := s.res.Entries(); n != 0 {
		t.Errorf("%d entries left after every resource was destroyed", n)
	}
}

func TestNoDeviceScreen(t *testing.T) {
	s := NewScreenWithCaps(fullCaps(), Options{})
	r, _ := s.CreateBuffer(8)
	if _, err := s.Residency().Resolve(r, 0, 8); !errors.Is(err, ErrNoDevice) {
		t.Errorf("resolve without device: %v", err)
	}
	if _, err := NewScreen(nil, Options{}); err == nil {
		t.Error("NewScreen(nil) accepted")
	}
}

// TestResolveTexture: the TEX layout is uploaded once, re-uploaded after a write,
// and holds A8R8G8B8 words. spec: vortexpipe §3.3 step 3, §3.6
func TestResolveTexture(t *testing.T) {
	s := openScreen(t)
	tex, err := s.CreateTexture(TextureDesc{Target: Target2D, Format: format.RGBA8, Width: 4, Height: 4, Depth: 1, ArraySize: 1, Levels: 3})
	if err != nil {
		t.Fatal(err)
	}
	_ = tex.Write(0, []byte{10, 20, 30, 40})
	ta, err := s.res.ResolveTexture(tex)
	if err != nil {
		t.Fatal(err)
	}
	if ta.MipOffsets[1] != 64 || ta.MipOffsets[2] != 80 || ta.MipOffsets[15] != 80 {
		t.Errorf("mip offsets %v", ta.MipOffsets)
	}
	again, _ := s.res.ResolveTexture(tex)
	if again != ta || s.res.Stats().Uploads != 1 {
		t.Fatalf("second resolve re-uploaded: %+v", s.res.Stats())
	}
	if got := devBytes(t, s, ta.Addr, 4); !bytes.Equal(got, []byte{30, 20, 10, 40}) {
		t.Errorf("texel %v, want A8R8G8B8 bytes", got)
	}
	_ = tex.Write(0, []byte{1, 2, 3, 4})
	if _, err := s.res.ResolveTexture(tex); err != nil {
		t.Fatal(err)
	}
	if got := devBytes(t, s, ta.Addr, 4); s.res.Stats().Uploads != 2 || !bytes.Equal(got, []byte{3, 2, 1, 4}) {
		t.Errorf("after write: %v %+v", got, s.res.Stats())
	}
	_ = tex.Destroy()
	if s.res.Entries() != 0 {
		t.Errorf("%d entries after destroy", s.res.Entries())
	}
}
