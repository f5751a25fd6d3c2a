package modelcheck

import (
	"unicode"
	"unicode/utf8"
)

// The tokenizer: a token is a maximal run of word runes (letters, digits
// and combining marks, so "café" and "naïve" are one token each), or any
// other single rune that is not white space (punctuation, symbols, each
// emoji code point). White space separates tokens and is no token. It
// stands in for a model's own tokenizer in every limit: it never depends
// on a vocabulary, so counts are the same everywhere.

// Token is one token of a text. Start and End are Unicode code point
// offsets, End exclusive; ByteStart and ByteEnd are the same bounds in
// bytes of the UTF-8 text.
type Token struct {
	Start, End         int
	ByteStart, ByteEnd int
	// Word: a run of word runes, not a punctuation or symbol token.
	Word bool
}

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)
}

// Tokens returns the tokens of text in order. Invalid UTF-8 bytes are
// each one symbol token.
func Tokens(text string) []Token {
	var out []Token
	scan(text, func(t Token) { out = append(out, t) })
	return out
}

// Count is len(Tokens(text)) without building the slice.
func Count(text string) int64 {
	var n int64
	scan(text, func(Token) { n++ })
	return n
}

// scan calls emit for each token of text in order.
func scan(text string, emit func(Token)) {
	cp := 0
	inWord := false
	var word Token
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case isWordRune(r):
			if !inWord {
				inWord = true
				word = Token{Start: cp, ByteStart: i, Word: true}
			}
		default:
			if inWord {
				word.End, word.ByteEnd = cp, i
				emit(word)
				inWord = false
			}
			if !unicode.IsSpace(r) {
				emit(Token{Start: cp, End: cp + 1, ByteStart: i, ByteEnd: i + size})
			}
		}
		i += size
		cp++
	}
	if inWord {
		word.End, word.ByteEnd = cp, len(text)
		emit(word)
	}
}

// Prefix returns the longest prefix of text that holds at most n tokens,
// cut at the end of its last token.
func Prefix(text string, n int64) string {
	if n <= 0 {
		return ""
	}
	end, count := 0, int64(0)
	scan(text, func(t Token) {
		if count < n {
			end = t.ByteEnd
			count++
		}
	})
	if count < n {
		return text
	}
	return text[:end]
}
