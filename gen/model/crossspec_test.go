package model

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/vllm-sr/systemone/gen/load"
	"github.com/vllm-sr/systemone/runtime/table"
)

// TestRestatedStandardMemberIsRefused: the extension set defining the
// standard's question.instructions again, stripped for systemone/0.2,
// fails the build at the extension's line, naming the standard's.
func TestRestatedStandardMemberIsRefused(t *testing.T) {
	fsys := repoFS(t)
	p := load.DefaultPaths()
	ext := string(fsys[p.Extensions].Data)
	const at = "\n  question:\n"
	i := strings.Index(ext, at)
	if i < 0 {
		t.Fatal("the extension set has no question level")
	}
	line := strings.Count(ext[:i+len(at)], "\n") + 1
	ext = ext[:i+len(at)] + "    - {name: instructions, type: content|null, since: \"5.0\", families: all, on_systemone_0_2: stripped, description: x}\n" + ext[i+len(at):]
	fsys[p.Extensions] = &fstest.MapFile{Data: []byte(ext)}
	raw, err := load.Load(fsys, p)
	if err != nil {
		t.Fatalf("the loader must accept the restatement, so the model's check is what fails: %v", err)
	}
	_, err = Build(raw)
	stdLine := lineOf(t, fsys[p.Standard].Data, "- name: instructions")
	prefix := fmt.Sprintf("%s:%d:", p.Extensions, line)
	msg := fmt.Sprintf("field question.instructions: on_systemone_0_2: stripped would strip a member the standard defines from everything sent to a systemone/0.2 target; two specifications give it different meanings (the standard's definition: %s:%d:", p.Standard, stdLine)
	if err == nil || !hasProblem(err, prefix, msg) {
		t.Fatalf("want %s %s; got %v", prefix, msg, err)
	}
}

// TestRestatedMeaningComparesEachPart: a faithful restatement differs in
// nothing; each change of meaning is one line naming it.
func TestRestatedMeaningComparesEachPart(t *testing.T) {
	one, two := 1.0, 2.0
	std := Field{
		Spec: SpecStandard, Level: table.LevelQuestion, Name: "x", Required: true,
		QuestionTypes: []table.QuestionType{"choice", "noul"},
		Type:          Type{Kinds: []Kind{KindObject}, Values: &Type{Kinds: []Kind{KindNumber}, Enum: []string{"1", "2"}, Minimum: &one}},
		Disposition:   table.DispositionStandard,
	}
	same := std
	same.Spec = SpecExtensions
	same.Type.Values = &Type{Kinds: []Kind{KindNumber}, Enum: []string{"2", "1"}, Minimum: &one}
	if d := restatedMeaning(&std, &same); len(d) != 0 {
		t.Errorf("a faithful restatement (enum in another order) differs: %q", d)
	}
	changed := same
	changed.Required = false
	changed.QuestionTypes = []table.QuestionType{"choice"}
	changed.Type.Values = &Type{Kinds: []Kind{KindNumber}, Enum: []string{"1"}, Minimum: &two}
	changed.Disposition = table.DispositionNeverSent
	want := []string{
		"required is false here but true in the standard",
		"question_types are [choice] here but [choice noul] in the standard",
		"enum of values is [1] here but [1 2] in the standard",
		"minimum of values is 2 here but 1 in the standard",
		"on_systemone_0_2: never_sent says a standard server never sends a member the standard defines",
	}
	if got := restatedMeaning(&std, &changed); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
