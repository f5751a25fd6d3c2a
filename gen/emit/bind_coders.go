package emit

import (
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/vllm-sr/systemone/gen/model"
)

// The closed table of srgen's default member bindings, as protobuf-go
// picks a coder from a closed table of kinds: one per Go type of an IR
// field and JSON kind of the member the spec states. Each keeps what the
// hand-written copies it replaced did, to the byte:
//
//   - A request member is read with the Reader's layout-recording
//     helpers (text, integer, number, boolPtr: the internal form writes
//     the spelling back), its value kept (Reader.keep) when it is JSON
//     content, and written with the Writer's append<Kind>Member, which
//     writes nothing for nil. Only pointer fields and content have a
//     default there: a request member may be absent, and a zero is not
//     absence.
//   - A reply member is read from a checked value (its kind and range
//     hold: the reader checks nothing) and written by AnswerWriter: a
//     pointer, slice or content only when present, a string the
//     canonical form does not require only when not empty, and a number,
//     a boolean and a required string always.
//
// The reply coders also bind an object of scalars keyed by name to a
// keyed list (keyedList), read with readKeyed and written with writeKeyed.
//
// A member whose field has no coder here, or whose spec kind does not
// match its field's type (a number member bound to a string field), has
// no default: its function is written by hand, and srgen says so when
// none is.

// goClass is an IR field's Go type as the coders see it: pointer or not,
// and its base type, with a defined string type ("ir.Coverage") as
// "~string" and its name in named.
type goClass struct {
	ptr         bool
	base, named string
}

func classOf(h *handSource, typ string) goClass {
	c := goClass{base: typ}
	if strings.HasPrefix(typ, "*") {
		c.ptr, c.base = true, typ[1:]
	}
	if h.underlying[c.base] == "string" {
		c.named, c.base = c.base, "~string"
	}
	return c
}

// coderInput is one member function to write by default.
type coderInput struct {
	request  bool                  // the request shapes' Reader and Writer, else the reply shapes'
	field    func() *jen.Statement // s.<state field>.<IR field>, fresh each call
	name     jen.Code              // the member's vocab constant
	class    goClass
	spec     model.Type
	required bool // the canonical form requires the member on every object of its level
	// number: the reply state has a number method, which gives a *float64
	// room shared with the object's other numbers.
	number bool
	// keyed: the field is a keyed list (keyedOf), else nil.
	keyed *keyedList
}

// keyedList is an IR field of type []T, T a struct of two fields: a string
// key and a scalar value. It binds an object of scalars (response.thresholds:
// question name to number is []ir.QuestionThreshold{Question, Threshold}),
// in the object's order.
type keyedList struct {
	elem       string // T: "ir.QuestionThreshold"
	key, value string // its fields' names
	class      goClass
}

// keyedOf is the keyed list a field of Go type typ is, if it is one.
func keyedOf(h *handSource, typ string) *keyedList {
	elem, ok := strings.CutPrefix(typ, "[]")
	if !ok {
		return nil
	}
	st, ok := h.structs[elem]
	if !ok || len(st.fields) != 2 || st.fields[0].typ != "string" {
		return nil
	}
	c := classOf(h, st.fields[1].typ)
	if _, scalar := scalarKind(c.base); !scalar || c.ptr {
		return nil
	}
	return &keyedList{elem: elem, key: st.fields[0].name, value: st.fields[1].name, class: c}
}

// elemType is the Go expression of the keyed list's element type.
func (k *keyedList) elemType() jen.Code {
	return goClass{named: k.elem}.namedType()
}

// kinds reports whether t allows exactly the JSON kinds ks, never null.
func kinds(t model.Type, ks ...model.Kind) bool {
	return !t.Nullable && slices.Equal(t.Kinds, ks)
}

// namedType is the Go expression of a defined string type.
func (c goClass) namedType() jen.Code {
	if pkg, name, ok := strings.Cut(c.named, "."); ok && pkg == "ir" {
		return jen.Qual(irPath, name)
	}
	return jen.Id(c.named)
}

// scalarKind is the JSON kind a scalar base type binds.
func scalarKind(base string) (model.Kind, bool) {
	switch base {
	case "string", "~string":
		return model.KindString, true
	case "float64":
		return model.KindNumber, true
	case "int64":
		return model.KindInteger, true
	case "bool":
		return model.KindBoolean, true
	}
	return "", false
}

// matches reports whether the member's spec type fits the field's Go type.
func (in coderInput) matches() bool {
	c := in.class
	if k, scalar := scalarKind(c.base); scalar {
		return kinds(in.spec, k)
	}
	switch c.base {
	case "jsonvalue.Value":
		return !c.ptr
	case "[]string":
		return !c.ptr && kinds(in.spec, model.KindArray) && in.spec.Items != nil && kinds(*in.spec.Items, model.KindString)
	case "[]ir.Probability":
		return !c.ptr && kinds(in.spec, model.KindObject) && in.spec.Values != nil && kinds(*in.spec.Values, model.KindNumber)
	case "[]jsonvalue.Member":
		return !c.ptr && kinds(in.spec, model.KindObject)
	}
	if k := in.keyed; k != nil && !c.ptr {
		vk, _ := scalarKind(k.class.base)
		return kinds(in.spec, model.KindObject) && in.spec.Values != nil && kinds(*in.spec.Values, vk)
	}
	return false
}

// readStmts are the statements of a default read, or nil when the member
// has none.
func (in coderInput) readStmts() []jen.Code {
	if !in.matches() {
		return nil
	}
	v := func() *jen.Statement { return jen.Id("m").Dot("Value") }
	set := func(x jen.Code) []jen.Code { return []jen.Code{in.field().Op("=").Add(x)} }
	c := in.class
	if in.request {
		lm := jen.Id("lm")
		switch {
		case c.base == "jsonvalue.Value":
			return set(jen.Id("rd").Dot("keep").Call(v()))
		case !c.ptr:
			return nil
		case c.base == "string":
			return set(jen.Id("rd").Dot("text").Call(v(), lm))
		case c.base == "~string":
			return set(jen.Parens(jen.Op("*").Add(c.namedType())).Call(jen.Id("rd").Dot("text").Call(v(), lm)))
		case c.base == "bool":
			return set(jen.Id("boolPtr").Call(v()))
		case c.base == "float64":
			return set(jen.Id("rd").Dot("number").Call(v(), lm))
		case c.base == "int64":
			return []jen.Code{jen.Id("n").Op(":=").Id("rd").Dot("integer").Call(v(), lm), in.field().Op("=").Op("&").Id("n")}
		}
		return nil
	}
	switch c.base {
	case "jsonvalue.Value":
		return set(v())
	case "[]string":
		return set(jen.Id("stringList").Call(v()))
	case "[]ir.Probability":
		return set(jen.Id("probabilityList").Call(v()))
	case "[]jsonvalue.Member":
		return set(jen.Append(jen.Index().Qual(jsonvaluePath, "Member").Values(), v().Dot("Members").Call().Op("...")))
	}
	if k := in.keyed; k != nil {
		return set(jen.Id("readKeyed").Call(v(), jen.Func().Params(jen.Id("key").String(), jen.Id("x").Qual(jsonvaluePath, "Value")).Add(k.elemType()).Block(
			append(scalarValue(k.class, jen.Id("x")), jen.Return(jen.Add(k.elemType()).Values(jen.Dict{jen.Id(k.key): jen.Id("key"), jen.Id(k.value): jen.Id("value")})))...)))
	}
	var get *jen.Statement
	switch c.base {
	case "string":
		get = v().Dot("Str").Call()
	case "~string":
		get = jen.Add(c.namedType()).Call(v().Dot("Str").Call())
	case "bool":
		get = v().Dot("Bool").Call()
	case "float64":
		if c.ptr && in.number {
			return set(jen.Id("s").Dot("number").Call(v()))
		}
		if !c.ptr {
			return []jen.Code{in.field().Op(",").Id("_").Op("=").Add(v().Dot("Float").Call())}
		}
		return []jen.Code{jen.List(jen.Id("f"), jen.Id("_")).Op(":=").Add(v().Dot("Float").Call()), in.field().Op("=").Op("&").Id("f")}
	case "int64":
		if !c.ptr {
			return []jen.Code{in.field().Op(",").Id("_").Op("=").Add(v().Dot("Int").Call())}
		}
		return []jen.Code{jen.List(jen.Id("n"), jen.Id("_")).Op(":=").Add(v().Dot("Int").Call()), in.field().Op("=").Op("&").Id("n")}
	}
	if c.ptr {
		return set(jen.New(get))
	}
	return set(get)
}

// writeStmts are the statements of a default write, or nil when the
// member has none.
func (in coderInput) writeStmts() []jen.Code {
	if !in.matches() {
		return nil
	}
	c := in.class
	if in.request {
		helper := map[string]string{"string": "appendStringMember", "~string": "appendStringMember",
			"bool": "appendBoolMember", "int64": "appendIntMember", "float64": "appendFloatMember"}[c.base]
		switch {
		case c.base == "jsonvalue.Value":
			return []jen.Code{jen.If(in.field().Dot("IsValid").Call()).Block(
				jen.Id("o").Dot("name").Call(in.name),
				jen.Id("o").Dot("Dst").Op("=").Qual(jsonvaluePath, "AppendCompact").Call(jen.Id("o").Dot("Dst"), in.field()))}
		case !c.ptr || helper == "":
			return nil
		case c.base == "~string":
			return []jen.Code{jen.Id(helper).Call(jen.Id("o"), in.name, jen.Parens(jen.Op("*").String()).Call(in.field()))}
		}
		return []jen.Code{jen.Id(helper).Call(jen.Id("o"), in.name, in.field())}
	}
	o := func() *jen.Statement { return jen.Id("o") }
	named := func() []jen.Code { return []jen.Code{o().Dot("Name").Call(in.name)} }
	appendTo := func(x jen.Code) jen.Code { return o().Dot("Dst").Op("=").Add(x) }
	present := func(body ...jen.Code) []jen.Code { return []jen.Code{jen.If(in.field().Op("!=").Nil()).Block(body...)} }
	value := in.field
	if c.ptr {
		value = func() *jen.Statement { return jen.Op("*").Add(in.field()) }
	}
	var whole []jen.Code // name: value
	switch c.base {
	case "jsonvalue.Value":
		return []jen.Code{o().Dot("content").Call(in.name, in.field())}
	case "string", "~string":
		str := value()
		if c.base == "~string" {
			str = jen.String().Call(value())
		}
		if !c.ptr && !in.required {
			return []jen.Code{jen.Id("writeNonEmpty").Call(o(), in.name, str)}
		}
		whole = []jen.Code{o().Dot("str").Call(in.name, str)}
	case "float64":
		if c.ptr {
			return []jen.Code{jen.Id("writeNumber").Call(o(), in.name, in.field())}
		}
		whole = []jen.Code{o().Dot("float").Call(in.name, value())}
	case "int64":
		whole = append(named(), appendTo(jen.Id("appendInt").Call(o().Dot("Dst"), value())))
	case "bool":
		whole = append(named(), appendTo(jen.Qual("strconv", "AppendBool").Call(o().Dot("Dst"), value())))
	case "[]string":
		whole = append(named(), appendTo(jen.Id("appendStrings").Call(o().Dot("Dst"), value())))
	case "[]ir.Probability":
		whole = append(named(), appendTo(jen.Id("appendProbabilities").Call(o().Dot("Dst"), value(), jen.Op("&").Add(o()).Dot("finite"))))
	case "[]jsonvalue.Member":
		whole = append(named(), appendTo(jen.Id("Writer").Values().Dot("appendMembers").Call(o().Dot("Dst"), value())))
	default:
		if k := in.keyed; k != nil && !in.required {
			item := func() jen.Code { return jen.Id("item").Op("*").Add(k.elemType()) }
			return []jen.Code{jen.Id("writeKeyed").Call(o(), in.name, in.field(),
				jen.Func().Params(item()).String().Block(jen.Return(jen.Id("item").Dot(k.key))),
				jen.Func().Params(jen.Id("dst").Index().Byte(), item()).Index().Byte().Block(
					jen.Return(appendScalar(k.class, jen.Id("dst"), jen.Id("item").Dot(k.value)))))}
		}
		return nil
	}
	switch {
	case c.ptr || (strings.HasPrefix(c.base, "[]") && !in.required):
		return present(whole...)
	case !in.required:
		return nil // a zero number or boolean is no absence
	}
	return whole
}

// scalarValue reads the checked scalar x into a new variable value of
// class c's type.
func scalarValue(c goClass, x *jen.Statement) []jen.Code {
	value := jen.Id("value")
	switch c.base {
	case "string":
		return []jen.Code{value.Op(":=").Add(x).Dot("Str").Call()}
	case "~string":
		return []jen.Code{value.Op(":=").Add(c.namedType()).Call(jen.Add(x).Dot("Str").Call())}
	case "bool":
		return []jen.Code{value.Op(":=").Add(x).Dot("Bool").Call()}
	case "float64":
		return []jen.Code{jen.List(value, jen.Id("_")).Op(":=").Add(x).Dot("Float").Call()}
	}
	return []jen.Code{jen.List(value, jen.Id("_")).Op(":=").Add(x).Dot("Int").Call()}
}

// appendScalar appends the JSON of v, of class c, to dst; a number JSON
// cannot carry clears the object's finite flag (appendFloat).
func appendScalar(c goClass, dst, v jen.Code) jen.Code {
	switch c.base {
	case "string":
		return jen.Qual(jsonvaluePath, "AppendString").Call(dst, v)
	case "~string":
		return jen.Qual(jsonvaluePath, "AppendString").Call(dst, jen.String().Call(v))
	case "bool":
		return jen.Qual("strconv", "AppendBool").Call(dst, v)
	case "float64":
		return jen.Id("appendFloat").Call(dst, v, jen.Op("&").Id("o").Dot("finite"))
	}
	return jen.Id("appendInt").Call(dst, v)
}
