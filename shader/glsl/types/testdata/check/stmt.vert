// Statements: scope of declarations, switch. spec: GLSL 4.50 §6.2, §4.3.9.
#version 130
void main() {
	invariant gl_Position; // ERROR "qualifier-only declarations are only allowed at global scope"
	uniform B { float x; }; // ERROR "interface blocks are only allowed at global scope"
	case 1: // ERROR "case label outside of a switch statement"
	int i = 0;
	switch (i) {
	default:
		break;
	default: // ERROR "multiple default labels in one switch"
		break;
	}
	switch (i) {
	case 1.0: // ERROR "case label must be a scalar integer constant expression"
		break;
	}
	switch (i) {
	case 1:
		break;
	case 2: // ERROR "switch must not end with a case label"
	}
}
// ---- case labels convert to the switch type or fail
#version 130
void main() { uint u = 0u; switch (u) { case -1: break; } } // ERROR "case label type int does not match switch type uint"
