package pipe

import (
	"fmt"

	"vortexgfx/gl/sampler"
)

// ViewState is a sampler view's own state (pipe_sampler_view's swizzle_r..a
// and first_level/last_level): which component each of the sampled RGBA
// channels reads, and the levels sampling uses (GL's TEXTURE_SWIZZLE_*,
// TEXTURE_BASE_LEVEL and TEXTURE_MAX_LEVEL; GL_DEPTH_TEXTURE_MODE is the
// swizzle of a depth texture). spec: vortexpipe §3.6 ("view component
// swizzle"); GL 4.6 §8.14.1 (base and maximum level)
type ViewState struct {
	Swizzle [4]sampler.Swizzle
	// FirstLevel and LastLevel bound the levels sampled; LastLevel past the
	// texture's last level means its last level.
	FirstLevel, LastLevel int
}

// DefaultViewState is a view of the whole texture as stored.
func DefaultViewState() ViewState {
	return ViewState{Swizzle: sampler.IdentitySwizzle, LastLevel: 1000}
}

// CreateSamplerViewState classifies a texture for sampling through a view
// with state vs. A view other than the whole texture as stored that the
// fragment stage samples routes TEX to the software sampler (RouteTexView):
// the FF unit samples the chain from level 0 and returns the texel's own
// channels. spec: vortexpipe §3.6
func (c *Context) CreateSamplerViewState(tex *Resource, vs ViewState) (*SamplerView, error) {
	v, err := c.CreateSamplerView(tex)
	if err != nil {
		return nil, err
	}
	for i, s := range vs.Swizzle {
		if s > sampler.SwizzleOne {
			return nil, fmt.Errorf("pipe: CreateSamplerViewState: swizzle %d of channel %d undefined", s, i)
		}
	}
	if vs.FirstLevel < 0 || vs.FirstLevel >= tex.desc.Levels || vs.LastLevel < vs.FirstLevel {
		return nil, fmt.Errorf("pipe: CreateSamplerViewState: levels [%d, %d] of a %d-level texture", vs.FirstLevel, vs.LastLevel, tex.desc.Levels)
	}
	vs.LastLevel = min(vs.LastLevel, tex.desc.Levels-1)
	v.State = &vs
	return v, nil
}

// viewRoute says how v differs from the whole texture as stored ("" when it
// does not): what routes its fragment sampling to the software sampler
// (RouteTexView).
func (v *SamplerView) viewRoute() string {
	vs := v.State
	switch {
	case vs == nil:
		return ""
	case vs.Swizzle != sampler.IdentitySwizzle:
		return fmt.Sprintf("swizzle %v", vs.Swizzle)
	case vs.FirstLevel != 0 || vs.LastLevel != v.Texture.desc.Levels-1:
		return fmt.Sprintf("levels %d..%d of %d", vs.FirstLevel, vs.LastLevel, v.Texture.desc.Levels)
	}
	return ""
}

// viewOf is the reference sampler's form of tex seen through v: tex itself
// for a view of the whole texture, else a copy sharing its levels with the
// view's swizzle and level range.
func (v *SamplerView) viewOf(tex *sampler.Texture) *sampler.Texture {
	if v.State == nil {
		return tex
	}
	t := *tex
	for i, s := range v.State.Swizzle {
		t.Swizzle[i] = s
		if s <= sampler.SwizzleA {
			t.Swizzle[i] = tex.Swizzle[s] // the view selects from the texture's channels
		}
	}
	t.BaseLevel, t.MaxLevel = v.State.FirstLevel, v.State.LastLevel
	return &t
}
