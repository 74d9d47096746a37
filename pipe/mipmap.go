package pipe

import (
	"fmt"

	"vortexgfx/gfx/shaderdev"
	"vortexgfx/gl/sampler"
)

// GenerateMipmap fills levels 1.. of a texture from level 0 with the reference
// sampler's box filter (pipe_context::generate_mipmap). The chain is then the
// driver's own: the FF TEX unit may sample the texture with mipmapping, building
// the chain from level 0 on the device, where a chain the application wrote goes
// to the software sampler (the two chains need not agree texel for texel).
// spec: vortexpipe §3.6 (the FF unit's mip chain)
func (c *Context) GenerateMipmap(r *Resource) error {
	if r == nil || r.buffer {
		return fmt.Errorf("pipe: GenerateMipmap: not a texture")
	}
	t, err := c.screen.refTex(r)
	if err != nil {
		return fmt.Errorf("pipe: GenerateMipmap: %w", err)
	}
	if err := t.GenerateMipmaps(); err != nil {
		return fmt.Errorf("pipe: GenerateMipmap: %w", err)
	}
	var data []byte
	for _, l := range t.Levels {
		data = append(data, l.Data...)
	}
	if err := r.Write(0, data); err != nil {
		return err
	}
	r.mu.Lock()
	r.mipsGenerated, r.mipsValid = r.version, true
	r.mu.Unlock()
	return nil
}

// generatedChain reports whether r's levels are still the chain GenerateMipmap
// made (no write since).
func generatedChain(r *Resource) bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.mipsValid && r.mipsGenerated == r.version
}

// ffMip is the FF TEX unit's mip mode for a sampler over a generated chain.
func ffMip(sm *Sampler) shaderdev.MipFilter {
	if sm != nil {
		switch sm.State.MipFilter {
		case sampler.MipNearest:
			return shaderdev.MipNearest
		case sampler.MipLinear:
			return shaderdev.MipLinear
		}
	}
	return shaderdev.MipNone
}
