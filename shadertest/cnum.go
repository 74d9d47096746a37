package shadertest

import (
	"math"
	"math/bits"
	"strconv"
	"strings"
)

// This file reproduces the C library number scanners piglit's shader_runner
// is built on (strtod, strtol, strtoul, the strtof_hex family of
// piglit-util.h and a small sscanf), so that every number in a test reads
// exactly as piglit reads it: hexadecimal bit patterns ("0x3f800000" is
// 1.0 where piglit says so), base-0 integers (0x.., 0.. octal), "inf" and
// "nan", double rounding where piglit goes through double, and stopping at
// the first character that is not part of a number.

// isCSpace reports C isspace for ASCII.
func isCSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

func skipCSpace(s string, i int) int {
	for i < len(s) && isCSpace(s[i]) {
		i++
	}
	return i
}

// strtod scans a C floating-point number at s[i:] the way glibc strtod
// does (leading white space, sign, decimal or hexadecimal digits with an
// optional exponent, "inf", "infinity", "nan", "nan(...)"). It returns the
// value, the index after the number and whether a number was found.
func strtod(s string, i int) (float64, int, bool) {
	j := skipCSpace(s, i)
	start := j
	if j < len(s) && (s[j] == '+' || s[j] == '-') {
		j++
	}
	rest := s[j:]
	switch {
	case hasPrefixFold(rest, "infinity"):
		return signed(s[start], math.Inf(1)), j + 8, true
	case hasPrefixFold(rest, "inf"):
		return signed(s[start], math.Inf(1)), j + 3, true
	case hasPrefixFold(rest, "nan"):
		k := j + 3
		if k < len(s) && s[k] == '(' {
			m := k + 1
			for m < len(s) && (isAlnum(s[m]) || s[m] == '_') {
				m++
			}
			if m < len(s) && s[m] == ')' {
				k = m + 1
			}
		}
		return math.NaN(), k, true
	}
	if j+1 < len(s) && s[j] == '0' && (s[j+1] == 'x' || s[j+1] == 'X') {
		if end := scanHexFloat(s, j+2); end > j+2 {
			v, err := strconv.ParseFloat(hexFloatText(s[start:end]), 64)
			if err != nil && !isRangeErr(err) {
				return 0, start, false
			}
			return v, end, true
		}
		// "0x" without hex digits: strtod reads the "0".
		return signed(s[start], 0), j + 1, true
	}
	k := j
	digits := 0
	for k < len(s) && isDigit(s[k]) {
		k++
		digits++
	}
	if k < len(s) && s[k] == '.' {
		k++
		for k < len(s) && isDigit(s[k]) {
			k++
			digits++
		}
	}
	if digits == 0 {
		return 0, i, false
	}
	if k < len(s) && (s[k] == 'e' || s[k] == 'E') {
		m := k + 1
		if m < len(s) && (s[m] == '+' || s[m] == '-') {
			m++
		}
		if m < len(s) && isDigit(s[m]) {
			for m < len(s) && isDigit(s[m]) {
				m++
			}
			k = m
		}
	}
	v, err := strconv.ParseFloat(s[start:k], 64)
	if err != nil && !isRangeErr(err) {
		return 0, i, false
	}
	return v, k, true
}

// hasPrefixFold is strings.HasPrefix ignoring ASCII case, for lower-case
// prefixes.
func hasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := range len(prefix) {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != prefix[i] {
			return false
		}
	}
	return true
}

// scanHexFloat returns the end of the hexadecimal mantissa and exponent
// starting at s[i] (just after "0x"); it returns i when there is no digit.
func scanHexFloat(s string, i int) int {
	k := i
	digits := 0
	for k < len(s) && isHex(s[k]) {
		k++
		digits++
	}
	if k < len(s) && s[k] == '.' {
		k++
		for k < len(s) && isHex(s[k]) {
			k++
			digits++
		}
	}
	if digits == 0 {
		return i
	}
	if k < len(s) && (s[k] == 'p' || s[k] == 'P') {
		m := k + 1
		if m < len(s) && (s[m] == '+' || s[m] == '-') {
			m++
		}
		if m < len(s) && isDigit(s[m]) {
			for m < len(s) && isDigit(s[m]) {
				m++
			}
			k = m
		}
	}
	return k
}

// hexFloatText makes a C hex float literal acceptable to strconv, which
// insists on a 'p' exponent.
func hexFloatText(t string) string {
	if strings.ContainsAny(t, "pP") {
		return t
	}
	return t + "p0"
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

func signed(sign byte, v float64) float64 {
	if sign == '-' {
		return -v
	}
	return v
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isHex(c byte) bool {
	return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}
func isAlnum(c byte) bool {
	return isDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

// strtoint scans a C integer at s[i:] in the given base (0 means C's
// automatic 0x/0 prefixes). It returns the magnitude, whether a minus sign
// was seen, whether the magnitude overflowed 64 bits, the end index and
// whether any digit was read.
func strtoint(s string, i, base int) (mag uint64, neg, over bool, end int, ok bool) {
	j := skipCSpace(s, i)
	if j < len(s) && (s[j] == '+' || s[j] == '-') {
		neg = s[j] == '-'
		j++
	}
	if (base == 0 || base == 16) && j+1 < len(s) && s[j] == '0' && (s[j+1] == 'x' || s[j+1] == 'X') && j+2 < len(s) && isHex(s[j+2]) {
		base = 16
		j += 2
	} else if base == 0 {
		base = 10
		if j < len(s) && s[j] == '0' {
			base = 8
		}
	}
	k := j
	for k < len(s) {
		d := digitVal(s[k])
		if d < 0 || d >= base {
			break
		}
		hi, lo := mulAdd(mag, uint64(base), uint64(d))
		if hi != 0 {
			over = true
		}
		mag = lo
		k++
	}
	if k == j {
		return 0, false, false, i, false
	}
	return mag, neg, over, k, true
}

func mulAdd(a, b, c uint64) (hi, lo uint64) {
	h, l := bits.Mul64(a, b)
	l, carry := bits.Add64(l, c, 0)
	return h + carry, l
}

func digitVal(c byte) int {
	switch {
	case isDigit(c):
		return int(c - '0')
	case c >= 'a' && c <= 'z':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'Z':
		return int(c-'A') + 10
	}
	return -1
}

// strtol is C strtol/strtoll on LP64: the result saturates at the int64
// limits.
func strtol(s string, i, base int) (int64, int, bool) {
	mag, neg, over, end, ok := strtoint(s, i, base)
	if !ok {
		return 0, i, false
	}
	if neg {
		if over || mag > 1<<63 {
			return math.MinInt64, end, true
		}
		return int64(-mag), end, true
	}
	if over || mag > math.MaxInt64 {
		return math.MaxInt64, end, true
	}
	return int64(mag), end, true
}

// strtoul is C strtoul/strtoull on LP64: it saturates at 2^64-1 and
// negates the magnitude in unsigned arithmetic when a minus sign is given
// ("-1" reads as 2^64-1).
func strtoul(s string, i, base int) (uint64, int, bool) {
	mag, neg, over, end, ok := strtoint(s, i, base)
	if !ok {
		return 0, i, false
	}
	if over {
		return math.MaxUint64, end, true
	}
	if neg {
		return -mag, end, true
	}
	return mag, end, true
}

// skipBlank skips spaces and tabs only, like piglit's *_hex helpers.
func skipBlank(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

// strtofHex is piglit's strtof_hex: "0x" (after spaces and tabs) gives the
// raw bits of a float, anything else goes through strtod and is rounded
// from double to float.
func strtofHex(s string, i int) (float32, int, bool) {
	j := skipBlank(s, i)
	if strings.HasPrefix(s[j:], "0x") {
		u, end, ok := strtoul(s, j, 16)
		if !ok {
			return 0, i, false
		}
		return math.Float32frombits(uint32(u)), end, true
	}
	v, end, ok := strtod(s, j)
	if !ok {
		return 0, i, false
	}
	return float32(v), end, true
}

// strtodHex is piglit's strtod_hex (64-bit bit patterns after "0x").
func strtodHex(s string, i int) (float64, int, bool) {
	j := skipBlank(s, i)
	if strings.HasPrefix(s[j:], "0x") {
		u, end, ok := strtoul(s, j, 16)
		if !ok {
			return 0, i, false
		}
		return math.Float64frombits(u), end, true
	}
	v, end, ok := strtod(s, j)
	if !ok {
		return 0, i, false
	}
	return v, end, true
}

// strtolHex is piglit's strtol_hex: "0x" gives 32 raw bits read as a
// signed int, anything else is strtol base 0 truncated to int.
func strtolHex(s string, i int) (int32, int, bool) {
	j := skipBlank(s, i)
	if strings.HasPrefix(s[j:], "0x") {
		u, end, ok := strtoul(s, j, 16)
		if !ok {
			return 0, i, false
		}
		return int32(uint32(u)), end, true
	}
	v, end, ok := strtol(s, j, 0)
	if !ok {
		return 0, i, false
	}
	return int32(v), end, true
}

// parseN reads up to n numbers with conv, starting at each token in turn and
// stopping at the first that is not one (piglit's parse_* helpers); it returns the
// values and the offset after the last.
func parseN[T any](s string, n int, conv func(s string, i int) (T, int, bool)) ([]T, int) {
	out := make([]T, 0, n)
	i := 0
	for len(out) < n {
		v, end, ok := conv(s, i)
		if !ok {
			break
		}
		out = append(out, v)
		i = end
	}
	return out, i
}

// parseFloats is piglit's parse_floats: up to n numbers, stopping at the
// first token that is not one.
func parseFloats(s string, n int) ([]float32, int) { return parseN(s, n, strtofHex) }

// parseDoubles is piglit's parse_doubles.
func parseDoubles(s string, n int) ([]float64, int) { return parseN(s, n, strtodHex) }

// parseInts is piglit's parse_ints: strtoll base 0 truncated to int.
func parseInts(s string, n int) ([]int32, int) {
	return parseN(s, n, func(s string, i int) (int32, int, bool) {
		v, end, ok := strtol(s, i, 0)
		return int32(v), end, ok
	})
}

// parseUints is piglit's parse_uints: strtoul base 0 truncated to unsigned.
func parseUints(s string, n int) ([]uint32, int) {
	return parseN(s, n, func(s string, i int) (uint32, int, bool) {
		v, end, ok := strtoul(s, i, 0)
		return uint32(v), end, ok
	})
}

// parseInt64s is piglit's parse_int64s.
func parseInt64s(s string, n int) ([]int64, int) {
	return parseN(s, n, func(s string, i int) (int64, int, bool) { return strtol(s, i, 0) })
}

// parseUint64s is piglit's parse_uint64s.
func parseUint64s(s string, n int) ([]uint64, int) {
	return parseN(s, n, func(s string, i int) (uint64, int, bool) { return strtoul(s, i, 0) })
}

// scanItem is one converted value of scanf.
type scanItem struct {
	i int64
	u uint64
	f float64
	s string
}

// scanf is the subset of C sscanf shader_runner uses: literal text, white
// space (matching any amount, including none) and the conversions %d, %u,
// %x, %f (float: parsed straight to float precision), %lf (double), %s.
// It returns the converted items and how many conversions succeeded, which
// is what shader_runner compares against.
func scanf(input, format string) ([]scanItem, int) {
	var items []scanItem
	in := 0
	for f := 0; f < len(format); {
		c := format[f]
		switch {
		case isCSpace(c):
			for f < len(format) && isCSpace(format[f]) {
				f++
			}
			in = skipCSpace(input, in)
		case c == '%':
			f++
			long := false
			for f < len(format) && isDigit(format[f]) {
				f++
			}
			if f < len(format) && format[f] == 'l' {
				long = true
				f++
			}
			if f >= len(format) {
				return items, len(items)
			}
			conv := format[f]
			f++
			in = skipCSpace(input, in)
			var it scanItem
			var ok bool
			switch conv {
			case 'd':
				var v int64
				v, in, ok = strtol(input, in, 10)
				it.i = int64(int32(v))
				if long {
					it.i = v
				}
			case 'u':
				var v uint64
				v, in, ok = strtoul(input, in, 10)
				it.u = uint64(uint32(v))
				if long {
					it.u = v
				}
			case 'x':
				var v uint64
				v, in, ok = strtoul(input, in, 16)
				it.u = uint64(uint32(v))
			case 'f':
				var end int
				it.f, end, ok = strtod(input, in)
				if ok && !long {
					it.f = roundToFloat32(input[in:end], it.f)
				}
				in = end
			case 's':
				k := in
				for k < len(input) && !isCSpace(input[k]) {
					k++
				}
				ok = k > in
				it.s = input[in:k]
				in = k
			default:
				return items, len(items)
			}
			if !ok {
				return items, len(items)
			}
			items = append(items, it)
		default:
			if in >= len(input) || input[in] != c {
				return items, len(items)
			}
			in++
			f++
		}
	}
	return items, len(items)
}

// roundToFloat32 rounds the decimal text once to float precision (scanf's
// %f calls strtof), falling back to the double value for the forms strconv
// does not take.
func roundToFloat32(text string, d float64) float64 {
	t := strings.TrimLeft(text, " \t\n\v\f\r")
	if strings.HasPrefix(strings.TrimLeft(t, "+-"), "0x") || strings.HasPrefix(strings.TrimLeft(t, "+-"), "0X") {
		t = hexFloatText(t)
	}
	if v, err := strconv.ParseFloat(t, 32); err == nil || isRangeErr(err) {
		return v
	}
	return float64(float32(d))
}
