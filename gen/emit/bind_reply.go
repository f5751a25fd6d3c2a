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

// The reply half of the bind emitter: the member dispatch of the answer
// shapes (what a server answers with, which the Router reads from an
// upstream and writes to its client), into the same runtime package as the
// request shapes', in a file of its own (zz_generated.replybind.go). Its
// reader reads a reply the generated validators have checked, and its
// writer writes for every listener codec.

// replyShape is one answer shape: its level, and which halves of the
// binding it has: a reader for what the Router reads from an upstream, a
// writer for what a listener writes to a client.
type replyShape struct {
	level         table.Level
	read, written bool
}

// replyShapes are the answer shapes runtime/shapes binds, in the
// order the file declares them. vllm-sr/4.0's legacy error and list item
// are written to 4.0 clients and read from no upstream (no upstream speaks
// 4.0), so they have a writer alone. routing and routing_try are content
// the IR keeps whole (ir.Response.Routing); error_detail is the standard's
// object detail, which no writer of this repository writes and the
// readers take no word from: they are not shapes here. health is the
// GET /health reply a model runtime and a Router write, and the Router
// reads a deployment's for its api_version.
var replyShapes = []replyShape{
	{table.LevelResponse, true, true},
	{table.LevelBatchResponse, true, true},
	{table.LevelUsage, true, true},
	{table.LevelAnswer, true, true},
	{table.LevelBoxRegion, true, true},
	{table.LevelSpanItem, true, true},
	{table.LevelSetResult, true, true},
	{table.LevelError, true, true},
	{table.LevelLegacyError, false, true},
	{table.LevelValidationItem, true, true},
	{table.LevelListing, true, true},
	{table.LevelListingEntry, true, true},
	{table.LevelLegacyListItem, false, true},
	{table.LevelHealth, true, true},
}

// replyConvention is the reply file's statement of the naming convention
// its calls follow (also in runtime/shapes' doc.go).
const replyConvention = `For each shape <level>:

  - <level>Slots: its members in the order the writers write them (the
    extension spec's write_order, else message order), and
    <level>PassiveSlots the bits of its passive members' slots.
  - read<Level>Members: the reply reader's dispatch over one checked
    object's members, in body order. It reads only the members the
    hand-written gate (*<level>Read).takes(slot) admits (those the
    reply's schema defines there, on the answer's type), and returns the
    bits of the slots it read. A bound member calls
    func (s *<level>Read) read<Level><Member>(m *jsonvalue.Member) error
    and a passive member (passive: true in its spec) is appended to
    s.extra, in body order, which the hand-written caller keeps as the
    object's Extra (or drops, where a shape relays none). A member no
    spec defines there is left out: a vllm-sr validator refused it
    before, a systemone/0.2 one ignores it, and it is never relayed.
  - (AnswerWriter).write<Level>Slot: the writer's dispatch for one slot of
    <level>Slots. A bound member calls
    func (w AnswerWriter) write<Level><Member>(o *replyObject, s *<level>Write)
    and a passive member writes the object's Extra members of its name,
    unless the writer's Skip names it (a systemone/0.2 writer's does).
  - The member functions runtime/shapes does not declare by hand: srgen's
    default, as for the request shapes.

<Level><Member> is the member's generated/vocab constant, as for the
request shapes (answer.abstain_probability is AnswerAbstainProbability, so
readAnswerAbstainProbability). <level>Read and <level>Write are the
hand-written state of reading and writing one object. A bound member the
specs add needs its IR field and make generate, or hand-written functions
where it needs judgement; a passive one needs only the spec entry and make
generate.`

// bindReplies writes BindDir/zz_generated.replybind.go.
func (o Options) bindReplies(m *model.Model, ids []string, idents map[vocabMemberKey]vocabIdent, hand *handSource) (File, error) {
	f := newGoFile(o.BindPackage, path.Base(o.BindPackage), specPaths(m))
	vocabPath := o.GoPackage + "/vocab"
	f.ImportName(vocabPath, "vocab")
	f.ImportName(jsonvaluePath, "jsonvalue")
	fileComment(f, bindWrap("The member dispatch of the answer shapes (response, batch response, usage, answer, "+
		"box region, span item, set result, error, validation item, listing, listing entry, and vllm-sr/4.0's "+
		"legacy error and legacy list item, which are written alone, and health), written by srgen from every member the specifications define at each level, over "+
		"every schema this package reads, each with its own spellings: "+strings.Join(ids, ", ")+".")+"\n\n"+replyConvention)
	var unbound []error
	for _, rs := range replyShapes {
		shape := bindShape{level: rs.level, levels: []table.Level{rs.level}}
		members, err := bindMembers(m, shape, idents)
		if err != nil {
			return File{}, err
		}
		bindSlots(f, m, shape, members, vocabPath)
		replyPassive(f, shape, members)
		if rs.read {
			replyReader(f, shape, members, vocabPath)
		}
		if rs.written {
			bindWriter(f, replySlotWriter, shape, members, vocabPath)
		}
		for _, sd := range []memberSide{{read: true}, {read: false}} {
			if (sd.read && !rs.read) || (!sd.read && !rs.written) {
				continue
			}
			unbound = append(unbound, hand.defaults(f, rs.level, members, sd, vocabPath))
		}
	}
	if err := errors.Join(unbound...); err != nil {
		return File{}, err
	}
	return render(o.BindDir+"/zz_generated.replybind.go", f)
}

// replyPassive declares <level>PassiveSlots.
func replyPassive(f *jen.File, shape bindShape, members []bindMember) {
	var mask uint64
	for i, mem := range members {
		if mem.passive {
			mask |= 1 << i
		}
	}
	lower := bindLower(shape.level)
	f.Line()
	fileComment(f, bindWrap(fmt.Sprintf("%sPassiveSlots are the bits of the passive members' slots in %sSlots.", lower, lower)))
	f.Const().Id(lower + "PassiveSlots").Uint64().Op("=").Lit(int(mask))
}

// replyReader declares read<Level>Members.
func replyReader(f *jen.File, shape bindShape, members []bindMember, vocabPath string) {
	upper, lower := vocabCamel(string(shape.level)), bindLower(shape.level)
	cases := jen.Switch(jen.Id("m").Dot("Name")).BlockFunc(func(g *jen.Group) {
		for i, mem := range members {
			var call jen.Code
			if mem.passive {
				call = jen.Id("s").Dot("extra").Op("=").Append(jen.Id("s").Dot("extra"), jen.Op("*").Id("m"))
			} else {
				call = jen.Id("err").Op("=").Id("s").Dot("read" + mem.ident).Call(jen.Id("m"))
			}
			g.Case(jen.Qual(vocabPath, mem.ident)).Block(jen.Id("slot").Op("=").Lit(i), jen.If(jen.Op("!").Id("s").Dot("takes").Call(jen.Id("slot"))).Block(jen.Continue()), call)
		}
		g.Default().Block(jen.Continue())
	})
	f.Line()
	fileComment(f, bindWrap(fmt.Sprintf("read%sMembers reads the members of %s in body order, those s.takes admits: "+
		"each bound member by its read%s<Member>, each passive member into s.extra. It "+
		"returns the bits of the slots it read.", upper, bindObject(shape.level), upper)))
	f.Func().Id("read"+upper+"Members").Params(
		jen.Id("s").Op("*").Id(lower+"Read"),
		jen.Id("members").Index().Qual(jsonvaluePath, "Member"),
	).Params(jen.Id("read").Uint64(), jen.Err().Error()).Block(
		jen.For(jen.Id("i").Op(":=").Range().Id("members")).Block(
			jen.Id("m").Op(":=").Op("&").Id("members").Index(jen.Id("i")),
			jen.Var().Id("slot").Int(),
			cases,
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Id("read"), jen.Err())),
			jen.Id("read").Op("|=").Lit(1).Op("<<").Id("slot"),
		),
		jen.Return(jen.Id("read"), jen.Nil()),
	)
}
