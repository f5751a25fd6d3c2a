package gen

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/generated/fieldtable"
	"github.com/vllm-sr/systemone/generated/validate"
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

var vocabSchemas = []table.SchemaID{table.SchemaStandard02, table.SchemaVllmSR50, table.SchemaVllmSR40, table.SchemaInternal}

// vocabFieldNames are the names every specification defines at each level, the
// candidates a member list chooses from.
func vocabFieldNames() map[table.Level][]string {
	out := map[table.Level][]string{}
	for _, f := range fieldtable.Fields {
		if !slices.Contains(out[f.Level], f.Name) {
			out[f.Level] = append(out[f.Level], f.Name)
		}
	}
	return out
}

func vocabMemberNames(ms []table.Member) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Name
	}
	return out
}

// TestVocabMembersAgreeWithKnown: for every schema and level, MembersOf
// lists exactly the names fieldtable.Known accepts, once each, with the
// disposition and definer of the field that defines it.
func TestVocabMembersAgreeWithKnown(t *testing.T) {
	listed := 0
	for _, schema := range vocabSchemas {
		for level, candidates := range vocabFieldNames() {
			members := vocab.MembersOf(schema, level)
			names := vocabMemberNames(members)
			for _, name := range candidates {
				if known, in := fieldtable.Known(schema, level, name), slices.Contains(names, name); known != in {
					t.Errorf("%s %s.%s: Known %v, listed %v", schema, level, name, known, in)
				}
			}
			for _, m := range members {
				listed++
				if n := len(slices.DeleteFunc(slices.Clone(names), func(x string) bool { return x != m.Name })); n != 1 {
					t.Errorf("%s %s.%s listed %d times", schema, level, m.Name, n)
				}
				f, ok := fieldtable.FieldOf(m.DefinedBy, level, m.Name)
				if !ok {
					t.Errorf("%s %s.%s: %s defines no such field", schema, level, m.Name, m.DefinedBy)
					continue
				}
				if f.Disposition != m.Disposition {
					t.Errorf("%s %s.%s: disposition %s, the field's is %s", schema, level, m.Name, m.Disposition, f.Disposition)
				}
				if m.Removed && schema != table.SchemaVllmSR40 && schema != table.SchemaInternal {
					t.Errorf("%s %s.%s: a removed form listed outside vllm-sr/4.0 and internal", schema, level, m.Name)
				}
			}
		}
	}
	for _, lm := range vocab.Members {
		if got := vocab.MembersOf(lm.Schema, lm.Level); len(got) != len(lm.Members) || (len(got) > 0 && &got[0] != &lm.Members[0]) {
			t.Errorf("MembersOf(%s, %s) is not its row of Members", lm.Schema, lm.Level)
		}
	}
	if listed < 300 {
		t.Fatalf("only %d members listed across the schemas", listed)
	}
}

// memberProbe places a member, set to null, in a body the validators read:
// at a level of a request or a batch, with its path. question is the type
// of the question the member sits in (a member may apply to some types
// only).
type memberProbe struct {
	level table.Level
	batch bool
	body  func(name, question string) string
	path  func(name string) string
}

// probeObject writes {"k": v, ...} from pairs, leaving out the key skip (the
// probed member, which the caller adds itself).
func probeObject(skip string, pairs ...string) string {
	var parts []string
	for i := 0; i+1 < len(pairs); i += 2 {
		if pairs[i] != skip {
			parts = append(parts, strconv.Quote(pairs[i])+":"+pairs[i+1])
		}
	}
	return "{" + strings.Join(parts, ",") + "}"
}

func probeWithNull(obj, name string) string {
	if obj == "{}" {
		return "{" + strconv.Quote(name) + ":null}"
	}
	return strings.TrimSuffix(obj, "}") + "," + strconv.Quote(name) + ":null}"
}

var memberProbes = []memberProbe{
	{level: table.LevelRequest, body: func(name, qt string) string {
		return probeWithNull(probeObject(name, "state", `"s"`, "questions", `{"q":{"type":"noul"}}`), name)
	}, path: func(name string) string { return "/" + name }},
	{level: table.LevelQuestion, body: func(name, qt string) string {
		return `{"state":"s","questions":{"q":` + probeWithNull(probeObject(name, "type", strconv.Quote(qt)), name) + `}}`
	}, path: func(name string) string { return "/questions/q/" + name }},
	{level: table.LevelNoulCriteria, body: func(name, qt string) string {
		return `{"state":"s","questions":{"q":{"type":"noul","criteria":` + probeWithNull("{}", name) + `}}}`
	}, path: func(name string) string { return "/questions/q/criteria/" + name }},
	{level: table.LevelOptions, body: func(name, qt string) string {
		return `{"state":"s","questions":{"q":{"type":"noul"}},"options":` + probeWithNull("{}", name) + `}`
	}, path: func(name string) string { return "/options/" + name }},
	{level: table.LevelAsset, body: func(name, qt string) string {
		asset := probeWithNull(probeObject(name, "type", `"image"`, "format", `"png"`, "data_base64", `"AA=="`), name)
		return `{"state":"⟦a⟧","questions":{"q":{"type":"box"}},"assets":{"a":` + asset + `}}`
	}, path: func(name string) string { return "/assets/a/" + name }},
	{level: table.LevelBatch, batch: true, body: func(name, qt string) string {
		return probeWithNull(probeObject(name, "requests", `{"r":{"state":"s","questions":{"q":{"type":"noul"}}}}`), name)
	}, path: func(name string) string { return "/" + name }},
}

// probeType is a question type the member applies to, so a member of some
// question types only is probed where it is allowed.
func probeType(level table.Level, name string) string {
	for _, f := range fieldtable.Fields {
		if f.Level == level && f.Name == name && len(f.QuestionTypes) > 0 {
			return string(f.QuestionTypes[0])
		}
	}
	return "noul"
}

// TestVocabMembersAgreeWithValidate: the generated validators accept, at
// the levels of request and batch bodies, exactly the members MembersOf
// lists: a listed member set to null draws no unknown_member or
// removed_form problem at its path, and any other name of that level does.
func TestVocabMembersAgreeWithValidate(t *testing.T) {
	names := vocabFieldNames()
	counts := map[bool]int{}
	for _, schema := range vocabSchemas {
		for _, p := range memberProbes {
			listed := vocabMemberNames(vocab.MembersOf(schema, p.level))
			if p.level == table.LevelOptions && !slices.Contains(vocabMemberNames(vocab.MembersOf(schema, table.LevelRequest)), vocab.RequestOptions) {
				continue // the schema's requests take no options at all
			}
			if p.batch && vocab.MembersOf(schema, table.LevelBatch) == nil {
				continue // no batch body under this schema
			}
			for _, name := range names[p.level] {
				body := p.body(name, probeType(p.level, name))
				v, err := jsonvalue.Decode([]byte(body), jsonvalue.Options{})
				if err != nil {
					t.Fatalf("probe body %s: %v", body, err)
				}
				var ps []table.Problem
				if p.batch {
					ps = validate.BatchRequest(schema, v)
				} else {
					ps = validate.Request(schema, v)
				}
				refused := slices.ContainsFunc(ps, func(pr table.Problem) bool {
					return pr.Path == p.path(name) && (pr.Reason == table.ReasonUnknownMember || pr.Reason == table.ReasonRemovedForm)
				})
				if want := slices.Contains(listed, name); refused == want {
					t.Errorf("%s %s.%s: listed %v, but the validator refuses it: %v (body %s)", schema, p.level, name, want, refused, body)
				}
				counts[refused]++
			}
		}
	}
	// The probes must reach the validators' member checks both ways: the
	// standard refuses every extension member, vllm-sr/5.0 every removed form.
	if counts[false] < 100 || counts[true] < 20 {
		t.Fatalf("probed %d accepted and %d refused members; the probes miss the member checks", counts[false], counts[true])
	}
	t.Logf("probed %d accepted and %d refused members", counts[false], counts[true])
}
