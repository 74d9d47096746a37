package abi

// MPMClass is a performance-monitoring class. spec: vortex-hardware-facts §7
type MPMClass uint32

// The MPM classes (VX_types.toml).
const (
	MPMBase   MPMClass = 0
	MPMCore   MPMClass = 1
	MPMICache MPMClass = 3
	MPMDCache MPMClass = 4
	MPML2     MPMClass = 5
	MPML3     MPMClass = 6
	MPMMem    MPMClass = 7
	MPMTCU    MPMClass = 11
	MPMRaster MPMClass = 12
	MPMTex    MPMClass = 13
	MPMOM     MPMClass = 14
	MPMRTU    MPMClass = 15
	MPMDXA    MPMClass = 16
)

// Counter CSRs: 64-bit counters, low word at 0xB00 + i, high word at 0xB80 + i.
// spec: vortex-hardware-facts §7
const (
	CSRMPMBase     = 0xB00
	CSRMPMBaseHigh = 0xB80
	CSRMCycle      = 0xB00
	CSRMInstret    = 0xB02
)

// Unit counter CSRs (indices from 0xB03). spec: vortex-hardware-facts §7
const (
	CSRRasterReads       = 0xB03
	CSRRasterLat         = 0xB04
	CSRRasterStalls      = 0xB05
	CSRRasterCacheReads  = 0xB06
	CSRRasterCacheMissR  = 0xB07
	CSRRasterCacheBankSt = 0xB08
	CSRRasterCacheMSHRSt = 0xB09

	CSRTexReads       = 0xB03
	CSRTexLat         = 0xB04
	CSRTexStalls      = 0xB05
	CSRTexCacheReads  = 0xB06
	CSRTexCacheMissR  = 0xB07
	CSRTexCacheBankSt = 0xB08
	CSRTexCacheMSHRSt = 0xB09

	CSROMReads        = 0xB03
	CSROMWrites       = 0xB04
	CSROMLat          = 0xB05
	CSROMStalls       = 0xB06
	CSROMCacheReads   = 0xB07
	CSROMCacheWrites  = 0xB08
	CSROMCacheMissR   = 0xB09
	CSROMCacheMissW   = 0xB0A
	CSROMCacheBankSt  = 0xB0B
	CSROMCacheMSHRSt  = 0xB0C
	mpmHighWordOffset = 32
)

// MPMTag builds the DCR_READ tag of MPM_VALUE (DCR 0x001) for counter CSR csr of
// class on core: (class << 22) | (idx << 16) | core, idx = csr − 0xB00, plus 32 to
// read the high word. spec: vortex-hardware-facts §7
func MPMTag(class MPMClass, csr int, core int, high bool) uint32 {
	idx := uint32(csr - CSRMPMBase)
	if high {
		idx += mpmHighWordOffset
	}
	return uint32(class)<<22 | (idx&0x3F)<<16 | uint32(core)&0xFFFF
}

// DecodeMPMTag unpacks an MPM_VALUE tag.
func DecodeMPMTag(tag uint32) (class MPMClass, csr int, core int, high bool) {
	idx := int(tag >> 16 & 0x3F)
	high = idx >= mpmHighWordOffset
	if high {
		idx -= mpmHighWordOffset
	}
	return MPMClass(tag >> 22), CSRMPMBase + idx, int(tag & 0xFFFF), high
}
