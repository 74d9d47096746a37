package glsl

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"vortexgfx/shader/glsl/types"
)

// PiglitSets are the piglit compiler-test sets the front end is measured on.
// spec: issue 4 "The vortex glsl command" (agreement with expect_result).
var PiglitSets = []string{"glsl-1.10", "glsl-1.20", "glsl-1.30", "glsl-es-3.00"}

// PiglitComputeSets are the piglit compiler-test sets of the compute features
// (issue 9). Their tests may require the extensions SupportedExtensions lists; a
// test is skipped only when it needs another one.
var PiglitComputeSets = []string{"arb_compute_shader", "arb_shader_storage_buffer_object",
	"arb_shader_atomic_counters", "arb_shader_image_load_store", "glsl-es-3.10"}

// PiglitResult is the agreement of the compiler with one piglit test set.
type PiglitResult struct {
	Set      string
	Agreed   int      // tests whose outcome matched expect_result
	Total    int      // tests run (excluding skipped)
	Skipped  int      // tests needing an extension we do not implement
	Mismatch []string // "path: expected pass|fail[: first error]" for disagreements
}

// Rate returns Agreed/Total (1 for an empty set).
func (r *PiglitResult) Rate() float64 {
	if r.Total == 0 {
		return 1
	}
	return float64(r.Agreed) / float64(r.Total)
}

type piglitConfig struct {
	expect     string
	extensions []string
	checkLink  bool
}

// parsePiglitConfig reads the "[config] ... [end config]" comment header.
func parsePiglitConfig(src string) (piglitConfig, bool) {
	var cfg piglitConfig
	start := strings.Index(src, "[config]")
	end := strings.Index(src, "[end config]")
	if start < 0 || end < start {
		return cfg, false
	}
	for _, line := range strings.Split(src[start:end], "\n") {
		line = strings.TrimLeft(strings.TrimSpace(line), "/*# ")
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		switch k {
		case "expect_result":
			cfg.expect = v
		case "require_extensions":
			for _, e := range strings.Fields(v) {
				if !strings.HasPrefix(e, "!") {
					cfg.extensions = append(cfg.extensions, e)
				}
			}
		case "check_link":
			cfg.checkLink = v == "true"
		}
	}
	return cfg, cfg.expect == "pass" || cfg.expect == "fail"
}

// PiglitAgreement compiles every piglit compiler test (.vert/.frag under
// tests/spec/<set>/compiler and generated_tests/spec/<set>/compiler of dir) and
// reports, per set, how often the outcome agrees with the test's expect_result.
// Tests that require an extension are counted as skipped. With no sets given it
// measures PiglitSets.
func PiglitAgreement(dir string, sets ...string) ([]*PiglitResult, error) {
	if len(sets) == 0 {
		sets = PiglitSets
	}
	var out []*PiglitResult
	for _, set := range sets {
		r := &PiglitResult{Set: set}
		var files []string
		for _, top := range []string{"tests", "generated_tests"} {
			root := filepath.Join(dir, top, "spec", set, "compiler")
			if _, err := os.Stat(root); err != nil {
				continue
			}
			err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
				if err != nil {
					return err
				}
				if !d.IsDir() && (strings.HasSuffix(p, ".vert") || strings.HasSuffix(p, ".frag") || strings.HasSuffix(p, ".comp")) {
					files = append(files, p)
				}
				return nil
			})
			if err != nil {
				return nil, fmt.Errorf("piglit: walk %s: %w", root, err)
			}
		}
		sort.Strings(files)
		for _, p := range files {
			b, err := os.ReadFile(p)
			if err != nil {
				return nil, fmt.Errorf("piglit: %w", err)
			}
			src := string(b)
			cfg, ok := parsePiglitConfig(src)
			if !ok {
				continue
			}
			if len(cfg.extensions) > 0 && (!slices.Contains(PiglitComputeSets, set) || !supported(cfg.extensions)) {
				r.Skipped++
				continue
			}
			stage := Vertex
			switch {
			case strings.HasSuffix(p, ".frag"):
				stage = Fragment
			case strings.HasSuffix(p, ".comp"):
				stage = Compute
			}
			rel, _ := filepath.Rel(dir, p)
			sh, err := Compile(rel, src, stage, Options{})
			if err == nil {
				if verr := types.Verify(sh.File); verr != nil {
					return nil, fmt.Errorf("piglit: %s: checker broke its contract: %w", rel, verr)
				}
			}
			if err == nil && cfg.checkLink {
				err = checkMain(sh)
			}
			got := "pass"
			if err != nil {
				got = "fail"
			}
			r.Total++
			if got == cfg.expect {
				r.Agreed++
				continue
			}
			msg := rel + ": expected " + cfg.expect
			if err != nil {
				first, _, _ := strings.Cut(err.Error(), "\n")
				msg += ": " + first
			}
			r.Mismatch = append(r.Mismatch, msg)
		}
		out = append(out, r)
	}
	return out, nil
}

// supported reports whether the front end implements every extension in exts.
func supported(exts []string) bool {
	for _, e := range exts {
		if !slices.Contains(SupportedExtensions(), e) {
			return false
		}
	}
	return true
}
