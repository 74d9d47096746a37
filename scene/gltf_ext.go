package scene

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"
)

// The glTF extensions the loader implements; every other extension a file
// names is refused when required and reported in a warning when used.
// spec: glTF 2.0 §3.12 (extensions): a loader must refuse a file whose
// extensionsRequired it does not support.
var implementedExtensions = map[string]string{
	"KHR_texture_transform":           "texture coordinate offset, rotation and scale",
	"KHR_materials_emissive_strength": "emissive strength",
	"KHR_materials_unlit":             "unlit materials",
	"KHR_mesh_quantization":           "integer vertex attributes",
	"KHR_lights_punctual":             "directional, point and spot lights",
}

// ImplementedExtensions returns the glTF extensions the loader implements,
// sorted.
func ImplementedExtensions() []string {
	out := make([]string, 0, len(implementedExtensions))
	for k := range implementedExtensions {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// warnf records a feature the loader leaves out, naming the file and the
// JSON path.
func (l *gltfLoader) warnf(path, format string, args ...any) {
	l.warnings = append(l.warnings, fmt.Sprintf("%s: %s: %s", l.name, path, fmt.Sprintf(format, args...)))
}

// checkExtensions refuses required extensions the loader does not
// implement and warns once for each used one it ignores.
func (l *gltfLoader) checkExtensions() error {
	var missing []string
	for _, e := range l.doc.ExtensionsRequired {
		if _, ok := implementedExtensions[e]; !ok {
			missing = append(missing, e)
		}
	}
	if len(missing) > 0 {
		return l.errorf("extensionsRequired", "%s not implemented (implemented: %s)", strings.Join(missing, ", "), strings.Join(ImplementedExtensions(), ", "))
	}
	for i, e := range l.doc.ExtensionsUsed {
		l.noteExtension(e, fmt.Sprintf("extensionsUsed[%d]", i))
	}
	return nil
}

// noteExtension warns (once per name) about an extension the loader does
// not implement.
func (l *gltfLoader) noteExtension(name, path string) {
	if _, ok := implementedExtensions[name]; ok {
		return
	}
	l.warnOnce(name, path, "extension %s is not implemented; what it adds is ignored", name)
}

// warnOnce records a warning the first time key is seen (the first place a
// feature is met; later ones would repeat it).
func (l *gltfLoader) warnOnce(key, path, format string, args ...any) {
	if l.warned[key] {
		return
	}
	if l.warned == nil {
		l.warned = map[string]bool{}
	}
	l.warned[key] = true
	l.warnf(path, format, args...)
}

// extension decodes ext[name] into v when present (false when absent) and
// notes every other extension on the object.
func (l *gltfLoader) extension(ext gltfExtensions, name, path string, v any) (bool, error) {
	prefix := path + ".extensions."
	if path == "" { // the document's own extensions
		prefix = "extensions."
	}
	for _, k := range sortedKeys(ext) {
		if k != name {
			l.noteExtension(k, prefix+k)
		}
	}
	raw, ok := ext[name]
	if !ok {
		return false, nil
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	if err := d.Decode(v); err != nil {
		return false, l.errorf(prefix+name, "%v", err)
	}
	return true, nil
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// textureTransform decodes a textureInfo's KHR_texture_transform; texCoord
// overrides the reference's set when given.
func (l *gltfLoader) textureTransform(ti *gltfTextureInfo, path string, r *TextureRef) error {
	var x struct {
		Offset   []float32 `json:"offset"`
		Rotation float32   `json:"rotation"`
		Scale    []float32 `json:"scale"`
		TexCoord *int      `json:"texCoord"`
	}
	ok, err := l.extension(ti.Extensions, "KHR_texture_transform", path, &x)
	if err != nil || !ok {
		return err
	}
	xp := path + ".extensions.KHR_texture_transform"
	t := &UVTransform{Rotation: x.Rotation, Scale: [2]float32{1, 1}}
	for _, f := range []struct {
		name string
		v    []float32
		dst  *[2]float32
	}{{"offset", x.Offset, &t.Offset}, {"scale", x.Scale, &t.Scale}} {
		if f.v == nil {
			continue
		}
		if len(f.v) != 2 || !finite32(f.v) {
			return l.errorf(xp+"."+f.name, "want 2 finite numbers, got %v", f.v)
		}
		copy(f.dst[:], f.v)
	}
	if math.IsNaN(float64(x.Rotation)) || math.IsInf(float64(x.Rotation), 0) {
		return l.errorf(xp+".rotation", "not finite")
	}
	if x.TexCoord != nil {
		if *x.TexCoord < 0 {
			return l.errorf(xp+".texCoord", "negative (%d)", *x.TexCoord)
		}
		r.TexCoord = *x.TexCoord
	}
	r.Transform = t
	return nil
}

// materialExtensions decodes the material extensions the loader implements.
func (l *gltfLoader) materialExtensions(gm *gltfMaterial, mp string, m *Material) error {
	for _, k := range sortedKeys(gm.Extensions) {
		mpk := mp + ".extensions." + k
		switch k {
		case "KHR_materials_emissive_strength":
			var x struct {
				EmissiveStrength *float32 `json:"emissiveStrength"`
			}
			if err := json.Unmarshal(gm.Extensions[k], &x); err != nil {
				return l.errorf(mpk, "%v", err)
			}
			if x.EmissiveStrength != nil {
				if !(*x.EmissiveStrength >= 0) || math.IsInf(float64(*x.EmissiveStrength), 0) {
					return l.errorf(mpk+".emissiveStrength", "%g, want a finite number >= 0", *x.EmissiveStrength)
				}
				m.EmissiveStrength = *x.EmissiveStrength
			}
		case "KHR_materials_unlit":
			m.Unlit = true
		default:
			l.noteExtension(k, mpk)
		}
	}
	return nil
}

// lights decodes the document's KHR_lights_punctual lights.
// spec: KHR_lights_punctual README (light types, defaults, spot cone).
func (l *gltfLoader) lights() ([]Light, error) {
	var x struct {
		Lights []struct {
			Name      string    `json:"name"`
			Type      string    `json:"type"`
			Color     []float32 `json:"color"`
			Intensity *float32  `json:"intensity"`
			Range     *float32  `json:"range"`
			Spot      *struct {
				InnerConeAngle *float32 `json:"innerConeAngle"`
				OuterConeAngle *float32 `json:"outerConeAngle"`
			} `json:"spot"`
		} `json:"lights"`
	}
	ok, err := l.extension(l.doc.Extensions, "KHR_lights_punctual", "", &x)
	if err != nil || !ok {
		return nil, err
	}
	var out []Light
	for i, gl := range x.Lights {
		lp := fmt.Sprintf("extensions.KHR_lights_punctual.lights[%d]", i)
		lt := Light{Name: gl.Name, Color: [3]float32{1, 1, 1}, Intensity: 1, InnerCone: 0, OuterCone: math.Pi / 4}
		switch gl.Type {
		case "directional":
			lt.Type = LightDirectional
		case "point":
			lt.Type = LightPoint
		case "spot":
			lt.Type = LightSpot
			if gl.Spot == nil {
				return nil, l.errorf(lp+".spot", "missing for a spot light")
			}
			if gl.Spot.InnerConeAngle != nil {
				lt.InnerCone = *gl.Spot.InnerConeAngle
			}
			if gl.Spot.OuterConeAngle != nil {
				lt.OuterCone = *gl.Spot.OuterConeAngle
			}
			if !(lt.InnerCone >= 0 && lt.InnerCone < lt.OuterCone && lt.OuterCone <= math.Pi/2) {
				return nil, l.errorf(lp+".spot", "cone angles %g, %g: want 0 <= inner < outer <= π/2", lt.InnerCone, lt.OuterCone)
			}
		default:
			return nil, l.errorf(lp+".type", "%q, want directional, point or spot", gl.Type)
		}
		if gl.Color != nil {
			if len(gl.Color) != 3 || !finite32(gl.Color) {
				return nil, l.errorf(lp+".color", "want 3 finite numbers")
			}
			copy(lt.Color[:], gl.Color)
		}
		if gl.Intensity != nil {
			if !(*gl.Intensity >= 0) || math.IsInf(float64(*gl.Intensity), 0) {
				return nil, l.errorf(lp+".intensity", "%g, want a finite number >= 0", *gl.Intensity)
			}
			lt.Intensity = *gl.Intensity
		}
		if gl.Range != nil {
			if !(*gl.Range > 0) || lt.Type == LightDirectional {
				return nil, l.errorf(lp+".range", "%g: want > 0, and only for point and spot lights", *gl.Range)
			}
			lt.Range = *gl.Range
		}
		out = append(out, lt)
	}
	return out, nil
}

// nodeLight decodes a node's KHR_lights_punctual reference (-1 when none).
func (l *gltfLoader) nodeLight(gn *gltfNode, np string, lights int) (int, error) {
	var x struct {
		Light *int `json:"light"`
	}
	ok, err := l.extension(gn.Extensions, "KHR_lights_punctual", np, &x)
	if err != nil || !ok {
		return -1, err
	}
	if x.Light == nil || *x.Light < 0 || *x.Light >= lights {
		return -1, l.errorf(np+".extensions.KHR_lights_punctual.light", "missing or out of range (%d lights)", lights)
	}
	return *x.Light, nil
}
