// GL_ARB_shader_atomic_counter_ops: the ARB-suffixed counter functions exist
// only with the extension, take a uint operand (compare-swap two) and return
// uint. spec: ARB_shader_atomic_counter_ops
#version 140
#extension GL_ARB_shader_atomic_counters : require
#extension GL_ARB_shader_atomic_counter_ops : require
layout(binding = 0) uniform atomic_uint c;
out vec4 o;
void main() {
	uint a = atomicCounterAddARB(c, 1u) + atomicCounterSubtractARB(c, 1u) + atomicCounterMinARB(c, 1u) +
		atomicCounterMaxARB(c, 1u) + atomicCounterAndARB(c, 1u) + atomicCounterOrARB(c, 1u) +
		atomicCounterXorARB(c, 1u) + atomicCounterExchangeARB(c, 1u) + atomicCounterCompSwapARB(c, 1u, 2u);
	uint b = atomicCounterCompSwapARB(c, 1u); // ERROR "no matching overload for call to 'atomicCounterCompSwapARB"
	o = vec4(float(a + b));
}
// ---- without the extension
#version 140
#extension GL_ARB_shader_atomic_counters : require
layout(binding = 0) uniform atomic_uint c;
out vec4 o;
void main() {
	o = vec4(float(atomicCounterAddARB(c, 1u))); // ERROR "atomicCounterAddARB"
}
