package reference

import (
	"fmt"
	"strings"

	"vortexgfx/abi"
	"vortexgfx/pipe"
	"vortexgfx/shader/glsl"
	"vortexgfx/shader/glsl/ast"
	"vortexgfx/shader/ir"
	"vortexgfx/shadertest"
)

// Storage buffers, atomic counter buffers and images of draw tests
// (shadertest.StorageContext): driver buffers and textures bound to the
// program's vertex and fragment stages with pipe.Context.SetStorageBindings
// before every draw, by binding point; an image uniform's unit is what
// "uniform int NAME UNIT" sets, else its layout(binding), else 0. The driver runs such
// draws on the reference renderer (pipe/storage.go, GateStorage on a device
// screen). spec: piglit shader_runner (ssbo, atomic counters, image texture).

// storageExtensions are the extensions draws honour with these.
var storageExtensions = []string{"GL_ARB_shader_storage_buffer_object", "GL_ARB_shader_atomic_counters",
	"GL_ARB_shader_image_load_store", "GL_ARB_shader_image_size", "GL_ARB_shader_atomic_counter_ops"}

// storageState is a context's storage bindings.
type storageState struct {
	bufs   [2]map[uint32]*pipe.Resource // by shadertest.StorageKind, then binding
	images map[int]storageImage         // by image unit
	unitOf map[string]int               // image uniform → unit ("uniform int")
}

type storageImage struct {
	r      *pipe.Resource
	format ir.ImageFormat
}

func (c *glContext) storageState() *storageState {
	if c.storage == nil {
		c.storage = &storageState{bufs: [2]map[uint32]*pipe.Resource{{}, {}}, images: map[int]storageImage{}, unitOf: map[string]int{}}
	}
	return c.storage
}

// NewStorageBuffer implements shadertest.StorageContext.
func (c *glContext) NewStorageBuffer(kind shadertest.StorageKind, binding uint32, size int) error {
	r, err := c.screen.CreateBuffer(size)
	if err != nil {
		return fmt.Errorf("reference: %v %d: %w", kind, binding, err)
	}
	c.storageState().bufs[kind][binding] = r
	return nil
}

func (c *glContext) storageBuffer(kind shadertest.StorageKind, binding uint32) (*pipe.Resource, error) {
	r := c.storageState().bufs[kind][binding]
	if r == nil {
		return nil, fmt.Errorf("%v %d was not created", kind, binding)
	}
	return r, nil
}

// WriteStorageBuffer implements shadertest.StorageContext.
func (c *glContext) WriteStorageBuffer(kind shadertest.StorageKind, binding uint32, off int, b []byte) error {
	r, err := c.storageBuffer(kind, binding)
	if err != nil {
		return err
	}
	return r.Write(off, b)
}

// ReadStorageBuffer implements shadertest.StorageContext.
func (c *glContext) ReadStorageBuffer(kind shadertest.StorageKind, binding uint32, off int, b []byte) error {
	r, err := c.storageBuffer(kind, binding)
	if err != nil {
		return err
	}
	return r.Read(off, b)
}

// imageFormats maps GL image formats to the compiler's.
var imageFormats = map[string]ir.ImageFormat{
	"RGBA8": ir.FormatRGBA8, "RGBA32F": ir.FormatRGBA32F, "RGBA16F": ir.FormatRGBA16F,
	"R32F": ir.FormatR32F, "RGBA32UI": ir.FormatRGBA32UI, "RGBA32I": ir.FormatRGBA32I,
	"R32UI": ir.FormatR32UI, "R32I": ir.FormatR32I,
}

// BindImageTexture implements shadertest.StorageContext: the texture's driver
// storage (the one draws sample and fb commands render into) is the image.
func (c *glContext) BindImageTexture(unit int, t *shadertest.Texture, name string) error {
	f, ok := imageFormats[strings.TrimPrefix(strings.ToUpper(name), "GL_")]
	if !ok {
		return fmt.Errorf("image format %s: %w", name, shadertest.ErrUnsupported)
	}
	r, err := c.attachment(t)
	if err != nil {
		return err
	}
	c.storageState().images[unit] = storageImage{r: r, format: f}
	return nil
}

// imageUniform records "uniform int NAME UNIT" for an image uniform of the
// program's vertex or fragment stage; false when NAME is none.
func (c *glContext) imageUniform(u *shadertest.Uniform) bool {
	if c.prog == nil || len(u.Ints) != 1 || u.Location >= 0 {
		return false
	}
	for _, p := range []*ir.Program{c.prog.IR.VS, c.prog.IR.FS} {
		if p == nil {
			continue
		}
		// An array's name, or an array of arrays' element name, without
		// its last indices names its first element ("tex" is "tex[0]"), as
		// glGetUniformLocation reads it. spec: GL 4.6 §7.3.1.
		for name, i := u.Name, 0; i < 4; name, i = name+"[0]", i+1 {
			for _, b := range p.Images {
				if b.Name == name {
					c.storageState().unitOf[name] = int(u.Ints[0])
					return true
				}
			}
		}
	}
	return false
}

// bindStorage hands the driver the storage bindings of the next draw: every
// buffer made so far at its binding, and each image the program declares the
// image on its unit.
func (c *glContext) bindStorage() error {
	if c.storage == nil && !c.prog.UsesMemory() {
		return nil
	}
	s := c.storageState()
	var bs []pipe.StorageBinding
	for kind, m := range s.bufs {
		k := abi.DescStorageBuffer
		if shadertest.StorageKind(kind) == shadertest.StorageCounters {
			k = abi.DescAtomicCounter
		}
		for slot, r := range m {
			bs = append(bs, pipe.StorageBinding{Kind: k, Slot: slot, Resource: r})
		}
	}
	seen := map[uint32]bool{}
	for _, p := range []*ir.Program{c.prog.IR.VS, c.prog.IR.FS} {
		if p == nil {
			continue
		}
		for _, b := range p.Images {
			if seen[b.Binding] || !p.UsesImage(b.Binding) {
				// An image the stage never reaches (an element of an array
				// of images no index selects) needs no image on its unit.
				continue
			}
			seen[b.Binding] = true
			unit := c.defaultImageUnit(b)
			if u, ok := s.unitOf[b.Name]; ok {
				unit = u
			}
			img, ok := s.images[unit]
			if !ok {
				return fmt.Errorf("no image bound at image unit %d (%s)", unit, b.Name)
			}
			if b.Format != ir.FormatUnknown && b.Format != img.format {
				return fmt.Errorf("image %s is declared %v, image unit %d holds %v texels: %w", b.Name, b.Format, unit, img.format, shadertest.ErrUnsupported)
			}
			bs = append(bs, pipe.StorageBinding{Kind: abi.DescStorageImage, Slot: b.Binding, Resource: img.r, Format: img.format})
		}
	}
	return c.pc.SetStorageBindings(bs)
}

// defaultImageUnit is the unit an image (an element of an array of images)
// uses until "uniform int" sets one: its layout(binding) (the program's
// binding, which counts the element) when the declaration has one, else 0,
// as GL initialises every uniform to zero. spec: GL 4.6 §7.6 ("uniform
// variables ... initialized to zero"), GLSL 4.50 §4.4.6 (binding sets the
// initial unit).
func (c *glContext) defaultImageUnit(b ir.ImageBinding) int {
	name, _, _ := strings.Cut(b.Name, "[")
	if l := c.prog.Linked; l != nil {
		for _, sp := range []*glsl.StageProgram{l.Vertex, l.Geometry, l.Fragment} {
			if sp == nil {
				continue
			}
			for _, u := range sp.Units {
				for _, v := range u.File.Globals {
					if v.Name == name && v.Kind == ast.VarUniform && v.Binding < 0 {
						return 0
					}
				}
			}
		}
	}
	return int(b.Binding)
}
