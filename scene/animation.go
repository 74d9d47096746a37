package scene

import (
	"fmt"
	"math"
	"sort"
)

// Interpolation is an animation sampler's interpolation (glTF 2.0 §3.11,
// Appendix C).
type Interpolation uint8

// Interpolations.
const (
	InterpLinear Interpolation = iota
	InterpStep
	InterpCubicSpline
)

// String returns the glTF name.
func (i Interpolation) String() string {
	switch i {
	case InterpLinear:
		return "LINEAR"
	case InterpStep:
		return "STEP"
	case InterpCubicSpline:
		return "CUBICSPLINE"
	}
	return fmt.Sprintf("Interpolation(%d)", uint8(i))
}

// AnimationPath is the node property a channel drives.
type AnimationPath uint8

// Animation paths (glTF 2.0 §5.5 animation.channel.target.path).
const (
	PathTranslation AnimationPath = iota
	PathRotation
	PathScale
	PathWeights
)

// String returns the glTF name.
func (p AnimationPath) String() string {
	return [...]string{"translation", "rotation", "scale", "weights"}[p&3]
}

// AnimationSampler is one keyframe curve: Input holds the key times in
// seconds (strictly increasing), Output Comps values per key — three per key
// for CUBICSPLINE, in the order in-tangent, value, out-tangent.
type AnimationSampler struct {
	Input         []float32
	Output        []float32
	Comps         int
	Interpolation Interpolation
}

// AnimationChannel drives one property of one node from a sampler.
type AnimationChannel struct {
	Node    int
	Path    AnimationPath
	Sampler int
}

// Animation is a glTF animation: channels reading keyframe samplers.
// Duration is the last key time of any sampler (the clip's length).
type Animation struct {
	Name     string
	Channels []AnimationChannel
	Samplers []AnimationSampler
	Duration float32
}

// Sample evaluates the curve at time t (seconds) into out (Comps values).
// Before the first key it holds the first value and after the last the last
// one; rotation curves (rotation true) interpolate LINEAR by spherical
// linear interpolation along the shorter arc and are normalised after a
// CUBICSPLINE step. spec: glTF 2.0 Appendix C (interpolation).
func (s *AnimationSampler) Sample(t float64, rotation bool, out []float32) {
	n := len(s.Input)
	c := s.Comps
	value := func(k int) []float32 {
		if s.Interpolation == InterpCubicSpline {
			return s.Output[(3*k+1)*c : (3*k+2)*c]
		}
		return s.Output[k*c : (k+1)*c]
	}
	if n == 1 || t <= float64(s.Input[0]) {
		copy(out, value(0))
		return
	}
	if t >= float64(s.Input[n-1]) {
		copy(out, value(n-1))
		return
	}
	// The key k with Input[k] <= t < Input[k+1].
	k := sort.Search(n, func(i int) bool { return float64(s.Input[i]) > t }) - 1
	t0, t1 := float64(s.Input[k]), float64(s.Input[k+1])
	td := t1 - t0
	u := (t - t0) / td
	switch s.Interpolation {
	case InterpStep:
		copy(out, value(k))
	case InterpCubicSpline:
		// p(u) = (2u³−3u²+1)·v_k + td·(u³−2u²+u)·b_k + (−2u³+3u²)·v_k+1 + td·(u³−u²)·a_k+1,
		// b_k the out-tangent of key k and a_k+1 the in-tangent of key k+1.
		u2, u3 := u*u, u*u*u
		h00, h10 := 2*u3-3*u2+1, u3-2*u2+u
		h01, h11 := -2*u3+3*u2, u3-u2
		v0, b0 := value(k), s.Output[(3*k+2)*c:(3*k+3)*c]
		v1, a1 := value(k+1), s.Output[(3*(k+1))*c:(3*(k+1)+1)*c]
		for i := range c {
			out[i] = float32(h00*float64(v0[i]) + td*h10*float64(b0[i]) + h01*float64(v1[i]) + td*h11*float64(a1[i]))
		}
		if rotation {
			normalizeQuat(out)
		}
	default:
		a, b := value(k), value(k+1)
		if rotation {
			slerp(a, b, u, out)
			return
		}
		for i := range c {
			out[i] = float32(float64(a[i]) + u*(float64(b[i])-float64(a[i])))
		}
	}
}

// slerp interpolates unit quaternions a and b by u along the shorter arc;
// nearly parallel quaternions are interpolated linearly and normalised (the
// sine of the angle would lose its precision).
func slerp(a, b []float32, u float64, out []float32) {
	var qa, qb [4]float64
	dot := 0.0
	for i := range 4 {
		qa[i], qb[i] = float64(a[i]), float64(b[i])
		dot += qa[i] * qb[i]
	}
	if dot < 0 {
		for i := range qb {
			qb[i] = -qb[i]
		}
		dot = -dot
	}
	var sa, sb float64
	if dot > 0.9995 {
		sa, sb = 1-u, u
	} else {
		theta := math.Acos(dot)
		sin := math.Sin(theta)
		sa, sb = math.Sin((1-u)*theta)/sin, math.Sin(u*theta)/sin
	}
	for i := range 4 {
		out[i] = float32(sa*qa[i] + sb*qb[i])
	}
	normalizeQuat(out)
}

func normalizeQuat(q []float32) {
	l := math.Sqrt(float64(q[0])*float64(q[0]) + float64(q[1])*float64(q[1]) + float64(q[2])*float64(q[2]) + float64(q[3])*float64(q[3]))
	if l == 0 {
		q[0], q[1], q[2], q[3] = 0, 0, 0, 1
		return
	}
	for i := range 4 {
		q[i] = float32(float64(q[i]) / l)
	}
}

// Pose is the scene at one instant: every node's world matrix and the morph
// weights of every node with a morphed mesh (nil entries elsewhere).
type Pose struct {
	World   []Mat4
	Weights [][]float32
}

// PoseAt returns the scene posed at t seconds by the animations anims, in
// that order (none: the rest pose, the nodes' own transforms and weights;
// an index out of range is skipped). Channels replace the node's
// translation, rotation, scale or morph weights; a node with a matrix
// cannot be animated (the loader refuses such a channel).
// spec: glTF 2.0 §3.11 (animations), §3.7.2.2 (morph weights).
func (s *Scene) PoseAt(t float64, anims ...int) Pose {
	nodes := make([]Node, len(s.Nodes))
	copy(nodes, s.Nodes)
	weights := make([][]float32, len(s.Nodes))
	for i := range nodes {
		weights[i] = s.restWeights(i)
	}
	for _, anim := range anims {
		if anim < 0 || anim >= len(s.Animations) {
			continue
		}
		a := &s.Animations[anim]
		var buf [4]float32
		for _, ch := range a.Channels {
			sm := &a.Samplers[ch.Sampler]
			n := &nodes[ch.Node]
			switch ch.Path {
			case PathTranslation:
				sm.Sample(t, false, buf[:3])
				copy(n.Translation[:], buf[:3])
			case PathRotation:
				sm.Sample(t, true, buf[:4])
				n.Rotation = buf
			case PathScale:
				sm.Sample(t, false, buf[:3])
				copy(n.Scale[:], buf[:3])
			case PathWeights:
				w := make([]float32, sm.Comps)
				sm.Sample(t, false, w)
				weights[ch.Node] = w
			}
		}
	}
	posed := *s
	posed.Nodes = nodes
	return Pose{World: posed.WorldMatrices(), Weights: weights}
}

// restWeights is node i's morph weights without animation: the node's
// weights, else its first mesh's default weights, else nil.
func (s *Scene) restWeights(i int) []float32 {
	n := &s.Nodes[i]
	if n.MorphWeights != nil {
		return n.MorphWeights
	}
	for _, m := range n.Meshes {
		if s.Meshes[m].MorphWeights != nil {
			return s.Meshes[m].MorphWeights
		}
	}
	return nil
}

// Skin binds a mesh to joint nodes: vertex positions are blended from up to
// four joints' matrices, joint j's being World[Joints[j]]·InverseBind[j].
// spec: glTF 2.0 §3.7.3 (skins).
type Skin struct {
	Name        string
	Joints      []int
	InverseBind []Mat4
}

// JointMatrices returns skin's joint matrices in pose p. The mesh node's
// own transform does not apply to a skinned mesh (glTF 2.0 §3.7.3.3); a
// renderer places it with these matrices alone.
func (s *Scene) JointMatrices(skin int, p *Pose) []Mat4 {
	sk := &s.Skins[skin]
	out := make([]Mat4, len(sk.Joints))
	for j, n := range sk.Joints {
		out[j] = p.World[n].Mul(sk.InverseBind[j])
	}
	return out
}
