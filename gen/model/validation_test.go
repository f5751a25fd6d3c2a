package model

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/vllm-sr/systemone/runtime/table"
)

// viewOf returns the validation view of one schema of the repository's
// own specifications.
func viewOf(t *testing.T, id table.SchemaID) map[string]ObjectCheck {
	t.Helper()
	m, err := LoadDir("../..")
	if err != nil {
		t.Fatal(err)
	}
	vs, err := m.Validations()
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range vs {
		if v.Schema == id {
			objects := map[string]ObjectCheck{}
			for _, o := range v.Objects {
				if _, dup := objects[o.Name]; dup {
					t.Fatalf("%s: object check %s twice", id, o.Name)
				}
				objects[o.Name] = o
			}
			return objects
		}
	}
	t.Fatalf("no validation for %s", id)
	return nil
}

func memberCheck(t *testing.T, o ObjectCheck, name string) MemberCheck {
	t.Helper()
	for _, m := range o.Members {
		if m.Name == name {
			return m
		}
	}
	t.Fatalf("%s has no member %s", o.Name, name)
	return MemberCheck{}
}

func removedNames(o ObjectCheck) []string {
	var names []string
	for _, r := range o.Removed {
		names = append(names, r.Name+" -> "+r.Replacement)
	}
	return names
}

func TestValidationRemovedFormsOnlyWhereRefused(t *testing.T) {
	v50, v40, v02 := viewOf(t, table.SchemaVllmSR50), viewOf(t, table.SchemaVllmSR40), viewOf(t, table.SchemaStandard02)
	want := []string{"images -> assets", "videos -> assets", "states -> POST /v1/systemone/batch"}
	if diff := cmp.Diff(want, removedNames(v50["request"])); diff != "" {
		t.Errorf("5.0 request removed forms (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"long_context -> header TypeSafe-Danger-Zone-Long-Context: true"}, removedNames(v50["options"])); diff != "" {
		t.Errorf("5.0 options removed forms (-want +got):\n%s", diff)
	}
	for _, o := range []ObjectCheck{v40["request"], v40["question_choice"], v02["request"], v02["question"]} {
		if len(o.Removed) != 0 {
			t.Errorf("%s: removed forms %v on a schema that does not refuse them", o.Name, removedNames(o))
		}
	}
}

func TestValidationCriteriaRequirements(t *testing.T) {
	v50, v40 := viewOf(t, table.SchemaVllmSR50), viewOf(t, table.SchemaVllmSR40)
	if !memberCheck(t, v50["question_choice"], "criteria").Required {
		t.Error("5.0 choice criteria must be required")
	}
	if memberCheck(t, v40["question_choice"], "criteria").Required || memberCheck(t, v40["question_choice"], "choices").Required {
		t.Error("4.0 choice takes criteria or choices or neither (preset-only)")
	}
	if got := memberCheck(t, v40["question_noul"], "choices").Value.Object; got != "question_noul_choices" {
		t.Errorf("4.0 noul choices check %q, want the fixed true/false keys", got)
	}
}

// TestValidationBatchItemsRefuseOptions: a batch item is checked by its
// own object check, on every schema with a batch: on vllm-sr/5.0 and 4.0
// the request's members without options (which belong to the batch); on
// the internal form, whose bundle items are complete requests, with them.
func TestValidationBatchItemsRefuseOptions(t *testing.T) {
	for _, id := range []table.SchemaID{table.SchemaVllmSR50, table.SchemaVllmSR40, table.SchemaInternal} {
		v := viewOf(t, id)
		if got := memberCheck(t, v["batch"], "requests").Value.Values.Object; got != "request_in_batch" {
			t.Errorf("%s: batch requests checked as %q", id, got)
		}
		item, ok := v["request_in_batch"]
		if !ok {
			t.Fatalf("%s: no batch item check", id)
		}
		if want := id == table.SchemaInternal; hasCheck(item.Members, "options") != want {
			t.Errorf("%s: a batch item checks options: %v, want %v", id, !want, want)
		}
		if !hasCheck(v["request"].Members, "options") || !hasCheck(v["batch"].Members, "options") {
			t.Errorf("%s: a request and a batch must keep their options", id)
		}
		if memberCheck(t, item, "model").Required || !memberCheck(t, item, "questions").Required {
			t.Errorf("%s: an item takes the batch's model and needs its questions", id)
		}
	}
}

// TestValidationPresetOnlyQuestions: on 4.0 (and the internal form) a
// question's type is excused by its preset; on 5.0 and the standard it is
// required outright.
func TestValidationPresetOnlyQuestions(t *testing.T) {
	for id, want := range map[table.SchemaID][]string{
		table.SchemaStandard02: nil, table.SchemaVllmSR50: nil,
		table.SchemaVllmSR40: {"preset"}, table.SchemaInternal: {"preset"},
	} {
		typ := memberCheck(t, viewOf(t, id)["question"], "type")
		if !typ.Required || !cmp.Equal(typ.RequiredUnless, want, cmpopts.EquateEmpty()) {
			t.Errorf("%s: question type required=%v unless %v, want required unless %v", id, typ.Required, typ.RequiredUnless, want)
		}
	}
}

func TestValidationAssetFormatsByType(t *testing.T) {
	v50 := viewOf(t, table.SchemaVllmSR50)
	for name, want := range map[string][]string{
		"asset_image": {"png", "jpg", "jpeg"},
		"asset_video": {"mp4", "webm"},
		"asset":       {"png", "jpg", "jpeg", "mp4", "webm"},
	} {
		if diff := cmp.Diff(want, memberCheck(t, v50[name], AssetFormatFieldName).Value.Enum); diff != "" {
			t.Errorf("%s formats (-want +got):\n%s", name, diff)
		}
	}
}
