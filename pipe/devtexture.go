package pipe

import (
	"vortexgfx/abi"
	"vortexgfx/gfx/shaderdev"
	"vortexgfx/gl/format"
	"vortexgfx/gl/sampler"
)

// Textures of a device draw: the FF TEX unit's resident level-0 copy or the
// software sampler's full chain, per sampler view and version. spec: vortexpipe §3.6

// texture returns the device binding of a sampler view, made resident once per
// version of the texture: a 2D power-of-two RGBA8/BGRA8 texture sampled without
// a border colour, and without mipmaps or over a generated chain, goes to the
// FF TEX unit (level 0, gfx builds the
// chain); any other — or any under a variant key with software TEX — to the
// software sampler (device/swtex) with all its levels and the full sampler
// state. The caller holds d.mu. spec: vortexpipe §3.6
func (d *devScreen) texture(v *SamplerView, sm *Sampler, swTex bool) (shaderdev.Texture, error) {
	r := v.Texture
	desc := r.desc
	if d.hostStale && d.fb.holds(r) {
		if err := d.readBack(); err != nil {
			return shaderdev.Texture{}, err
		}
	}
	if swTex || v.Buffer != nil || !ffTexture(v, sm) {
		return d.swTexture(v, sm)
	}
	t := shaderdev.Texture{Width: uint32(desc.Width), Height: uint32(desc.Height), Mip: shaderdev.MipNone,
		WrapU: abi.WrapRepeat, WrapV: abi.WrapRepeat}
	if sm != nil {
		t.Bilinear = sm.State.MagFilter == sampler.Linear
		t.Mip = ffMip(sm)
		code, _, _ := sm.State.WrapS.TEX()
		t.WrapU = code
		code, _, _ = sm.State.WrapT.TEX()
		t.WrapV = code
	}
	r.mu.RLock()
	ver, dead := r.version, r.destroyed
	r.mu.RUnlock()
	if dead {
		return t, ErrDestroyed
	}
	if e := d.texs[r]; e != nil && e.version == ver && e.serial == r.serial {
		t.Resident, t.Pixels = e.dt, e.px
		return t, nil
	}
	px := make([]byte, 4*desc.Width*desc.Height)
	r.mu.RLock()
	copy(px, r.data)
	r.mu.RUnlock()
	if desc.Format == format.RGBA8 {
		for i := 0; i < len(px); i += 4 {
			px[i], px[i+2] = px[i+2], px[i]
		}
	}
	t.Pixels = px
	if t.Mip != shaderdev.MipNone {
		// A generated chain binds level 0 with the draw, and shaderdev
		// builds the chain for it: a resident chain is sampled differently
		// where the draw's TEX runs in software (shaderdev describes the
		// resident FF chain to the software sampler instead of laying the
		// texture out itself), which would change the images of mipmapped
		// draws under 4x MSAA.
		return t, nil
	}
	dt, err := d.sd.UploadTexture(&t)
	if err != nil {
		return t, err
	}
	if old := d.texs[r]; old != nil {
		_ = old.dt.Free()
	}
	if d.texs == nil {
		d.texs = map[*Resource]*devTexture{}
	}
	// The level-0 words stay with the entry: gfx reads them where it does not
	// take the resident chain.
	d.texs[r] = &devTexture{version: ver, serial: r.serial, dt: dt, w: t.Width, h: t.Height, px: px}
	d.texUploads++
	t.Resident = dt
	return t, nil
}

// ffTexture reports whether the FF TEX unit samples v with sm exactly: a 2D
// power-of-two A8R8G8B8 texture seen whole (no view state), one filter, a wrap
// the unit has, no mipmaps
// unless the chain is the driver's own (GenerateMipmap: the device builds it
// from level 0) and no border colour
// (the binding carries none).
func ffTexture(v *SamplerView, sm *Sampler) bool {
	d := v.Texture.desc
	if d.Target != Target2D || d.Format != format.RGBA8 && d.Format != format.BGRA8 || len(v.Tex.Routes)+len(v.Tex.Flags) > 0 || v.viewRoute() != "" {
		return false
	}
	if sm == nil {
		return true
	}
	ss := &sm.State
	if ss.MipFilter != sampler.MipNone && !generatedChain(v.Texture) || ss.MinFilter != ss.MagFilter || ss.CompareMode || len(sm.Routes)+len(sm.Flags) > 0 ||
		sm.lodState(d.Levels) != "" {
		return false
	}
	for _, w := range [2]sampler.Wrap{ss.WrapS, ss.WrapT} {
		if _, ff, ok := w.TEX(); !ok || !ff || w == sampler.ClampToBorder {
			return false
		}
	}
	return true
}

// swTexture binds v for the software sampler, uploading its layout once per
// version of the texture and sampler state.
func (d *devScreen) swTexture(v *SamplerView, sm *Sampler) (shaderdev.Texture, error) {
	r := v.Texture
	var tex *sampler.Texture
	var err error
	if v.Buffer != nil {
		tex, err = bufferTexture(v)
		sm = nil // sampler state does not apply to buffer textures
	} else {
		tex, err = d.refTex(r)
	}
	if err != nil {
		return shaderdev.Texture{}, err
	}
	tex = v.viewOf(tex)
	smp, err := refSampler(sm, r.desc.Target == TargetRect)
	if err != nil {
		return shaderdev.Texture{}, err
	}
	ver := r.versionNow()
	t := shaderdev.Texture{Width: uint32(tex.Levels[0].W), Height: uint32(tex.Levels[0].H)}
	key := swTexKey{r: r, s: smp}
	if v.State != nil {
		key.view = *v.State
	}
	if v.Buffer != nil {
		key.buf = *v.Buffer
	}
	if e := d.swTexs[key]; e != nil && e.version == ver && e.serial == r.serial {
		t.Resident = e.dt
		return t, nil
	}
	dt, err := d.sd.UploadRefTexture(tex, smp)
	if err != nil {
		return t, err
	}
	if old := d.swTexs[key]; old != nil {
		_ = old.dt.Free()
	}
	if d.swTexs == nil {
		d.swTexs = map[swTexKey]*devTexture{}
	}
	d.swTexs[key] = &devTexture{version: ver, serial: r.serial, dt: dt}
	d.texUploads++
	t.Resident = dt
	return t, nil
}
