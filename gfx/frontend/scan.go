package frontend

import "vortexgfx/device"

// scanChunk is how many words scanWords moves per batched access pair.
const scanChunk = 256

// scanWords is the serial exclusive scan of the SCAN and BSCAN stages:
// for i < n while the CTA has not faulted, offs[i] = s, then s += in[i]
// (WriteU32 then ReadU32, word by word), returning s. offs and in are spans at
// offAddr and inAddr. spec: rasterizer §3.1 (SCAN, BSCAN)
//
// The loop's cost on the host is two span checks per word; scanWords takes the
// words in chunks of scanChunk instead, one ReadWords and one WriteWords per
// chunk, where that is the same computation: both runs of the chunk lie inside
// their allocations (Span.Has, so no word of the chunk can fault and the
// word loop would not stop inside it) and the two runs do not overlap (so no
// store of the chunk can change a word the chunk reads). The accesses counted
// (one per word), the bytes stored and the sum are then the word loop's;
// anywhere else the chunk runs as the word loop itself.
func scanWords(c *device.CTA, offs, in *device.Span, offAddr, inAddr, n uint64) uint32 {
	var iw, ow [scanChunk]uint32
	var s uint32
	for i := uint64(0); i < n && c.Err() == nil; {
		k := min(n-i, scanChunk)
		gap := max(offAddr, inAddr) - min(offAddr, inAddr)
		if gap >= 4*k && offs.Has(4*i, int(4*k)) && in.Has(4*i, int(4*k)) {
			in.ReadWords(4*i, iw[:k])
			for j := range k {
				ow[j] = s
				s += iw[j]
			}
			offs.WriteWords(4*i, ow[:k])
			i += k
			continue
		}
		for end := i + k; i < end && c.Err() == nil; i++ {
			offs.WriteU32(4*i, s)
			s += in.ReadU32(4 * i)
		}
	}
	return s
}
