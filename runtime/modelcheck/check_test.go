package modelcheck

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
)

func ptr[T any](v T) *T { return &v }

// The question error kinds the cases expect.
var (
	invalidQuestion = ir.QuestionErrorInvalidQuestion
	invalidInput    = ir.QuestionErrorInvalidInput
	tooLong         = ir.QuestionErrorMaxLengthExceeded
)

// TestFailures runs one request per failure kind: the question named q
// must fail with the code, status, reason and limit given, and every other
// question must pass.
func TestFailures(t *testing.T) {
	const noLimit = -1
	img := func(w, h int) string {
		return `"assets":{"⟦img⟧":{"type":"image","format":"png","data_base64":"` + pngBase64(t, w, h) + `"}}`
	}
	vid := func(data string) string {
		return `"assets":{"⟦vid⟧":{"type":"video","format":"mp4","data_base64":"` + data + `"}}`
	}
	many := func(n int) string {
		var parts []string
		for i := 0; i < n; i++ {
			parts = append(parts, fmt.Sprintf(`"o%d":null`, i))
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
	levels := func(n int) string { return "[" + strings.TrimSuffix(strings.Repeat(`"l",`, n), ",") + "]" }
	cases := []struct {
		name, model, body string
		code              ir.QuestionErrorCode
		status            int
		reason            Reason
		limit             int64
		// mutate sets what the codecs already refuse, to check the IR a
		// caller builds in code.
		mutate func(*ir.Request)
	}{
		{"over on a decision family", "vllm-sr/decision1",
			`{"state":{"a":"x","b":"y"},"roles":null,"questions":{"ok":{"type":"noul"},"q":{"type":"noul","over":["a"]}}}`,
			invalidQuestion, 422, vocab.ReasonOverNotAnswered, noLimit, nil},
		{"set on decision3", "vllm-sr/decision3",
			`{"state":"x","roles":null,"questions":{"q":{"type":"set","criteria":{"a":null}}}}`,
			invalidQuestion, 422, vocab.ReasonQuestionTypeNotAnswered, noLimit, nil},
		{"box on a text-only model", "vllm-sr/decision2",
			`{"state":"x","roles":null,"questions":{"q":{"type":"box","instructions":"the mug"}}}`,
			invalidQuestion, 422, vocab.ReasonQuestionTypeNotAnswered, noLimit, nil},
		{"broad head without a broad span head", "vllm-sr/vela3",
			`{"state":"x","roles":null,"questions":{"q":{"type":"span","criteria":{"a":null},"head":"broad"}}}`,
			invalidQuestion, 422, vocab.ReasonSpanHeadNotAnswered, noLimit, nil},
		{"decision adapter the card lacks", "vllm-sr/vela3-d3-mini",
			`{"state":"x","roles":null,"questions":{"q":{"type":"noul","decision_adapter":true}}}`,
			invalidQuestion, 422, vocab.ReasonDecisionAdapterNotAnswered, noLimit, nil},
		{"preset not in the card", "vllm-sr/decision1",
			`{"state":"x","roles":null,"questions":{"q":{"type":"noul","preset":"relevance"}}}`,
			invalidQuestion, 422, vocab.ReasonPresetNotAnswered, noLimit, nil},
		{"preset of another type", "vllm-sr/vela2",
			`{"state":"x","roles":null,"questions":{"q":{"type":"choice","preset":"relevance","criteria":{"a":null,"b":null}}}}`,
			invalidQuestion, 422, vocab.ReasonPresetTypeMismatch, noLimit, nil},
		{"no type and no known preset", "vllm-sr/vela2",
			`{"state":"x","roles":null,"questions":{"q":{"preset":"sarcasm"}}}`,
			invalidQuestion, 422, vocab.ReasonMissingType, noLimit, nil},
		{"too many options", "vllm-sr/decision1",
			`{"state":"x","roles":null,"questions":{"q":{"type":"choice","criteria":` + many(65) + `}}}`,
			invalidQuestion, 422, vocab.ReasonTooManyOptions, 64, nil},
		{"too few options", "vllm-sr/decision1",
			`{"state":"x","roles":null,"questions":{"q":{"type":"choice","criteria":` + many(0) + `}}}`,
			invalidQuestion, 422, vocab.ReasonTooFewOptions, 1, nil},
		{"too many levels", "vllm-sr/decision2",
			`{"state":"x","roles":null,"questions":{"q":{"type":"score","criteria":` + levels(11) + `}}}`,
			invalidQuestion, 422, vocab.ReasonTooManyLevels, 10, nil},
		{"too many labels", "vllm-sr/vela3-fast",
			`{"state":"x","roles":null,"questions":{"q":{"type":"set","criteria":` + many(33) + `}}}`,
			invalidQuestion, 422, vocab.ReasonTooManyLabels, 32, nil},
		{"over on a vela3 zero-shot noul", "vllm-sr/vela3",
			`{"state":{"a":"x"},"roles":null,"questions":{"ok":{"type":"span","criteria":{"l":null},"over":["a"]},"q":{"type":"noul","over":["a"]}}}`,
			invalidQuestion, 422, vocab.ReasonOverNotAnswered, noLimit, nil},
		{"over naming a missing key", "vllm-sr/vela2",
			`{"state":{"a":"x"},"roles":null,"questions":{"q":{"type":"noul","over":["b"]}}}`,
			invalidQuestion, 422, vocab.ReasonOverUnknownKey, noLimit, nil},
		{"over on a text state", "vllm-sr/vela2",
			`{"state":"x","roles":null,"questions":{"q":{"type":"noul","over":["a"]}}}`,
			invalidQuestion, 422, vocab.ReasonOverNeedsObjectState, noLimit, nil},
		{"overflow without a scan budget", "vllm-sr/decision2",
			`{"state":"x","roles":null,"questions":{"q":{"type":"noul","overflow":"window"}}}`,
			invalidQuestion, 422, vocab.ReasonOverflowNotAnswered, noLimit, nil},
		{"threshold on a noul", "vllm-sr/vela2",
			`{"state":"x","roles":null,"questions":{"q":{"type":"noul"}}}`,
			invalidQuestion, 422, vocab.ReasonThresholdNotAnswered, noLimit, func(r *ir.Request) { r.Questions[0].Threshold = ptr(0.3) }},
		{"rate on a box", "vllm-sr/decision3",
			`{"state":"⟦img⟧ x","roles":null,` + img(300, 300) + `,"questions":{"q":{"type":"box"}}}`,
			invalidQuestion, 422, vocab.ReasonRateNotAnswered, noLimit, func(r *ir.Request) { r.Questions[0].Rate = ptr(int64(2)) }},
		{"criteria on a box", "vllm-sr/decision3",
			`{"state":"⟦img⟧ x","roles":null,` + img(300, 300) + `,"questions":{"q":{"type":"box"}}}`,
			invalidQuestion, 422, vocab.ReasonCriteriaNotAllowed, noLimit, func(r *ir.Request) {
				r.Questions[0].Criteria = ir.Criteria{Form: ir.CriteriaKeyed, Keyed: []jsonvalue.Member{{Name: "a", Value: jsonvalue.Null()}}}
			}},
		{"placeholder in a question on a card that reads media only in the state", "vllm-sr/vela3-d3-mini",
			`{"state":"⟦img⟧ x","roles":null,` + img(300, 300) + `,"questions":{"q":{"type":"noul","instructions":"Is ⟦img⟧ red?"}}}`,
			invalidQuestion, 422, vocab.ReasonPlaceholderInQuestion, noLimit, nil},
		{"input too long", "vllm-sr/decision1",
			`{"state":"` + words(8200) + `","roles":null,"questions":{"q":{"type":"noul"}}}`,
			tooLong, 400, vocab.ReasonInputTooLong, 8192, nil},
		{"input too long without the long-context header", "vllm-sr/decision2",
			`{"state":"` + words(40000) + `","roles":null,"questions":{"q":{"type":"noul"}}}`,
			tooLong, 400, vocab.ReasonInputTooLong, 32768, nil},
		{"past the long-context limit", "vllm-sr/decision2",
			`{"state":"` + words(140000) + `","roles":null,"options":{"long_context":true},"questions":{"q":{"type":"noul"}}}`,
			tooLong, 400, vocab.ReasonInputTooLong, 131072, nil},
		{"scan budget from max_tokens", "vllm-sr/vela2",
			`{"state":"` + words(20000) + `","roles":null,"options":{"max_tokens":10000},"questions":{"q":{"type":"noul"}}}`,
			ir.QuestionErrorScanBudgetExceeded, 400, vocab.ReasonScanBudget, 10000, nil},
		{"max_tokens capped by the card", "vllm-sr/vela3-fast",
			`{"state":"` + words(140000) + `","roles":null,"options":{"max_tokens":100000000},"questions":{"q":{"type":"noul"}}}`,
			ir.QuestionErrorScanBudgetExceeded, 400, vocab.ReasonScanBudget, 131072, nil},
		{"require_full_input with truncate", "vllm-sr/vela2",
			`{"state":"` + words(9000) + `","roles":null,"questions":{"ok":{"type":"noul","overflow":"truncate"},"q":{"type":"noul","overflow":"truncate","require_full_input":true}}}`,
			tooLong, 400, vocab.ReasonInputTruncated, 8192, nil},
		{"placeholder with no asset", "vllm-sr/decision3",
			`{"state":"look at ⟦img-9⟧","roles":null,"questions":{"q":{"type":"noul"}}}`,
			invalidInput, 400, vocab.ReasonUnknownPlaceholder, noLimit, nil},
		{"asset no string mentions", "vllm-sr/decision3",
			`{"state":"nothing here","roles":null,` + img(300, 300) + `,"questions":{"q":{"type":"noul"}}}`,
			invalidInput, 400, vocab.ReasonUnplacedAsset, noLimit, nil},
		{"bad base64", "vllm-sr/decision3",
			`{"state":"⟦img⟧","roles":null,"assets":{"⟦img⟧":{"type":"image","format":"png","data_base64":"not base64!"}},"questions":{"q":{"type":"noul"}}}`,
			invalidInput, 400, vocab.ReasonBadBase64, noLimit, nil},
		{"not an image", "vllm-sr/decision3",
			`{"state":"⟦img⟧","roles":null,"assets":{"⟦img⟧":{"type":"image","format":"png","data_base64":"aGVsbG8="}},"questions":{"q":{"type":"noul"}}}`,
			invalidInput, 400, vocab.ReasonBadImage, noLimit, nil},
		{"png sent as jpeg", "vllm-sr/decision3",
			`{"state":"⟦img⟧","roles":null,"assets":{"⟦img⟧":{"type":"image","format":"jpeg","data_base64":"` + pngBase64(t, 300, 300) + `"}},"questions":{"q":{"type":"noul"}}}`,
			invalidInput, 400, vocab.ReasonFormatMismatch, noLimit, nil},
		{"image side too small", "vllm-sr/decision3",
			`{"state":"⟦img⟧ x","roles":null,` + img(100, 400) + `,"questions":{"q":{"type":"noul"}}}`,
			invalidInput, 400, vocab.ReasonImageSideTooSmall, 256, nil},
		{"image side too large", "vllm-sr/vela3-d3-mini",
			`{"state":"⟦img⟧ x","roles":null,` + img(1100, 300) + `,"questions":{"q":{"type":"noul"}}}`,
			invalidInput, 400, vocab.ReasonImageSideTooLarge, 1024, nil},
		{"image on a text-only model", "vllm-sr/vela2",
			`{"state":"⟦img⟧ x","roles":null,` + img(300, 300) + `,"questions":{"q":{"type":"noul"}}}`,
			invalidInput, 400, vocab.ReasonImageNotRead, noLimit, nil},
		{"box with no media", "vllm-sr/decision3",
			`{"state":"x","roles":null,"questions":{"q":{"type":"box"}}}`,
			invalidInput, 400, vocab.ReasonMissingMedia, noLimit, nil},
		{"box at a second of an image", "vllm-sr/decision3",
			`{"state":"⟦img⟧ x","roles":null,` + img(300, 300) + `,"questions":{"q":{"type":"box","at":1.5}}}`,
			invalidInput, 400, vocab.ReasonNeedsOneVideo, noLimit, nil},
		{"box at past the video's end", "vllm-sr/vela3-d3",
			`{"state":["⟦vid⟧","Where is the van?"],"roles":null,` + vid(mp4Base64(10)) + `,"questions":{"ok":{"type":"box","at":9.5},"q":{"type":"box","at":12}}}`,
			invalidInput, 400, vocab.ReasonAtBeyondVideo, 10, nil},
		{"track on a video without a readable duration", "vllm-sr/decision3",
			`{"state":["⟦vid⟧","Follow the cyclist."],"roles":null,` + vid(headerOnlyMP4) + `,"questions":{"q":{"type":"track","rate":2}}}`,
			invalidInput, 400, vocab.ReasonUnreadableVideo, noLimit, nil},
		{"video too long", "vllm-sr/decision3",
			`{"state":["⟦vid⟧","Follow the cyclist."],"roles":null,` + vid(mp4Base64(500)) + `,"questions":{"q":{"type":"track"}}}`,
			invalidInput, 400, vocab.ReasonVideoTooLong, 120, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req := decode(t, c.body)
			if c.mutate != nil {
				c.mutate(req)
			}
			for _, o := range checkAll(model(t, c.model), req) {
				if o.Question.Name != "q" {
					if o.Failure != nil {
						t.Errorf("question %s failed: %v", o.Question.Name, o.Failure)
					}
					continue
				}
				f := o.Failure
				if f == nil {
					t.Fatalf("question q passed; want %s", c.reason)
				}
				if f.Code != c.code || f.Status != c.status || f.Reason != c.reason {
					t.Errorf("got %s %d %s, want %s %d %s", f.Code, f.Status, f.Reason, c.code, c.status, c.reason)
				}
				switch {
				case c.limit == noLimit && f.Limit != nil:
					t.Errorf("limit = %d, want none", *f.Limit)
				case c.limit != noLimit && (f.Limit == nil || *f.Limit != c.limit):
					t.Errorf("limit = %v, want %d", f.Limit, c.limit)
				}
				if info, _ := vocab.ReasonOf(string(f.Reason)); c.limit != noLimit && (info.Unit == "" || !strings.HasSuffix(f.Message, " "+info.Unit+")")) {
					t.Errorf("message %q does not name the limit in the spec's unit %q", f.Message, info.Unit)
				}
				if strings.Contains(f.Message, "⟦") || strings.Contains(f.Message, "w w") || f.Message == "" {
					t.Errorf("message %q is empty or carries request data", f.Message)
				}
			}
		})
	}
}

// TestEveryFailureReasonHasAKind: every reason word this package's code
// names (each vocab.Reason* constant, which it fails questions with) has,
// in the specification's error_reasons, the question error kind Fail
// answers it with, so a failure never falls back to a kind the spec did
// not give it.
func TestEveryFailureReasonHasAKind(t *testing.T) {
	values := vocabConstants(t, "../../generated/vocab/zz_generated.vocab.go")
	files, _ := filepath.Glob("*.go")
	used := 0
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok || fmt.Sprint(sel.X) != "vocab" || !strings.HasPrefix(sel.Sel.Name, "Reason") || values[sel.Sel.Name] == "" {
				return true // not a reason constant (vocab.ReasonOf)
			}
			used++
			r := Reason(values[sel.Sel.Name])
			info, spec := vocab.ReasonOf(string(r))
			if f := Fail(r); !spec || info.Kind == "" || string(f.Code) != info.Kind || f.Status == 0 || f.Message == "" {
				t.Errorf("%s: vocab.%s (%q) has no question error kind in error_reasons: %+v", file, sel.Sel.Name, r, info)
			}
			return true
		})
	}
	if used < 40 {
		t.Fatalf("found %d reasons in the package's code", used)
	}
}

// vocabConstants maps the string constants of the generated vocabulary
// file to their values.
func vocabConstants(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, spec := range g.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, name := range vs.Names {
				if i < len(vs.Values) {
					if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
						out[name.Name], _ = strconv.Unquote(lit.Value)
					}
				}
			}
		}
	}
	return out
}
