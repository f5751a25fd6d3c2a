package internalwire

import (
	"slices"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/generated/fieldtable"
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

// bindings are the request shapes' bindings, the member names this
// package's Reader and Writer give an IR field of their own at each level:
// the Writer's slots, which the Reader's cases mirror (every round-trip
// test fails when they do not).
func bindings() map[table.Level][]string {
	return map[table.Level][]string{
		table.LevelRequest:  requestSlots,
		table.LevelQuestion: slices.Concat(questionSlots, []string{vocab.QuestionChoices, vocab.QuestionLevels, vocab.QuestionLabels}),
		table.LevelOptions:  optionSlots,
		table.LevelAsset:    assetSlots,
		table.LevelBatch:    batchSlots,
		table.LevelBundle:   {vocab.BundleModel, vocab.BundleRequests},
	}
}

// requestSchemas are the schemas whose request bodies this package reads
// and writes.
var requestSchemas = []table.SchemaID{table.SchemaVllmSR50, table.SchemaVllmSR40, table.SchemaInternal}

// TestBindingsAreSpecMembers: every member a binding names is one the
// specs define at its level for some schema this package reads.
func TestBindingsAreSpecMembers(t *testing.T) {
	for level, names := range bindings() {
		for _, name := range names {
			known := false
			for _, schema := range requestSchemas {
				known = known || slices.ContainsFunc(vocab.MembersOf(schema, level), func(m table.Member) bool { return m.Name == name })
			}
			if !known {
				t.Errorf("the bindings name %s member %q, which no request schema defines", level, name)
			}
		}
	}
}

// TestEverySpecMemberIsBoundOrCarried: every member the specs give a
// request shape, on every schema this package reads, is either bound (an
// IR field of its own, read by Reader and written by Writer) or carried in
// its object's Extra, which only a member with no runtime semantics may be:
// one a systemone/0.2 target drops (stripped). A member that fails here
// needs its field in runtime/ir and a case in read.go, read_question.go
// (Reader) and write*.go (Writer) of this package.
func TestEverySpecMemberIsBoundOrCarried(t *testing.T) {
	checked := 0
	for level, names := range bindings() {
		for _, schema := range requestSchemas {
			for _, m := range vocab.MembersOf(schema, level) {
				checked++
				if !slices.Contains(names, m.Name) && m.Disposition != table.DispositionStripped {
					t.Errorf("%s defines %s member %q (%s on systemone/0.2), which needs runtime semantics: bind it in runtime/ir and internalwire's Reader and Writer",
						schema, level, m.Name, m.Disposition)
				}
			}
		}
	}
	if checked < 50 {
		t.Fatalf("the generated member lists give only %d request-shape members", checked)
	}
}

// Each noul criteria key the specs define is one the codec accepts.
func TestNoulCriteriaKeys(t *testing.T) {
	for _, f := range fieldtable.Fields {
		if f.Level != table.LevelNoulCriteria || !slices.Contains(f.Schemas, table.SchemaInternal) {
			continue
		}
		body := `{"state":"s","questions":{"q":{"type":"noul","criteria":{"` + f.Name + `":null}}}}`
		if _, _, err := DecodeRequest([]byte(body)); err != nil {
			t.Errorf("noul criteria key %q: %v", f.Name, err)
		}
	}
}

func TestExplicitRolesOfImplicitRoles(t *testing.T) {
	r, _, err := DecodeRequest([]byte(`{"states":{"a":{"request":"q","context":"c"},"b":"text","c":{"answer":"x","request":"q2","note":"n"}},"questions":{"q":{"type":"noul"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	roles := ExplicitRoles(r)
	var got []string
	for _, p := range roles.Parts {
		if !p.Role.Valid() {
			t.Errorf("the implicit role of %q is %q, not a role", p.Key, p.Role)
		}
		got = append(got, p.Key+"="+string(p.Role))
	}
	want := "request=" + fieldtable.ImplicitRole("request") + " context=" + fieldtable.ImplicitRole("context") +
		" answer=" + fieldtable.ImplicitRole("answer") + " note=" + fieldtable.ImplicitRole("note")
	if roles.Mode != ir.RoleModeExplicit || strings.Join(got, " ") != want {
		t.Fatalf("got %s %v, want explicit %s", roles.Mode, got, want)
	}

	text := &ir.Request{State: jsonvalue.String("s"), Roles: ir.Roles{Mode: ir.RoleModeImplicit}}
	if got := ExplicitRoles(text); got.Mode != ir.RoleModeNone {
		t.Fatalf("a text state's implicit roles are %s, want none", got.Mode)
	}
	none := &ir.Request{Roles: ir.Roles{Mode: ir.RoleModeNone}}
	if got := ExplicitRoles(none); got.Mode != ir.RoleModeNone {
		t.Fatalf("no roles became %s", got.Mode)
	}
}
