package sweep

import (
	"testing"

	"vortexgfx/config"
)

// FuzzParseTable feeds arbitrary bytes to the CSV and JSON-lines readers
// --resume and merge use: they must return a table or an error, never panic,
// and every row they return has one cell per column.
func FuzzParseTable(f *testing.F) {
	f.Add([]byte("row,raster.slices,workload,width,height,frame\n0,1,trace:a,128,128,0\n"), false)
	f.Add([]byte(`{"row":0,"raster.early_z":true,"workload":"trace:a","x":null}`+"\n"), true)
	f.Add([]byte("{\"row\":[1]}\n{\n"), true)
	f.Fuzz(func(t *testing.T, data []byte, jsonl bool) {
		format := CSV
		if jsonl {
			format = JSONL
		}
		tab, err := parseTable(data, format)
		if err != nil {
			return
		}
		for i, r := range tab.Rows {
			if len(r) != len(tab.Header) {
				t.Fatalf("row %d has %d cells for %d columns", i, len(r), len(tab.Header))
			}
			_ = TableKey(tab.Header, r)
		}
	})
}

// FuzzAxis checks that any --axis text is accepted or refused with an
// error, never a panic, over the default configuration.
func FuzzAxis(f *testing.F) {
	for _, s := range []string{"raster.slices=1,2", "cp.flavor=rtl,\"emu\"", "raster.early_z=true,false", "device.misa=AFIM", "a.b=[1]", "x.y={a=1}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := ParseAxis(s)
		if err != nil {
			return
		}
		cfgs, err := Matrix(config.Default(), []Axis{a})
		if err == nil && len(cfgs) != len(a.Values) {
			t.Fatalf("%q: %d configurations for %d values", s, len(cfgs), len(a.Values))
		}
	})
}
