package scene

import (
	"fmt"
	"math"
)

// skin decodes skins[i]: its joints (node indices) and inverse bind
// matrices (identity when absent). spec: glTF 2.0 §3.7.3.
func (l *gltfLoader) skin(i int) (Skin, error) {
	gs := l.doc.Skins[i]
	sp := fmt.Sprintf("skins[%d]", i)
	sk := Skin{Name: gs.Name, Joints: gs.Joints}
	if len(gs.Joints) == 0 {
		return sk, l.errorf(sp+".joints", "empty")
	}
	seen := map[int]bool{}
	for k, j := range gs.Joints {
		if j < 0 || j >= len(l.doc.Nodes) {
			return sk, l.errorf(fmt.Sprintf("%s.joints[%d]", sp, k), "node %d out of range (%d nodes)", j, len(l.doc.Nodes))
		}
		if seen[j] {
			return sk, l.errorf(fmt.Sprintf("%s.joints[%d]", sp, k), "node %d listed twice", j)
		}
		seen[j] = true
	}
	sk.InverseBind = make([]Mat4, len(gs.Joints))
	if gs.InverseBindMatrices == nil {
		for k := range sk.InverseBind {
			sk.InverseBind[k] = Identity()
		}
		return sk, nil
	}
	vals, cnt, err := l.floatAttribute(*gs.InverseBindMatrices, sp+".inverseBindMatrices", "MAT4")
	if err != nil {
		return sk, err
	}
	if cnt < int64(len(gs.Joints)) {
		return sk, l.errorf(sp+".inverseBindMatrices", "%d matrices for %d joints", cnt, len(gs.Joints))
	}
	for k := range sk.InverseBind {
		copy(sk.InverseBind[k][:], vals[16*k:16*k+16])
	}
	return sk, nil
}

// animation decodes animations[i]. Channels without a node (the target of
// an extension such as KHR_animation_pointer) are left out with a warning;
// a channel on a node with a matrix, a sampler whose key times decrease and
// outputs that do not match their keys are errors.
// spec: glTF 2.0 §3.11 (animations), §5.4–5.7.
func (l *gltfLoader) animation(i int, meshTargets func(node int) int) (Animation, error) {
	ga := l.doc.Animations[i]
	ap := fmt.Sprintf("animations[%d]", i)
	a := Animation{Name: ga.Name}
	if len(ga.Samplers) == 0 || len(ga.Channels) == 0 {
		return a, l.errorf(ap, "%d channels and %d samplers, want at least one each", len(ga.Channels), len(ga.Samplers))
	}
	// Samplers are decoded once a channel gives their path (the output's
	// type depends on it).
	decoded := make([]bool, len(ga.Samplers))
	a.Samplers = make([]AnimationSampler, len(ga.Samplers))
	type key struct {
		node int
		path AnimationPath
	}
	driven := map[key]int{}
	for ci, ch := range ga.Channels {
		cp := fmt.Sprintf("%s.channels[%d]", ap, ci)
		for _, k := range sortedKeys(ch.Target.Extensions) {
			l.noteExtension(k, cp+".target.extensions."+k)
		}
		if ch.Target.Node == nil {
			l.warnf(cp+".target", "no node (an extension's target); channel not played")
			continue
		}
		n := *ch.Target.Node
		if n < 0 || n >= len(l.doc.Nodes) {
			return a, l.errorf(cp+".target.node", "%d out of range (%d nodes)", n, len(l.doc.Nodes))
		}
		var path AnimationPath
		var comps int
		switch ch.Target.Path {
		case "translation":
			path, comps = PathTranslation, 3
		case "rotation":
			path, comps = PathRotation, 4
		case "scale":
			path, comps = PathScale, 3
		case "weights":
			path, comps = PathWeights, meshTargets(n)
			if comps == 0 {
				return a, l.errorf(cp+".target", "weights of node %d, whose mesh has no morph targets", n)
			}
		default:
			return a, l.errorf(cp+".target.path", "%q, want translation, rotation, scale or weights", ch.Target.Path)
		}
		if path != PathWeights && l.doc.Nodes[n].Matrix != nil {
			return a, l.errorf(cp+".target", "node %d has a matrix; an animated node must use translation, rotation and scale", n)
		}
		if prev, dup := driven[key{n, path}]; dup {
			return a, l.errorf(cp+".target", "node %d %s is already driven by channels[%d]", n, ch.Target.Path, prev)
		}
		driven[key{n, path}] = ci
		if ch.Sampler < 0 || ch.Sampler >= len(ga.Samplers) {
			return a, l.errorf(cp+".sampler", "%d out of range (%d samplers)", ch.Sampler, len(ga.Samplers))
		}
		if !decoded[ch.Sampler] {
			s, err := l.animSampler(ga.Samplers[ch.Sampler], fmt.Sprintf("%s.samplers[%d]", ap, ch.Sampler), comps, path == PathWeights)
			if err != nil {
				return a, err
			}
			a.Samplers[ch.Sampler], decoded[ch.Sampler] = s, true
		} else if a.Samplers[ch.Sampler].Comps != comps {
			return a, l.errorf(cp+".sampler", "sampler %d feeds channels of %d and %d components", ch.Sampler, a.Samplers[ch.Sampler].Comps, comps)
		}
		a.Channels = append(a.Channels, AnimationChannel{Node: n, Path: path, Sampler: ch.Sampler})
		if d := a.Samplers[ch.Sampler].Input; d[len(d)-1] > a.Duration {
			a.Duration = d[len(d)-1]
		}
	}
	return a, nil
}

// animSampler decodes one sampler whose outputs have comps components per
// key (weights: SCALAR outputs, comps per key).
func (l *gltfLoader) animSampler(gs gltfAnimationSampler, sp string, comps int, weights bool) (AnimationSampler, error) {
	s := AnimationSampler{Comps: comps}
	switch gs.Interpolation {
	case "", "LINEAR":
	case "STEP":
		s.Interpolation = InterpStep
	case "CUBICSPLINE":
		s.Interpolation = InterpCubicSpline
	default:
		return s, l.errorf(sp+".interpolation", "%q, want LINEAR, STEP or CUBICSPLINE", gs.Interpolation)
	}
	in, n, err := l.floatAttribute(gs.Input, sp+".input", "SCALAR")
	if err != nil {
		return s, err
	}
	for k := 1; k < len(in); k++ {
		if !(in[k] > in[k-1]) {
			return s, l.errorf(sp+".input", "key times not strictly increasing at key %d (%g after %g)", k, in[k], in[k-1])
		}
	}
	if in[0] < 0 {
		return s, l.errorf(sp+".input", "negative key time %g", in[0])
	}
	typ := map[int]string{3: "VEC3", 4: "VEC4"}[comps]
	if weights {
		typ = "SCALAR"
	}
	out, cnt, err := l.floatAttribute(gs.Output, sp+".output", typ)
	if err != nil {
		return s, err
	}
	per := int64(1)
	if s.Interpolation == InterpCubicSpline {
		per = 3
	}
	elems := cnt
	if weights {
		elems = cnt / int64(comps)
		if cnt%int64(comps) != 0 {
			elems = -1
		}
	}
	if elems != per*n {
		return s, l.errorf(sp+".output", "%d values for %d keys of %d components (%s)", cnt, n, comps, s.Interpolation)
	}
	for _, v := range out {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return s, l.errorf(sp+".output", "value not finite")
		}
	}
	s.Input, s.Output = in, out
	return s, nil
}
