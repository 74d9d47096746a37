package pipe

import "fmt"

// QueryType is a query kind (PIPE_QUERY_*).
type QueryType uint8

// The query types.
const (
	QueryOcclusionCounter QueryType = iota + 1
	QueryOcclusionPredicate
	QueryPipelineStatistics
	QueryPrimitivesGenerated
	QueryTimeElapsed
	QueryTimestamp
)

// CountsDraws reports whether an open query of this type counts what draws
// produce. spec: vortexpipe §1.5, §3.1 (post-gates)
func (t QueryType) CountsDraws() bool {
	switch t {
	case QueryOcclusionCounter, QueryOcclusionPredicate, QueryPipelineStatistics, QueryPrimitivesGenerated:
		return true
	}
	return false
}

// Occlusion reports whether the query counts samples passing the per-sample
// tests, which the device's software merger counts (a draw under it routes
// OM to software); the other counting queries gate. spec: vortexpipe §1.5
func (t QueryType) Occlusion() bool {
	return t == QueryOcclusionCounter || t == QueryOcclusionPredicate
}

// Query is a query object (pipe_query). Occlusion counters and predicates
// count the samples that pass the depth and stencil tests: on the device the
// software merger counts them (session.DrawStats.SWPassed), on the reference
// renderer a second pass counts them; primitives generated counts assembled
// primitives, time elapsed the command-processor cycles of device draws, and a
// timestamp the context's CP cycles so far. Pipeline statistics stay zero.
// spec: vortexpipe §1.5 (llvmpipe renders and counts)
type Query struct {
	Type   QueryType
	result uint64
	ended  bool
}

// CreateQuery creates a query.
func (c *Context) CreateQuery(t QueryType) (*Query, error) {
	if t < QueryOcclusionCounter || t > QueryTimestamp {
		return nil, fmt.Errorf("pipe: query type %d undefined", t)
	}
	return &Query{Type: t}, nil
}

// BeginQuery opens q; draws routed while it is open see it.
func (c *Context) BeginQuery(q *Query) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.queries[q] {
		return fmt.Errorf("pipe: BeginQuery: query already active")
	}
	if q.Type == QueryTimestamp {
		return fmt.Errorf("pipe: BeginQuery: a timestamp query is only ended")
	}
	c.queries[q] = true
	q.result, q.ended = 0, false
	return nil
}

// EndQuery closes q.
func (c *Context) EndQuery(q *Query) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if q.Type == QueryTimestamp {
		q.result, q.ended = c.cpCycles, true
		return nil
	}
	if !c.queries[q] {
		return fmt.Errorf("pipe: EndQuery: query not active")
	}
	delete(c.queries, q)
	q.ended = true
	return nil
}

// GetQueryResult returns an ended query's result: samples passed, 0 or 1 for a
// predicate, primitives, CP cycles. Draws complete before they return, so the
// result is always available. spec: vortexpipe §1.5
func (c *Context) GetQueryResult(q *Query) (uint64, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.queries[q] {
		return 0, fmt.Errorf("pipe: GetQueryResult: query still active")
	}
	if !q.ended {
		return 0, fmt.Errorf("pipe: GetQueryResult: query never ended")
	}
	if q.Type == QueryOcclusionPredicate && q.result > 0 {
		return 1, nil
	}
	return q.result, nil
}

// DestroyQuery releases q, ending it if active.
func (c *Context) DestroyQuery(q *Query) {
	c.mu.Lock()
	delete(c.queries, q)
	if c.cond != nil && c.cond.Query == q {
		c.cond = nil
	}
	c.mu.Unlock()
}

// RenderCondMode is a render-condition wait mode (PIPE_RENDER_COND_*).
type RenderCondMode uint8

// The wait modes.
const (
	CondWait RenderCondMode = iota
	CondNoWait
	CondByRegionWait
	CondByRegionNoWait
)

// RenderCondition predicates draws on a query's result (pipe render_condition).
// Draws complete before they return, so the host evaluates the predicate at
// each call and a passing call draws wherever it routes. spec: vortexpipe §3.1
type RenderCondition struct {
	Query     *Query
	Condition bool // Gallium's condition flag: which query result skips the draw
	Mode      RenderCondMode
}

// SetRenderCondition sets (q non-nil) or clears (q nil) the render condition.
func (c *Context) SetRenderCondition(q *Query, condition bool, mode RenderCondMode) error {
	if mode > CondByRegionNoWait {
		return fmt.Errorf("pipe: render condition mode %d undefined", mode)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if q == nil {
		c.cond = nil
		return nil
	}
	c.cond = &RenderCondition{Query: q, Condition: condition, Mode: mode}
	return nil
}
