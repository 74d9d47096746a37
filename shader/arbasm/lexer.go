package arbasm

import (
	"fmt"
	"strconv"
)

// tokKind is the class of a token.
type tokKind uint8

const (
	tokEOF tokKind = iota
	tokIdent
	tokNumber
	tokPunct // one of ; , . [ ] { } = + - or the range ".."
)

// token is one lexeme with the position of its first byte.
type token struct {
	kind tokKind
	text string
	num  float64 // tokNumber: the value
	line int
	col  int
}

func (t token) String() string {
	switch t.kind {
	case tokEOF:
		return "end of program"
	case tokNumber:
		return fmt.Sprintf("number %q", t.text)
	}
	return fmt.Sprintf("%q", t.text)
}

// Error is a malformed program: the line and column (both from 1) of the
// offending token and what is wrong there. spec: ARB_vertex_program §2.14.1
// (PROGRAM_ERROR_POSITION_ARB names where the first error is)
type Error struct {
	Line, Col int
	Msg       string
	// Unsupported marks a well-formed program using something this
	// implementation does not provide (a binding, option or state it has
	// no form of), as opposed to a malformed one.
	Unsupported bool
}

func (e *Error) Error() string { return fmt.Sprintf("%d:%d: error: %s", e.Line, e.Col, e.Msg) }

// lexer splits a program string into tokens. Comments run from '#' to the
// end of the line; whitespace separates tokens. spec: ARB_vertex_program
// §2.14.2 (the grammar's lexical rules), ARB_fragment_program §3.11.2
type lexer struct {
	src  string
	pos  int
	line int
	col  int
}

func newLexer(src string) *lexer { return &lexer{src: src, line: 1, col: 1} }

func (l *lexer) advance(n int) {
	for range n {
		if l.src[l.pos] == '\n' {
			l.line++
			l.col = 1
		} else {
			l.col++
		}
		l.pos++
	}
}

func isLetter(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$'
}
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// next returns the next token, or an error for a character no token starts
// with.
func (l *lexer) next() (token, error) {
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f':
			l.advance(1)
			continue
		case c == '#':
			for l.pos < len(l.src) && l.src[l.pos] != '\n' {
				l.advance(1)
			}
			continue
		}
		break
	}
	t := token{line: l.line, col: l.col}
	if l.pos >= len(l.src) {
		return t, nil
	}
	start := l.pos
	c := l.src[l.pos]
	switch {
	case isLetter(c):
		n := 1
		for start+n < len(l.src) && (isLetter(l.src[start+n]) || isDigit(l.src[start+n])) {
			n++
		}
		t.kind, t.text = tokIdent, l.src[start:start+n]
		l.advance(n)
		return t, nil
	case isDigit(c) || c == '.' && start+1 < len(l.src) && isDigit(l.src[start+1]):
		n := l.numberLen()
		t.kind, t.text = tokNumber, l.src[start:start+n]
		v, err := strconv.ParseFloat(t.text, 64)
		if err != nil {
			// Out of range: ParseFloat returns ±Inf with the error, which
			// the float32 conversion keeps (GL rounds to the nearest
			// representable value, infinity included).
			if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
				return t, &Error{Line: t.line, Col: t.col, Msg: fmt.Sprintf("malformed number %q", t.text)}
			}
		}
		t.num = v
		l.advance(n)
		return t, nil
	case c == '.' && start+1 < len(l.src) && l.src[start+1] == '.':
		t.kind, t.text = tokPunct, ".."
		l.advance(2)
		return t, nil
	}
	switch c {
	case ';', ',', '.', '[', ']', '{', '}', '=', '+', '-':
		t.kind, t.text = tokPunct, l.src[start:start+1]
		l.advance(1)
		return t, nil
	}
	return t, &Error{Line: t.line, Col: t.col, Msg: fmt.Sprintf("unexpected character %q", c)}
}

// numberLen is the length of the number at l.pos: digits, an optional
// fraction (not when the '.' starts a ".." range) and an optional exponent.
func (l *lexer) numberLen() int {
	s := l.src[l.pos:]
	n := 0
	for n < len(s) && isDigit(s[n]) {
		n++
	}
	if n < len(s) && s[n] == '.' && !(n+1 < len(s) && s[n+1] == '.') {
		n++
		for n < len(s) && isDigit(s[n]) {
			n++
		}
	}
	if n < len(s) && (s[n] == 'e' || s[n] == 'E') {
		m := n + 1
		if m < len(s) && (s[m] == '+' || s[m] == '-') {
			m++
		}
		if m < len(s) && isDigit(s[m]) {
			for m < len(s) && isDigit(s[m]) {
				m++
			}
			n = m
		}
	}
	return n
}
