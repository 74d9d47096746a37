package program

import "vortexgfx/ref"

// Framebuffer fetch: a program whose fragment stage reads the destination
// colour (shader/lower's Program.Fetch: inout outputs, gl_LastFragData)
// implements ref.FragmentFetch; ref hands it each batch's stored colours
// and they are copied into the fetched input words lane by lane, as the
// other inputs are. spec: EXT_shader_framebuffer_fetch §15.1

// FetchTargets implements ref.FragmentFetch: a bit per render target the
// program reads (0 for a program that reads none).
func (f *FragmentShader) FetchTargets() uint32 {
	var m uint32
	for _, s := range f.p.IR.Fetch {
		if s.Location >= 0 && s.Location < ref.MaxRenderTargets {
			m |= 1 << s.Location
		}
	}
	return m
}

// SetDestination implements ref.FragmentFetch: dest[k] is quad k of the next
// ShadeQuads call.
func (f *FragmentShader) SetDestination(dest []ref.FetchedColors) { f.dest = dest }

// loadFetch copies the destination colours of quads q0..q0+n-1 into the
// fetched input words (lane 4k+l of the run is lane l of quad q0+k).
func (f *FragmentShader) loadFetch(q0, n int) {
	for _, s := range f.p.IR.Fetch {
		if s.Location < 0 || s.Location >= ref.MaxRenderTargets {
			continue
		}
		for c := range min(s.Words, 4) {
			arr := f.m.Input(s.Word + c)
			for k := range n {
				d := &f.dest[q0+k][s.Location]
				for l := range 4 {
					arr[4*k+l] = d[l][c]
				}
			}
		}
	}
}

// loadFetchPacked is loadFetch for packed lanes (quad index << 2 | lane).
func (f *FragmentShader) loadFetchPacked(lanes []uint16) {
	for _, s := range f.p.IR.Fetch {
		if s.Location < 0 || s.Location >= ref.MaxRenderTargets {
			continue
		}
		for c := range min(s.Words, 4) {
			arr := f.m.Input(s.Word + c)[:len(lanes)]
			for j, ql := range lanes {
				arr[j] = f.dest[ql>>2][s.Location][ql&3][c]
			}
		}
	}
}
