package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vortexgfx/abi"
)

func run(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var o, e bytes.Buffer
	code = dispatch(args, &o, &e)
	return code, o.String(), e.String()
}

func TestDispatch(t *testing.T) {
	if code, out, _ := run(t, "help"); code != 0 || !strings.Contains(out, "cp decode") {
		t.Errorf("help: %d %q", code, out)
	}
	if code, _, errOut := run(t, "frobnicate"); code != 2 || !strings.Contains(errOut, `unknown command "frobnicate"`) {
		t.Errorf("unknown command: %d %q", code, errOut)
	}
	if code, _, _ := run(t); code != 2 {
		t.Errorf("no command: %d", code)
	}
}

func TestInfo(t *testing.T) {
	code, out, errOut := run(t, "info", "--json")
	if code != 0 {
		t.Fatalf("info: %d %s", code, errOut)
	}
	var r infoReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Decoded.Cores != 4 || r.Decoded.ThreadsPerWarp != 16 || r.Decoded.CPFlavor != "emu" {
		t.Errorf("decoded %+v", r.Decoded)
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "rtl.toml")
	os.WriteFile(cfg, []byte("[cp]\nflavor = \"rtl\"\nqueues = 1\n[device]\nclusters = 2\n"), 0o644)
	code, out, _ = run(t, "info", "--config", cfg)
	if code != 0 || !strings.Contains(out, "rtl flavour") || strings.Contains(out, "SUPPORTS_QMD") || !strings.Contains(out, "cores            8") {
		t.Errorf("rtl info: %d\n%s", code, out)
	}
	os.WriteFile(cfg, []byte("[cp]\nflavour = \"rtl\"\n"), 0o644)
	if code, _, errOut := run(t, "info", "--config", cfg); code != 1 || !strings.Contains(errOut, "unknown key(s): cp.flavour") {
		t.Errorf("bad config: %d %q", code, errOut)
	}
}

func TestCPDecodeEncode(t *testing.T) {
	dir := t.TempDir()
	ring, _ := abi.PackLines([]abi.Command{abi.DCRWrite(0x60, 1), abi.LaunchQMD(0x40), abi.CacheFlush(4)})
	ringPath := filepath.Join(dir, "ring.bin")
	os.WriteFile(ringPath, ring, 0o644)

	code, out, errOut := run(t, "cp", "decode", ringPath)
	if code != 0 || !strings.Contains(out, `"op":"LAUNCH_QMD","opcode":11`) {
		t.Fatalf("decode: %d %s %s", code, out, errOut)
	}
	code, out, _ = run(t, "cp", "decode", "--flavor", "rtl", ringPath)
	if code != 0 || !strings.Contains(out, `"end":"unknown_opcode","offset":20`) {
		t.Errorf("rtl decode: %s", out)
	}
	jsonPath := filepath.Join(dir, "ring.jsonl")
	_, emuOut, _ := run(t, "cp", "decode", ringPath)
	os.WriteFile(jsonPath, []byte(emuOut), 0o644)
	outPath := filepath.Join(dir, "again.bin")
	if code, _, errOut := run(t, "cp", "encode", jsonPath, "-o", outPath); code != 0 {
		t.Fatalf("encode: %s", errOut)
	}
	again, _ := os.ReadFile(outPath)
	if !bytes.Equal(again, ring) {
		t.Error("encode∘decode is not the identity")
	}

	os.WriteFile(ringPath, append(append([]byte(nil), ring...), 1, 2, 3, 4, 5, 6), 0o644)
	if code, _, errOut := run(t, "cp", "decode", ringPath); code != 1 || !strings.Contains(errOut, "not a whole number of 64-byte lines") {
		t.Errorf("partial line: %d %q", code, errOut)
	}
	if code, _, _ := run(t, "cp", "decode", "--flavor", "fpga", ringPath); code != 2 {
		t.Error("bad flavour must be a usage error")
	}
	if code, _, errOut := run(t, "cp", "decode", filepath.Join(dir, "missing.bin")); code != 1 || !strings.Contains(errOut, "missing.bin") {
		t.Errorf("missing file: %q", errOut)
	}
	if code, _, _ := run(t, "cp", "encode", jsonPath); code != 2 {
		t.Error("encode without -o must be a usage error")
	}
}
