package jsonvalue

import (
	"bytes"
	"errors"
	"io"

	"github.com/go-json-experiment/json/jsontext"
)

// decodeJSONText is the decoder first written on jsontext (strict by
// default: duplicate names and invalid UTF-8, escaped lone surrogates
// included, are refused). It lost the benchmark to the hand-written scanner
// (docs/performance.md, section jsonvalue) and is kept only as that
// benchmark's baseline and as a cross-check in the tests: it builds the same
// Values, aliasing the input the same way, with the same one allocation per
// container.
func decodeJSONText(data []byte, maxDepth int) (Value, error) {
	b := jsontextBuilder{
		dec:      jsontext.NewDecoder(bytes.NewBuffer(data)),
		data:     data,
		text:     string(data),
		maxDepth: maxDepth,
	}
	v, err := b.value()
	if err != nil {
		return Value{}, err
	}
	if _, err := b.dec.ReadToken(); err != io.EOF {
		return Value{}, errTrailingJSONText
	}
	return v, nil
}

var (
	errTrailingJSONText = errors.New("jsontext baseline: data after the value")
	errTooDeepJSONText  = errors.New("jsontext baseline: nesting deeper than the limit")
)

type jsontextBuilder struct {
	dec      *jsontext.Decoder
	data     []byte
	text     string
	maxDepth int
	members  []Member
	items    []Value
}

// raw reads the next scalar or name and returns its bytes in the input.
func (b *jsontextBuilder) raw() ([]byte, error) {
	v, err := b.dec.ReadValue()
	if err != nil {
		return nil, err
	}
	end := int(b.dec.InputOffset())
	return b.data[end-len(v) : end], nil
}

func (b *jsontextBuilder) value() (Value, error) {
	switch kind := b.dec.PeekKind(); kind {
	case '{':
		return b.object()
	case '[':
		return b.array()
	case 'n', 't', 'f', '"', '0':
		raw, err := b.raw()
		if err != nil {
			return Value{}, err
		}
		return scalarOf(raw), nil
	default:
		_, err := b.dec.ReadToken()
		return Value{}, err
	}
}

func (b *jsontextBuilder) object() (Value, error) {
	if _, err := b.dec.ReadToken(); err != nil {
		return Value{}, err
	}
	if b.dec.StackDepth() > b.maxDepth {
		return Value{}, errTooDeepJSONText
	}
	base := len(b.members)
	for b.dec.PeekKind() == '"' {
		rawName, err := b.raw()
		if err != nil {
			return Value{}, err
		}
		var name string
		if bytes.IndexByte(rawName, '\\') >= 0 {
			name = unquote(rawName)
		} else {
			end := int(b.dec.InputOffset())
			name = b.text[end-len(rawName)+1 : end-1]
		}
		v, err := b.value()
		if err != nil {
			return Value{}, err
		}
		b.members = append(b.members, MemberWithRawName(name, rawName, v))
	}
	if _, err := b.dec.ReadToken(); err != nil {
		return Value{}, err
	}
	members := make([]Member, len(b.members)-base)
	copy(members, b.members[base:])
	b.members = b.members[:base]
	return Value{c: &container{members: members}}, nil
}

func (b *jsontextBuilder) array() (Value, error) {
	if _, err := b.dec.ReadToken(); err != nil {
		return Value{}, err
	}
	if b.dec.StackDepth() > b.maxDepth {
		return Value{}, errTooDeepJSONText
	}
	base := len(b.items)
	for b.dec.PeekKind() != ']' {
		v, err := b.value()
		if err != nil {
			return Value{}, err
		}
		b.items = append(b.items, v)
	}
	if _, err := b.dec.ReadToken(); err != nil {
		return Value{}, err
	}
	items := make([]Value, len(b.items)-base)
	copy(items, b.items[base:])
	b.items = b.items[:base]
	return Value{c: &container{items: items}}, nil
}
