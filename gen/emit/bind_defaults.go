package emit

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/vllm-sr/systemone/gen/model"
	"github.com/vllm-sr/systemone/runtime/table"
)

// srgen's default member functions, as conversion-gen writes the default
// conversion and calls a hand-written function only where one exists. For
// every bound member of a shape the dispatch calls read<Level><Member>
// and write<Level><Member>; srgen writes each itself, beside the dispatch,
// unless the bind package declares a function of that name by hand.
//
// Why the hand-written function's name, not a spec key, decides: the
// judgement a hand-written binding holds (4.0's spellings, layout
// recording, borrowed values, block allocation, a failed answer's words)
// is Go, so the Go says where it is; a spec key would say it a second
// time, and could say it wrongly. What the spec does decide is the
// default itself: the member's JSON kind, with the IR field's Go type,
// picks the coder (bind_coders.go), and a kind its field cannot hold is
// no default. The IR field is the naming rule's (the member's Go
// CamelCase on the object the level's state binds, its first field);
// a member bound to a field of another name is a hand-written function.
//
// Three checks keep the rule honest. A bound member with neither a
// hand-written function nor a default is an error naming the function to
// write and why srgen cannot. A hand-written function whose body is the
// default srgen would write is an error too: a copy that needs no
// judgement is srgen's to write, so that a spec change to a plain member
// needs no hand edit. And a hand-written function that overrides a
// default must say why in its doc comment ("// read<Level><Member> ..."),
// so that a copy spelled differently from the default does not pass
// unexplained.

// memberSide is one of the four families of member functions.
type memberSide struct {
	request, read bool
}

// funcName is the member function's name by the convention.
func (sd memberSide) funcName(ident string) string {
	if sd.read {
		return "read" + ident
	}
	return "write" + ident
}

// state is the side's state type of a level: <level>Read or <level>Write.
func (sd memberSide) state(lower string) string {
	if sd.read {
		return lower + "Read"
	}
	return lower + "Write"
}

// defaults writes the default of each of the shape's bound member
// functions on side that the hand-written source lacks, and checks those
// it has; with no source (nil), nothing.
func (h *handSource) defaults(f *jen.File, l table.Level, members []bindMember, sd memberSide, vocabPath string) error {
	if h == nil {
		return nil
	}
	level, lower := string(l), bindLower(l)
	var errs []error
	for _, mem := range members {
		if mem.passive {
			continue
		}
		fn := sd.funcName(mem.ident)
		stmts, why := h.defaultStmts(level, lower, mem, sd, vocabPath)
		if hand, ok := h.funcs[fn]; ok {
			if stmts != nil {
				def, err := defaultBody(sd, stmts)
				if err != nil {
					return err
				}
				if def == hand {
					errs = append(errs, fmt.Errorf("%s member %q: the hand-written %s only does what srgen writes by default; delete it", level, mem.name, fn))
				} else if !strings.Contains(h.docs[fn], fn+" ") {
					errs = append(errs, fmt.Errorf("%s member %q: the hand-written %s overrides srgen's default and its doc comment does not say why (\"// %s ...\")", level, mem.name, fn, fn))
				}
			}
			continue
		}
		if stmts == nil {
			errs = append(errs, fmt.Errorf("%s member %q: srgen has no default for %s (%s): give the IR its field, or write the function by hand", level, mem.name, fn, why))
			continue
		}
		f.Line()
		fileComment(f, bindWrap(fmt.Sprintf("%s is srgen's default for %s.%s (%s): the hand-written source declares none.",
			fn, level, mem.name, kindNames(mem.typ))))
		f.Add(memberFunc(sd, lower, fn, append(stmts, returnNil(sd)...)))
	}
	return errors.Join(errs...)
}

func returnNil(sd memberSide) []jen.Code {
	if sd.read || sd.request {
		return []jen.Code{jen.Return(jen.Nil())}
	}
	return nil
}

// memberFunc declares one member function by the convention's signature.
func memberFunc(sd memberSide, lower, fn string, body []jen.Code) jen.Code {
	member := jen.Id("m").Op("*").Qual(jsonvaluePath, "Member")
	state := jen.Id("s").Op("*").Id(sd.state(lower))
	switch {
	case sd.request && sd.read:
		return jen.Func().Params(jen.Id("rd").Op("*").Id("Reader")).Id(fn).Params(state, member,
			jen.Id("lm").Op("*").Qual(irPath, "LayoutMember")).Error().Block(body...)
	case sd.request:
		return jen.Func().Params(jen.Id("w").Id("Writer")).Id(fn).Params(jen.Id("o").Op("*").Id("objectWriter"), state).Error().Block(body...)
	case sd.read:
		return jen.Func().Params(state).Id(fn).Params(member).Error().Block(body...)
	}
	return jen.Func().Params(jen.Id("w").Id("AnswerWriter")).Id(fn).Params(jen.Id("o").Op("*").Id("replyObject"), state).Block(body...)
}

// defaultStmts are the statements of the member's default function on
// side, or nil and why it has none.
func (h *handSource) defaultStmts(level, lower string, mem bindMember, sd memberSide, vocabPath string) ([]jen.Code, string) {
	state := sd.state(lower)
	stateField, object, ok := h.stateObject(state)
	if !ok {
		return nil, state + " binds no object: its first field is no struct the IR or the bind package declares"
	}
	camel := strings.TrimPrefix(mem.ident, vocabCamel(level))
	field, ok := h.boundField(object, camel)
	if !ok {
		return nil, fmt.Sprintf("%s has no field %s", object, camel)
	}
	in := coderInput{
		request:  sd.request,
		field:    func() *jen.Statement { return jen.Id("s").Dot(stateField).Dot(field.name) },
		name:     jen.Qual(vocabPath, mem.ident),
		class:    classOf(h, field.typ),
		spec:     mem.typ,
		required: mem.required,
		number:   h.methods[state]["number"],
		keyed:    keyedOf(h, field.typ),
	}
	var stmts []jen.Code
	if sd.read {
		stmts = in.readStmts()
	} else {
		stmts = in.writeStmts()
	}
	if stmts == nil {
		return nil, fmt.Sprintf("no default binds a %s member to %s.%s, a %s", kindNames(mem.typ), object, field.name, field.typ)
	}
	return stmts, ""
}

// defaultBody is the default's body printed as printBody prints a
// hand-written one, for comparing the two.
func defaultBody(sd memberSide, stmts []jen.Code) (string, error) {
	var b bytes.Buffer
	if err := jen.Func().Id("_").Params().Block(append(stmts, returnNil(sd)...)...).Render(&b); err != nil {
		return "", err
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "default.go", "package p\n"+b.String(), parser.SkipObjectResolution)
	if err != nil {
		return "", fmt.Errorf("a default member function is not Go: %w", err)
	}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			return printBody(fset, fd.Body), nil
		}
	}
	return "", nil
}

// kindNames are a type's JSON kinds in prose: "string", "object or array".
func kindNames(t model.Type) string {
	names := make([]string, len(t.Kinds))
	for i, k := range t.Kinds {
		names[i] = string(k)
	}
	if t.Nullable {
		names = append(names, "null")
	}
	return strings.Join(names, " or ")
}
