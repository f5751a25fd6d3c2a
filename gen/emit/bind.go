package emit

import (
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/vllm-sr/systemone/gen/model"
	"github.com/vllm-sr/systemone/runtime/table"
)

// The bind emitter writes the member dispatch of the request shapes, and
// of the answer shapes (bind_reply.go), into the runtime package that
// binds them (Options.BindDir, runtime/shapes),
// as Kubernetes' conversion-gen writes zz_generated.conversion.go into the
// package it converts: the generated file follows that package's imports,
// and calls, for every member with runtime semantics, a function of a
// fixed name. srgen writes that function itself (bind_defaults.go) unless
// the package declares it by hand; a member the specs add that has
// neither a default nor a hand-written function is an error naming the
// function to write, and a passive member needs none.

const (
	irPath        = "github.com/vllm-sr/systemone/runtime/ir"
	jsonvaluePath = "github.com/vllm-sr/systemone/runtime/jsonvalue"
)

// bindShape is one request shape the binding dispatches: the level its
// functions are named after, and the levels whose members it reads (its
// own, and any whose body the same reader reads).
type bindShape struct {
	level  table.Level
	levels []table.Level
}

// bindShapes are the request shapes runtime/shapes binds, in the
// order the file declares them. The internal bundle (POST /v1/bundle) is
// validated as the internal form's batch and read by the batch's reader,
// so the batch's dispatch covers the bundle level's members too.
var bindShapes = []bindShape{
	{level: table.LevelRequest, levels: []table.Level{table.LevelRequest}},
	{level: table.LevelBatch, levels: []table.Level{table.LevelBatch, table.LevelBundle}},
	{level: table.LevelOptions, levels: []table.Level{table.LevelOptions}},
	{level: table.LevelQuestion, levels: []table.Level{table.LevelQuestion}},
	{level: table.LevelAsset, levels: []table.Level{table.LevelAsset}},
}

// bindMaxSlots bounds a shape's members: the writer marks the slots it has
// written in one uint64.
const bindMaxSlots = 64

// bindMember is one member of a shape: its name, its generated/vocab
// constant, whether it is passive, and, for srgen's default binding
// (bind_coders.go), its type and whether the canonical form requires it
// on every object of its level, both as the schema that ranks first in
// bindRank defines them.
type bindMember struct {
	name, ident string
	passive     bool
	typ         model.Type
	required    bool
	rank        int
}

// bindRank orders the schemas whose definition of a member the default
// binding follows: vllm-sr/5.0, the canonical form every writer writes
// first, then vllm-sr/4.0 (for its own members), then any other.
func bindRank(id table.SchemaID) int {
	switch id {
	case table.SchemaVllmSR50:
		return 0
	case table.SchemaVllmSR40:
		return 1
	}
	return 2
}

// bind writes BindDir/zz_generated.bind.go and zz_generated.replybind.go;
// nothing when BindDir is empty
// (a run that writes the generated packages alone, such as the emitter
// fixtures').
func (o Options) bind(m *model.Model) ([]File, error) {
	if o.BindDir == "" {
		return nil, nil
	}
	f := newGoFile(o.BindPackage, path.Base(o.BindPackage), specPaths(m))
	vocabPath := o.GoPackage + "/vocab"
	f.ImportName(vocabPath, "vocab")
	f.ImportName(irPath, "ir")
	f.ImportName(jsonvaluePath, "jsonvalue")
	ids := make([]string, len(m.Schemas))
	for i, s := range m.Schemas {
		ids[i] = string(s.ID)
	}
	fileComment(f, bindWrap("The member dispatch of the request shapes (request, batch and the internal bundle, "+
		"options, question, asset), written by srgen from every member the specifications define at each level, "+
		"over every schema this package reads, each with its own spellings: "+strings.Join(ids, ", ")+".")+"\n\n"+bindConvention)
	idents := vocabMemberIdents(m, newVocabNames(vocabReserved...))
	var hand *handSource
	if o.BindSource != nil {
		var err error
		if hand, err = readHandSource(o.BindSource, o.BindDir); err != nil {
			return nil, err
		}
	}
	var unbound []error // every member function neither srgen nor a hand writes, and every hand copy
	for _, shape := range bindShapes {
		members, err := bindMembers(m, shape, idents)
		if err != nil {
			return nil, err
		}
		bindSlots(f, m, shape, members, vocabPath)
		bindReader(f, shape, members, vocabPath)
		bindWriter(f, requestSlotWriter, shape, members, vocabPath)
		for _, read := range []bool{true, false} {
			unbound = append(unbound, hand.defaults(f, shape.level, members, memberSide{request: true, read: read}, vocabPath))
		}
	}
	file, err := render(o.BindDir+"/zz_generated.bind.go", f)
	if err != nil {
		return nil, err
	}
	replies, err := o.bindReplies(m, ids, idents, hand)
	if err := errors.Join(append(unbound, err)...); err != nil {
		return nil, err
	}
	return []File{file, replies}, nil
}

// bindConvention is the file's statement of the naming convention its
// calls follow (also in runtime/shapes' doc.go), after the
// paragraph naming the schemas.
const bindConvention = `For each shape <level>:

  - <level>Slots: its members in the order the writers write them (the
    extension spec's write_order, else message order).
  - (*Reader).read<Level>Members: the reader's dispatch over one object's
    members, in body order. A bound member calls
    func (rd *Reader) read<Level><Member>(s *<level>Read, m *jsonvalue.Member, lm *ir.LayoutMember) error
    and a passive member (passive: true in its spec) is appended to the
    object's Extra, as is any member no spec defines there (which the
    generated validators refuse before).
  - (Writer).write<Level>Slot: the writer's dispatch for one slot of
    <level>Slots. A bound member calls
    func (w Writer) write<Level><Member>(o *objectWriter, s *<level>Write) error
    and a passive member writes the object's Extra member of its name.
  - The member functions runtime/shapes does not declare by hand: srgen's
    default, which copies the member between JSON and the IR field its
    name gives on the object <level>Read's
    or <level>Write's first field binds, by the member's JSON kind.

<Level><Member> is the member's generated/vocab constant: Go CamelCase of
the spec's level and member names (question.decision_adapter is
QuestionDecisionAdapter, so readQuestionDecisionAdapter). <level>Read and
<level>Write are the hand-written state of reading and writing one object;
<level>Read's extra points at the object's Extra. A bound member the specs
add needs its IR field and make generate, or a hand-written function where
it needs judgement; a passive one needs only the spec entry and make
generate.`

// bindMembers are the shape's members over every schema's messages at its
// levels, in schema then message order, then ordered as the writers write
// them. A name two levels or schemas define is one member, whose constant
// is its first level's; it must be passive everywhere or nowhere.
func bindMembers(m *model.Model, shape bindShape, idents map[vocabMemberKey]vocabIdent) ([]bindMember, error) {
	var out []bindMember
	index := map[string]int{}
	for _, s := range m.Schemas {
		for _, msg := range s.Messages {
			if !containsLevel(shape.levels, msg.Level) {
				continue
			}
			for _, mem := range msg.Members {
				// A member required of some question types only is not on
				// every object of its level.
				required := mem.Required && len(mem.QuestionTypes) == 0
				if i, seen := index[mem.Name]; seen {
					if out[i].passive != mem.Passive {
						return nil, fmt.Errorf("%s member %q is passive at one level or schema and bound at another (%s at %s)", shape.level, mem.Name, s.ID, msg.Level)
					}
					if r := bindRank(s.ID); r < out[i].rank {
						out[i].typ, out[i].required, out[i].rank = mem.Type, required, r
					}
					continue
				}
				id, ok := idents[vocabMemberKey{msg.Level, mem.Name}]
				if !ok {
					return nil, fmt.Errorf("%s member %q has no vocabulary constant", msg.Level, mem.Name)
				}
				index[mem.Name] = len(out)
				out = append(out, bindMember{name: mem.Name, ident: id.ident, passive: mem.Passive,
					typ: mem.Type, required: required, rank: bindRank(s.ID)})
			}
		}
	}
	if len(out) > bindMaxSlots {
		return nil, fmt.Errorf("%s has %d members; the writer's binding holds at most %d", shape.level, len(out), bindMaxSlots)
	}
	return writeOrdered(m, shape.level, out), nil
}

func containsLevel(levels []table.Level, l table.Level) bool {
	for _, x := range levels {
		if x == l {
			return true
		}
	}
	return false
}

// writeOrdered puts the members the level's write_order names first, in
// its order, and the others after them in the order given.
func writeOrdered(m *model.Model, level table.Level, members []bindMember) []bindMember {
	for _, wo := range m.WriteOrder {
		if wo.Level != level {
			continue
		}
		out := make([]bindMember, 0, len(members))
		placed := map[string]bool{}
		for _, name := range wo.Members {
			for _, mem := range members {
				if mem.name == name && !placed[name] {
					placed[name] = true
					out = append(out, mem)
				}
			}
		}
		for _, mem := range members {
			if !placed[mem.name] {
				out = append(out, mem)
			}
		}
		return out
	}
	return members
}

// bindWriteOrderReason is why a level's slots are in their order.
func bindWriteOrderReason(m *model.Model, level table.Level) string {
	for _, wo := range m.WriteOrder {
		if wo.Level == level {
			return "the extension spec's write_order (" + strings.TrimSuffix(wo.Reason, ".") + ")."
		}
	}
	return "message order (the standard's members, then the extension set's, then 4.0's)."
}

func bindSlots(f *jen.File, m *model.Model, shape bindShape, members []bindMember, vocabPath string) {
	elems := make([]jen.Code, len(members))
	for i, mem := range members {
		kind := "bound"
		if mem.passive {
			kind = "passive"
		}
		elems[i] = jen.Qual(vocabPath, mem.ident).Op(",").Comment(kind)
	}
	lower := bindLower(shape.level)
	f.Line()
	fileComment(f, bindWrap(fmt.Sprintf("%sSlots are the members of %s in the order the writers write them, by %s",
		lower, bindObject(shape.level), bindWriteOrderReason(m, shape.level))))
	f.Var().Id(lower+"Slots").Op("=").Index().String().Custom(jen.Options{Open: "{", Close: "}", Multi: true}, elems...)
}

// bindReader declares (*Reader).read<Level>Members.
func bindReader(f *jen.File, shape bindShape, members []bindMember, vocabPath string) {
	upper, lower := vocabCamel(string(shape.level)), bindLower(shape.level)
	carry := jen.Op("*").Id("s").Dot("extra").Op("=").Id("rd").Dot("extra").Call(jen.Op("*").Id("s").Dot("extra"), jen.Id("m"))
	var passive []jen.Code
	cases := jen.Switch(jen.Id("m").Dot("Name")).BlockFunc(func(g *jen.Group) {
		for _, mem := range members {
			if mem.passive {
				passive = append(passive, jen.Qual(vocabPath, mem.ident))
				continue
			}
			g.Case(jen.Qual(vocabPath, mem.ident)).Block(
				jen.Id("err").Op("=").Id("rd").Dot("read"+mem.ident).Call(jen.Id("s"), jen.Id("m"), jen.Id("lm")))
		}
		if len(passive) > 0 {
			g.Case(passive...).Block(carry)
		}
		g.Default().Block(carry)
	})
	f.Line()
	fileComment(f, bindWrap(fmt.Sprintf("read%sMembers reads the members of %s in body order: each bound member "+
		"by its read%s<Member>, each passive member into the object's Extra.", upper, bindObject(shape.level), upper)))
	f.Func().Params(jen.Id("rd").Op("*").Id("Reader")).Id("read"+upper+"Members").Params(
		jen.Id("s").Op("*").Id(lower+"Read"),
		jen.Id("members").Index().Qual(jsonvaluePath, "Member"),
		jen.Id("rec").Op("*").Id("recorder"),
	).Error().Block(
		jen.For(jen.Id("i").Op(":=").Range().Id("members")).Block(
			jen.Id("m").Op(":=").Op("&").Id("members").Index(jen.Id("i")),
			jen.Id("lm").Op(":=").Id("rec").Dot("member").Call(jen.Id("m")),
			jen.Var().Id("err").Error(),
			cases,
			jen.If(jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Id("err"))),
			jen.Id("rec").Dot("done").Call(jen.Id("lm")),
		),
		jen.Return(jen.Nil()),
	)
}

// slotWriter is the writer side a slot dispatch is declared for: the
// request shapes' Writer, whose member writers return an error, or the
// answer shapes' AnswerWriter, whose never fail.
type slotWriter struct {
	recv, object string // the receiver type and the object writer it writes into
	fallible     bool
}

var (
	requestSlotWriter = slotWriter{recv: "Writer", object: "objectWriter", fallible: true}
	replySlotWriter   = slotWriter{recv: "AnswerWriter", object: "replyObject"}
)

// bindWriter declares (<recv>).write<Level>Slot.
func bindWriter(f *jen.File, sw slotWriter, shape bindShape, members []bindMember, vocabPath string) {
	upper, lower := vocabCamel(string(shape.level)), bindLower(shape.level)
	cases := jen.Switch(jen.Id("slot")).BlockFunc(func(g *jen.Group) {
		for i, mem := range members {
			if mem.passive {
				g.Case(jen.Lit(i)).Block(jen.Comment(mem.name+": passive"),
					jen.Id("o").Dot("extraNamed").Call(jen.Qual(vocabPath, mem.ident)))
				continue
			}
			call := jen.Id("w").Dot("write"+mem.ident).Call(jen.Id("o"), jen.Id("s"))
			if sw.fallible {
				call = jen.Return(call)
			}
			g.Case(jen.Lit(i)).Block(jen.Comment(mem.name), call)
		}
	})
	f.Line()
	fileComment(f, bindWrap(fmt.Sprintf("write%sSlot writes the member %sSlots[slot] of %s: a bound member by its "+
		"write%s<Member>, a passive member from the object's Extra.", upper, lower, bindObject(shape.level), upper)))
	fn := f.Func().Params(jen.Id("w").Id(sw.recv)).Id("write"+upper+"Slot").Params(
		jen.Id("o").Op("*").Id(sw.object),
		jen.Id("s").Op("*").Id(lower+"Write"),
		jen.Id("slot").Int(),
	)
	if sw.fallible {
		fn.Error().Block(cases, jen.Return(jen.Nil()))
		return
	}
	fn.Block(cases)
}

// bindObject names one object of a level in prose: "a request", "an
// options object".
func bindObject(l table.Level) string {
	name := strings.ReplaceAll(string(l), "_", " ")
	if strings.HasSuffix(name, "s") {
		name += " object"
	}
	if strings.ContainsRune("aeiou", rune(name[0])) {
		return "an " + name
	}
	return "a " + name
}

// bindLower is a level's name in lower camel case: request, noulCriteria.
func bindLower(l table.Level) string {
	upper := vocabCamel(string(l))
	return strings.ToLower(upper[:1]) + upper[1:]
}

// bindWrap breaks text into comment lines of at most 76 characters.
func bindWrap(text string) string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && len(line)+1+len(w) > 76 {
			lines = append(lines, line)
			line = w
			continue
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	return strings.Join(append(lines, line), "\n")
}
