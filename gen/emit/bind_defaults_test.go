package emit

import (
	"io/fs"
	"os"
	"path"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/vllm-sr/systemone/gen/model"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

// defaultsIR is the fixture's IR: a request's model and state, a
// question's head (a defined string type) and an answer's type and value.
const defaultsIR = `package ir

import "github.com/vllm-sr/systemone/runtime/jsonvalue"

type Request struct {
	Model *string
	State jsonvalue.Value
	Extra []jsonvalue.Member
}

type Question struct {
	Head  *SpanHead
	Extra []jsonvalue.Member
}

type SpanHead string

type Answer struct {
	Type  string
	Value *float64
	Extra []jsonvalue.Member
}
`

// defaultsShapes is the fixture's hand-written bind package: the state of
// each level, whose first field is the object it binds, and roles and
// choices, which need judgement, by hand.
const defaultsShapes = `package bound

import (
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
)

type requestRead struct{ r *ir.Request }
type requestWrite struct{ r *ir.Request }
type questionRead struct{ q *ir.Question }
type questionWrite struct{ q *ir.Question }
type answerRead struct {
	a     *ir.Answer
	extra []jsonvalue.Member
}
type answerWrite struct{ a *ir.Answer }

// readRequestRoles needs judgement.
func (rd *Reader) readRequestRoles(s *requestRead, m *jsonvalue.Member, lm *ir.LayoutMember) error { return nil }

func (w Writer) writeRequestRoles(o *objectWriter, s *requestWrite) error { return nil }

func (rd *Reader) readQuestionChoices(s *questionRead, m *jsonvalue.Member, lm *ir.LayoutMember) error { return nil }

func (w Writer) writeQuestionChoices(o *objectWriter, s *questionWrite) error { return nil }
`

// defaultsSource is the fixture's tree: the IR and the bind package, with
// extra files (or replaced ones) from more.
func defaultsSource(more map[string]string) fs.FS {
	src := fstest.MapFS{
		"runtime/ir/ir.go":       {Data: []byte(defaultsIR)},
		"runtime/bound/bound.go": {Data: []byte(defaultsShapes)},
		// srgen's own output and tests are no hand-written source.
		"runtime/bound/zz_generated.bind.go": {Data: []byte("package bound\n\nfunc (rd *Reader) readRequestModel() {}\n")},
		"runtime/bound/bound_test.go":        {Data: []byte("package bound\n\nfunc (rd *Reader) readQuestionHead() {}\n")},
	}
	for name, text := range more {
		src[name] = &fstest.MapFile{Data: []byte(text)}
	}
	return src
}

// defaultsFixture is bindFixture with the JSON kinds the specs state for
// the members srgen binds by default.
func defaultsFixture(t *testing.T) *model.Model {
	m := bindFixture(t)
	kinds := map[string]model.Type{
		"model": {Kinds: []model.Kind{model.KindString}},
		"state": {Kinds: []model.Kind{model.KindString, model.KindObject, model.KindArray}},
		"head":  {Kinds: []model.Kind{model.KindString}, Enum: []string{"router", "broad"}},
		"type":  {Kinds: []model.Kind{model.KindString}},
		"value": {Kinds: []model.Kind{model.KindNumber}},
	}
	for i := range m.Schemas {
		for j := range m.Schemas[i].Messages {
			members := m.Schemas[i].Messages[j].Members
			for k := range members {
				if typ, ok := kinds[members[k].Name]; ok {
					members[k].Type = typ
				}
			}
		}
	}
	return m
}

func bindWithSource(t *testing.T, m *model.Model, src fs.FS) ([]File, error) {
	t.Helper()
	o := bindOptions
	o.BindSource = src
	return o.bind(m)
}

// TestBindDefaultsGolden: srgen writes the read and the write of every
// bound member the bind package does not declare by hand, by the
// member's JSON kind and its IR field's Go type, and none for a member
// written by hand (roles, choices) or for a function only srgen's own
// files or the tests declare.
func TestBindDefaultsGolden(t *testing.T) {
	files, err := bindWithSource(t, defaultsFixture(t), defaultsSource(nil))
	if err != nil {
		t.Fatal(err)
	}
	request := strings.Join(strings.Fields(string(files[0].Data)), " ")
	reply := strings.Join(strings.Fields(string(files[1].Data)), " ")
	for _, want := range []string{
		"func (rd *Reader) readRequestModel(s *requestRead, m *jsonvalue.Member, lm *ir.LayoutMember) error { s.r.Model = rd.text(m.Value, lm) return nil }",
		"func (w Writer) writeRequestModel(o *objectWriter, s *requestWrite) error { appendStringMember(o, vocab.RequestModel, s.r.Model) return nil }",
		"s.r.State = rd.keep(m.Value)",
		"if s.r.State.IsValid() { o.name(vocab.RequestState) o.Dst = jsonvalue.AppendCompact(o.Dst, s.r.State) }",
		"s.q.Head = (*ir.SpanHead)(rd.text(m.Value, lm))",
		"appendStringMember(o, vocab.QuestionHead, (*string)(s.q.Head))",
	} {
		if !strings.Contains(request, want) {
			t.Errorf("the request binding lacks %q", want)
		}
	}
	for _, want := range []string{
		"func (s *answerRead) readAnswerType(m *jsonvalue.Member) error { s.a.Type = m.Value.Str() return nil }",
		"func (w AnswerWriter) writeAnswerType(o *replyObject, s *answerWrite) { o.str(vocab.AnswerType, s.a.Type) }",
		"f, _ := m.Value.Float() s.a.Value = &f",
		"writeNumber(o, vocab.AnswerValue, s.a.Value)",
	} {
		if !strings.Contains(reply, want) {
			t.Errorf("the reply binding lacks %q", want)
		}
	}
	for _, hand := range []string{"func (rd *Reader) readRequestRoles(", "func (w Writer) writeQuestionChoices("} {
		if strings.Contains(string(files[0].Data), hand) {
			t.Errorf("srgen wrote %s, which the bind package declares by hand", hand)
		}
	}
	testkit.GoldenCheck(t, "testdata/bind/defaults/zz_generated.bind.go.golden", files[0].Data)
	testkit.GoldenCheck(t, "testdata/bind/defaults/zz_generated.replybind.go.golden", files[1].Data)
}

// TestBindRefusesAHandWrittenCopy: a hand-written member function whose
// body is srgen's default is refused, naming it, on both sides, and so is
// one that differs from the default without a doc comment saying why; one
// that does more than the default and says why is kept.
func TestBindRefusesAHandWrittenCopy(t *testing.T) {
	const copies = `package bound

import (
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
)

func (rd *Reader) readRequestModel(s *requestRead, m *jsonvalue.Member, lm *ir.LayoutMember) error {
	s.r.Model = rd.text(m.Value, lm)
	return nil
}

func (w AnswerWriter) writeAnswerValue(o *replyObject, s *answerWrite) {
	writeNumber(o, vocab.AnswerValue, s.a.Value)
}

// writeRequestModel writes the model of a whole request only: judgement.
func (w Writer) writeRequestModel(o *objectWriter, s *requestWrite) error {
	if s.whole {
		appendStringMember(o, vocab.RequestModel, s.r.Model)
	}
	return nil
}

func (w AnswerWriter) writeAnswerType(o *replyObject, s *answerWrite) {
	if s.a.Type != "" {
		o.str(vocab.AnswerType, s.a.Type)
	}
}
`
	_, err := bindWithSource(t, defaultsFixture(t), defaultsSource(map[string]string{"runtime/bound/copies.go": copies}))
	if err == nil {
		t.Fatal("hand-written copies of srgen's defaults were accepted")
	}
	for _, want := range []string{
		`request member "model": the hand-written readRequestModel only does what srgen writes by default; delete it`,
		`answer member "value": the hand-written writeAnswerValue only does what srgen writes by default; delete it`,
		`answer member "type": the hand-written writeAnswerType overrides srgen's default and its doc comment does not say why`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if strings.Contains(err.Error(), "writeRequestModel") {
		t.Errorf("a hand-written function with judgement was refused:\n%v", err)
	}
}

// TestBindNamesWhatToWrite: a bound member with neither a hand-written
// function nor a default (no IR field, a field of another kind, a state
// binding no object) is an error naming the function and why.
func TestBindNamesWhatToWrite(t *testing.T) {
	cases := []struct {
		name  string
		more  map[string]string
		want  []string
		setup func(m *model.Model)
	}{
		{"no field", map[string]string{"runtime/ir/ir.go": strings.Replace(defaultsIR, "\tModel *string\n", "", 1)}, []string{
			`request member "model": srgen has no default for readRequestModel (ir.Request has no field Model)`,
			`srgen has no default for writeRequestModel`,
		}, nil},
		{"another kind", nil, []string{
			`request member "model": srgen has no default for readRequestModel (no default binds a integer member to ir.Request.Model, a *string)`,
		}, func(m *model.Model) {
			for i := range m.Schemas {
				for j := range m.Schemas[i].Messages {
					for k, mem := range m.Schemas[i].Messages[j].Members {
						if mem.Name == "model" {
							m.Schemas[i].Messages[j].Members[k].Type = model.Type{Kinds: []model.Kind{model.KindInteger}}
						}
					}
				}
			}
		}},
		{"no object", map[string]string{"runtime/bound/bound.go": strings.Replace(defaultsShapes, "type answerRead struct {\n\ta     *ir.Answer\n", "type answerRead struct {\n\tn     int\n\ta     *ir.Answer\n", 1)}, []string{
			`answer member "type": srgen has no default for readAnswerType (answerRead binds no object`,
		}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := defaultsFixture(t)
			if tc.setup != nil {
				tc.setup(m)
			}
			_, err := bindWithSource(t, m, defaultsSource(tc.more))
			if err == nil {
				t.Fatal("a member with no binding was accepted")
			}
			for _, want := range tc.want {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error lacks %q:\n%v", want, err)
				}
			}
		})
	}
}

// TestRuntimeShapesHasNoHandWrittenCopy runs the binding over this
// repository's specs and hand-written Go: it binds every member, and no
// hand-written function of runtime/shapes only does what srgen writes by
// default. The check can fail: the same tree with a hand copy of one of
// srgen's defaults (health.status's read) put back is refused.
func TestRuntimeShapesHasNoHandWrittenCopy(t *testing.T) {
	m, err := model.LoadDir("../..")
	if err != nil {
		t.Fatal(err)
	}
	src := fstest.MapFS{}
	for _, dir := range []string{"runtime/shapes", "runtime/ir"} {
		entries, err := os.ReadDir("../../" + dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if e.IsDir() {
				continue
			}
			data, err := os.ReadFile("../../" + path.Join(dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			src[path.Join(dir, e.Name())] = &fstest.MapFile{Data: data}
		}
	}
	o := DefaultOptions()
	o.BindSource = src
	if _, err := o.bind(m); err != nil {
		t.Fatalf("the binding of this repository fails:\n%v", err)
	}
	src["runtime/shapes/handcopy.go"] = &fstest.MapFile{Data: []byte(`package shapes

import "github.com/vllm-sr/systemone/runtime/jsonvalue"

func (s *healthRead) readHealthStatus(m *jsonvalue.Member) error {
	s.h.Status = m.Value.Str()
	return nil
}
`)}
	_, err = o.bind(m)
	if err == nil || !strings.Contains(err.Error(), `health member "status": the hand-written readHealthStatus only does what srgen writes by default`) {
		t.Fatalf("a hand copy of srgen's default in runtime/shapes was not refused: %v", err)
	}
}
