package simt

import (
	"fmt"

	"vortexgfx/isa/rv32"
)

// The decoded-instruction cache: each 4 KiB page of code is decoded lazily, one
// word at a time, into a page of rv32.Inst, so the hot loop neither fetches nor
// decodes. A store into a cached page drops the decoded word it overwrites
// (self-modifying code and loaders stay correct); the bounding range of cached
// pages keeps that check to two compares for a store far from code.
const pageShift = 12

type codePage struct {
	insts [1 << (pageShift - 2)]rv32.Inst
	valid [1 << (pageShift - 2)]bool
}

type codeCache struct {
	pages   map[uint32]*codePage
	lastKey uint32
	last    *codePage
	lo, hi  uint32 // cached pages lie within [lo, hi)
}

func (cc *codeCache) init() {
	cc.pages = map[uint32]*codePage{}
	cc.lo, cc.hi = ^uint32(0), 0
	cc.lastKey = ^uint32(0)
}

// invalidate drops the decoded word holding addr, if any.
func (cc *codeCache) invalidate(addr uint32) {
	if addr < cc.lo || addr >= cc.hi {
		return
	}
	p := cc.last
	if key := addr >> pageShift; key != cc.lastKey {
		p = cc.pages[key]
	}
	if p != nil {
		p.valid[addr>>2&(1<<(pageShift-2)-1)] = false
	}
}

// fetch returns the decoded instruction at pc.
func (c *Core) fetch(wi int, pc uint32) (*rv32.Inst, error) {
	cc := &c.code
	key := pc >> pageShift
	p := cc.last
	if key != cc.lastKey {
		p = cc.pages[key]
		if p == nil {
			p = new(codePage)
			cc.pages[key] = p
			lo, hi := key<<pageShift, key<<pageShift+1<<pageShift
			if hi == 0 { // the top page
				hi = ^uint32(0)
			}
			cc.lo, cc.hi = min(cc.lo, lo), max(cc.hi, hi)
		}
		cc.last, cc.lastKey = p, key
	}
	i := pc >> 2 & (1<<(pageShift-2) - 1)
	if p.valid[i] {
		return &p.insts[i], nil
	}
	if pc&3 != 0 {
		return nil, &Fault{Kind: "fetch", PC: pc, Warp: wi, Lane: -1, Addr: pc, Err: fmt.Errorf("misaligned instruction address")}
	}
	word, err := c.mem.Load(pc, 4)
	if err != nil {
		return nil, &Fault{Kind: "fetch", PC: pc, Warp: wi, Lane: -1, Addr: pc, Err: err}
	}
	in, err := rv32.Decode(word)
	if err != nil {
		return nil, &Fault{Kind: "illegal instruction", PC: pc, Warp: wi, Lane: -1, Addr: pc, Err: err}
	}
	p.insts[i], p.valid[i] = in, true
	return &p.insts[i], nil
}
