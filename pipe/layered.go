package pipe

import (
	"fmt"

	"vortexgfx/ref"
)

// Layered framebuffers: a Surface with Layered set is every layer of its
// level (array layers, cube faces, 3D slices), and each primitive draws into
// the layer its geometry shader writes to gl_Layer (layer 0 without a
// geometry stage writing it). The reference renderer draws such a draw once
// per layer, keeping the geometry stage's strips of that layer; clears fill
// every layer. Device draws, which have no geometry stage (GateGeometryStage
// sends those to the reference renderer), write layer Layer as of any
// surface. spec: GL 4.6 §9.8 (layered framebuffers), §11.3.4.6 (layer
// selection by gl_Layer's value; out of range: layer 0 here, as Mesa)

// layerCount is the number of layers of a layered surface's level.
func (s *Surface) layerCount() int {
	d := s.Resource.desc
	_, _, z := d.LevelSize(s.Level)
	return z * d.ArraySize
}

// fbLayers is the layer count of fb's layered attachments (0: none is
// layered); layered attachments of different counts draw the smallest.
func fbLayers(fb *Framebuffer) int {
	n := 0
	for _, s := range append(append([]*Surface(nil), fb.Cbufs...), fb.Zsbuf) {
		if s != nil && s.Layered {
			if k := s.layerCount(); n == 0 || k < n {
				n = k
			}
		}
	}
	return n
}

// atLayer returns fb with its layered attachments at layer k.
func atLayer(fb Framebuffer, k int) Framebuffer {
	at := func(s *Surface) *Surface {
		if s == nil || !s.Layered {
			return s
		}
		c := *s
		c.Layered, c.Layer = false, k
		return &c
	}
	cb := make([]*Surface, len(fb.Cbufs))
	for i, s := range fb.Cbufs {
		cb[i] = at(s)
	}
	fb.Cbufs, fb.Zsbuf = cb, at(fb.Zsbuf)
	return fb
}

// drawLayers runs a reference draw into a layered framebuffer, layer by
// layer (st.layer selects it for drawReference).
func (c *Context) drawLayers(st *BoundState, l *linked, info *DrawInfo, d DirectDraw, idx []byte, nverts int, uniforms []uint32, n int) error {
	for k := range n {
		ls := *st
		ls.FB = atLayer(st.FB, k)
		ls.layer, ls.layers = k+1, n
		if err := c.drawReference(&ls, l, info, d, idx, nverts, uniforms); err != nil {
			return fmt.Errorf("layer %d: %w", k, err)
		}
	}
	return nil
}

// layerWord is the geometry stage's gl_Layer output word (-1: not written).
func (l *linked) layerWord() int {
	if l.prog == nil || l.prog.IR.GS == nil {
		return -1
	}
	for _, s := range l.prog.IR.GS.Outputs {
		if s.Name == "gl_Layer" {
			return s.Word
		}
	}
	return -1
}

// layerFilter is a geometry stage keeping only the strips of one layer: those
// whose first vertex's gl_Layer is it (out-of-range layers count as 0).
type layerFilter struct {
	ref.GeometryShader
	word, layer, layers int
}

// ShadePrimitives implements ref.GeometryShader: the inner stage's output
// with the other layers' strips removed.
func (f *layerFilter) ShadePrimitives(b *ref.GeometryBatch, tex ref.Textures) error {
	o := b.Out
	start := o.N
	if err := f.GeometryShader.ShadePrimitives(b, tex); err != nil {
		return err
	}
	vw, cw := o.Layout.Varyings, o.Layout.ClipDistances
	keep := false
	w := start
	for i := start; i < o.N; i++ {
		if i == start || o.Restart[i] {
			lv := int(int32(o.Varyings[i*vw+f.word]))
			if lv < 0 || lv >= f.layers {
				lv = 0
			}
			keep = lv == f.layer
		}
		if !keep {
			continue
		}
		o.Position[w], o.PointSize[w], o.Restart[w] = o.Position[i], o.PointSize[i], o.Restart[i] || w == start
		copy(o.Varyings[w*vw:(w+1)*vw], o.Varyings[i*vw:(i+1)*vw])
		copy(o.ClipDist[w*cw:(w+1)*cw], o.ClipDist[i*cw:(i+1)*cw])
		w++
	}
	o.N = w
	o.Position, o.PointSize, o.Restart = o.Position[:w], o.PointSize[:w], o.Restart[:w]
	o.Varyings, o.ClipDist = o.Varyings[:w*vw], o.ClipDist[:w*cw]
	return nil
}

// selectLayer makes s draw only layer st.layer-1 of a layered draw: through a
// layerFilter on the geometry stage writing gl_Layer, else (every primitive
// in layer 0) not at all past layer 0. It reports whether the draw has
// anything to draw.
func (l *linked) selectLayer(s *ref.State, st *BoundState, layers int) bool {
	k := st.layer - 1
	w := l.layerWord()
	if s.Geometry == nil || w < 0 || w >= s.Geometry.Layout().Varyings {
		return k == 0
	}
	s.Geometry = &layerFilter{GeometryShader: s.Geometry, word: w, layer: k, layers: layers}
	return true
}
