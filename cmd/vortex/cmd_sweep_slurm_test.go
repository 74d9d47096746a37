package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vortexgfx/sweep"
)

// TestSweepSlurm generates the job scripts for a scene sweep (no shared data
// needed); .ci/slurm-test.sh runs them on a real cluster.
func TestSweepSlurm(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "vortex")
	old := vortexBinary
	vortexBinary = func() (string, error) { return bin, nil }
	t.Cleanup(func() { vortexBinary = old })

	dir := t.TempDir()
	out := filepath.Join(dir, "res.csv")
	demo := filepath.Join("..", "..", "scene", "demo", "demo.json")
	args := []string{"sweep", "--axis", "raster.slices=1,2", "--slurm", "2", "--scene", demo, "--time=00:05:00", "--size", "32x32",
		"--resume", "-o", out, "--frames", "2", "-j", "2", "--partition", "short"}
	code, stdout, errOut := run(t, args...)
	if code != 0 || !strings.Contains(stdout, "4 rows in 2 array tasks (2 to 2 rows each)") || !strings.Contains(stdout, "submit: sh "+filepath.Join(dir, "res.slurm", "submit.sh")) {
		t.Fatalf("--slurm: %d %q %q", code, stdout, errOut)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("--slurm ran the sweep: %s exists", out)
	}
	arr, err := os.ReadFile(filepath.Join(dir, "res.slurm", sweep.SlurmArrayScript))
	if err != nil {
		t.Fatal(err)
	}
	// The sweep flags in their order, the Slurm flags, -o and --resume gone
	// (each task resumes its own shard).
	want := "exec " + bin + " sweep --axis raster.slices=1,2 --scene " + demo + " --size 32x32 --frames 2 -j 2 --resume --shard \"$SLURM_ARRAY_TASK_ID/2\" -o " +
		filepath.Join(dir, "res.slurm") + "/shard-\"$SLURM_ARRAY_TASK_ID\".csv\n"
	if !strings.HasSuffix(string(arr), want) || !strings.Contains(string(arr), "#SBATCH --array=1-2\n") ||
		!strings.Contains(string(arr), "#SBATCH --partition=short\n#SBATCH --time=00:05:00\n#SBATCH --cpus-per-task=2\n") {
		t.Errorf("array script:\n%s\nwant it to end\n%s", arr, want)
	}
	wd, _ := os.Getwd()
	if !strings.Contains(string(arr), "\ncd "+wd+"\n") {
		t.Errorf("the array script does not run in %s:\n%s", wd, arr)
	}

	custom := filepath.Join(dir, "elsewhere")
	if code, stdout, errOut := run(t, "sweep", "--scene", demo, "--size", "32x32", "--slurm=1", "--slurm-dir", custom, "-o", out); code != 0 || !strings.Contains(stdout, filepath.Join(custom, "merge.sbatch")) {
		t.Errorf("--slurm-dir: %d %q %q", code, stdout, errOut)
	}

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--slurm", "0"}, "--slurm 0: want the number of array tasks"},
		{[]string{"--slurm", "-2"}, "--slurm -2"},
		{[]string{"--partition", "short"}, "--slurm 0"},
		{[]string{"--slurm", "3"}, "--slurm 3: the sweep has only 2 rows"},
		{[]string{"--slurm", "2", "--shard", "1/2"}, "--shard with --slurm"},
		{[]string{"--slurm", "2", "--time", "soon"}, `--time "soon"`},
		{[]string{"--slurm", "2", "--axis", "raster.slices=0"}, "raster.slices = 0"},
	} {
		a := append([]string{"sweep", "--scene", demo, "--frames", "2", "-o", filepath.Join(dir, "e.csv")}, tc.args...)
		if code, _, errOut := run(t, a...); code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d %q, want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "e.slurm")); err == nil {
		t.Errorf("a refused --slurm wrote e.slurm")
	}
}
