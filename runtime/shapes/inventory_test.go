package shapes

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

// bindings are the generated binding's member lists (zz_generated.bind.go)
// by level: the members its Reader and Writer dispatch, each to a
// hand-written function or, passive, to the object's Extra. The internal
// bundle is validated as the internal form's batch and read by the
// batch's binding.
func bindings() map[table.Level][]string {
	return map[table.Level][]string{
		table.LevelRequest:  requestSlots,
		table.LevelBatch:    batchSlots,
		table.LevelBundle:   batchSlots,
		table.LevelOptions:  optionsSlots,
		table.LevelQuestion: questionSlots,
		table.LevelAsset:    assetSlots,
	}
}

// TestBindingCoversEverySpecMember: the generated binding dispatches every
// member the specs give a request shape on every schema (vocab.Members),
// once, and names no member the specs do not define there. A bound member
// without its hand-written function fails to compile; this fails when
// zz_generated.bind.go is older than the vocabulary (run make generate).
func TestBindingCoversEverySpecMember(t *testing.T) {
	checked := 0
	defined := map[table.Level]map[string]bool{}
	for _, lm := range vocab.Members {
		slots, bound := bindings()[lm.Level]
		if !bound {
			continue
		}
		if defined[lm.Level] == nil {
			defined[lm.Level] = map[string]bool{}
		}
		for _, m := range lm.Members {
			checked++
			defined[lm.Level][m.Name] = true
			if !slices.Contains(slots, m.Name) {
				t.Errorf("%s defines %s member %q, which the generated binding does not dispatch: run make generate", lm.Schema, lm.Level, m.Name)
			}
		}
	}
	for level, slots := range bindings() {
		for i, name := range slots {
			if slices.Index(slots, name) != i {
				t.Errorf("the %s binding dispatches %q twice", level, name)
			}
			if level != table.LevelBundle && !defined[level][name] && !defined[table.LevelBundle][name] {
				t.Errorf("the %s binding dispatches %q, which no schema defines there", level, name)
			}
		}
	}
	if checked < 50 {
		t.Fatalf("the generated member lists give only %d request-shape members", checked)
	}
}

// TestExtraStandsAtItsSlot: a passive member, which the generated writer
// dispatches to extraNamed, is written at its slot in the canonical order
// and where the layout recorded it in the internal form; an extra no slot
// names follows every slot; Skip leaves out either.
func TestExtraStandsAtItsSlot(t *testing.T) {
	slots := []string{"a", "p", "b"}
	extra := []jsonvalue.Member{{Name: "z", Value: jsonvalue.String("z")}, {Name: "p", Value: jsonvalue.String("p")}}
	write := func(w Writer, l *ir.Layout) string {
		o := w.object(nil, l, extra, table.LevelQuestion)
		err := o.each(slots, func(slot int) error {
			if slots[slot] == "p" {
				o.extraNamed(slots[slot])
				return nil
			}
			o.name(slots[slot])
			o.Dst = append(o.Dst, '1')
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return string(o.Close())
	}
	if got, want := write(Writer{}, nil), `{"a":1,"p":"p","b":1,"z":"z"}`; got != want {
		t.Errorf("canonical: %s, want %s", got, want)
	}
	recorded := &ir.Layout{Members: []ir.LayoutMember{{Name: "b"}, {Name: "z"}, {Name: "p"}, {Name: "a"}}}
	if got, want := write(Writer{Lossless: true}, recorded), `{"b":1,"z":"z","p":"p","a":1}`; got != want {
		t.Errorf("recorded: %s, want %s", got, want)
	}
	skip := Writer{Skip: func(_ table.Level, name string) bool { return name == "p" || name == "z" }}
	if got, want := write(skip, nil), `{"a":1,"b":1}`; got != want {
		t.Errorf("skipped: %s, want %s", got, want)
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
