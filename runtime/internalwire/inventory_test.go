package internalwire

import (
	"slices"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/generated/fieldtable"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

// The codec's vocabulary, the member names it reads and writes at each
// level, is exactly what the generated field table gives the internal
// schema (4.0's request forms plus roles): nothing the codec accepts is
// unknown to the specifications, and nothing they define is refused.
func codecMembers() map[table.Level][]string {
	question := slices.Concat(questionSlots, []string{"choices", "levels", "labels"})
	return map[table.Level][]string{
		table.LevelRequest:  requestSlots,
		table.LevelQuestion: question,
		table.LevelOptions:  optionSlots,
		table.LevelAsset:    assetSlots,
		table.LevelBundle:   {"model", "requests"},
	}
}

func TestCodecMembersAreKnownToTheSpecs(t *testing.T) {
	for level, names := range codecMembers() {
		for _, name := range names {
			if !fieldtable.Known(table.SchemaInternal, level, name) {
				t.Errorf("the codec reads %s member %q, which the internal schema does not define", level, name)
			}
		}
	}
}

// TestEverySpecMemberIsBoundOrCarried: every member the specs give the
// internal schema at the codec's levels is either bound (a slot of the
// codec's own) or carried as an extra member, which only a member with no
// runtime semantics may be (stripped for a systemone/0.2 target). A member
// that fails here needs its field in runtime/ir and a case in this codec's
// reader and writer.
func TestEverySpecMemberIsBoundOrCarried(t *testing.T) {
	members := codecMembers()
	checked := 0
	for _, f := range fieldtable.Fields {
		names, ok := members[f.Level]
		if !ok || !slices.Contains(f.Schemas, table.SchemaInternal) {
			continue
		}
		checked++
		if !slices.Contains(names, f.Name) && f.Disposition != table.DispositionStripped {
			t.Errorf("the specs define %s member %q (%s, %s on systemone/0.2), which needs runtime semantics: bind it in runtime/ir and this codec", f.Level, f.Name, f.DefinedBy, f.Disposition)
		}
	}
	if checked == 0 {
		t.Fatal("the generated field table has no internal-schema fields at the codec's levels")
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
