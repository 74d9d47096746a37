package arbasm

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// piglitDir is where CI unpacks Debian's piglit (VORTEX_PIGLIT_DIR overrides).
func piglitDir() string {
	if d := os.Getenv("VORTEX_PIGLIT_DIR"); d != "" {
		return d
	}
	return "/tmp/piglit/usr/lib/x86_64-linux-gnu/piglit"
}

// programSections returns the [vertex program] and [fragment program]
// sections of a shader_test file.
func programSections(text string) map[Target][]string {
	out := map[Target][]string{}
	lines := strings.SplitAfter(text, "\n")
	for i := 0; i < len(lines); i++ {
		var t Target
		switch strings.TrimSpace(lines[i]) {
		case "[vertex program]":
			t = VertexProgram
		case "[fragment program]":
			t = FragmentProgram
		default:
			continue
		}
		var b strings.Builder
		for i++; i < len(lines) && !strings.HasPrefix(lines[i], "["); i++ {
			b.WriteString(lines[i])
		}
		i--
		out[t] = append(out[t], b.String())
	}
	return out
}

// TestPiglitPrograms translates and compiles every assembly program of
// piglit's ARB_vertex_program / ARB_fragment_program shader_tests: each must
// compile to verified IR or be refused with a positioned error.
func TestPiglitPrograms(t *testing.T) {
	root := filepath.Join(piglitDir(), "tests", "spec")
	if _, err := os.Stat(root); err != nil {
		t.Skipf("piglit not unpacked at %s (set VORTEX_PIGLIT_DIR)", root)
	}
	n := 0
	for _, dir := range []string{"arb_vertex_program", "arb_fragment_program", "arb_fragment_program_shadow"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".shader_test") {
				return err
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for target, srcs := range programSections(string(data)) {
				for _, src := range srcs {
					n++
					if _, _, err := Compile(src, target); err != nil {
						if _, ok := err.(*Error); ok {
							t.Logf("%s: refused: %v", path, err)
							continue
						}
						t.Errorf("%s: %v", path, err)
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d programs", n)
}
