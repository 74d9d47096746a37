package device

import (
	"fmt"

	"vortexgfx/shadertest"
)

// Framebuffer objects on the device path: the reference back end's (its
// textures and renderbuffers are driver textures of the device screen, so
// draws into them are routed as any draw is), mirrored on the shadow
// context under --compare.

// BindFramebuffers implements shadertest.FramebufferContext.
func (c *glContext) BindFramebuffers(draw, read *shadertest.Framebuffer) error {
	fc, ok := c.ref.(shadertest.FramebufferContext)
	if !ok {
		return fmt.Errorf("device: framebuffer objects: %w", shadertest.ErrUnsupported)
	}
	if c.shadow != nil {
		if sc, ok := c.shadow.(shadertest.FramebufferContext); ok {
			if err := sc.BindFramebuffers(draw, read); err != nil {
				return err
			}
		}
	}
	return fc.BindFramebuffers(draw, read)
}

// Blit implements shadertest.FramebufferContext.
func (c *glContext) Blit(linear bool) error {
	fc, ok := c.ref.(shadertest.FramebufferContext)
	if !ok {
		return fmt.Errorf("device: blit: %w", shadertest.ErrUnsupported)
	}
	c.changed = true
	if c.shadow != nil {
		if sc, ok := c.shadow.(shadertest.FramebufferContext); ok {
			if err := sc.Blit(linear); err != nil {
				return err
			}
		}
	}
	return fc.Blit(linear)
}

// ReadPixelsInt implements shadertest.IntReader.
func (c *glContext) ReadPixelsInt(x, y, w, h int, dst []int32) error {
	ir, ok := c.ref.(shadertest.IntReader)
	if !ok {
		return fmt.Errorf("device: integer reads: %w", shadertest.ErrUnsupported)
	}
	if err := c.compare(); err != nil {
		return err
	}
	return ir.ReadPixelsInt(x, y, w, h, dst)
}
