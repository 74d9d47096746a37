package codegen

const hdr = `#version 430
layout(std430, binding = 0) buffer In { uint a[]; };
layout(std430, binding = 1) buffer Out { uint o[]; };
`

// corpus is the differential test's GLSL: every shader reads In (binding 0) and
// writes Out (binding 1), both uint words (floats go through floatBitsToUint).
var corpus = []struct {
	name, src string
	local     int // invocations per group (for the warp configurations)
	groups    [3]uint32
	uniforms  []uint32
}{
	{"int_arith", hdr + `layout(local_size_x = 16) in;
void main() {
	uint i = gl_GlobalInvocationID.x;
	int x = int(a[2u*i]), y = int(a[2u*i+1u]);
	uint b = 16u*i;
	o[b+0u] = uint(x + y); o[b+1u] = uint(x - y); o[b+2u] = uint(x * y);
	o[b+3u] = uint(x / y); o[b+4u] = uint(x % y);
	o[b+5u] = uint(min(x, y)); o[b+6u] = uint(max(x, y)); o[b+7u] = uint(clamp(x, -5, y));
	o[b+8u] = uint(abs(x)); o[b+9u] = uint(sign(x)); o[b+10u] = uint(-x);
	o[b+11u] = uint(x >> (y & 31)); o[b+12u] = uint(x / 0); o[b+13u] = uint(x % 0);
	int hi, lo; imulExtended(x, y, hi, lo); o[b+14u] = uint(hi); o[b+15u] = uint(lo);
}`, 16, [3]uint32{3, 1, 1}, nil},
	// Votes under divergence: an if, a loop whose lanes leave at different
	// trips, and after some lanes returned; the group is the running lanes on
	// both sides (ir.VoteAny).
	{"group_vote", `#version 430
#extension GL_ARB_shader_group_vote : require
layout(std430, binding = 0) buffer In { uint a[]; };
layout(std430, binding = 1) buffer Out { uint o[]; };
layout(local_size_x = 24) in;
uint bits(bool b, uint k) {
	return (anyInvocationARB(b) ? 1u : 0u) << k | (allInvocationsARB(b) ? 2u : 0u) << k |
		(allInvocationsEqualARB(b) ? 4u : 0u) << k;
}
void main() {
	uint i = gl_GlobalInvocationID.x;
	uint x = a[i];
	bool odd = (x & 1u) != 0u;
	uint r = bits(odd, 0u) | bits(true, 3u) | bits(i == 5u, 6u);
	if (odd) {
		r |= bits((x & 2u) != 0u, 9u);
	} else {
		r |= bits(i < 8u, 12u);
	}
	for (uint k = 0u; k < 8u; k++) {
		if (k >= (x >> 4 & 7u)) {
			break;
		}
		r += bits(((x >> k) & 1u) != 0u, 15u) << (k & 1u);
	}
	o[i] = r;
	if ((x & 8u) != 0u) {
		return;
	}
	o[i + 64u] = bits((x & 4u) != 0u, 0u) | bits(false, 3u);
}`, 24, [3]uint32{2, 1, 1}, nil},
	// An array of buffer blocks indexed at run time: In and Out are its two
	// elements (bindings 0 and 1), selected per lane.
	{"block_array_dynamic", `#version 430
layout(std430, binding = 0) buffer IO { uint w[]; } io[2];
layout(local_size_x = 16) in;
void main() {
	uint i = gl_GlobalInvocationID.x;
	int k = int(io[0].w[i] & 1u);
	uint x = io[k].w[i + 64u] + uint(io[k].w.length());
	io[1].w[i] = x;
	atomicAdd(io[1 - k].w[200u + i % 4u], i);
}`, 16, [3]uint32{2, 1, 1}, nil},
	{"uint_arith", hdr + `layout(local_size_x = 8, local_size_y = 2) in;
void main() {
	uint i = gl_LocalInvocationIndex + 16u * gl_WorkGroupID.x;
	uint x = a[2u*i], y = a[2u*i+1u];
	uint b = 16u*i;
	o[b+0u] = x + y; o[b+1u] = x - y; o[b+2u] = x * y; o[b+3u] = x / y; o[b+4u] = x % y;
	o[b+5u] = min(x, y); o[b+6u] = max(x, y); o[b+7u] = clamp(x, 7u, max(y, 7u));
	o[b+8u] = x / (y & 1u); o[b+9u] = x % (y & 1u); o[b+10u] = x >> y; o[b+11u] = x << (y + 3u);
	uint c; o[b+12u] = uaddCarry(x, y, c) + c; uint br; o[b+13u] = usubBorrow(x, y, br) ^ (br << 31);
	uint hi, lo; umulExtended(x, y, hi, lo); o[b+14u] = hi; o[b+15u] = lo;
}`, 16, [3]uint32{2, 1, 1}, nil},
	{"float_arith", hdr + `layout(local_size_x = 16) in;
void main() {
	uint i = gl_GlobalInvocationID.x;
	float x = uintBitsToFloat(a[2u*i]), y = uintBitsToFloat(a[2u*i+1u]);
	uint b = 24u*i;
	o[b+0u] = floatBitsToUint(x + y); o[b+1u] = floatBitsToUint(x - y);
	o[b+2u] = floatBitsToUint(x * y); o[b+3u] = floatBitsToUint(x / y);
	o[b+4u] = floatBitsToUint(x / 0.0); o[b+5u] = floatBitsToUint(sqrt(x));
	o[b+6u] = floatBitsToUint(min(x, y)); o[b+7u] = floatBitsToUint(max(x, y));
	o[b+8u] = floatBitsToUint(clamp(x, -1.0, y)); o[b+9u] = floatBitsToUint(fma(x, y, 0.25));
	o[b+10u] = floatBitsToUint(floor(x)); o[b+11u] = floatBitsToUint(ceil(x));
	o[b+12u] = floatBitsToUint(trunc(x)); o[b+13u] = floatBitsToUint(round(x));
	o[b+14u] = floatBitsToUint(roundEven(x)); o[b+15u] = floatBitsToUint(fract(x));
	o[b+16u] = floatBitsToUint(mod(x, y)); o[b+17u] = floatBitsToUint(abs(x));
	o[b+18u] = floatBitsToUint(sign(x)); o[b+19u] = floatBitsToUint(-x);
	o[b+20u] = floatBitsToUint(x * 1e-30); o[b+21u] = floatBitsToUint(fma(x, x, -y));
	o[b+22u] = floatBitsToUint(mod(x, 0.75)); o[b+23u] = floatBitsToUint(y - floor(y));
}`, 16, [3]uint32{2, 1, 1}, nil},
	{"conversions", hdr + `layout(local_size_x = 32) in;
void main() {
	uint i = gl_GlobalInvocationID.x;
	uint w = a[i];
	float f = uintBitsToFloat(w);
	uint b = 8u*i;
	o[b+0u] = uint(int(f)); o[b+1u] = uint(f); o[b+2u] = floatBitsToUint(float(int(w)));
	o[b+3u] = floatBitsToUint(float(w)); o[b+4u] = floatBitsToUint(float(w > 100u));
	o[b+5u] = uint(int(w > 7u)); o[b+6u] = uint(int(f * 3.0)); o[b+7u] = uint(-f);
}`, 32, [3]uint32{2, 1, 1}, nil},
	{"bit_ops", hdr + `layout(local_size_x = 16) in;
void main() {
	uint i = gl_GlobalInvocationID.x;
	uint x = a[3u*i], y = a[3u*i+1u], z = a[3u*i+2u];
	int off = int(y % 40u) - 4, n = int(z % 40u) - 4;
	uint b = 16u*i;
	o[b+0u] = x & y; o[b+1u] = x | y; o[b+2u] = x ^ y; o[b+3u] = ~x;
	o[b+4u] = bitfieldExtract(x, off, n); o[b+5u] = uint(bitfieldExtract(int(x), off, n));
	o[b+6u] = bitfieldInsert(x, y, off, n); o[b+7u] = bitfieldReverse(x);
	o[b+8u] = uint(bitCount(x)); o[b+9u] = uint(findLSB(x)); o[b+10u] = uint(findMSB(x));
	o[b+11u] = uint(findMSB(int(x))); o[b+12u] = uint(findLSB(x & 0xf0000000u));
	o[b+13u] = bitfieldExtract(x, 0, 32); o[b+14u] = uint(findMSB(int(x) >> 31));
	o[b+15u] = bitfieldInsert(x, y, 0, 32);
}`, 16, [3]uint32{3, 1, 1}, nil},
	{"compares", hdr + `layout(local_size_x = 16) in;
void main() {
	uint i = gl_GlobalInvocationID.x;
	uint x = a[2u*i], y = a[2u*i+1u];
	float fx = uintBitsToFloat(x), fy = uintBitsToFloat(y);
	int ix = int(x), iy = int(y);
	uint r = 0u;
	r |= uint(fx < fy) << 0; r |= uint(fx <= fy) << 1; r |= uint(fx > fy) << 2; r |= uint(fx >= fy) << 3;
	r |= uint(fx == fy) << 4; r |= uint(fx != fy) << 5; r |= uint(ix < iy) << 6; r |= uint(ix <= iy) << 7;
	r |= uint(ix > iy) << 8; r |= uint(ix >= iy) << 9; r |= uint(x < y) << 10; r |= uint(x <= y) << 11;
	r |= uint(x > y) << 12; r |= uint(x >= y) << 13; r |= uint(x == y) << 14; r |= uint(x != y) << 15;
	r |= uint(isnan(fx)) << 16; r |= uint(isinf(fx)) << 17;
	bool p = fx < fy, q = ix > 0;
	r |= uint(p && q) << 18; r |= uint(p || q) << 19; r |= uint(p ^^ q) << 20; r |= uint(!p) << 21;
	o[2u*i] = r;
	o[2u*i+1u] = p ? x : y;
}`, 16, [3]uint32{3, 1, 1}, nil},
	{"loops", hdr + `layout(local_size_x = 16) in;
void main() {
	uint i = gl_GlobalInvocationID.x;
	uint n = a[i] % 23u;
	uint s = 0u, k = 0u;
	for (uint j = 0u; j < n; j++) { s += j * j + a[(i + j) % 64u]; }
	while (true) { k++; if (k * k > n * 3u) break; if ((k & 1u) == 0u) continue; s ^= k << 8; }
	uint d = 0u;
	do { d += 3u; } while (d < (a[i] & 15u));
	for (int u = 0; u < 4; u++) { for (int v = 0; v < int(n); v++) { if (v == u + 2) break; s += uint(u * v); } }
	o[3u*i] = s; o[3u*i+1u] = k; o[3u*i+2u] = d;
}`, 16, [3]uint32{4, 1, 1}, nil},
	{"divergence", hdr + `layout(local_size_x = 16) in;
void main() {
	uint i = gl_GlobalInvocationID.x;
	uint x = a[i], r;
	if ((i & 1u) == 0u) {
		r = x * 3u;
		if ((x & 4u) != 0u) { r += 7u; if (i > 5u) r ^= 0xffu; else r -= 1u; }
		else { r = r << 1; }
	} else if (x > 1000u) {
		r = x / 5u;
	} else {
		r = 99u;
		for (uint j = 0u; j < (x & 7u); j++) { if ((j & 1u) == 1u) r += j; else r *= 2u; }
	}
	o[i] = r;
}`, 16, [3]uint32{4, 1, 1}, nil},
	{"early_return", hdr + `layout(local_size_x = 16) in;
uint f(uint x) {
	if (x < 10u) return x + 1u;
	for (uint j = 0u; j < 8u; j++) { if (((x >> j) & 1u) == 1u) return j * 100u; }
	return 7u;
}
void main() {
	uint i = gl_GlobalInvocationID.x;
	o[2u*i+1u] = f(a[i]) + f(i);
	if (a[i] % 3u == 0u) return;
	for (uint j = 0u; j < 10u; j++) { if (j == (a[i] & 7u)) { o[2u*i] = j; return; } }
	o[2u*i] = 1000u;
}`, 16, [3]uint32{4, 1, 1}, nil},
	{"shared_barrier", hdr + `layout(local_size_x = 64) in;
shared uint tile[64];
shared uint total;
void main() {
	uint l = gl_LocalInvocationID.x, g = gl_WorkGroupID.x;
	tile[l] = a[g * 64u + l] & 0xffffu;
	barrier();
	o[g * 64u + l] = tile[63u - l] + tile[(l + 1u) & 63u];
	for (uint s = 32u; s > 0u; s >>= 1) {
		barrier();
		if (l < s) tile[l] += tile[l + s];
	}
	barrier();
	if (l == 0u) o[128u + g] = tile[0];
	atomicAdd(total, l);
	barrier();
	if (l == 63u) o[130u + g] = total;
}`, 64, [3]uint32{2, 1, 1}, nil},
	{"atomics", hdr + `layout(local_size_x = 16) in;
void main() {
	uint i = gl_GlobalInvocationID.x, x = a[i];
	atomicAdd(o[0], x); atomicMax(o[1], x); atomicMin(o[2], x); atomicOr(o[3], x);
	atomicXor(o[4], x); atomicAnd(o[5], x | 0x0f0f0f0fu);
	atomicMax(o[6], uint(int(x) >> 4));
	o[8u + i] = atomicAdd(o[100u + i], x);
	atomicExchange(o[200u + i], x);
}`, 16, [3]uint32{2, 1, 1}, nil},
	{"compswap", hdr + `layout(local_size_x = 4) in;
void main() {
	uint i = gl_GlobalInvocationID.x, x = a[i] & 3u;
	o[2u*i] = atomicCompSwap(o[200u + (i & 1u)], 0xa5a5a5a5u + (i & 2u) * 0u, x);
	o[2u*i+1u] = atomicCompSwap(o[300u + i], a[i + 1u] & 3u, 7u);
	atomicCompSwap(o[4000u], 0u, 1u);
	uint k = 0u;
	for (uint j = 0u; j < 3u; j++) { uint seen = atomicCompSwap(o[400u], k, k + 1u); if (seen == k) k++; else k = seen; }
	o[500u + i] = k;
}`, 4, [3]uint32{3, 1, 1}, nil},
	{"pack_unpack", hdr + `layout(local_size_x = 16) in;
// NaNs from arithmetic differ in sign between the host and RV32F (the one stated
// difference); packHalf2x16 would turn that into an integer difference
vec2 cn(vec2 v) { return vec2(isnan(v.x) ? uintBitsToFloat(0x7fc00000u) : v.x, isnan(v.y) ? uintBitsToFloat(0x7fc00000u) : v.y); }
void main() {
	uint i = gl_GlobalInvocationID.x;
	uint w = a[i];
	vec4 f = vec4(uintBitsToFloat(a[i + 1u]), float(int(w % 300u)) / 150.0 - 1.0, uintBitsToFloat(a[i + 2u]) * 0.01, 0.5);
	if (isnan(f.x)) f.x = 0.25;
	if (isnan(f.z)) f.z = -0.75;
	uint b = 14u * i;
	vec4 u = unpackUnorm4x8(w), s = unpackSnorm4x8(w);
	vec2 u2 = unpackUnorm2x16(w), s2 = unpackSnorm2x16(w);
	o[b] = floatBitsToUint(u.x); o[b+1u] = floatBitsToUint(u.w); o[b+2u] = floatBitsToUint(s.y); o[b+3u] = floatBitsToUint(s.z);
	o[b+4u] = floatBitsToUint(u2.y); o[b+5u] = floatBitsToUint(s2.x); o[b+6u] = floatBitsToUint(s2.y);
	o[b+7u] = packUnorm4x8(f); o[b+8u] = packSnorm4x8(f); o[b+9u] = packUnorm2x16(f.xy); o[b+10u] = packSnorm2x16(f.zw);
	o[b+11u] = packUnorm4x8(unpackUnorm4x8(w)); o[b+12u] = packSnorm4x8(s); o[b+13u] = packSnorm2x16(s2);
	vec2 hf = unpackHalf2x16(w), hg = unpackHalf2x16(a[i + 3u] & 0x83ff7c01u);
	o[1000u + 4u*i] = floatBitsToUint(hf.x); o[1001u + 4u*i] = floatBitsToUint(hf.y);
	o[1002u + 4u*i] = floatBitsToUint(hg.x); o[1003u + 4u*i] = floatBitsToUint(hg.y);
	float q = uintBitsToFloat(a[(i + 5u) % 64u]), r = uintBitsToFloat(w) * 1e-3;
	o[1300u + 4u*i] = packHalf2x16(cn(vec2(q, r))); o[1301u + 4u*i] = packHalf2x16(cn(vec2(q * 1e-5, r * 1e-7)));
	o[1302u + 4u*i] = packHalf2x16(cn(vec2(q * 65504.0, -r))); o[1303u + 4u*i] = packHalf2x16(hf);
}`, 16, [3]uint32{4, 1, 1}, nil},
	{"frexp", hdr + `layout(local_size_x = 32) in;
void main() {
	uint i = gl_GlobalInvocationID.x;
	float x = uintBitsToFloat(a[i]);
	int e; float m = frexp(x, e);
	o[2u*i] = floatBitsToUint(m); o[2u*i+1u] = uint(e);
	float y = uintBitsToFloat(a[i] & 0x807fffffu);
	m = frexp(y, e);
	o[200u+2u*i] = floatBitsToUint(m); o[201u+2u*i] = uint(e);
	int k = int(a[(i + 7u) % 64u] % 640u) - 320;
	o[400u+4u*i] = floatBitsToUint(ldexp(x, k)); o[401u+4u*i] = floatBitsToUint(ldexp(y, k / 4));
	o[402u+4u*i] = floatBitsToUint(ldexp(x, -140 - int(i))); o[403u+4u*i] = floatBitsToUint(ldexp(y, int(i) * 9 - 150));
}`, 32, [3]uint32{2, 1, 1}, nil},
	{"local_arrays", hdr + `layout(local_size_x = 16) in;
void main() {
	uint i = gl_GlobalInvocationID.x;
	uint t[8];
	float f[5];
	for (int j = 0; j < 8; j++) t[j] = a[(i + uint(j)) % 64u];
	for (int j = 0; j < 5; j++) f[j] = float(j) * 0.5;
	uint k = a[i] % 11u;
	t[k % 8u] += 5u;
	f[int(a[i]) % 5] = -1.0;
	o[3u*i] = t[k]; o[3u*i+1u] = t[(k + 3u) % 8u];
	o[3u*i+2u] = floatBitsToUint(f[int(a[i+1u]) % 7] + f[2]);
}`, 16, [3]uint32{2, 1, 1}, nil},
	{"uniforms_bounds", hdr + `layout(local_size_x = 16) in;
uniform uint scale;
uniform uint table[4];
uniform float bias;
void main() {
	uint i = gl_GlobalInvocationID.x;
	uint j = a[i] % 100u;
	o[2u*i] = a[j] * scale + table[i % 4u] + table[a[i] % 6u];
	o[2u*i+1u] = floatBitsToUint(float(a.length()) + bias);
	o[1000u + i] = 1u;
	o[i * 3u + 500u] = a[1000u + i];
}`, 16, [3]uint32{2, 1, 1}, []uint32{3, 10, 20, 30, 40, 0x3fc00000}},
	{"ids_3d", hdr + `layout(local_size_x = 2, local_size_y = 3, local_size_z = 2) in;
void main() {
	uvec3 g = gl_GlobalInvocationID, l = gl_LocalInvocationID, w = gl_WorkGroupID, n = gl_NumWorkGroups;
	uint idx = g.x + 4u * (g.y + 6u * g.z);
	uint b = 12u * idx;
	o[b] = g.x; o[b+1u] = g.y; o[b+2u] = g.z; o[b+3u] = l.x; o[b+4u] = l.y; o[b+5u] = l.z;
	o[b+6u] = w.x; o[b+7u] = w.y; o[b+8u] = w.z; o[b+9u] = n.x * 100u + n.y * 10u + n.z;
	o[b+10u] = gl_LocalInvocationIndex; o[b+11u] = 0xabcdu;
}`, 12, [3]uint32{2, 2, 2}, nil},
}
