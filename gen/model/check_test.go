package model

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/vllm-sr/systemone/gen/load"
)

// repoFS holds the repository's spec files, so a case can swap one for a
// broken copy from testdata/broken.
func repoFS(t *testing.T) fstest.MapFS {
	t.Helper()
	p := load.DefaultPaths()
	fsys := fstest.MapFS{}
	for _, path := range []string{p.Standard, p.Extensions, p.Contract, p.StandardSchema, p.ExtensionsSchema} {
		data, err := os.ReadFile(filepath.Join(repoRoot, filepath.FromSlash(path)))
		if err != nil {
			t.Fatal(err)
		}
		fsys[path] = &fstest.MapFile{Data: data}
	}
	return fsys
}

// lineOf is the 1-based number of the first line ending with s.
func lineOf(t *testing.T, data []byte, s string) int {
	t.Helper()
	for i, line := range strings.Split(string(data), "\n") {
		if strings.HasSuffix(line, s) {
			return i + 1
		}
	}
	t.Fatalf("testdata lacks %q", s)
	return 0
}

// TestBuildRefusesBrokenSpecs: every generation-time check fails the
// build on a broken spec and names the file and line of the problem.
func TestBuildRefusesBrokenSpecs(t *testing.T) {
	type want struct {
		at   string // how the problem's line ends
		msg  string
		last bool // the problem is at the last line holding at, not the first
	}
	cases := []struct {
		file  string
		specs func(load.Paths) string
		wants []want
	}{
		{"bad_schema_id.openapi.yaml", contractPath, []want{
			{"x-srgen-schema: vllm-sr/4", `schema ID "vllm-sr/4" does not match`, false},
		}},
		{"duplicate_field.extensions.yaml", extensionsPath, []want{
			{"- name: over", "field question.over is already defined at", true},
			{`- {reason: empty, description: "The same word twice."}`, `error reason "empty" already defined at`, false},
		}},
		{"conflicting_meaning.openapi.yaml", contractPath, []want{
			{"        state:", "field request.state is integer here but content in standard", false},
		}},
		{"unknown_refs.openapi.yaml", contractPath, []want{
			{"    Options:", `component Options: unknown level "optionz"`, false},
			{"        levels:", `unknown question type "scores"`, false},
		}},
		{"family_mismatch.extensions.yaml", extensionsPath, []want{
			{"- name: at", "field question.at: family decision1 answers none of its question types [box]", false},
		}},
		{"bad_replacement.extensions.yaml", extensionsPath, []want{
			{`note: "An object of option keys to descriptions, for choice and noul."}`, "replacement field question.critera is not defined", false},
			{`note: "/v1/systemone takes exactly one request."}`, `replacement endpoint "POST /v1/systemone/batches" is not defined`, false},
			{`note: "The standard's request header."}`, "replacement header TypeSafe-Danger-Zone-Long-Context: yes is not defined", false},
		}},
		{"misplaced_answer_members.extensions.yaml", extensionsPath, []want{
			{"- {name: at_seen, type: number, description: The second read.}", "answer_members belong only to a question_type entry", false},
			{"- field: request.options", `override of request.options: schema "systemone/0.2" does not include the extension set`, false},
		}},
		{"bad_passive.extensions.yaml", extensionsPath, []want{
			{"- name: head", "field question.head is passive but refused_at_load", false},
			{"- name: span", "field question_type.span: a question_type entry is a type, not a member, and cannot be passive", false},
			{"- name: state", "field request.state is passive in one specification and bound in another (standard)", false},
			{"- name: return_meta", "field options.return_meta is a passive request member with never_sent", false},
			{"- level: answr", `write_order: no schema has a message at level "answr"`, false},
			{"- level: request", `write_order of request names "state" twice`, false},
			{"- level: request", `write_order of request names "questoins", which no schema defines at that level`, false},
		}},
		{"bad_reasons.extensions.yaml", extensionsPath, []want{
			{"problems: [missing_member]}", `error reason "noul_missing": kind "invalid_model_outcome" is not a question error kind`, false},
			{"code: beginning}", `error reason "starting": code "beginning" is not a request error code`, false},
			{"problems: [missing_member, wrong_type, not_allowed_null]}", "member answer.box.middle: no spec defines box_region.middle", true},
			{"problems: [missing_member, wrong_type, not_allowed_null]}", "member answer.left: no spec defines answer.left", true},
			{"problems: [missing_member, wrong_type, not_allowed_null]}", "member answer.box.right.*: * follows no map or array", true},
			{"members: [answer.legend]}", `error reason "legend_not_object": members and problems go together`, false},
			{"status: 529}", `error reason "upstream_overloaded": a status belongs with a code`, false},
			{"code: question_failed}", `code "question_failed" takes its status from a question error: name its kind`, false},
		}},
		{"bad_implicit_roles.openapi.yaml", contractPath, []want{
			{"{key: answer, role: assistant}", `implicit role "assistant" is not one of [user context answer]`, false},
			{"- {key: history, role: context}", `implicit role of "history" defined twice`, true},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", "broken", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			fsys := repoFS(t)
			path := tc.specs(load.DefaultPaths())
			fsys[path] = &fstest.MapFile{Data: data}
			raw, err := load.Load(fsys, load.DefaultPaths())
			if err != nil {
				t.Fatalf("the broken spec must pass the loader, so the model's check is what fails: %v", err)
			}
			m, err := Build(raw)
			if err == nil || m != nil {
				t.Fatalf("Build accepted %s", tc.file)
			}
			for _, w := range tc.wants {
				line := lineOf(t, data, w.at)
				if w.last {
					line = lastLineOf(data, w.at)
				}
				prefix := fmt.Sprintf("%s:%d:", path, line)
				if !hasProblem(err, prefix, w.msg) {
					t.Errorf("no problem %q at %s; got:\n%v", w.msg, prefix, err)
				}
			}
		})
	}
}

func contractPath(p load.Paths) string   { return p.Contract }
func extensionsPath(p load.Paths) string { return p.Extensions }

func lastLineOf(data []byte, s string) int {
	last := 0
	for i, line := range strings.Split(string(data), "\n") {
		if strings.HasSuffix(line, s) {
			last = i + 1
		}
	}
	return last
}

func hasProblem(err error, prefix, msg string) bool {
	for _, line := range strings.Split(err.Error(), "\n") {
		if strings.HasPrefix(line, prefix) && strings.Contains(line, msg) {
			return true
		}
	}
	return false
}

// TestBuildReportsAllProblems: the problems of one broken spec come back
// together, not only the first.
func TestBuildReportsAllProblems(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "broken", "bad_replacement.extensions.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	fsys := repoFS(t)
	fsys[load.DefaultPaths().Extensions] = &fstest.MapFile{Data: data}
	raw, err := load.Load(fsys, load.DefaultPaths())
	if err != nil {
		t.Fatal(err)
	}
	_, err = Build(raw)
	ps, ok := load.AsProblems(err)
	if !ok || len(ps) != 3 {
		t.Fatalf("want 3 problems, got %v", err)
	}
}

func TestTypeExpressions(t *testing.T) {
	r := typeResolver{
		named:  map[string]Type{"content": {Kinds: []Kind{KindString, KindObject, KindArray}}},
		levels: map[string]bool{"question": true, "validation_item": true, "error_detail": true},
	}
	for _, expr := range []string{
		"string", "content|null", "map<question>", "string|array<string>",
		"map<array<validation_item>>", "string|error_detail|array<validation_item>", "map<content|null>",
	} {
		got, err := r.parse(expr)
		if err != nil {
			t.Errorf("%s: %v", expr, err)
			continue
		}
		if got.String() != expr {
			t.Errorf("%s renders as %s", expr, got)
		}
	}
	for _, bad := range []string{"", "strin", "map<string", "string|", "content|question", "array<string>|array<number>"} {
		if _, err := r.parse(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}
