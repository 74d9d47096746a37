package parser

import (
	"strings"
	"testing"
)

// The "reserved for future use" lists of the GLSL ES specifications, word for word
// (GLSL ES 1.00 §3.7, 3.00 §3.7, 3.10 §3.7, 3.20 §3.7), written out again here so
// the test checks keywords.go against the text rather than against itself.
var esSpecReserved = map[int]string{
	100: `asm class union enum typedef template this packed goto switch default inline
		noinline volatile public static extern external interface flat long short double
		half fixed unsigned superp input output hvec2 hvec3 hvec4 dvec2 dvec3 dvec4 fvec2
		fvec3 fvec4 sampler1D sampler3D sampler1DShadow sampler2DShadow sampler2DRect
		sampler3DRect sampler2DRectShadow sizeof cast namespace using`,
	300: `attribute varying coherent volatile restrict readonly writeonly resource
		atomic_uint noperspective patch sample subroutine common partition active asm
		class union enum typedef template this goto inline noinline public static extern
		external interface long short double half fixed unsigned superp input output
		hvec2 hvec3 hvec4 dvec2 dvec3 dvec4 fvec2 fvec3 fvec4 sampler3DRect filter
		image1D image2D image3D imageCube iimage1D iimage2D iimage3D iimageCube uimage1D
		uimage2D uimage3D uimageCube image1DArray image2DArray iimage1DArray
		iimage2DArray uimage1DArray uimage2DArray imageBuffer iimageBuffer uimageBuffer
		sampler1D sampler1DShadow sampler1DArray sampler1DArrayShadow isampler1D
		isampler1DArray usampler1D usampler1DArray sampler2DRect sampler2DRectShadow
		isampler2DRect usampler2DRect samplerBuffer isamplerBuffer usamplerBuffer
		sampler2DMS isampler2DMS usampler2DMS sampler2DMSArray isampler2DMSArray
		usampler2DMSArray sizeof cast namespace using`,
	310: `attribute varying resource noperspective patch sample subroutine common
		partition active asm class union enum typedef template this goto inline noinline
		public static extern external interface long short double half fixed unsigned
		superp input output hvec2 hvec3 hvec4 dvec2 dvec3 dvec4 fvec2 fvec3 fvec4
		sampler3DRect filter image1D iimage1D uimage1D image1DArray iimage1DArray
		uimage1DArray imageBuffer iimageBuffer uimageBuffer imageCubeArray
		iimageCubeArray uimageCubeArray sampler1D sampler1DShadow sampler1DArray
		sampler1DArrayShadow isampler1D isampler1DArray usampler1D usampler1DArray
		sampler2DRect sampler2DRectShadow isampler2DRect usampler2DRect samplerBuffer
		isamplerBuffer usamplerBuffer samplerCubeArray samplerCubeArrayShadow
		isamplerCubeArray usamplerCubeArray sampler2DMSArray isampler2DMSArray
		usampler2DMSArray precise sizeof cast namespace using`,
	320: `attribute varying resource noperspective subroutine common partition active asm
		class union enum typedef template this goto inline noinline public static extern
		external interface long short double half fixed unsigned superp input output
		hvec2 hvec3 hvec4 dvec2 dvec3 dvec4 fvec2 fvec3 fvec4 sampler3DRect filter
		image1D iimage1D uimage1D image1DArray iimage1DArray uimage1DArray sampler1D
		sampler1DShadow sampler1DArray sampler1DArrayShadow isampler1D isampler1DArray
		usampler1D usampler1DArray sampler2DRect sampler2DRectShadow isampler2DRect
		usampler2DRect sizeof cast namespace using`,
}

// esKeywords are the words of the lists above (and a few others) that are keywords
// in a later version: a name there is an error too, of another kind.
var esKeywords = map[int]string{
	// Keywords in 1.00 and reserved from 3.00, where the parser keeps them keywords
	// so that the checker can say why "attribute vec4 p;" is wrong.
	100: `attribute varying`,
	300: `switch default flat smooth centroid case uint layout sampler3D sampler2DShadow`,
	310: `coherent volatile restrict readonly writeonly atomic_uint image2D image3D
		imageCube iimage2D iimage3D iimageCube uimage2D uimage3D uimageCube image2DArray
		iimage2DArray uimage2DArray sampler2DMS isampler2DMS usampler2DMS shared buffer`,
	320: `patch sample precise samplerBuffer isamplerBuffer usamplerBuffer imageBuffer
		iimageBuffer uimageBuffer samplerCubeArray samplerCubeArrayShadow
		isamplerCubeArray usamplerCubeArray imageCubeArray iimageCubeArray
		uimageCubeArray sampler2DMSArray isampler2DMSArray usampler2DMSArray`,
}

// TestESReservedWords declares a variable named by every word of every ES list (and
// by words only desktop GLSL reserves) in each ES version: a word of that version's
// list is "a reserved word", a keyword of the version is some other error, and
// anything else is an ordinary identifier.
func TestESReservedWords(t *testing.T) {
	words := map[string]bool{}
	for _, l := range esSpecReserved {
		for _, w := range strings.Fields(l) {
			words[w] = true
		}
	}
	// Desktop-only reserved words and ES 1.00 non-keywords: identifiers in ES.
	for _, w := range strings.Fields(`image1DShadow image2DShadow image1DArrayShadow
		image2DArrayShadow dmat2 dmat3 dmat4 dmat2x2 row_major image2DRect image2DMS
		smooth centroid case uint layout shared buffer`) {
		words[w] = true
	}
	for _, v := range []int{100, 300, 310, 320} {
		reserved := map[string]bool{}
		for _, w := range strings.Fields(esSpecReserved[v]) {
			reserved[w] = true
		}
		keyword := map[string]bool{}
		for kv, l := range esKeywords {
			if kv <= v {
				for _, w := range strings.Fields(l) {
					keyword[w] = true
				}
			}
		}
		header := "#version 100\n"
		if v != 100 {
			header = "#version " + itoa(v) + " es\n"
		}
		for w := range words {
			_, err := ParseFile("t.frag", header+"precision mediump float;\nint "+w+";\n", Options{})
			switch {
			case keyword[w]:
				if err == nil {
					t.Errorf("ES %d %s: keyword accepted as a name", v, w)
				}
			case reserved[w]:
				want := "t.frag:3:5: error: '" + w + "' is a reserved word"
				if err == nil || !strings.Contains(err.Error(), want) {
					t.Errorf("ES %d %s: error %v, want %q", v, w, err, want)
				}
			default:
				if err != nil {
					t.Errorf("ES %d %s: not reserved, got %v", v, w, err)
				}
			}
		}
	}
}

func itoa(v int) string {
	return string(rune('0'+v/100)) + string(rune('0'+v/10%10)) + string(rune('0'+v%10))
}

// TestESReservedExtensions: the ES 1.00 reserved samplers are types with their
// extensions enabled (not a reserved-word error, whatever else happens).
func TestESReservedExtensions(t *testing.T) {
	for _, tc := range []struct{ ext, word string }{
		{"GL_OES_texture_3D", "sampler3D"},
		{"GL_EXT_shadow_samplers", "sampler2DShadow"},
	} {
		_, err := ParseFile("t.frag", "#version 100\n#extension "+tc.ext+" : enable\nint "+tc.word+";\n", Options{})
		if err != nil && strings.Contains(err.Error(), "reserved word") {
			t.Errorf("%s with %s: %v", tc.word, tc.ext, err)
		}
	}
}
