package emit

import (
	"fmt"
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/vllm-sr/systemone/gen/model"
)

// maxRequired is how many members one object check may track (the required
// ones and those that excuse them): the generated code keeps them in one
// uint64 bit set.
const maxRequired = 64

// calleeFunc names the Go function that checks the object check named
// object of the schema being emitted. The object emitters never spell a
// callee themselves, so the same body can be rendered with the shapes'
// placeholders (to compare) and with their final names (to write).
type calleeFunc func(object string) string

// objectParams is the signature of every object function: the problems
// so far, the object's path and the object, which the caller has already
// checked is a JSON object.
func objectParams() []jen.Code {
	return []jen.Code{
		jen.Id("ps").Op("*").Qual(tablePackage, "Problems"),
		jen.Id("at").Op("*").Qual(tablePackage, "Path"),
		jen.Id("v").Qual(jsonPackage, "Value"),
	}
}

// objectBody writes the body of the function of one object check. It
// walks the members in document order with one switch, then reports
// missing required members. It depends on obj and callee only.
func objectBody(obj model.ObjectCheck, callee calleeFunc) ([]jen.Code, error) {
	var body []jen.Code
	if obj.Variants != nil {
		body = append(body, variantDispatch(obj.Variants, callee))
	}
	bits, err := trackedBits(obj)
	if err != nil {
		return nil, err
	}
	cases, err := memberCases(obj, bits, callee)
	if err != nil {
		return nil, err
	}
	if len(bits) > 0 {
		body = append(body, jen.Var().Id("seen").Uint64())
	}
	body = append(body, jen.For(jen.List(jen.Id("_"), jen.Id("m")).Op(":=").Range().Id("v").Dot("Members").Call()).Block(
		jen.If(jen.Id("ps").Dot("Full").Call()).Block(jen.Return()),
		jen.Id("here").Op(":=").Id("at").Dot("Member").Call(jen.Id("m").Dot("Name")),
		jen.Switch(jen.Id("m").Dot("Name")).Block(cases...),
	))
	for _, mc := range obj.Members {
		if !mc.Required {
			continue
		}
		mask := bits[mc.Name]
		for _, alt := range mc.RequiredUnless {
			mask |= bits[alt]
		}
		body = append(body, jen.If(jen.Id("seen").Op("&").Lit(mask).Op("==").Lit(0)).Block(
			problemCall(helperMissingMember, jen.Id("at"), jen.Lit(mc.Name)),
		))
	}
	return body, nil
}

// variantDispatch hands an object whose dispatching member names a
// variant to that variant's function; any other falls through to the
// generic members, which report the dispatching member's problem.
func variantDispatch(vc *model.VariantCheck, callee calleeFunc) jen.Code {
	dispatch := jen.Null()
	if vc.Present != "" {
		dispatch = jen.If(jen.List(jen.Id("_"), jen.Id("ok")).Op(":=").Id("v").Dot("Get").Call(jen.Lit(vc.Present)), jen.Id("ok")).Block(
			jen.Id(callee(vc.PresentObject)).Call(jen.Id("ps"), jen.Id("at"), jen.Id("v")),
			jen.Return(),
		).Line()
	}
	var cases []jen.Code
	for _, variant := range vc.Variants {
		cases = append(cases, jen.Case(jen.Id("isText").Call(jen.Id("d"), jen.Lit(variant.Value))).Block(
			jen.Id(callee(variant.Object)).Call(jen.Id("ps"), jen.Id("at"), jen.Id("v")),
			jen.Return(),
		))
	}
	return dispatch.If(jen.List(jen.Id("d"), jen.Id("ok")).Op(":=").Id("v").Dot("Get").Call(jen.Lit(vc.Member)), jen.Id("ok")).Block(
		jen.Switch().Block(cases...),
	)
}

// trackedBits gives each member whose presence the check must remember
// its bit, in member order: the required members and the members that
// excuse them.
func trackedBits(obj model.ObjectCheck) (map[string]uint64, error) {
	tracked := map[string]bool{}
	for _, mc := range obj.Members {
		if mc.Required {
			tracked[mc.Name] = true
			for _, alt := range mc.RequiredUnless {
				tracked[alt] = true
			}
		}
	}
	bits := map[string]uint64{}
	for _, mc := range obj.Members {
		if !tracked[mc.Name] {
			continue
		}
		if len(bits) == maxRequired {
			return nil, fmt.Errorf("object %s tracks more than %d members", obj.Name, maxRequired)
		}
		bits[mc.Name] = uint64(1) << len(bits)
	}
	// An excusing member the object does not allow is never present, so
	// it gets no bit and excuses nothing here.
	return bits, nil
}

// memberCases is the switch on member names: allowed members, removed
// forms, then everything else as unknown. A tracked member sets its bit.
func memberCases(obj model.ObjectCheck, bits map[string]uint64, callee calleeFunc) (cases []jen.Code, err error) {
	for _, mc := range obj.Members {
		var stmts []jen.Code
		if bit, ok := bits[mc.Name]; ok {
			stmts = append(stmts, jen.Id("seen").Op("|=").Lit(bit))
		}
		if !mc.Discriminator {
			check, err := valueStmts(callee, mc.Value, jen.Id("m").Dot("Value"), jen.Op("&").Id("here"), jen.Id("here"), 1)
			if err != nil {
				return nil, fmt.Errorf("member %s: %w", mc.Name, err)
			}
			stmts = append(stmts, check...)
		}
		cases = append(cases, jen.Case(jen.Lit(mc.Name)).Block(stmts...))
	}
	for _, rc := range obj.Removed {
		cases = append(cases, jen.Case(jen.Lit(rc.Name)).Block(
			addProblem(jen.Op("&").Id("here"), jen.Dict{
				jen.Id("Reason"):      reason("ReasonRemovedForm"),
				jen.Id("Member"):      jen.Id("m").Dot("Name"),
				jen.Id("Replacement"): jen.Lit(rc.Replacement),
			}),
		))
	}
	if !obj.Open {
		cases = append(cases, jen.Default().Block(
			problemCall(helperUnknownMember, jen.Op("&").Id("here"), jen.Id("m").Dot("Name")),
		))
	}
	return cases, nil
}

// valueStmts checks value x at path at: a *table.Path expression, whose
// addressable table.Path is recv (children are built with recv.Member).
// depth numbers the variables of nested loops so they never shadow.
func valueStmts(callee calleeFunc, vc model.ValueCheck, x, at, recv jen.Code, depth int) ([]jen.Code, error) {
	if len(vc.Kinds) == 0 {
		return nil, nil
	}
	var cases []jen.Code
	for _, kind := range caseKinds(vc.Kinds) {
		stmts, err := kindStmts(callee, vc, kind, x, at, recv, depth)
		if err != nil {
			return nil, err
		}
		cases = append(cases, jen.Case(jen.Qual(jsonPackage, jsonKind(kind))).Block(stmts...))
	}
	if vc.Nullable {
		cases = append(cases, jen.Case(jen.Qual(jsonPackage, "KindNull")))
	} else {
		cases = append(cases, jen.Case(jen.Qual(jsonPackage, "KindNull")).Block(
			problemCall(helperNullNotAllowed, at, jen.Lit(vc.Expected)),
		))
	}
	cases = append(cases, jen.Default().Block(problemCall(helperWrongType, at, jen.Lit(vc.Expected))))
	return []jen.Code{jen.Switch(jen.Add(x).Dot("Kind").Call()).Block(cases...)}, nil
}

// caseKinds folds integer into number when both are allowed, keeping order.
func caseKinds(kinds []model.Kind) []model.Kind {
	hasNumber := false
	for _, k := range kinds {
		hasNumber = hasNumber || k == model.KindNumber
	}
	var out []model.Kind
	for _, k := range kinds {
		if k == model.KindInteger && hasNumber {
			continue
		}
		out = append(out, k)
	}
	return out
}

func jsonKind(k model.Kind) string {
	switch k {
	case model.KindString:
		return "KindString"
	case model.KindNumber, model.KindInteger:
		return "KindNumber"
	case model.KindBoolean:
		return "KindBool"
	case model.KindArray:
		return "KindArray"
	}
	return "KindObject"
}

func kindStmts(callee calleeFunc, vc model.ValueCheck, kind model.Kind, x, at, recv jen.Code, depth int) ([]jen.Code, error) {
	switch kind {
	case model.KindString:
		return stringStmts(vc, x, at)
	case model.KindNumber, model.KindInteger:
		return numberStmts(vc, kind, x, at)
	case model.KindObject:
		return objectStmts(callee, vc, x, at, recv, depth)
	case model.KindArray:
		return arrayStmts(callee, vc, x, at, recv, depth)
	}
	return nil, nil
}

func stringStmts(vc model.ValueCheck, x, at jen.Code) ([]jen.Code, error) {
	if len(vc.Enum) == 0 {
		return nil, nil
	}
	var match *jen.Statement
	for _, e := range vc.Enum {
		for _, c := range e {
			if c == '\\' {
				return nil, fmt.Errorf("enum value %q holds a backslash", e)
			}
		}
		test := jen.Id("isText").Call(x, jen.Lit(e))
		if match == nil {
			match = test
		} else {
			match = match.Op("||").Add(test)
		}
	}
	return []jen.Code{jen.If(jen.Op("!").Parens(match)).Block(
		addProblem(at, jen.Dict{jen.Id("Reason"): reason("ReasonNotInEnum"), jen.Id("Expected"): jen.Lit(vc.ExpectedEnum)}),
	)}, nil
}

// numberStmts checks an integer literal or a finite number against the
// enum and bounds, as one if-else chain.
func numberStmts(vc model.ValueCheck, kind model.Kind, x, at jen.Code) ([]jen.Code, error) {
	integer := kind == model.KindInteger
	if !integer && len(vc.Enum) == 0 && vc.Minimum == nil && vc.Maximum == nil {
		return nil, nil
	}
	n, read := jen.Id("f"), "Float"
	if integer {
		n, read = jen.Id("n"), "Int"
	}
	bound := n
	if len(vc.Enum) == 0 && vc.Minimum == nil && vc.Maximum == nil {
		bound = jen.Id("_") // an integer with no other constraint
	}
	chain := jen.If(jen.List(bound, jen.Id("ok")).Op(":=").Add(x).Dot(read).Call(), jen.Op("!").Id("ok")).Block(
		problemCall(helperWrongType, at, jen.Lit(vc.Expected)),
	)
	if len(vc.Enum) > 0 {
		var none *jen.Statement
		for _, e := range vc.Enum {
			lit, err := numberLit(e, integer)
			if err != nil {
				return nil, err
			}
			test := jen.Add(n).Op("!=").Add(lit)
			if none == nil {
				none = test
			} else {
				none = none.Op("&&").Add(test)
			}
		}
		chain = chain.Else().If(none).Block(
			addProblem(at, jen.Dict{jen.Id("Reason"): reason("ReasonNotInEnum"), jen.Id("Expected"): jen.Lit(vc.ExpectedEnum)}),
		)
	}
	for _, bound := range []struct {
		limit  *float64
		op     string
		reason string
	}{{vc.Minimum, "<", "ReasonBelowMinimum"}, {vc.Maximum, ">", "ReasonAboveMaximum"}} {
		if bound.limit == nil {
			continue
		}
		limit := int64(*bound.limit)
		if float64(limit) != *bound.limit {
			return nil, fmt.Errorf("bound %v is not an integer", *bound.limit)
		}
		lit := jen.Lit(limit)
		if !integer {
			lit = jen.Lit(float64(limit))
		}
		chain = chain.Else().If(jen.Add(n).Op(bound.op).Add(lit)).Block(
			addProblem(at, jen.Dict{jen.Id("Reason"): reason(bound.reason), jen.Id("Limit"): jen.Lit(limit)}),
		)
	}
	return []jen.Code{chain}, nil
}

func numberLit(e string, integer bool) (jen.Code, error) {
	if integer {
		n, err := strconv.ParseInt(e, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("enum value %q is not an integer", e)
		}
		return jen.Lit(n), nil
	}
	f, err := strconv.ParseFloat(e, 64)
	if err != nil {
		return nil, fmt.Errorf("enum value %q is not a number", e)
	}
	return jen.Lit(f), nil
}

func objectStmts(callee calleeFunc, vc model.ValueCheck, x, at, recv jen.Code, depth int) ([]jen.Code, error) {
	stmts := countStmts(vc, x, at)
	if vc.Object != "" {
		stmts = append(stmts, jen.Id(callee(vc.Object)).Call(jen.Id("ps"), at, x))
	}
	if vc.Values == nil {
		return stmts, nil
	}
	m, here := jen.Id("m"+strconv.Itoa(depth)), jen.Id("at"+strconv.Itoa(depth))
	inner, err := valueStmts(callee, *vc.Values, jen.Add(m).Dot("Value"), jen.Op("&").Add(here), here, depth+1)
	if err != nil || len(inner) == 0 {
		return stmts, err
	}
	loop := append([]jen.Code{
		jen.If(jen.Id("ps").Dot("Full").Call()).Block(jen.Return()),
		jen.Add(here).Op(":=").Add(recv).Dot("Member").Call(jen.Add(m).Dot("Name")),
	}, inner...)
	return append(stmts, jen.For(jen.List(jen.Id("_"), m).Op(":=").Range().Add(x).Dot("Members").Call()).Block(loop...)), nil
}

func arrayStmts(callee calleeFunc, vc model.ValueCheck, x, at, recv jen.Code, depth int) ([]jen.Code, error) {
	stmts := countStmts(vc, x, at)
	if vc.Items == nil {
		return stmts, nil
	}
	i, item, here := jen.Id("i"+strconv.Itoa(depth)), jen.Id("item"+strconv.Itoa(depth)), jen.Id("at"+strconv.Itoa(depth))
	inner, err := valueStmts(callee, *vc.Items, item, jen.Op("&").Add(here), here, depth+1)
	if err != nil || len(inner) == 0 {
		return stmts, err
	}
	loop := append([]jen.Code{
		jen.If(jen.Id("ps").Dot("Full").Call()).Block(jen.Return()),
		jen.Add(here).Op(":=").Add(recv).Dot("Item").Call(i),
	}, inner...)
	return append(stmts, jen.For(jen.List(i, item).Op(":=").Range().Add(x).Dot("Items").Call()).Block(loop...)), nil
}

// countStmts bounds an object's members or an array's items.
func countStmts(vc model.ValueCheck, x, at jen.Code) []jen.Code {
	if vc.MinCount == nil && vc.MaxCount == nil {
		return nil
	}
	var chain *jen.Statement
	add := func(cond jen.Code, why string, limit int) {
		block := jen.Block(addProblem(at, jen.Dict{jen.Id("Reason"): reason(why), jen.Id("Limit"): jen.Lit(int64(limit))}))
		if chain == nil {
			chain = jen.If(jen.Id("n").Op(":=").Add(x).Dot("Len").Call(), cond).Add(block)
			return
		}
		chain = chain.Else().If(cond).Add(block)
	}
	if vc.MinCount != nil {
		add(jen.Id("n").Op("<").Lit(*vc.MinCount), "ReasonTooFew", *vc.MinCount)
	}
	if vc.MaxCount != nil {
		add(jen.Id("n").Op(">").Lit(*vc.MaxCount), "ReasonTooMany", *vc.MaxCount)
	}
	return []jen.Code{chain}
}

func addProblem(at jen.Code, fields jen.Dict) jen.Code {
	return jen.Id("ps").Dot("Add").Call(at, jen.Qual(tablePackage, "Problem").Values(fields))
}

func reason(name string) jen.Code { return jen.Qual(tablePackage, name) }
