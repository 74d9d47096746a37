package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"vortexgfx/abi"
	"vortexgfx/compute"
	"vortexgfx/config"
	"vortexgfx/shader/glsl/ast"
)

// multiFlag collects a repeatable flag.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, " ") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

// runCompute implements `vortex compute FILE.comp [--groups X,Y,Z] [--buffer
// binding=FILE ...] [--size binding=BYTES ...] [--image binding=WxH[xD]:FILE ...]
// [--out binding=FILE ...] [--config F.toml] [--strict]`: it compiles a GLSL compute shader,
// binds raw little-endian files as its storage buffers (a binding written
// "counter:N" is an atomic counter buffer, "image:N" a storage image), runs one
// dispatch on the device model and writes the buffers named by --out. Bindings
// the program declares and no flag names get a zeroed buffer of their minimum
// size. With [device] cores = "isa" it runs the program as machine code and
// prints its instruction counts, or says why it fell back to the IR executor.
// spec: README "vortex compute"; vortexpipe §1.3, §2.5
func runCompute(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("vortex compute", flag.ContinueOnError)
	fs.SetOutput(stderr)
	groups := fs.String("groups", "1,1,1", "workgroup counts `X,Y,Z`")
	cfgPath := fs.String("config", "", "device configuration `F.toml` (default: built in)")
	strict := fs.Bool("strict", false, "with [device] cores = \"isa\": a program that does not compile to machine code is an error, not a fallback to the IR executor (VORTEX_STRICT=1 too)")
	var bufs, sizes, images, outs multiFlag
	fs.Var(&bufs, "buffer", "bind `binding=FILE` (raw bytes; repeatable)")
	fs.Var(&sizes, "size", "bind a zeroed buffer `binding=BYTES` (repeatable)")
	fs.Var(&images, "image", "bind a storage image `binding=WxH[xD]:FILE` of raw texels in the declared format (repeatable)")
	fs.Var(&outs, "out", "write a binding's bytes after the dispatch to `binding=FILE` (repeatable)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: vortex compute FILE.comp [--groups X,Y,Z] [--buffer binding=FILE ...] [--out binding=FILE ...] [--config F.toml] [--strict]")
		fmt.Fprintln(stderr, "Runs a GLSL compute shader on the device model over raw little-endian buffers.")
		fmt.Fprintln(stderr, "A binding is N (storage buffer), counter:N (atomic counter buffer) or image:N.")
		fs.PrintDefaults()
	}
	// Flags may follow the file name.
	var file string
	rest := args
	for len(rest) > 0 {
		if err := fs.Parse(rest); err != nil {
			return 2
		}
		if fs.NArg() == 0 {
			break
		}
		if file != "" {
			fmt.Fprintf(stderr, "vortex compute: more than one shader file (%q, %q)\n", file, fs.Arg(0))
			return 2
		}
		file, rest = fs.Arg(0), fs.Args()[1:]
	}
	if file == "" {
		fs.Usage()
		return 2
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "vortex compute: "+format+"\n", a...)
		return 1
	}
	g, err := parseGroups(*groups)
	if err != nil {
		fmt.Fprintf(stderr, "vortex compute: --groups: %v\n", err)
		return 2
	}
	cfg := config.Default()
	if *cfgPath != "" {
		if cfg, err = config.Load(*cfgPath); err != nil {
			return fail("%v", err)
		}
	}
	src, err := os.ReadFile(file)
	if err != nil {
		return fail("%v", err)
	}
	d, err := compute.OpenWith(cfg, compute.Options{Strict: *strict || os.Getenv("VORTEX_STRICT") == "1"})
	if err != nil {
		return fail("%v", err)
	}
	defer d.Close()
	p, err := d.Compile(file, string(src))
	if err != nil {
		var list ast.ErrorList
		if errors.As(err, &list) {
			for _, e := range list {
				fmt.Fprintln(stderr, e)
			}
			return 1
		}
		return fail("%v", err)
	}
	if cfg.Device.ISA() && !p.ISA() {
		fmt.Fprintf(stdout, "%s: IR executor (not machine code: %s)\n", file, p.Fallback())
	}
	bound := map[bindKey]*compute.Buffer{}
	imgs := map[uint32]*compute.Image{}
	decls := map[bindKey]compute.BindingInfo{}
	for _, b := range p.Bindings() {
		decls[bindKey{b.Kind, b.Slot}] = b
	}
	for _, spec := range bufs {
		k, path, err := splitBinding(spec)
		if err != nil {
			return fail("--buffer %s: %v", spec, err)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return fail("--buffer %s: %v", spec, err)
		}
		if len(data) == 0 {
			return fail("--buffer %s: empty file", spec)
		}
		if bound[k], err = d.NewBuffer(data); err != nil {
			return fail("--buffer %s: %v", spec, err)
		}
	}
	for _, spec := range sizes {
		k, v, err := splitBinding(spec)
		if err != nil {
			return fail("--size %s: %v", spec, err)
		}
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			return fail("--size %s: want a positive byte count", spec)
		}
		if bound[k], err = d.NewBufferSize(n); err != nil {
			return fail("--size %s: %v", spec, err)
		}
	}
	for _, spec := range images {
		k, v, err := splitBinding(spec)
		if err == nil && !strings.Contains(spec[:strings.Index(spec, "=")], ":") {
			k.kind = abi.DescStorageImage // a bare N names an image unit here
		}
		if err != nil || k.kind != abi.DescStorageImage {
			return fail("--image %s: want image:N=WxH[xD]:FILE or N=WxH[xD]:FILE", spec)
		}
		decl, ok := decls[k]
		if !ok {
			return fail("--image %s: the program declares no image at binding %d", spec, k.slot)
		}
		dims, path, ok := strings.Cut(v, ":")
		ext, err := parseExtent(dims)
		if !ok || err != nil {
			return fail("--image %s: want WxH[xD]:FILE", spec)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return fail("--image %s: %v", spec, err)
		}
		img, err := d.NewImage(decl.Image.Format, ext[0], ext[1], ext[2], data)
		if err != nil {
			return fail("--image %s: %v", spec, err)
		}
		imgs[k.slot] = img
		bound[k] = img.Buffer()
	}
	var bs []compute.Binding
	for _, b := range p.Bindings() {
		k := bindKey{b.Kind, b.Slot}
		if b.Kind == abi.DescStorageImage {
			img := imgs[b.Slot]
			if img == nil {
				return fail("image binding %d (%s) needs --image %d=WxH:FILE", b.Slot, b.Name, b.Slot)
			}
			bs = append(bs, compute.StorageImage(b.Slot, img))
			continue
		}
		buf := bound[k]
		if buf == nil {
			if buf, err = d.NewBufferSize(int(max(b.MinBytes, b.Stride, 4))); err != nil {
				return fail("%v", err)
			}
			bound[k] = buf
		}
		bs = append(bs, compute.Binding{Kind: b.Kind, Slot: b.Slot, Buffer: buf})
	}
	for k := range bound {
		if _, ok := decls[k]; !ok {
			return fail("the program declares no %v at binding %d", k.kind, k.slot)
		}
	}
	before := d.Stats()
	if err := d.Dispatch(p, g, bs...); err != nil {
		return fail("%v", err)
	}
	st := d.Stats()
	for _, spec := range outs {
		k, path, err := splitBinding(spec)
		if err != nil {
			return fail("--out %s: %v", spec, err)
		}
		buf := bound[k]
		if buf == nil {
			return fail("--out %s: nothing bound at %v binding %d", spec, k.kind, k.slot)
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			return fail("--out %s: %v", spec, err)
		}
	}
	l := p.LocalSize()
	inv := uint64(l[0]) * uint64(l[1]) * uint64(l[2]) * uint64(g[0]) * uint64(g[1]) * uint64(g[2])
	fmt.Fprintf(stdout, "%s: %d×%d×%d groups of %d×%d×%d: %d invocations, %d launch, %d doorbell, %d CP cycles\n",
		file, g[0], g[1], g[2], l[0], l[1], l[2], inv, st.Launches-before.Launches, st.Doorbells-before.Doorbells, st.CPCycles-before.CPCycles)
	if p.ISA() {
		is := p.ISAStats()
		fmt.Fprintf(stdout, "%s: machine code (%d bytes): %d instructions, %d thread-instructions, %d device cycles\n",
			file, 4*len(p.Kernel().Code), is.Instructions, is.ThreadInstructions, is.Cycles)
	}
	return 0
}

// bindKey names a binding point: GL numbers each kind separately.
type bindKey struct {
	kind abi.ComputeDescKind
	slot uint32
}

// splitBinding parses "N=VALUE", "counter:N=VALUE" or "image:N=VALUE".
func splitBinding(s string) (bindKey, string, error) {
	name, v, ok := strings.Cut(s, "=")
	if !ok || v == "" {
		return bindKey{}, "", fmt.Errorf("want binding=VALUE")
	}
	k := bindKey{kind: abi.DescStorageBuffer}
	if kind, n, ok := strings.Cut(name, ":"); ok {
		switch kind {
		case "counter":
			k.kind = abi.DescAtomicCounter
		case "image":
			k.kind = abi.DescStorageImage
		case "buffer":
		default:
			return bindKey{}, "", fmt.Errorf("binding kind %q (want buffer, counter or image)", kind)
		}
		name = n
	}
	n, err := strconv.ParseUint(name, 10, 32)
	if err != nil {
		return bindKey{}, "", fmt.Errorf("binding %q is not a number", name)
	}
	k.slot = uint32(n)
	return k, v, nil
}

// parseGroups parses "X,Y,Z" (missing trailing counts are 1).
func parseGroups(s string) ([3]uint32, error) {
	g := [3]uint32{1, 1, 1}
	parts := strings.Split(s, ",")
	if len(parts) > 3 {
		return g, fmt.Errorf("%q: want at most three counts", s)
	}
	for i, p := range parts {
		n, err := strconv.ParseUint(strings.TrimSpace(p), 10, 32)
		if err != nil || n > compute.MaxGroupCount {
			return g, fmt.Errorf("%q: count %d is not a number in 0..%d", s, i, compute.MaxGroupCount)
		}
		g[i] = uint32(n)
	}
	return g, nil
}

// parseExtent parses "WxH" or "WxHxD".
func parseExtent(s string) ([3]int, error) {
	e := [3]int{1, 1, 1}
	parts := strings.Split(s, "x")
	if len(parts) < 2 || len(parts) > 3 {
		return e, fmt.Errorf("%q: want WxH or WxHxD", s)
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n <= 0 {
			return e, fmt.Errorf("%q: bad size", s)
		}
		e[i] = n
	}
	return e, nil
}
