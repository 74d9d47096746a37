package compute

import (
	"fmt"

	"vortexgfx/device/swtex"
	"vortexgfx/gl/sampler"
	"vortexgfx/shader/codegen"
)

// Texture is a sampled texture for compute programs: a reference texture and its
// sampler state laid out once for the device's software sampler (swtex.Layout)
// in a resident buffer, uploaded by the first frame that binds it and never read
// back. Compute shaders have no derivatives, so implicit-LOD sampling uses the
// base level (plus any bias). spec: vortexpipe §1.3 (resident, upload once),
// §2.3.3, §3.6; GLSL 4.60 §8.9
type Texture struct {
	buf *Buffer
	up  *swtex.Upload
}

// NewTexture lays t out with sampler state s for the software sampler and makes
// it resident on d. The texture's bytes are copied: later changes to t do not
// reach the device.
func (d *Device) NewTexture(t *sampler.Texture, s *sampler.Sampler) (*Texture, error) {
	if t == nil {
		return nil, fmt.Errorf("compute: texture: nil texture")
	}
	up, err := swtex.Layout(t, s)
	if err != nil {
		return nil, fmt.Errorf("compute: texture: %w", err)
	}
	b, err := d.NewBuffer(up.Data)
	if err != nil {
		return nil, fmt.Errorf("compute: texture: %w", err)
	}
	up.Data = nil // the buffer holds the bytes
	return &Texture{buf: b, up: up}, nil
}

// Buffer is the texture's resident storage (its residency and address).
func (t *Texture) Buffer() *Buffer { return t.buf }

// SampledTexture binds tex to texture unit unit (the GLSL sampler's
// layout(binding = N), ir.SamplerBinding.Unit). spec: vortexpipe §2.5
func SampledTexture(unit uint32, tex *Texture) Binding {
	return Binding{Slot: unit, Texture: tex}
}

// prepareTextures builds the dispatch's descriptor table: entry i describes the
// texture bound to the unit of the program's sampler binding i.
func (f *Frame) prepareTextures(idx int, p *Program, bs []Binding, dp *dispatch) error {
	ss := p.prog.Samplers
	if len(ss) == 0 {
		return nil
	}
	if f.d.view == nil {
		return fmt.Errorf("compute: dispatch %d (%s): %w: sampling textures under VM (the software sampler views device memory directly)", idx, p.name, ErrUnsupported)
	}
	ups := make([]*swtex.Upload, len(ss))
	bases := make([]uint64, len(ss))
	for i, sb := range ss {
		var got *Texture
		for j := range bs {
			if bs[j].Texture != nil && bs[j].Slot == uint32(sb.Unit) {
				got = bs[j].Texture
				break
			}
		}
		where := fmt.Sprintf("compute: dispatch %d (%s): sampler %s (unit %d)", idx, p.name, sb.Name, sb.Unit)
		if got == nil {
			return fmt.Errorf("%s: %w: no texture bound", where, ErrBinding)
		}
		if got.buf.d != f.d {
			return fmt.Errorf("%s: %w: texture of another device", where, ErrBinding)
		}
		ups[i], bases[i] = got.up, got.buf.Addr()
		dp.texBufs = append(dp.texBufs, got.buf)
		if p.isa != nil && dp.texIR == "" {
			desc := got.up.Descriptor(bases[i])
			if why := codegen.FetchDescriptorRefusal(&desc); why != "" {
				dp.texIR = fmt.Sprintf("sampler %s: %s", sb.Name, why)
				if f.d.opts.Strict {
					return fmt.Errorf("%w: %s: the machine code's texelFetch does not read this texture (%s)", ErrISARefused, where, why)
				}
			}
		}
	}
	table, err := swtex.PutTable(ups, bases)
	if err != nil {
		return fmt.Errorf("compute: dispatch %d (%s): %w", idx, p.name, err)
	}
	dp.texTable = table
	return nil
}
