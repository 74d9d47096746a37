package cache

// ReadWrite is one OM export's traffic as the OM cost model issues it:
// Request(rd, t, false), then — at the cycle that read answers, t when rd
// is empty — Request(wr, resp, true), where rd holds its first nr lines
// and wr its first nw (0 to 2 each, distinct within each). It returns the
// read's answer (t when nr is 0) and the two requests' miss-slot waits.
// The lines, cycles, LRU stamps and counters are exactly those of the two
// Request calls; this form only saves the replay loop the two calls, their
// slices and the general bank loop. spec: vortex-hardware-facts §7
func (c *Cache) ReadWrite(rd [2]uint64, nr int, wr [2]uint64, nw int, t int64) (resp, rstall, wstall int64) {
	if nr == 1 && nw == 2 && rd[0] == wr[0] {
		if resp, ok := c.depthColorHit(rd[0], wr[1], t); ok {
			return resp, 0, 0
		}
	}
	resp = t
	if nr > 0 {
		resp, rstall = c.request2(rd, nr, t, false)
	}
	if nw > 0 {
		_, wstall = c.request2(wr, nw, resp, true)
	}
	return resp, rstall, wstall
}

// request2 is Request for one or two lines (ls[:n], n ≤ 2): its one- and
// two-line cases.
func (c *Cache) request2(ls [2]uint64, n int, t int64, write bool) (resp, stall int64) {
	if n == 1 {
		r, w := c.Access(ls[0], t, write)
		return max(t, r), max(0, w)
	}
	t1 := t
	if c.bankOf(ls[0]) == c.bankOf(ls[1]) {
		t1++
		c.ctr.BankSt++
	}
	r0, w0 := c.Access(ls[0], t, write)
	r1, w1 := c.Access(ls[1], t1, write)
	return max(t, r0, r1), max(0, w0, w1)
}

// depthColorHit is ReadWrite's commonest export — the depth line read,
// then the depth and colour lines written — when both lines are the two
// most recently accessed (neighbouring pixels of one line pair): the read
// hits, answering at resp; the depth write hits the line the read just
// made most recent and the colour write the other, each stamped and
// counted as Access stamps and counts them (three clock ticks; one read,
// two writes; a bank stall when the two lines share a bank), with no
// miss-slot wait. It reports false, changing nothing, when either line is
// not one of the two.
func (c *Cache) depthColorHit(zl, cl uint64, t int64) (resp int64, ok bool) {
	a, b := c.recent[0], c.recent[1]
	L := c.lines
	if a >= len(L) || b >= len(L) {
		return 0, false
	}
	iz, ic := a, b
	switch {
	case L[a].tag == zl+1 && L[b].tag == cl+1:
	case L[b].tag == zl+1 && L[a].tag == cl+1:
		iz, ic = b, a
	default:
		return 0, false
	}
	lz, lc := &L[iz], &L[ic]
	resp = max(t, t+c.hit, lz.ready)
	if c.bankOf(zl) == c.bankOf(cl) {
		c.ctr.BankSt++
	}
	c.ctr.Reads++
	c.ctr.Writes += 2
	lz.used, lc.used = c.clock+2, c.clock+3
	c.clock += 3
	c.recent[0], c.recent[1] = ic, iz
	return resp, true
}
