package device

import (
	"fmt"

	"vortexgfx/shadertest"
)

// The storage commands of draw tests (shadertest.StorageContext) go to the
// reference context, whose driver context is this one's: its draws with
// storage buffers, atomic counters or images route to the reference renderer
// (pipe.GateStorage, counted; an error under Strict). The shadow context
// (Compare) gets the same commands.

func (c *glContext) storage() (shadertest.StorageContext, error) {
	sc, ok := c.ref.(shadertest.StorageContext)
	if !ok {
		return nil, fmt.Errorf("storage buffers: %w", shadertest.ErrUnsupported)
	}
	return sc, nil
}

func (c *glContext) shadowStorage(fn func(shadertest.StorageContext)) {
	if sc, ok := c.shadow.(shadertest.StorageContext); ok && c.shadow != nil {
		fn(sc)
	}
}

// NewStorageBuffer implements shadertest.StorageContext.
func (c *glContext) NewStorageBuffer(kind shadertest.StorageKind, binding uint32, size int) error {
	sc, err := c.storage()
	if err != nil {
		return err
	}
	c.shadowStorage(func(s shadertest.StorageContext) { _ = s.NewStorageBuffer(kind, binding, size) })
	return sc.NewStorageBuffer(kind, binding, size)
}

// WriteStorageBuffer implements shadertest.StorageContext.
func (c *glContext) WriteStorageBuffer(kind shadertest.StorageKind, binding uint32, off int, b []byte) error {
	sc, err := c.storage()
	if err != nil {
		return err
	}
	c.shadowStorage(func(s shadertest.StorageContext) { _ = s.WriteStorageBuffer(kind, binding, off, b) })
	return sc.WriteStorageBuffer(kind, binding, off, b)
}

// ReadStorageBuffer implements shadertest.StorageContext: the device
// context's buffer (the shadow's is not compared).
func (c *glContext) ReadStorageBuffer(kind shadertest.StorageKind, binding uint32, off int, b []byte) error {
	sc, err := c.storage()
	if err != nil {
		return err
	}
	return sc.ReadStorageBuffer(kind, binding, off, b)
}

// BindImageTexture implements shadertest.StorageContext.
func (c *glContext) BindImageTexture(unit int, t *shadertest.Texture, format string) error {
	sc, err := c.storage()
	if err != nil {
		return err
	}
	c.shadowStorage(func(s shadertest.StorageContext) { _ = s.BindImageTexture(unit, t, format) })
	return sc.BindImageTexture(unit, t, format)
}
