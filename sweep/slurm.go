package sweep

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// Slurm describes a sweep split over a Slurm job array (`vortex sweep
// --slurm N`): N array tasks each run one shard, and a merge job that
// depends on the whole array combines their outputs into Out.
type Slurm struct {
	// Tasks is the number of array tasks (shards), at least 1.
	Tasks int
	// Binary is the vortex executable the tasks run; absolute, because the
	// tasks start on compute nodes in whatever directory Slurm gives them.
	Binary string
	// Args are the sweep's arguments as the user gave them, without -o,
	// --shard and the --slurm flags; each task adds its own shard and output.
	Args []string
	// WorkDir is the directory the jobs run in, absolute:
	// the directory the sweep was generated from, so relative paths in Args
	// mean what they meant there.
	WorkDir string
	// Dir receives the scripts, the shard outputs and the logs; Out is the
	// merged output. Both absolute.
	Dir, Out string
	// Partition, Time and Mem are passed to sbatch when not empty.
	Partition, Time, Mem string
	// CPUs is each task's --cpus-per-task (the sweep's -j); 0 means 1.
	CPUs int
}

// The script files Slurm.Files writes into Dir.
const (
	SlurmArrayScript = "shards.sbatch"
	SlurmMergeScript = "merge.sbatch"
	SlurmSubmit      = "submit.sh"
	SlurmJobIDs      = "jobs" // written by submit.sh: the array and merge job ids
)

var (
	// Slurm's time formats: minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS.
	slurmTime = regexp.MustCompile(`^([0-9]+-[0-9]+(:[0-9]+){0,2}|[0-9]+(:[0-9]+){0,2})$`)
	slurmMem  = regexp.MustCompile(`^[0-9]+[KMGT]?$`)
	// A partition name or a comma-separated list of them.
	slurmPartition = regexp.MustCompile(`^[A-Za-z0-9_.-]+(,[A-Za-z0-9_.-]+)*$`)
	// Words the shell reads as themselves, left unquoted for legibility.
	shellSafe = regexp.MustCompile(`^[A-Za-z0-9_./,:=@%+-]+$`)
)

// check reports the first thing wrong with s, naming the flag.
func (s *Slurm) check() error {
	if s.Tasks < 1 {
		return fmt.Errorf("--slurm %d: want at least 1 array task", s.Tasks)
	}
	for _, p := range []struct{ what, path string }{{"the vortex binary", s.Binary}, {"the work directory", s.WorkDir}, {"--slurm-dir", s.Dir}, {"-o", s.Out}} {
		if !filepath.IsAbs(p.path) {
			return fmt.Errorf("%s %q: want an absolute path", p.what, p.path)
		}
		// sbatch and the shell carry any other byte, but a newline would end
		// a script line early.
		if strings.ContainsAny(p.path, "\n\r\x00") {
			return fmt.Errorf("%s %q: a path with a newline cannot go into a job script", p.what, p.path)
		}
	}
	for _, a := range s.Args {
		if strings.ContainsAny(a, "\x00") {
			return fmt.Errorf("argument %q: holds a NUL byte", a)
		}
	}
	// These go into #SBATCH lines, which sbatch parses itself, not the
	// shell: only the characters their formats allow get through.
	if s.Partition != "" && !slurmPartition.MatchString(s.Partition) {
		return fmt.Errorf("--partition %q: want a partition name (letters, digits, _ . -) or a comma-separated list", s.Partition)
	}
	if s.Time != "" && !slurmTime.MatchString(s.Time) {
		return fmt.Errorf("--time %q: want minutes, MM:SS, HH:MM:SS or D-HH:MM:SS", s.Time)
	}
	if s.Mem != "" && !slurmMem.MatchString(s.Mem) {
		return fmt.Errorf("--mem %q: want a size such as 4000 (MB) or 4G", s.Mem)
	}
	if s.CPUs < 0 {
		return fmt.Errorf("-j %d: want at least 1", s.CPUs)
	}
	return nil
}

// ShellQuote quotes s as one POSIX shell word: unchanged when every byte is
// one the shell takes literally, else in single quotes (inside which only
// the single quote itself needs care: close, escaped quote, reopen).
func ShellQuote(s string) string {
	if shellSafe.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// slurmPattern escapes % in a path given to sbatch --output, whose
// filename patterns (%a, %j...) would otherwise rewrite it.
func slurmPattern(path string) string { return strings.ReplaceAll(path, "%", "%%") }

// ShardPath is task i's output (1-based).
func (s *Slurm) ShardPath(i int) string {
	return filepath.Join(s.Dir, "shard-"+strconv.Itoa(i)+".csv")
}

// SlurmFile is one generated file.
type SlurmFile struct {
	Name string // within Dir
	Text string
	Mode os.FileMode
}

// Files returns the array script, the merge script and submit.sh.
func (s *Slurm) Files() ([]SlurmFile, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	q := ShellQuote
	cpus := max(s.CPUs, 1)
	directives := func(b *strings.Builder, name string) {
		fmt.Fprintf(b, "#SBATCH --job-name=%s\n", name)
		if s.Partition != "" {
			fmt.Fprintf(b, "#SBATCH --partition=%s\n", s.Partition)
		}
		if s.Time != "" {
			fmt.Fprintf(b, "#SBATCH --time=%s\n", s.Time)
		}
		if s.Mem != "" {
			fmt.Fprintf(b, "#SBATCH --mem=%s\n", s.Mem)
		}
	}
	var cmd strings.Builder
	cmd.WriteString(q(s.Binary) + " sweep")
	for _, a := range s.Args {
		cmd.WriteString(" " + q(a))
	}

	var arr strings.Builder
	arr.WriteString("#!/bin/sh\n")
	arr.WriteString("# One shard of a vortex sweep per array task (generated by vortex sweep --slurm; submit with submit.sh).\n")
	fmt.Fprintf(&arr, "#SBATCH --array=1-%d\n", s.Tasks)
	directives(&arr, "vortex-sweep")
	fmt.Fprintf(&arr, "#SBATCH --cpus-per-task=%d\n", cpus)
	arr.WriteString("set -eu\n")
	// In the script rather than sbatch --chdir, so a task resubmitted by
	// hand (sbatch --array=7 shards.sbatch) still runs where relative paths
	// in the arguments point.
	fmt.Fprintf(&arr, "cd %s\n", q(s.WorkDir))
	// --resume: a task Slurm requeues (node failure, preemption) or that is
	// resubmitted after a time limit keeps the rows it already wrote.
	fmt.Fprintf(&arr, "exec %s --resume --shard \"$SLURM_ARRAY_TASK_ID/%d\" -o %s/shard-\"$SLURM_ARRAY_TASK_ID\".csv\n",
		cmd.String(), s.Tasks, q(s.Dir))

	var merge strings.Builder
	merge.WriteString("#!/bin/sh\n")
	merge.WriteString("# Merges the shard outputs once every array task has succeeded (generated by vortex sweep --slurm).\n")
	directives(&merge, "vortex-sweep-merge")
	merge.WriteString("#SBATCH --cpus-per-task=1\n")
	merge.WriteString("set -eu\n")
	fmt.Fprintf(&merge, "cd %s\n", q(s.WorkDir))
	fmt.Fprintf(&merge, "exec %s sweep merge -o %s %s/shard-*.csv\n", q(s.Binary), q(s.Out), q(s.Dir))

	// The paths go on sbatch's command line rather than into #SBATCH lines,
	// so the shell's quoting carries any path intact.
	var sub strings.Builder
	sub.WriteString("#!/bin/sh\n")
	sub.WriteString("# Submits the shard array and the merge job that waits for it (generated by vortex sweep --slurm).\n")
	sub.WriteString("set -eu\n")
	fmt.Fprintf(&sub, "dir=%s\n", q(s.Dir))
	fmt.Fprintf(&sub, "out=%s\n", q(s.Out))
	fmt.Fprintf(&sub, "array=$(sbatch --parsable --output=%s \"$dir\"/%s)\n",
		q(slurmPattern(s.Dir)+"/shard-%a.log"), SlurmArrayScript)
	sub.WriteString("array=${array%%;*} # --parsable prints JOBID or JOBID;CLUSTER\n")
	// --kill-on-invalid-dep: a failed task cancels the merge instead of
	// leaving it pending forever with DependencyNeverSatisfied.
	fmt.Fprintf(&sub, "merge=$(sbatch --parsable --output=%s --dependency=afterok:\"$array\" --kill-on-invalid-dep=yes \"$dir\"/%s)\n",
		q(slurmPattern(s.Dir)+"/merge.log"), SlurmMergeScript)
	sub.WriteString("merge=${merge%%;*}\n")
	fmt.Fprintf(&sub, "echo \"$array $merge\" > \"$dir\"/%s\n", SlurmJobIDs)
	fmt.Fprintf(&sub, "echo \"submitted array job $array (%d tasks) and merge job $merge (after all succeed)\"\n", s.Tasks)
	sub.WriteString("echo \"watch: squeue -j $array,$merge; logs: $dir/shard-N.log, $dir/merge.log; result: $out\"\n")

	return []SlurmFile{
		{SlurmArrayScript, arr.String(), 0o755},
		{SlurmMergeScript, merge.String(), 0o755},
		{SlurmSubmit, sub.String(), 0o755},
	}, nil
}

// Write creates Dir and writes the files into it, returning their paths.
func (s *Slurm) Write() ([]string, error) {
	files, err := s.Files()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(s.Dir, 0o755); err != nil {
		return nil, err
	}
	var paths []string
	for _, f := range files {
		p := filepath.Join(s.Dir, f.Name)
		if err := os.WriteFile(p, []byte(f.Text), f.Mode); err != nil {
			return nil, err
		}
		// WriteFile keeps an existing file's mode; the scripts must run.
		if err := os.Chmod(p, f.Mode); err != nil {
			return nil, err
		}
		paths = append(paths, p)
	}
	return paths, nil
}

// StaleShards lists shard outputs already in Dir, which the tasks would
// resume rather than rewrite.
func (s *Slurm) StaleShards() []string {
	m, err := filepath.Glob(filepath.Join(s.Dir, "shard-*.csv"))
	if err != nil {
		return nil
	}
	return m
}
