package scene

import "math"

// UVTransform is a texture reference's KHR_texture_transform: texture
// coordinates become T·R·S·(u, v, 1).
type UVTransform struct {
	Offset   [2]float32
	Rotation float32 // radians
	Scale    [2]float32
}

// Matrix returns the transform as a column-major 3×3 matrix for
// (matrix · vec3(uv, 1)).xy. The rotation turns the UVs counter-clockwise
// in glTF's u-right, v-down texture space: u' = cos·u + sin·v,
// v' = −sin·u + cos·v. (The extension's GLSL listing writes the transposed
// rotation, a counter-clockwise turn in a v-up space; the implementations
// the sample model TextureTransformTest was checked against, and the
// extension's prose, use this one.)
// spec: KHR_texture_transform README (offset, rotation, scale; T·R·S).
func (x *UVTransform) Matrix() [9]float32 {
	if x == nil {
		return [9]float32{1, 0, 0, 0, 1, 0, 0, 0, 1}
	}
	s, c := math.Sincos(float64(x.Rotation))
	cs, sn := float32(c), float32(s)
	// T·R·S with R = [c s; −s c] (rows): columns of the product.
	return [9]float32{
		cs * x.Scale[0], -sn * x.Scale[0], 0,
		sn * x.Scale[1], cs * x.Scale[1], 0,
		x.Offset[0], x.Offset[1], 1,
	}
}

// LightType is a KHR_lights_punctual light's type.
type LightType uint8

// Light types.
const (
	LightDirectional LightType = iota
	LightPoint
	LightSpot
)

// Light is a KHR_lights_punctual light. It shines from its node: a point or
// spot light from the node's origin, a directional or spot light along the
// node's −z axis. Intensity is in lux (directional) or candela (point,
// spot); Range 0 means unlimited.
type Light struct {
	Name      string
	Type      LightType
	Color     [3]float32
	Intensity float32
	Range     float32
	// InnerCone and OuterCone are the spot cone's angles in radians.
	InnerCone, OuterCone float32
}
