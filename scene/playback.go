package scene

import (
	"math"
	"sort"
)

// Playback is the time base of a model scene (ModelDescription): the scene
// graph the draws are placed by, the animations the frames play and the
// fitting transform applied to the whole model. Frame f shows the model at
// t = f / FPS seconds, looped over the longest played animation.
type Playback struct {
	Scene *Scene
	// Animations index Scene.Animations: the clips played together (none:
	// the rest pose).
	Animations []int
	// FPS is the frame rate of a sequence (frames per second, > 0).
	FPS float64
	// Fit maps the posed model into the [-0.5, 0.5] box (identity when the
	// model is seen through its own camera).
	Fit Mat4

	frame int
	pose  *Pose
}

// Time returns frame's time in seconds in the animation: frame / FPS,
// wrapped into [0, duration) so that a sequence longer than the clip loops.
func (p *Playback) Time(frame int) float64 {
	t := float64(frame) / p.FPS
	if d := p.Duration(); d > 0 {
		t = math.Mod(t, d)
		if t < 0 {
			t += d
		}
	}
	return t
}

// Duration is the longest played animation's length in seconds (0 for
// none).
func (p *Playback) Duration() float64 {
	d := 0.0
	for _, a := range p.Animations {
		d = math.Max(d, float64(p.Scene.Animations[a].Duration))
	}
	return d
}

// Pose returns the scene posed at frame (cached for the last frame asked).
func (p *Playback) Pose(frame int) *Pose {
	if p.pose == nil || p.frame != frame {
		ps := p.Scene.PoseAt(p.Time(frame), p.Animations...)
		p.pose, p.frame = &ps, frame
	}
	return p.pose
}

// drawNode is the part of a Draw that ties it to a model scene's node.
type drawNode struct {
	playback *Playback
	node     int // the node placing the mesh
	skin     int // Scene.Skins index, or -1
	// uvSlot is, per material texture slot (base colour, metallic-roughness,
	// normal, occlusion, emissive), the shader's texture coordinate input
	// (0: a_texcoord, 1: a_texcoord1) it reads.
	uvSlot [5]int
}

// Animated reports whether the draw's vertices change from frame to frame
// on the CPU (morph targets), so that a renderer re-uploads them.
func (d *Draw) Animated() bool { return d.playback != nil && d.Mesh.Morphed() }

// MeshAt returns the draw's mesh at frame: morphed by the node's weights
// in that frame's pose, or the mesh itself.
func (d *Draw) MeshAt(frame int) *Mesh {
	if !d.Animated() {
		return d.Mesh
	}
	return d.Mesh.Morph(d.playback.Pose(frame).Weights[d.node])
}

// JointMatrices returns the draw's skin joint matrices at frame (nil for a
// draw without a skin).
func (d *Draw) JointMatrices(frame int) []Mat4 {
	if d.playback == nil || d.skin < 0 {
		return nil
	}
	return d.playback.Scene.JointMatrices(d.skin, d.playback.Pose(frame))
}

// ModelMatrix returns the draw's model matrix at frame: Model(frame)·Instance
// for a scene-file draw; for a model scene Model(frame)·Fit·World(node) in
// that frame's pose, without the node's transform for a skinned draw (its
// joints place it, glTF 2.0 §3.7.3.3).
func (d *Draw) ModelMatrix(frame int) Mat4 {
	if d.playback == nil {
		return d.Model.Matrix(frame).Mul(d.Instance)
	}
	m := d.Model.Matrix(frame).Mul(d.playback.Fit)
	if d.skin >= 0 {
		return m
	}
	return m.Mul(d.playback.Pose(frame).World[d.node])
}

// DrawOrder returns the order in which frame's draws are submitted:
// every draw that does not blend in description order, then the blending
// draws from the farthest to the nearest (view-space depth of their
// bounding-box centre), so that alpha-blended surfaces composite over what
// is behind them. Ties keep description order.
func (d *Description) DrawOrder(frame int) []int {
	order := make([]int, 0, len(d.Draws))
	var blended []int
	for i := range d.Draws {
		if d.Draws[i].State.Blend.Enable {
			blended = append(blended, i)
		} else {
			order = append(order, i)
		}
	}
	if len(blended) > 1 {
		view := d.Camera.View(frame)
		depth := make(map[int]float32, len(blended))
		for _, i := range blended {
			dr := &d.Draws[i]
			lo, hi, ok := dr.Mesh.Bounds()
			if !ok {
				continue
			}
			c := lo.Add(hi).Scale(0.5)
			if js := dr.JointMatrices(frame); js != nil {
				c = skinnedCentre(dr.Mesh, js)
			}
			p := view.Mul(dr.ModelMatrix(frame)).MulPoint(c)
			depth[i] = p[2] // eye space looks down −z: more negative is farther
		}
		sort.SliceStable(blended, func(a, b int) bool { return depth[blended[a]] < depth[blended[b]] })
	}
	return append(order, blended...)
}

// skinnedCentre is the centre of the skinned positions' bounding box.
func skinnedCentre(m *Mesh, joints []Mat4) Vec3 {
	ps := m.SkinPositions(joints)
	if len(ps) == 0 {
		return Vec3{}
	}
	lo, hi := ps[0], ps[0]
	for _, p := range ps[1:] {
		for k := range 3 {
			lo[k], hi[k] = min(lo[k], p[k]), max(hi[k], p[k])
		}
	}
	return lo.Add(hi).Scale(0.5)
}
