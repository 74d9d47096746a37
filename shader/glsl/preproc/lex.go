// Package preproc implements the GLSL preprocessor: it turns shader source text into
// a stream of preprocessing tokens with every directive executed and every macro
// expanded. spec: GLSL 4.50 §3.3, GLSL ES 3.00 §3.4.
package preproc

import (
	"strings"

	"vortexgfx/shader/glsl/ast"
)

// Kind classifies a preprocessing token.
type Kind uint8

// Token kinds.
const (
	EOF     Kind = iota
	Ident        // identifier or keyword
	Number       // preprocessing number (integer or float literal, validated by the parser)
	Punct        // operator or punctuator
	Newline      // end of a source line (only inside the preprocessor)
	Other        // bytes that form no GLSL token (an error if they reach the parser)
)

// Token is one preprocessing token.
type Token struct {
	Kind  Kind
	Text  string
	Pos   ast.Pos
	Space bool     // preceded by white space (decides "#define F(x)" vs "#define F (x)")
	hide  []string // macros that may not expand this token (Prosser hide set)
}

// puncts lists the multi-character punctuators, longest first.
var puncts = []string{"<<=", ">>=", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "^^",
	"++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "^=", "|=", "##"}

const singlePuncts = "+-*/%<>=!&|^~?:;,.()[]{}#"

// lexer splits source text into tokens, removing comments and line continuations.
type lexer struct {
	src    string
	file   string
	off    int
	line   int
	col    int
	errs   *ast.ErrorList
	tokens []Token
}

func isLetter(c byte) bool { return c == '_' || (c|0x20) >= 'a' && (c|0x20) <= 'z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

// peek returns the byte at off+i after skipping line continuations, and the number
// of source bytes that consumed.
func (l *lexer) at(i int) byte {
	if i < len(l.src) {
		return l.src[i]
	}
	return 0
}

// skipCont skips any backslash-newline sequences at l.off.
func (l *lexer) skipCont() {
	for l.off < len(l.src) && l.src[l.off] == '\\' {
		n := 0
		if l.at(l.off+1) == '\n' {
			n = 2
		} else if l.at(l.off+1) == '\r' && l.at(l.off+2) == '\n' {
			n = 3
		}
		if n == 0 {
			return
		}
		l.off += n
		l.line++
		l.col = 1
	}
}

// cur returns the current byte (after continuations) or 0 at end.
func (l *lexer) cur() byte {
	l.skipCont()
	return l.at(l.off)
}

// next advances by one byte (after continuations, so that "*\\\n/" closes a
// comment).
func (l *lexer) next() {
	l.skipCont()
	if l.off < len(l.src) {
		if l.src[l.off] == '\n' {
			l.line++
			l.col = 1
		} else {
			l.col++
		}
		l.off++
	}
}

// peek2 returns the byte after the current one, looking through continuations.
func (l *lexer) peek2() byte {
	save := *l
	l.next()
	c := l.cur()
	l.off, l.line, l.col = save.off, save.line, save.col
	return c
}

func (l *lexer) pos() ast.Pos { return ast.Pos{File: l.file, Line: l.line, Col: l.col} }

func (l *lexer) run() {
	space := true
	for {
		c := l.cur()
		if l.off >= len(l.src) {
			break
		}
		switch {
		case c == '\n':
			l.tokens = append(l.tokens, Token{Kind: Newline, Pos: l.pos()})
			l.next()
			space = true
		case c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f':
			l.next()
			space = true
		case c == '/' && l.peek2() == '/':
			for l.off < len(l.src) && l.cur() != '\n' && l.off < len(l.src) {
				l.next()
			}
			space = true
		case c == '/' && l.peek2() == '*':
			p := l.pos()
			l.next()
			l.next()
			closed := false
			for l.off < len(l.src) {
				if l.cur() == '*' && l.peek2() == '/' {
					l.next()
					l.next()
					closed = true
					break
				}
				l.next()
			}
			if !closed {
				l.errs.Add(p, "unterminated comment")
			}
			space = true
		case isLetter(c):
			p := l.pos()
			var b []byte
			for isLetter(l.cur()) || isDigit(l.cur()) {
				b = append(b, l.cur())
				l.next()
			}
			l.tokens = append(l.tokens, Token{Kind: Ident, Text: string(b), Pos: p, Space: space})
			space = false
		case isDigit(c) || c == '.' && isDigit(l.peek2()):
			p := l.pos()
			var b []byte
			for {
				c := l.cur()
				if isDigit(c) || isLetter(c) || c == '.' {
					b = append(b, c)
					l.next()
					if (c == 'e' || c == 'E') && (l.cur() == '+' || l.cur() == '-') && !isHex(b) {
						b = append(b, l.cur())
						l.next()
					}
					continue
				}
				break
			}
			l.tokens = append(l.tokens, Token{Kind: Number, Text: string(b), Pos: p, Space: space})
			space = false
		default:
			p := l.pos()
			text := ""
			for _, s := range puncts {
				if l.matchPunct(s) {
					text = s
					break
				}
			}
			if text == "" {
				for i := 0; i < len(singlePuncts); i++ {
					if singlePuncts[i] == c {
						text = string(c)
						l.next()
						break
					}
				}
			}
			if text == "" {
				// Stray bytes are kept as one Other token; they are an error only
				// if they survive into the parsed text (skipped code may hold any bytes).
				var b []byte
				for l.off < len(l.src) && !isLetter(l.cur()) && !isDigit(l.cur()) && strings.IndexByte(singlePuncts+" \t\r\n\v\f", l.cur()) < 0 {
					b = append(b, l.cur())
					l.next()
				}
				if len(b) == 0 {
					b = append(b, l.cur())
					l.next()
				}
				l.tokens = append(l.tokens, Token{Kind: Other, Text: string(b), Pos: p, Space: space})
				space = false
				continue
			}
			l.tokens = append(l.tokens, Token{Kind: Punct, Text: text, Pos: p, Space: space})
			space = false
		}
	}
	l.tokens = append(l.tokens, Token{Kind: Newline, Pos: l.pos()}, Token{Kind: EOF, Pos: l.pos()})
}

func isHex(b []byte) bool { return len(b) > 1 && b[0] == '0' && (b[1]|0x20) == 'x' }

// matchPunct consumes s if it is next in the input (continuations allowed inside).
func (l *lexer) matchPunct(s string) bool {
	if l.cur() != s[0] {
		return false
	}
	save := *l
	for i := 0; i < len(s); i++ {
		if l.cur() != s[i] || l.off >= len(l.src) {
			l.off, l.line, l.col = save.off, save.line, save.col
			return false
		}
		l.next()
	}
	return true
}
