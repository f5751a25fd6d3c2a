package emit

import "github.com/dave/jennifer/jen"

// The fixed helpers every generated validator file holds: isText, and one
// function per problem the object checks repeat at almost every member
// (a null or wrongly typed value, an unknown or missing member). A check
// calls a helper in one line where it would otherwise spell the
// table.Problem literal; the helper records exactly that literal (same
// Reason and the same Expected or Member text), so problems are
// byte-identical to an inline ps.Add. They run only on an invalid body.

// The problem helpers' names, as the checks call them.
const (
	helperNullNotAllowed = "nullNotAllowed"
	helperWrongType      = "wrongType"
	helperUnknownMember  = "unknownMember"
	helperMissingMember  = "missingMember"
)

// problemCall is the one-line call of a problem helper at path at (a
// *table.Path expression) with its text argument.
func problemCall(helper string, at, arg jen.Code) jen.Code {
	return jen.Id(helper).Call(jen.Id("ps"), at, arg)
}

// writeHelpers writes the fixed helpers the checks call.
func writeHelpers(f *jen.File) {
	f.Comment("isText reports whether v is a JSON string whose text is s. An unescaped\n" +
		"string is compared in place, without allocating; s holds no backslash\n" +
		"(the emitter checks it), so an escaped string is decoded first.")
	f.Func().Id("isText").Params(jen.Id("v").Qual(jsonPackage, "Value"), jen.Id("s").String()).Bool().Block(
		jen.Id("raw").Op(":=").Id("v").Dot("Raw").Call(),
		jen.If(jen.Id("v").Dot("Kind").Call().Op("!=").Qual(jsonPackage, "KindString").Op("||").Len(jen.Id("raw")).Op("<").Lit(2)).Block(jen.Return(jen.False())),
		jen.If(jen.String().Call(jen.Id("raw").Index(jen.Lit(1), jen.Len(jen.Id("raw")).Op("-").Lit(1))).Op("==").Id("s")).Block(jen.Return(jen.True())),
		jen.For(jen.List(jen.Id("_"), jen.Id("c")).Op(":=").Range().Id("raw")).Block(
			jen.If(jen.Id("c").Op("==").LitRune('\\')).Block(jen.Return(jen.Id("v").Dot("Str").Call().Op("==").Id("s"))),
		),
		jen.Return(jen.False()),
	)
	for _, h := range []struct {
		name, doc, arg, field, reason string
	}{
		{helperNullNotAllowed, "records a not_allowed_null problem at at; expected names what the value may be.", "expected", "Expected", "ReasonNotAllowedNull"},
		{helperWrongType, "records a wrong_type problem at at; expected names what the value may be.", "expected", "Expected", "ReasonWrongType"},
		{helperUnknownMember, "records an unknown_member problem for member name, at at.", "name", "Member", "ReasonUnknownMember"},
	} {
		f.Commentf("%s %s", h.name, h.doc)
		f.Func().Id(h.name).Params(helperParams(h.arg)...).Block(
			addProblem(jen.Id("at"), jen.Dict{jen.Id("Reason"): reason(h.reason), jen.Id(h.field): jen.Id(h.arg)}),
		)
	}
	// A missing member has no value, so its path is built here, below
	// the object's path at.
	f.Commentf("%s records a missing_member problem for the required member name of\n"+
		"the object at at, at the path the member would have.", helperMissingMember)
	f.Func().Id(helperMissingMember).Params(helperParams("name")...).Block(
		jen.Id("missing").Op(":=").Id("at").Dot("Member").Call(jen.Id("name")),
		addProblem(jen.Op("&").Id("missing"), jen.Dict{jen.Id("Reason"): reason("ReasonMissingMember"), jen.Id("Member"): jen.Id("name")}),
	)
}

// helperParams is a problem helper's signature: the problems, the path
// and the one text the problem carries.
func helperParams(arg string) []jen.Code {
	return []jen.Code{
		jen.Id("ps").Op("*").Qual(tablePackage, "Problems"),
		jen.Id("at").Op("*").Qual(tablePackage, "Path"),
		jen.Id(arg).String(),
	}
}
