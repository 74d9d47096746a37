package types

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vortexgfx/shader/glsl/ast"
	"vortexgfx/shader/glsl/parser"
)

var update = flag.Bool("update", false, "rewrite the golden checked-AST dumps")

// TestGoldenChecked compares the checked (typed, converted, folded) AST dumps of
// testdata/golden programs: the exact form the IR lowering consumes.
func TestGoldenChecked(t *testing.T) {
	files, _ := filepath.Glob("testdata/golden/*.*[tg]")
	n := 0
	for _, path := range files {
		if strings.HasSuffix(path, ".golden") {
			continue
		}
		n++
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		stage := ast.StageVertex
		if strings.HasSuffix(path, ".frag") {
			stage = ast.StageFragment
		}
		f, err := parser.ParseFile(filepath.Base(path), string(src), parser.Options{})
		if err == nil {
			err = Check(f, Config{Stage: stage})
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if err := Verify(f); err != nil {
			t.Errorf("%s: %v", path, err)
		}
		got := ast.Sprint(f)
		golden := path + ".golden"
		if *update {
			if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run with -update)", err)
		}
		if got != string(want) {
			t.Errorf("%s: checked AST differs from %s:\n%s", path, golden, got)
		}
	}
	if n == 0 {
		t.Fatal("no golden sources")
	}
}
