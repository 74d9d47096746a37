package scene

import (
	"bufio"
	"bytes"
	"fmt"
	"image"
	_ "image/jpeg" // JPEG textures
	_ "image/png"  // PNG textures
	"math"
	"strconv"
	"strings"
)

// maxImagePixels bounds decoded textures (4096×4096) so that a small file
// cannot claim a huge allocation.
const maxImagePixels = 1 << 24

// DecodeImage decodes a PNG or JPEG image (at most 2^24 pixels) to NRGBA.
// name is used in errors.
func DecodeImage(data []byte, name string) (*image.NRGBA, error) {
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("image %s: %w", name, err)
	}
	if format != "png" && format != "jpeg" {
		return nil, fmt.Errorf("image %s: format %s is not PNG or JPEG", name, format)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || int64(cfg.Width)*int64(cfg.Height) > maxImagePixels {
		return nil, fmt.Errorf("image %s: size %dx%d out of range", name, cfg.Width, cfg.Height)
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("image %s: %w", name, err)
	}
	return ToNRGBA(img), nil
}

// FlipVertical returns img upside down (OBJ's vt v=0 is the image's bottom
// row; textures here keep row 0 at v=0).
func FlipVertical(img *image.NRGBA) *image.NRGBA {
	b := img.Bounds()
	out := image.NewNRGBA(b)
	for y := 0; y < b.Dy(); y++ {
		copy(out.Pix[y*out.Stride:y*out.Stride+4*b.Dx()], img.Pix[(b.Dy()-1-y)*img.Stride:])
	}
	return out
}

// mtlMapArgs is the number of arguments each map_* option takes (-1: one to three numbers).
var mtlMapArgs = map[string]int{
	"-blendu": 1, "-blendv": 1, "-bm": 1, "-boost": 1, "-cc": 1, "-clamp": 1,
	"-imfchan": 1, "-mm": 2, "-o": -1, "-s": -1, "-t": -1, "-texres": 1, "-type": 1,
}

// parseMapArgs splits a map_* statement into its file name and whether -clamp on was given.
func parseMapArgs(rest string) (file string, clamp bool, err error) {
	fs := strings.Fields(rest)
	i := 0
	for i < len(fs) && strings.HasPrefix(fs[i], "-") {
		n, ok := mtlMapArgs[fs[i]]
		if !ok {
			return "", false, fmt.Errorf("unknown texture option %s", fs[i])
		}
		opt := fs[i]
		i++
		if n < 0 {
			k := 0
			for k < 3 && i < len(fs) {
				if _, err := strconv.ParseFloat(fs[i], 64); err != nil {
					break
				}
				i++
				k++
			}
			if k == 0 {
				return "", false, fmt.Errorf("option %s needs numbers", opt)
			}
			continue
		}
		if i+n > len(fs) {
			return "", false, fmt.Errorf("option %s needs %d arguments", opt, n)
		}
		if opt == "-clamp" {
			clamp = fs[i] == "on"
		}
		i += n
	}
	if i >= len(fs) {
		return "", false, fmt.Errorf("no file name")
	}
	return strings.Join(fs[i:], " "), clamp, nil
}

// parseMTL adds the materials of one MTL library. Kd and d become the
// base colour, Ns maps to roughness sqrt(2/(Ns+2)), Ke to emissive, Pr/Pm
// (the PBR extension) override roughness/metallic; map_Kd, map_Bump/bump/norm,
// map_Ke and map_Pr/map_Pm load textures (flipped so row 0 is v=0).
func parseMTL(data []byte, name string, read ReadFunc, mats *[]Material, texs *[]Texture, index map[string]int) error {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 4096), 1<<20)
	line := 0
	cur := -1
	texCache := map[string]int{}
	loadTex := func(rest string) (*TextureRef, error) {
		file, clamp, err := parseMapArgs(rest)
		if err != nil {
			return nil, err
		}
		key := fmt.Sprintf("%s|%v", file, clamp)
		if i, ok := texCache[key]; ok {
			return &TextureRef{Texture: i, Scale: 1}, nil
		}
		b, err := read(file)
		if err != nil {
			return nil, err
		}
		img, err := DecodeImage(b, file)
		if err != nil {
			return nil, err
		}
		s := DefaultSampler()
		if clamp {
			s.WrapS, s.WrapT = WrapClampToEdge, WrapClampToEdge
		}
		*texs = append(*texs, Texture{Name: file, Image: FlipVertical(img), Sampler: s})
		texCache[key] = len(*texs) - 1
		return &TextureRef{Texture: len(*texs) - 1, Scale: 1}, nil
	}
	for sc.Scan() {
		line++
		text := sc.Text()
		if line == 1 {
			text = strings.TrimPrefix(text, utf8BOM)
		}
		if i := strings.IndexByte(text, '#'); i >= 0 {
			text = text[:i]
		}
		kw, rest, _ := strings.Cut(strings.TrimSpace(text), " ")
		if kw == "" {
			continue
		}
		rest = strings.TrimSpace(rest)
		err := func() error {
			if kw == "newmtl" {
				if rest == "" {
					return fmt.Errorf("missing name")
				}
				m := DefaultMaterial()
				m.Name = rest
				m.MetallicFactor = 0
				cur = len(*mats)
				*mats = append(*mats, m)
				index[rest] = cur
				return nil
			}
			if cur < 0 {
				return nil // statements before the first newmtl are ignored
			}
			m := &(*mats)[cur]
			nums := func(n int) ([]float32, error) {
				out, err := parseFloats(nil, []byte(rest), n, n, 0)
				return out, err
			}
			var err error
			switch strings.ToLower(kw) {
			case "kd":
				var v []float32
				if v, err = nums(3); err == nil {
					copy(m.BaseColorFactor[:3], v)
				}
			case "ke":
				var v []float32
				if v, err = nums(3); err == nil {
					copy(m.EmissiveFactor[:], v)
				}
			case "d", "tr":
				var v []float32
				if v, err = nums(1); err == nil {
					a := v[0]
					if strings.EqualFold(kw, "tr") {
						a = 1 - a
					}
					m.BaseColorFactor[3] = a
					if a < 1 {
						m.AlphaMode = AlphaBlend
					}
				}
			case "ns":
				var v []float32
				if v, err = nums(1); err == nil {
					m.RoughnessFactor = float32(math.Sqrt(2 / (math.Max(float64(v[0]), 0) + 2)))
				}
			case "pr":
				var v []float32
				if v, err = nums(1); err == nil {
					m.RoughnessFactor = v[0]
				}
			case "pm":
				var v []float32
				if v, err = nums(1); err == nil {
					m.MetallicFactor = v[0]
				}
			case "map_kd":
				m.BaseColorTexture, err = loadTex(rest)
			case "map_bump", "bump", "norm":
				m.NormalTexture, err = loadTex(rest)
			case "map_ke":
				m.EmissiveTexture, err = loadTex(rest)
			case "map_pr", "map_pm":
				m.MetallicRoughnessTexture, err = loadTex(rest)
			}
			return err
		}()
		if err != nil {
			return fmt.Errorf("%s:%d: %s: %w", name, line, kw, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s:%d: %w", name, line+1, err)
	}
	return nil
}
