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
// Mesh data reaches a vertex shader at fixed attribute locations (the
// benchmark scene's, ../shared/data/bench/README.md "Attributes"):
//
//	location 0  a_position   vec3  Mesh.Positions
//	location 1  a_normal     vec3  Mesh.Normals
//	location 2  a_texcoord   vec2  Mesh.Texcoords, (0,0) when the mesh has none
//	location 3  a_tangent    vec4  Mesh.Tangents
//	location 4  a_color      vec4  Mesh.Colors, white when the mesh has none
//	location 5  a_texcoord1  vec2  Mesh.TexcoordSet(1)
//	location 6  a_joints     vec4  Mesh.Joints (joint indices as floats)
//	location 7  a_weights    vec4  Mesh.JointWeights
//
// The first three are the benchmark's; the others are the glTF attributes
// the built-in model shader reads (ModelDescription).
//
// # Scene files
//
// A scene file is JSON that fully determines an image (or a numbered
// sequence of frames); unknown fields are errors. Paths are relative to the
// scene file. Example (the bench README's scene with lambert.frag's
// USE_TEXTURE option turned on):
//
//	{
//	  "width": 512, "height": 512, "msaa": 1,
//	  "clear": {"color": [0.12, 0.12, 0.15, 1], "depth": 1, "stencil": 0},
//	  "camera": {"projection": "perspective", "yfov_deg": 45, "near": 0.1, "far": 10,
//	             "view": [{"translate": [0, 0, -2]}]},
//	  "draws": [{
//	    "name": "bunny",
//	    "mesh": {"file": "bunny.obj", "fit": true},
//	    "model": [{"rotate_x_deg": 20}, {"rotate_y_deg": 0, "per_frame_deg": 3}],
//	    "vertex_shader": "lambert.vert", "fragment_shader": "lambert.frag",
//	    "defines": {"USE_TEXTURE": "1"},
//	    "uniforms": {"u_mvp": "mvp", "u_model": "model",
//	                 "u_light_dir": [0.30304576, 0.50507627, 0.80812204],
//	                 "u_base_color": [0.8, 0.7, 0.55]},
//	    "textures": [{"uniform": "u_texture", "unit": 0, "generator": "checker",
//	                  "wrap_s": "repeat", "wrap_t": "repeat",
//	                  "min_filter": "linear_mipmap_linear", "mag_filter": "linear"}],
//	    "state": {"depth_test": true, "depth_func": "less", "depth_write": true,
//	              "cull": "none", "front_face": "ccw",
//	              "blend": {"enable": false, "equation": "add", "src": "one", "dst": "zero"}}
//	  }]
//	}
//
// Fields:
//   - width, height (1..16384), msaa (1, 2, 4, 8 or 16; default 1), clear
//     (color, default (0,0,0,0); depth in [0,1], default 1; stencil 0..255).
//   - camera.projection: "perspective" (yfov_deg, near, far, aspect with
//     0 meaning width/height), "orthographic" (xmag, ymag, near, far) or
//     "matrix" (matrix: 16 floats, column-major). camera.view is a list of
//     transform ops, or camera.look_at {eye, target, up}.
//   - Transform ops (camera.view, draws[].model) are objects with exactly one
//     of translate [x,y,z], scale [x,y,z], rotate_x_deg, rotate_y_deg,
//     rotate_z_deg, rotate_deg with axis [x,y,z], or matrix (16 floats,
//     column-major); rotations may add per_frame_deg. The list multiplies
//     left to right (op0·op1·…), so the last op applies to vertices first.
//   - draws[].mesh: file (.obj, .gltf, .glb) or generator (sphere, grid,
//     torus_knot, cube, quad); fit centres the file's meshes on their
//     bounding-box centre and scales the longest side to [-0.5, 0.5]. A file
//     with several meshes or nodes gives one Draw per placed mesh.
//   - draws[].defines are inserted as #define lines after #version.
//   - draws[].uniforms: a number, bool (1/0), array of 1-4, 9 (mat3) or 16
//     (mat4, column-major) numbers, or a built-in name: mvp, model, view,
//     projection, model_view, view_projection, normal_matrix (mat3),
//     camera_position, viewport, frame, and the mesh material's
//     base_color_factor, metallic_factor, roughness_factor, emissive_factor,
//     alpha_cutoff, alpha_mode, normal_scale, occlusion_strength; for the
//     draws of a model (ModelDescription) also joint_matrices (mat4 array),
//     light_position, light_direction, light_color, light_params (arrays, one
//     element per KHR_lights_punctual light), fit_scale, and per material
//     texture slot SLOT_uv_set and SLOT_uv_transform (mat3, the
//     KHR_texture_transform). The renderer converts values to the type the
//     shader declares.
//   - draws[].textures: uniform, unit (default: list position, 0..31) and
//     one source: file (PNG/JPEG), generator (checker, brick, white,
//     flat_normal; size default 256) or material (base_color,
//     metallic_roughness, normal, occlusion, emissive; a 1×1 neutral
//     texture when the material has none); sampler wrap_s, wrap_t (repeat,
//     clamp_to_edge, mirrored_repeat), min_filter (nearest, linear,
//     nearest_mipmap_nearest, linear_mipmap_nearest, nearest_mipmap_linear,
//     linear_mipmap_linear) and mag_filter (nearest, linear). Image row 0
//     is texcoord t = 0 (GL upload order, as glTF); OBJ textures are
//     flipped on load so OBJ vt addresses them the same way.
//   - draws[].state: depth_test (default false), depth_func (never, less,
//     equal, lequal, greater, notequal, gequal, always; default less),
//     depth_write (default true), cull (none, front, back, front_and_back;
//     default none), front_face (ccw, cw; default ccw), blend {enable,
//     equation / equation_rgb / equation_alpha (add, subtract,
//     reverse_subtract, min, max), src / dst / src_rgb / dst_rgb / src_alpha
//     / dst_alpha (GL factor names in snake case, e.g. one_minus_src_alpha),
//     color}.
//
// Demo returns the embedded demo scene and ModelDescription wraps a bare
// OBJ/glTF/GLB file with the built-in metallic-roughness shader.
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
