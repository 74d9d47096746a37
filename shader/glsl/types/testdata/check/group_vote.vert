// GL_ARB_shader_group_vote: the vote functions exist only with the extension
// enabled, and take one bool. spec: ARB_shader_group_vote.
#version 150
void main() {
	bool b = anyInvocationARB(true); // ERROR "built-in function 'anyInvocationARB' is not available"
}
// ---- a bool argument only
#version 150
#extension GL_ARB_shader_group_vote : enable
void main() {
	bool a = anyInvocationARB(gl_VertexID > 2) && allInvocationsARB(true) && allInvocationsEqualARB(false);
	bool b = allInvocationsARB(1); // ERROR "no matching overload for call to 'allInvocationsARB\\(int\\)'"
	bool c = allInvocationsEqualARB(bvec2(true)); // ERROR "no matching overload for call to 'allInvocationsEqualARB\\(bvec2\\)'"
}
