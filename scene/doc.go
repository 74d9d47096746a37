// Package scene loads meshes and scenes for the Vortex renderers: Wavefront
// OBJ (+MTL), glTF 2.0 (.gltf with external or data: buffers, and .glb),
// PNG/JPEG textures, cameras, the JSON scene-file format that fully
// determines an image, the benchmark meshes and matrices of
// ../shared/data/bench/README.md, and an embedded demo scene.
//
// Nothing here renders. The device path (pipe) and the reference renderer
// (ref) consume the types defined here: Mesh, Material, Texture, Node,
// Camera, Scene, and the scene-file types File and Draw.
//
// # Vertex attributes
//
// Mesh data reaches a vertex shader at fixed attribute locations (issue 7,
// "Scenes"; bench README "Attributes"):
//
//	location 0  a_position  vec3  Mesh.Positions
//	location 1  a_normal    vec3  Mesh.Normals
//	location 2  a_texcoord  vec2  Mesh.Texcoords, (0,0) when the mesh has none
//
// Tangents (vec4, Mesh.Tangents) are carried for normal mapping but are not
// bound at a fixed location.
//
// # Conventions
//
// Matrices are column-major float32 4×4 like GLSL (element (row r, column c)
// is m[c*4+r]), vectors are column vectors, clip-space z spans [-w, w]
// (OpenGL). Triangles are lists of uint32 indices, counter-clockwise front
// faces unless a scene file says otherwise.
//
// Every loader returns an error naming the file and the place (OBJ line,
// glTF JSON path such as "meshes[0].primitives[1].indices") for bad input;
// none panics.
package scene
