package emit

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/vllm-sr/systemone/gen/model"
	"github.com/vllm-sr/systemone/runtime/table"
)

// The vocabulary's groups besides the members: paths, headers, limits,
// implicit roles, error codes and kinds, and reasons. Each reads one table
// of the model in its order.

// vocabPaths declares one constant per endpoint path, in endpoint order; a
// path several specifications or methods serve is one constant.
func vocabPaths(f *jen.File, m *model.Model, n *vocabNames) error {
	type pathInfo struct {
		methods []string
		schemas map[table.SchemaID]bool
	}
	var order []string
	info := map[string]*pathInfo{}
	for _, e := range m.Endpoints {
		p, ok := info[e.Path]
		if !ok {
			p = &pathInfo{schemas: map[table.SchemaID]bool{}}
			info[e.Path] = p
			order = append(order, e.Path)
		}
		if vocabIndexOf(p.methods, e.Method) < 0 {
			p.methods = append(p.methods, e.Method)
		}
		for _, s := range e.Schemas {
			p.schemas[s] = true
		}
	}
	var defs []jen.Code
	for _, path := range order {
		p := info[path]
		var served []string
		for _, s := range m.Schemas { // schema order, not map order
			if p.schemas[s.ID] {
				served = append(served, string(s.ID))
			}
		}
		ident, note := n.claim(vocabPathName(path), path)
		defs = append(defs, jen.Id(ident).Op("=").Lit(path).Comment(vocabComment(
			strings.Join(p.methods, ", "), "served by "+strings.Join(served, ", "), note)))
	}
	fileComment(f, "Path* are the endpoint paths of the three specifications, in endpoint order.")
	f.Const().Defs(defs...)
	return nil
}

func vocabIndexOf(xs []string, x string) int {
	for i, v := range xs {
		if v == x {
			return i
		}
	}
	return -1
}

// vocabHeaders declares the headers the standard's headers table names,
// spelled as the spec writes them; a header's symbol, when the spec gives
// one, names it instead of its own name.
func vocabHeaders(f *jen.File, m *model.Model, n *vocabNames) error {
	var defs []jen.Code
	for _, h := range m.Headers {
		word := h.Name
		if h.Symbol != "" {
			word = h.Symbol
		}
		ident, note := n.claim("Header"+vocabCamel(word), "the header "+h.Name)
		defs = append(defs, jen.Id(ident).Op("=").Lit(h.Name).Comment(vocabComment(h.Direction+" header", note)))
	}
	if len(defs) == 0 {
		return nil
	}
	fileComment(f, "Header* are the HTTP headers the standard names, spelled as it writes them\n(HTTP compares header names without regard to case).")
	f.Const().Defs(defs...)
	return nil
}

// vocabLimits declares each bound of each limit as an int64, as
// table.Limit holds it. A limit bounded only above is a cap and takes the
// limit's own name (LimitBodyBytes); otherwise each bound is named with
// Min or Max (LimitLevelsMin, LimitLevelsMax).
func vocabLimits(f *jen.File, m *model.Model, n *vocabNames) error {
	var defs []jen.Code
	for _, l := range m.Limits {
		if l.Min != nil && l.Max != nil && *l.Min > *l.Max {
			return fmt.Errorf("limit %q: min %d is above max %d", l.Name, *l.Min, *l.Max)
		}
		bound := func(ident string, v int64, side string) {
			ident, note := n.claim(ident, "the "+side+" of limit "+l.Name)
			stmt := jen.Id(ident).Int64().Op("=").Op(strconv.FormatInt(v, 10))
			defs = append(defs, vocabWithComment(stmt, vocabComment(l.Name+": the "+side+", in "+l.Unit, note)))
		}
		base := "Limit" + vocabCamel(l.Name)
		switch {
		case l.Min == nil && l.Max != nil:
			bound(base, *l.Max, "maximum")
		default:
			if l.Min != nil {
				bound(base+"Min", *l.Min, "minimum")
			}
			if l.Max != nil {
				bound(base+"Max", *l.Max, "maximum")
			}
		}
	}
	if len(defs) == 0 {
		return nil
	}
	fileComment(f, "Limit* are the bounds of vllm-sr's limits, inclusive, in the extension\nspecification's order.")
	f.Const().Defs(defs...)
	return nil
}

// vocabImplicitRoles declares 4.0's implicit roles: the part names, the
// roles (in the order the table first names them, then the default's),
// ImplicitRoleDefault and the ordered ImplicitRoles table.
func vocabImplicitRoles(f *jen.File, m *model.Model, n *vocabNames) error {
	roles := m.ImplicitRoles
	if roles.Default == "" {
		return fmt.Errorf("implicit roles: no default role")
	}
	roleIdent := map[string]string{}
	var roleDefs []jen.Code
	addRole := func(role string) {
		if _, ok := roleIdent[role]; ok {
			return
		}
		ident, note := n.claim("Role"+vocabCamel(role), "the role "+role)
		roleIdent[role] = ident
		var def string
		if role == roles.Default {
			def = "the default"
		}
		roleDefs = append(roleDefs, vocabWithComment(jen.Id(ident).Op("=").Lit(role), vocabComment(def, note)))
	}
	var partDefs, rows []jen.Code
	partSeen := map[string]bool{}
	for _, p := range roles.Parts {
		if partSeen[p.Key] {
			return fmt.Errorf("implicit roles: part %q appears twice", p.Key)
		}
		partSeen[p.Key] = true
		addRole(p.Role)
		ident, note := n.claim("Part"+vocabCamel(p.Key), "the part name "+p.Key)
		partDefs = append(partDefs, jen.Id(ident).Op("=").Lit(p.Key).Comment(vocabComment("implicitly "+p.Role, note)))
		rows = append(rows, structLit(pair{"Part", jen.Id(ident)}, pair{"Role", jen.Id(roleIdent[p.Role])}))
	}
	addRole(roles.Default)
	fileComment(f, "Part* are the Router part names 4.0 gives an implicit role: an object\nstate's key of that name, when the request sends no roles.")
	f.Const().Defs(partDefs...)
	fileComment(f, "Role* are the roles of 4.0's implicit roles.")
	f.Const().Defs(roleDefs...)
	fileComment(f, "ImplicitRoleDefault is the implicit role of a key that is no part name.")
	f.Const().Id("ImplicitRoleDefault").Op("=").Id(roleIdent[roles.Default])
	fileComment(f, "ImplicitRoles are 4.0's implicit roles, in the contract's order\n(x-implicit-roles), the only definition of them in the project.")
	f.Var().Id("ImplicitRoles").Op("=").Add(sliceLit(tableType("ImplicitRole"), rows))
	return nil
}

// vocabErrors declares the request error codes and the question error
// kinds, in the extension specification's order.
func vocabErrors(f *jen.File, m *model.Model, n *vocabNames) error {
	var codes, kinds []jen.Code
	for _, r := range m.RequestErrors {
		status := "the failed question's status"
		if r.Status != 0 {
			status = "status " + strconv.Itoa(r.Status)
		}
		ident, note := n.claim("Code"+vocabCamel(r.Code), "the request error code "+r.Code)
		codes = append(codes, jen.Id(ident).Op("=").Lit(r.Code).Comment(vocabComment(status, note)))
	}
	for _, q := range m.QuestionErrors {
		ident, note := n.claim("QuestionError"+vocabCamel(q.Kind), "the question error kind "+q.Kind)
		kinds = append(kinds, jen.Id(ident).Op("=").Lit(q.Kind).Comment(vocabComment("status "+strconv.Itoa(q.Status), note)))
	}
	if len(codes) > 0 {
		fileComment(f, "Code* are the request error codes (an error's code).")
		f.Const().Defs(codes...)
	}
	if len(kinds) > 0 {
		fileComment(f, "QuestionError* are the kinds of per-question failure (a failed answer's\nerror), with the status each answers POST /v1/systemone with.")
		f.Const().Defs(kinds...)
	}
	return nil
}

// vocabReasons declares the reason words, the ordered Reasons table and
// ReasonOf.
func vocabReasons(f *jen.File, m *model.Model, n *vocabNames) error {
	var defs, rows, replyRows []jen.Code
	keys := make([][]string, len(m.ErrorReasons))
	for i, r := range m.ErrorReasons {
		ident, note := n.claim("Reason"+vocabCamel(r.Reason), "the reason "+r.Reason)
		doc := r.Description
		if note != "" {
			doc += " (" + note + ")"
		}
		defs = append(defs, docComment(doc), jen.Id(ident).Op("=").Lit(r.Reason))
		rows = append(rows, structLit(pair{"Reason", jen.Id(ident)}, pair{"Description", jen.Lit(r.Description)},
			pair{"Kind", optStr(r.Kind)}, pair{"Code", optStr(r.Code)}, pair{"Status", optInt(r.Status)}, pair{"Unit", optStr(r.Unit)}))
		keys[i] = []string{r.Reason}
		for _, member := range r.Members {
			problems := make([]jen.Code, len(r.Problems))
			for j, p := range r.Problems {
				problems[j] = jen.Qual(tablePath, problemConst(p))
			}
			replyRows = append(replyRows, structLit(pair{"Member", jen.Index().String().ValuesFunc(func(g *jen.Group) {
				for _, seg := range member {
					g.Lit(seg)
				}
			})}, pair{"Problems", jen.Index().Add(tableType("ProblemReason")).Values(problems...)}, pair{"Reason", jen.Id(ident)}))
		}
	}
	fn, err := lookupFunc("ReasonOf returns the reason word's row of Reasons.", "ReasonOf",
		[]jen.Code{jen.Id("reason").String()}, jen.Id("reason"), tableType("ErrorReason"), "Reasons", keys)
	if err != nil {
		return err
	}
	if len(defs) > 0 {
		fileComment(f, "Reason* are the fixed words an error's or a failed answer's reason takes:\nwhy a request or a question was refused. A reason never carries request data.")
		f.Const().Defs(defs...)
	}
	fileComment(f, "Reasons are the reason words with what each means, in the extension\nspecification's order (error_reasons).")
	f.Var().Id("Reasons").Op("=").Add(sliceLit(tableType("ErrorReason"), rows))
	f.Add(fn)
	fileComment(f, "ReplyProblems say which reason word reports a reply validator's problem\nat a member (error_reasons' members and problems), in the specification's\norder; ReplyProblemOf looks one up.")
	f.Var().Id("ReplyProblems").Op("=").Add(sliceLit(tableType("ReplyProblem"), replyRows))
	f.Comment("ReplyProblemOf is the row of ReplyProblems that names problem p of the")
	f.Comment("member at path (unescaped segments) inside a value of level; false for none.")
	f.Func().Id("ReplyProblemOf").Params(jen.Id("level").Add(tableType("Level")), jen.Id("path").Index().String(), jen.Id("p").Add(tableType("ProblemReason"))).Params(tableType("ReplyProblem"), jen.Bool()).Block(
		jen.Return(jen.Qual(tablePath, "ReplyProblemOf").Call(jen.Id("ReplyProblems"), jen.Id("level"), jen.Id("path"), jen.Id("p"))),
	)
	return nil
}

// problemConst is the runtime/table constant of a validator problem word.
func problemConst(p table.ProblemReason) string {
	return "Reason" + vocabCamel(string(p))
}

// vocabFeatures declares the listing's feature words and Features, every
// one in the extension specification's order: the order a server lists
// a model's features in.
func vocabFeatures(f *jen.File, m *model.Model, n *vocabNames) error {
	if len(m.Features) == 0 {
		return nil
	}
	var defs, idents []jen.Code
	for _, ft := range m.Features {
		ident, note := n.claim("Feature"+vocabCamel(ft.Feature), "the feature "+ft.Feature)
		defs = append(defs, jen.Id(ident).Op("=").Lit(ft.Feature).Comment(vocabComment(ft.Stands, note)))
		idents = append(idents, jen.Id(ident))
	}
	fileComment(f, "Feature* are the words of a listing entry's features, which vllm-sr/auto\n"+
		"routes by: each the spec word it stands for.")
	f.Const().Defs(defs...)
	fileComment(f, "Features are the feature words in the extension specification's order,\n"+
		"the order a server lists a model's features in. Callers must not modify it.")
	f.Var().Id("Features").Op("=").Index().String().Values(idents...)
	return nil
}

// vocabAssetFormats declares AssetFormats: the file formats each asset
// type takes, by type, as the specification defining the type lists
// them (asset_type formats).
func vocabAssetFormats(f *jen.File, m *model.Model, _ *vocabNames) error {
	var entries []jen.Code
	for _, fd := range m.Fields {
		if fd.Level != table.LevelAssetType || len(fd.Formats) == 0 {
			continue
		}
		formats := make([]jen.Code, len(fd.Formats))
		for i, x := range fd.Formats {
			formats[i] = jen.Lit(x)
		}
		entries = append(entries, jen.Line().Lit(fd.Name).Op(":").Values(formats...))
	}
	if len(entries) == 0 {
		return nil
	}
	fileComment(f, "AssetFormats are the file formats each asset type takes, by asset type,\nin the order the specification that defines the type lists them.")
	f.Var().Id("AssetFormats").Op("=").Map(jen.String()).Index().String().Values(append(entries, jen.Line())...)
	return nil
}
