package ast

import (
	"sort"
	"strings"
)

// Error is one compile or link diagnostic. Its text is "file:line:col: error: msg".
type Error struct {
	Pos Pos
	Msg string
}

func (e *Error) Error() string {
	if !e.Pos.IsValid() {
		if e.Pos.File != "" {
			return e.Pos.File + ": error: " + e.Msg
		}
		return "error: " + e.Msg
	}
	return e.Pos.String() + ": error: " + e.Msg
}

// ErrorList is a list of diagnostics; it is an error itself when non-empty.
type ErrorList []*Error

// Add appends an error at pos.
func (l *ErrorList) Add(pos Pos, msg string) { *l = append(*l, &Error{Pos: pos, Msg: msg}) }

// Sort orders the list by position (stable for equal positions).
func (l ErrorList) Sort() {
	sort.SliceStable(l, func(i, j int) bool { return l[i].Pos.Before(l[j].Pos) })
}

// Err returns the list as an error, or nil when it is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

func (l ErrorList) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}
