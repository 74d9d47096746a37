package lower

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"vortexgfx/shader/glsl"
)

// computeSections returns the [compute shader] sources of a .shader_test, the
// GLSL version its [require] section asks for, whether it needs an extension the
// front end does not implement and whether its [test] expects a link error.
func computeSections(src string) (units []string, version int, unsupported, linkError bool) {
	section := ""
	var cur *strings.Builder
	for _, line := range strings.SplitAfter(src, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "[") && strings.HasSuffix(t, "]") {
			if cur != nil {
				units = append(units, cur.String())
				cur = nil
			}
			section = t
			if section == "[compute shader]" {
				cur = &strings.Builder{}
			}
			continue
		}
		switch section {
		case "[compute shader]":
			cur.WriteString(line)
		case "[test]":
			linkError = linkError || strings.HasPrefix(t, "link error")
		case "[require]":
			if strings.HasPrefix(t, "GL_ARB_") || strings.HasPrefix(t, "GL_EXT_") || strings.HasPrefix(t, "GL_NV_") || strings.HasPrefix(t, "GL_AMD_") || strings.HasPrefix(t, "GL_INTEL_") {
				ext := strings.Fields(t)[0]
				found := false
				for _, e := range glsl.SupportedExtensions() {
					found = found || e == ext
				}
				switch ext {
				case "GL_ARB_uniform_buffer_object", "GL_ARB_shader_image_size", "GL_ARB_arrays_of_arrays", "GL_ARB_explicit_attrib_location":
					found = true // core in the versions these tests use, or no shader feature
				}
				unsupported = unsupported || !found
			}
			if v, ok := strings.CutPrefix(t, "GLSL >= "); ok {
				if maj, min, ok := strings.Cut(strings.TrimSpace(v), "."); ok && len(maj) == 1 && len(min) == 2 {
					version = int(maj[0]-'0')*100 + int(min[0]-'0')*10 + int(min[1]-'0')
				}
			}
		}
	}
	if cur != nil {
		units = append(units, cur.String())
	}
	return units, version, unsupported, linkError
}

// TestPiglitComputeShaders compiles, links and lowers the compute shaders of
// piglit's compute execution tests (all valid GLSL) when VORTEX_PIGLIT_DIR has
// them, and logs how many lower; there is no ratchet (CI extracts only the core
// sets). The executions themselves run in the device path (package compute).
func TestPiglitComputeShaders(t *testing.T) {
	dir := os.Getenv("VORTEX_PIGLIT_DIR")
	if dir == "" {
		t.Skip("VORTEX_PIGLIT_DIR not set: piglit data absent")
	}
	for _, set := range []string{"arb_compute_shader", "arb_shader_storage_buffer_object", "arb_shader_atomic_counters", "arb_shader_image_load_store", "glsl-es-3.10", "glsl-4.30"} {
		root := filepath.Join(dir, "tests", "spec", set)
		var files []string
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".shader_test") {
				files = append(files, p)
			}
			return nil
		})
		sort.Strings(files)
		ok, total, skipped := 0, 0, 0
		var fails []string
		for _, p := range files {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			units, version, unsupported, linkError := computeSections(string(b))
			if len(units) == 0 {
				continue
			}
			if unsupported {
				skipped++
				continue
			}
			total++
			var shaders []*glsl.Shader
			err = nil
			for i, u := range units {
				var s *glsl.Shader
				s, err = glsl.Compile(p+"["+string(rune('0'+i))+"]", u, glsl.Compute, glsl.Options{DefaultVersion: version})
				if err != nil {
					break
				}
				shaders = append(shaders, s)
			}
			if err == nil {
				var lp *glsl.Program
				if lp, err = glsl.LinkShaders(shaders...); err == nil {
					_, err = Lower(lp)
				}
			}
			if (err != nil) != linkError {
				if err == nil {
					err = errors.New(p + ": link error expected")
				}
				fails = append(fails, firstLine(err))
				continue
			}
			ok++
		}
		t.Logf("%-33s %3d/%3d compute shaders lower, %d skipped (extensions)", set, ok, total, skipped)
		if testing.Verbose() {
			for _, f := range fails {
				t.Log("  " + f)
			}
		}
	}
}

func firstLine(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}
