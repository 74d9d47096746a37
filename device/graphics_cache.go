package device

import (
	"math/bits"
	"slices"

	"vortexgfx/device/cache"
	"vortexgfx/device/om"
	"vortexgfx/device/tex"
)

// waveSeg is one fragment wave's recorded TEX and OM traffic on a core: the
// wave's bin (binY << 16 | binX of its first quad) and its ranges in the core's
// op streams.
type waveSeg struct {
	bin        uint32
	tex0, tex1 int
	om0, om1   int
}

// perfRecorder is one core's record of the frame's TEX and OM traffic, written
// only by that core's goroutine.
//
// Waves reach a core in scheduling order (which engine's worker got there
// first), so the caches are not modelled in arrival order. Each wave's traffic
// is recorded as a segment tagged with its bin; after the drain the segments are
// stably sorted by bin (row-major) and replayed through the core's caches. One
// walker emits a bin's waves in walk order and a core runs its queue in FIFO
// order, so within a bin the arrival order is already deterministic, and the
// replay order is the same for any worker count.
//
// tex holds, per vx_tex request, a word n << 56 | first line followed by the
// other n − 1 line numbers (n = 0: no memory read); om holds, per export, a
// word flags << 56 | depth line (flags: 1 depth read, 2 colour read, 4 depth
// write, 8 colour write) then the colour line.
type perfRecorder struct {
	segs   []waveSeg
	tex    opBuf
	om     opBuf
	lines  []uint64 // scratch: one request's lines
	lastID uint64
	open   bool
}

// opLineMask keeps the line number of a tagged op word.
const opLineMask = 1<<56 - 1

// opChunkLog sizes the chunks of an opBuf (words).
const opChunkLog = 15

// opBuf is an append-only word array in fixed chunks kept across frames, so
// recording never copies what it already holds.
type opBuf struct {
	chunks [][]uint64
	n      int
}

func (b *opBuf) add(v uint64) {
	c := b.n >> opChunkLog
	if c == len(b.chunks) {
		b.chunks = append(b.chunks, make([]uint64, 1<<opChunkLog))
	}
	b.chunks[c][b.n&(1<<opChunkLog-1)] = v
	b.n++
}

func (b *opBuf) at(i int) uint64 { return b.chunks[i>>opChunkLog][i&(1<<opChunkLog-1)] }

func (r *perfRecorder) reset() {
	r.segs, r.tex.n, r.om.n = r.segs[:0], 0, 0
	r.open = false
}

// seg returns the open segment of the wave c runs, opening one when the wave
// changed. A wave is named by its first lane's (pid, position), unique in a frame.
func (r *perfRecorder) seg(c *CTA, binLog uint) *waveSeg {
	var id uint64 = ^uint64(0)
	var bin uint32 = ^uint32(0)
	if len(c.fragPos) > 0 {
		p := c.fragPos[0] &^ (1 << 31)
		id = uint64(c.fragPID[0])<<32 | uint64(p)
		bin = (p>>16>>binLog)<<16 | (p & 0xFFFF >> binLog)
	}
	if !r.open || id != r.lastID {
		r.segs = append(r.segs, waveSeg{bin: bin, tex0: r.tex.n, tex1: r.tex.n, om0: r.om.n, om1: r.om.n})
		r.lastID, r.open = id, true
	}
	return &r.segs[len(r.segs)-1]
}

// addTex records one vx_tex request reading lines.
func (r *perfRecorder) addTex(c *CTA, binLog uint, lines []uint64) {
	sg := r.seg(c, binLog)
	if len(lines) == 0 {
		r.tex.add(0)
	} else {
		r.tex.add(uint64(len(lines))<<56 | lines[0]&opLineMask)
		for _, l := range lines[1:] {
			r.tex.add(l)
		}
	}
	sg.tex1 = r.tex.n
}

// addOM records one export's traffic (flags as in perfRecorder).
func (r *perfRecorder) addOM(c *CTA, binLog uint, flags, zl, cl uint64) {
	sg := r.seg(c, binLog)
	r.om.add(flags<<56 | zl&opLineMask)
	r.om.add(cl)
	sg.om1 = r.om.n
}

// segRef names segment i of recorder r.
type segRef struct {
	r *perfRecorder
	i int
}

// replay runs one core's recorded traffic — recorded by one or more raster
// workers, each bin's wholly by one of them — through fresh TEX and OM caches
// in bin order (within a bin, in recording order) and returns the cache-model
// counters (READS and WRITES of OM are counted live by the caller).
// buf, when not nil, is the caller's scratch for the segment list, kept
// across frames (a frame of small waves has thousands of segments).
// spec: vortex-hardware-facts §7
func replay(recs []*perfRecorder, tm tex.CostModel, omm om.CostModel, buf *[]segRef) (tex.Perf, om.Perf) {
	var refs []segRef
	if buf != nil {
		refs = (*buf)[:0]
		defer func() { *buf = refs[:0] }()
	}
	for _, r := range recs {
		for i := range r.segs {
			refs = append(refs, segRef{r, i})
		}
	}
	slices.SortStableFunc(refs, func(a, b segRef) int {
		ab, bb := a.r.segs[a.i].bin, b.r.segs[b.i].bin
		switch {
		case ab < bb:
			return -1
		case ab > bb:
			return 1
		}
		return 0
	})
	// Both models are resolved (tex/om Resolve), so the geometries pass cache.Check.
	tc, oc := cache.New(tm.Geometry()), cache.New(omm.Geometry())
	var tp tex.Perf
	var op om.Perf
	var tt, ot int64
	var lines [2]uint64
	var tl [len(tex.Taps{}.Addr)]uint64
	for _, ref := range refs {
		r, s := ref.r, &ref.r.segs[ref.i]
		for k := s.tex0; k < s.tex1; {
			w := r.tex.at(k)
			n := int(w >> 56)
			k++
			if n > 0 {
				tl[0] = w & opLineMask
				for j := 1; j < n; j++ {
					tl[j] = r.tex.at(k)
					k++
				}
			}
			resp, stall := tc.Request(tl[:n], tt, false)
			tp.Lat += uint64(resp - tt)
			tp.Stalls += uint64(stall)
			tt += 1 + stall
		}
		for k := s.om0; k < s.om1; k += 2 {
			w := r.om.at(k)
			f, zl, cl := w>>56, w&opLineMask, r.om.at(k+1)
			rd := pick(lines[:0], f&1 != 0, zl, f&2 != 0, cl)
			resp, stall := ot, int64(0)
			if len(rd) > 0 {
				resp, stall = oc.Request(rd, ot, false)
				op.Lat += uint64(resp - ot)
			}
			wr := pick(lines[:0], f&4 != 0, zl, f&8 != 0, cl)
			var wstall int64
			if len(wr) > 0 {
				_, wstall = oc.Request(wr, resp, true)
			}
			op.Stalls += uint64(stall + wstall)
			ot += 1 + stall + wstall
		}
	}
	t, o := tc.Counters(), oc.Counters()
	tp.CacheReads, tp.CacheMissR, tp.CacheBankSt, tp.CacheMSHRSt = t.Reads, t.MissR, t.BankSt, t.MSHRSt
	op.CacheReads, op.CacheWrites, op.CacheMissR, op.CacheMissW = o.Reads, o.Writes, o.MissR, o.MissW
	op.CacheBankSt, op.CacheMSHRSt = o.BankSt, o.MSHRSt
	return tp, op
}

// pick appends the selected lines, the colour line only when it differs from
// the depth line.
func pick(dst []uint64, z bool, zl uint64, c bool, cl uint64) []uint64 {
	if z {
		dst = append(dst, zl)
	}
	if c && !(z && cl == zl) {
		dst = append(dst, cl)
	}
	return dst
}

// lineShift is log2 of a power-of-two line size.
func lineShift(lineBytes int) uint { return uint(bits.TrailingZeros(uint(lineBytes))) }
