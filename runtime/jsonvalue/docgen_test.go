package jsonvalue

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"unicode/utf8"
)

// docGen writes pseudo-random, valid JSON documents (fixed seed, so every
// run writes the same ones): nested objects and arrays, strings with
// escapes of every form, control characters, U+007F, U+2028, non-ASCII and
// astral characters (raw and as surrogate-pair escapes), numbers of every
// shape, and random whitespace between tokens.
type docGen struct {
	rng *rand.Rand
	b   strings.Builder
}

func newDocGen(seed uint64) *docGen {
	return &docGen{rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

// doc returns the next document.
func (g *docGen) doc() []byte {
	g.b.Reset()
	g.space()
	g.value(0)
	g.space()
	return []byte(g.b.String())
}

func (g *docGen) space() {
	if g.rng.IntN(4) != 0 {
		return
	}
	for range g.rng.IntN(3) + 1 {
		g.b.WriteByte(" \t\n\r"[g.rng.IntN(4)])
	}
}

func (g *docGen) value(depth int) {
	limit := 9
	if depth >= 5 {
		limit = 7 // scalars only
	}
	switch g.rng.IntN(limit) {
	case 0, 1, 2:
		g.str()
	case 3, 4:
		g.number()
	case 5:
		g.b.WriteString([]string{"true", "false", "null"}[g.rng.IntN(3)])
	case 6:
		g.number()
	case 7:
		g.array(depth + 1)
	case 8:
		g.object(depth + 1)
	}
}

func (g *docGen) array(depth int) {
	g.b.WriteByte('[')
	n := g.rng.IntN(5)
	for i := range n {
		if i > 0 {
			g.b.WriteByte(',')
		}
		g.space()
		g.value(depth)
		g.space()
	}
	g.space()
	g.b.WriteByte(']')
}

func (g *docGen) object(depth int) {
	g.b.WriteByte('{')
	n := g.rng.IntN(6)
	if g.rng.IntN(8) == 0 {
		n = 16 + g.rng.IntN(20) // past linearLimit
	}
	for i := range n {
		if i > 0 {
			g.b.WriteByte(',')
		}
		g.space()
		// The index, escaped one way or another, keeps names unique.
		g.b.WriteByte('"')
		g.strBody(g.rng.IntN(4))
		g.b.WriteString("\\u00" + strconv.FormatInt(int64(0x30+i%10), 16) + "#" + strconv.Itoa(i))
		g.b.WriteByte('"')
		g.space()
		g.b.WriteByte(':')
		g.space()
		g.value(depth)
		g.space()
	}
	g.b.WriteByte('}')
}

func (g *docGen) str() {
	g.b.WriteByte('"')
	g.strBody(g.rng.IntN(12))
	g.b.WriteByte('"')
}

// strBody writes n characters of a string literal in assorted forms.
func (g *docGen) strBody(n int) {
	for range n {
		switch g.rng.IntN(12) {
		case 0:
			g.b.WriteString([]string{`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`}[g.rng.IntN(8)])
		case 1:
			g.escape(rune(g.rng.IntN(0x20))) // a control character
		case 2:
			g.escape([]rune{0x7f, 0x2028, 0x2029, 0xe9, 0xfeff, 0xfffd, '"', '\\', '/', 'A'}[g.rng.IntN(10)])
		case 3:
			g.escape(0x10000 + rune(g.rng.IntN(0x100000))) // a surrogate pair
		case 4:
			g.b.WriteRune([]rune{0x7f, 0x2028, 0x2029, 'é', '日', '😀', 0x10ffff, 0xfffd, 0x85, 0xa0}[g.rng.IntN(10)])
		case 5:
			r := rune(0x80 + g.rng.IntN(0x10ff80))
			if !utf8.ValidRune(r) {
				r = 'x'
			}
			g.b.WriteRune(r)
		default:
			c := byte(0x20 + g.rng.IntN(0x5f)) // printable ASCII
			if c == '"' || c == '\\' {
				g.b.WriteByte('\\')
			}
			g.b.WriteByte(c)
		}
	}
}

// escape writes r as a \u escape (a surrogate pair above U+FFFF), in lower
// or upper case hex.
func (g *docGen) escape(r rune) {
	write := func(u rune) {
		h := strconv.FormatInt(int64(u)|0x10000, 16)[1:]
		if g.rng.IntN(2) == 0 {
			h = strings.ToUpper(h)
		}
		g.b.WriteString(`\u` + h)
	}
	if r >= 0x10000 {
		r -= 0x10000
		write(0xD800 + r>>10)
		write(0xDC00 + r&0x3ff)
		return
	}
	write(r)
}

// fixedNumbers are literals whose Python rendering has a special shape.
var fixedNumbers = []string{
	"0", "-0", "1", "-1", "1.0", "-0.0", "0.0", "1e3", "1E3", "1e+3", "1E-7", "0.1", "0.5",
	"123456789.123456789", "1e16", "1e15", "9999999999999998", "1e-4", "1e-5", "0.0001",
	"0.00001", "1e400", "-1e400", "5e-324", "1e-400", "-1e-400", "2.5e-324", "1.7976931348623157e308",
	"1.7976931348623159e308", "4.9406564584124654e-324", "123456789012345678901234567890",
	"-98765432109876543210", "100", "1e22", "1e21", "1.5e300", "12345678901234567.0",
	"0.30000000000000004", "2e-7", "3.14159", "6.02214076e23", "1.0e0", "10E-1",
}

func (g *docGen) number() {
	switch g.rng.IntN(5) {
	case 0:
		g.b.WriteString(fixedNumbers[g.rng.IntN(len(fixedNumbers))])
	case 1:
		g.b.WriteString(strconv.FormatInt(g.rng.Int64()>>g.rng.IntN(63), 10))
	case 2: // a random float64, in some format Go writes
		f := math.Float64frombits(g.rng.Uint64())
		if math.IsNaN(f) || math.IsInf(f, 0) {
			f = 1.5
		}
		g.b.WriteString(strconv.FormatFloat(f, "eEfg"[g.rng.IntN(4)], -1, 64))
	case 3: // random digits with a random exponent
		g.b.WriteString(strconv.Itoa(1 + g.rng.IntN(9)))
		if g.rng.IntN(2) == 0 {
			g.b.WriteString("." + strconv.FormatUint(g.rng.Uint64()>>g.rng.IntN(60), 10))
		}
		g.b.WriteString("e" + strconv.Itoa(g.rng.IntN(700)-350))
	default: // a huge integer
		g.b.WriteString(strconv.Itoa(1 + g.rng.IntN(9)))
		for range g.rng.IntN(60) {
			g.b.WriteByte(byte('0' + g.rng.IntN(10)))
		}
	}
}
