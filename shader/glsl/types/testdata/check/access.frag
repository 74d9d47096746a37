// Fragment outputs: user outputs exclude gl_FragColor and gl_FragData.
// spec: GLSL 1.30 §7.2.
#version 130
out vec4 o;
void main() {
	gl_FragColor = vec4(0.0);
	o = vec4(1.0); // ERROR "cannot write both user-defined outputs and gl_FragColor/gl_FragData"
}
// ---- the other order
#version 130
out vec4 o;
void main() {
	o = vec4(1.0);
	gl_FragData[0] = vec4(0.0); // ERROR "cannot write both user-defined outputs and 'gl_FragData'"
}
