package compute

import (
	"fmt"

	"vortexgfx/shader/ir"
)

// Image is a storage image: a resident buffer of width × height × depth texels
// in format, texel (x, y, z) at byte ((z·height + y)·width + x)·TexelBytes, its
// words in component order — the layout the compiled program addresses (it does
// the format conversion itself, see ir.SpaceImage). It is uploaded when dirty
// even if the program only writes it, so texels a dispatch does not store keep
// their contents. spec: vortexpipe §2.5 (VP_DESC_IMAGE)
type Image struct {
	buf                  *Buffer
	format               ir.ImageFormat
	width, height, depth int
}

// NewImage returns an image holding a copy of data (nil: zeroed), which must be
// exactly width × height × depth texels of format.
func (d *Device) NewImage(format ir.ImageFormat, width, height, depth int, data []byte) (*Image, error) {
	if format.String() == "format?" {
		return nil, fmt.Errorf("compute: image format %d", format)
	}
	if width < 1 || height < 1 || depth < 1 || width > 1<<14 || height > 1<<14 || depth > 1<<11 {
		return nil, fmt.Errorf("compute: image of %dx%dx%d texels (want 1..16384 × 1..16384 × 1..2048)", width, height, depth)
	}
	n := width * height * depth * int(format.TexelBytes())
	if data != nil && len(data) != n {
		return nil, fmt.Errorf("compute: %dx%dx%d %v image needs %d bytes, got %d", width, height, depth, format, n, len(data))
	}
	b, err := d.NewBufferSize(n)
	if err != nil {
		return nil, err
	}
	copy(b.data, data)
	return &Image{buf: b, format: format, width: width, height: height, depth: depth}, nil
}

// Buffer is the image's texel storage (its host bytes, residency and address).
func (img *Image) Buffer() *Buffer { return img.buf }

// Format is the image's texel format.
func (img *Image) Format() ir.ImageFormat { return img.format }

// Extent is the image's width, height and depth.
func (img *Image) Extent() [3]int { return [3]int{img.width, img.height, img.depth} }
