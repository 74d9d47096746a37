package sweep

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"vortexgfx/config"
)

// Axis is one swept configuration key and its values, in the order given.
// Key is spelled as the TOML file spells it ("raster.slices"); Values are the
// canonical text of each value (a TOML string without its quotes, a bool as
// true/false, an integer in decimal), which is also what the key's column holds.
type Axis struct {
	Key    string
	Values []string
	// values are the decoded TOML values, parallel to Values.
	values []any
}

// ParseAxis parses one --axis argument, KEY=V1,V2,... . It checks only the
// syntax; Matrix checks the key and values against the configuration.
func ParseAxis(s string) (Axis, error) {
	key, list, ok := strings.Cut(s, "=")
	key = strings.TrimSpace(key)
	if !ok || key == "" {
		return Axis{}, fmt.Errorf("--axis %q: want KEY=V1,V2,... (KEY as the TOML spells it, e.g. raster.slices=1,2)", s)
	}
	sec, name, ok := strings.Cut(key, ".")
	if !ok || sec == "" || name == "" || strings.Contains(name, ".") {
		return Axis{}, fmt.Errorf("--axis %s: want a SECTION.KEY of the configuration TOML, e.g. raster.slices", key)
	}
	a := Axis{Key: key}
	for _, v := range strings.Split(list, ",") {
		v = strings.TrimSpace(v)
		if v == "" {
			return Axis{}, fmt.Errorf("--axis %s: empty value in %q", key, list)
		}
		a.Values = append(a.Values, v)
	}
	return a, nil
}

// Configuration is one point of the matrix: a value index per axis and the
// validated configuration those values make over the base.
type Configuration struct {
	// Values holds, per axis, the canonical value this configuration takes.
	Values []string
	Config config.Config
}

// Label is the configuration as KEY=VALUE pairs, for messages.
func (c Configuration) Label(axes []Axis) string {
	if len(axes) == 0 {
		return "base configuration"
	}
	parts := make([]string, len(axes))
	for i, a := range axes {
		parts[i] = a.Key + "=" + c.Values[i]
	}
	return strings.Join(parts, " ")
}

// Matrix crosses base with every axis, the first axis outermost (so the
// configurations come in axis order). Each value is checked on its own over
// the base and then each combination as a whole, both by config.Parse — the
// TOML loader's own decoding and Validate — so an axis value is accepted
// exactly when the same key and value in a TOML file would be. Errors name the
// key. axes is updated in place with the canonical value text.
func Matrix(base config.Config, axes []Axis) ([]Configuration, error) {
	baseDoc, err := configDoc(base)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for ai := range axes {
		a := &axes[ai]
		if seen[a.Key] {
			return nil, fmt.Errorf("--axis %s: given twice (give every value in one --axis)", a.Key)
		}
		seen[a.Key] = true
		sec, name, _ := strings.Cut(a.Key, ".")
		cur, known := baseDoc[sec][name]
		if !known {
			// Let the loader say it, as it would for a file with this key.
			_, err := config.Parse("--axis "+a.Key, []byte(fmt.Sprintf("[%s]\n%s = 0\n", quoteKey(sec), quoteKey(name))))
			if err == nil {
				err = fmt.Errorf("--axis %s: unknown key", a.Key)
			}
			return nil, err
		}
		a.values = make([]any, len(a.Values))
		vals := map[string]bool{}
		for vi, text := range a.Values {
			v := tomlValue(text, cur)
			doc := cloneDoc(baseDoc)
			doc[sec][name] = v
			where := fmt.Sprintf("--axis %s=%s", a.Key, text)
			if _, err := parseDoc(where, doc); err != nil {
				return nil, err
			}
			canon := canonical(v)
			if vals[canon] {
				return nil, fmt.Errorf("--axis %s: value %s given twice", a.Key, canon)
			}
			vals[canon] = true
			a.Values[vi], a.values[vi] = canon, v
		}
	}
	var out []Configuration
	idx := make([]int, len(axes))
	for {
		doc := cloneDoc(baseDoc)
		c := Configuration{Values: make([]string, len(axes))}
		for ai, a := range axes {
			sec, name, _ := strings.Cut(a.Key, ".")
			doc[sec][name] = a.values[idx[ai]]
			c.Values[ai] = a.Values[idx[ai]]
		}
		// A combination can be invalid where each value alone is not (cp.vm =
		// true with cp.flavor = "rtl"): the message names the combination.
		cfg, err := parseDoc("--axis combination "+c.Label(axes), doc)
		if err != nil {
			return nil, err
		}
		c.Config = cfg
		out = append(out, c)
		// Advance the last axis fastest: the first axis is outermost.
		ai := len(axes) - 1
		for ; ai >= 0; ai-- {
			idx[ai]++
			if idx[ai] < len(axes[ai].Values) {
				break
			}
			idx[ai] = 0
		}
		if ai < 0 {
			return out, nil
		}
	}
}

// configDoc is cfg as the TOML document a file setting every key would be:
// section → key → value.
func configDoc(cfg config.Config) (map[string]map[string]any, error) {
	var buf bytes.Buffer
	if err := toml.NewEncoder(&buf).Encode(cfg); err != nil {
		return nil, fmt.Errorf("sweep: encoding the base configuration: %w", err)
	}
	doc := map[string]map[string]any{}
	if _, err := toml.Decode(buf.String(), &doc); err != nil {
		return nil, fmt.Errorf("sweep: decoding the base configuration: %w", err)
	}
	return doc, nil
}

func cloneDoc(d map[string]map[string]any) map[string]map[string]any {
	out := make(map[string]map[string]any, len(d))
	for s, kv := range d {
		m := make(map[string]any, len(kv))
		for k, v := range kv {
			m[k] = v
		}
		out[s] = m
	}
	return out
}

// parseDoc encodes doc and hands it to config.Parse, the loader of
// `--config FILE.toml`, so decoding, unknown keys and Validate are the file's.
func parseDoc(name string, doc map[string]map[string]any) (config.Config, error) {
	var buf bytes.Buffer
	if err := toml.NewEncoder(&buf).Encode(doc); err != nil {
		return config.Config{}, fmt.Errorf("%s: %w", name, err)
	}
	cfg, err := config.Parse(name, buf.Bytes())
	if err != nil {
		// The line is of a document the user never saw; the message names
		// the key already.
		return cfg, errors.New(tomlLine.ReplaceAllString(err.Error(), ""))
	}
	return cfg, nil
}

// tomlLine is the TOML decoder's position prefix of a type mismatch.
var tomlLine = regexp.MustCompile(`toml: line \d+ \(last key "[^"]*"\): `)

// tomlValue decodes text as a TOML value. A bare word for a string key is the
// string itself (cp.flavor=rtl, as one would type it on a command line); text
// that is no TOML scalar stays a string, so that the loader reports the type
// mismatch naming the key (raster.slices=two).
func tomlValue(text string, cur any) any {
	var m map[string]any
	if _, err := toml.Decode("v = "+text, &m); err == nil && len(m) == 1 {
		switch v := m["v"].(type) {
		case string, bool, int64, float64:
			if _, isStr := cur.(string); isStr {
				if _, ok := v.(string); !ok {
					return text // a string key given 64 means "64"
				}
			}
			return v
		}
	}
	return text
}

// canonical is a value's column text.
func canonical(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case bool:
		return strconv.FormatBool(v)
	case int64:
		return strconv.FormatInt(v, 10)
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return fmt.Sprint(v)
}

// quoteKey quotes a TOML key that is not a bare key.
func quoteKey(k string) string {
	for _, r := range k {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return strconv.Quote(k)
		}
	}
	return k
}
