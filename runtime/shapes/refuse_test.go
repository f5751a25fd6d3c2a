package shapes

import (
	"errors"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/table"
)

// The generated validator's reasons, which the internal form refuses with
// as every listener does.
const (
	tooFew    = ir.Reason(table.ReasonTooFew)
	notNull   = ir.Reason(table.ReasonNotAllowedNull)
	notInEnum = ir.Reason(table.ReasonNotInEnum)
	aboveMax  = ir.Reason(table.ReasonAboveMaximum)
	belowMin  = ir.Reason(table.ReasonBelowMinimum)
)

// Each refused body names why: a fixed reason and the JSON path at fault.
var refusedRequests = []struct {
	name, body string
	reason     ir.Reason
	path       string
}{
	{"not JSON", `{"state":`, ir.ReasonInvalidJSON, "body"},
	{"duplicate member", `{"state":"a","state":"b","questions":{"q":{"type":"noul"}}}`, ir.ReasonInvalidJSON, "body"},
	{"not an object", `["state"]`, ir.ReasonWrongType, "body"},
	{"unknown request member", `{"state":"a","questions":{"q":{"type":"noul"}},"stream":true}`, ir.ReasonUnknownMember, "stream"},
	{"unknown question member", `{"state":"a","questions":{"q":{"type":"noul","choicez":{}}}}`, ir.ReasonUnknownMember, "questions.q.choicez"},
	{"unknown option", `{"state":"a","questions":{"q":{"type":"noul"}},"options":{"timeout":1}}`, ir.ReasonUnknownMember, "options.timeout"},
	{"unknown asset member", `{"state":"a","questions":{"q":{"type":"box"}},"images":{"p":{"data_base64":"AA==","url":"x"}}}`, ir.ReasonUnknownMember, "images.p.url"},
	{"no state", `{"questions":{"q":{"type":"noul"}}}`, ir.ReasonMissingMember, "state"},
	{"state and states", `{"state":"a","states":{"x":"b"},"questions":{"q":{"type":"noul"}}}`, ir.ReasonConflict, "states"},
	{"empty states", `{"states":{},"questions":{"q":{"type":"noul"}}}`, tooFew, "states"},
	{"number state", `{"state":3,"questions":{"q":{"type":"noul"}}}`, ir.ReasonWrongType, "state"},
	{"null state", `{"state":null,"questions":{"q":{"type":"noul"}}}`, notNull, "state"},
	{"no questions", `{"state":"a"}`, ir.ReasonMissingMember, "questions"},
	{"empty questions", `{"state":"a","questions":{}}`, tooFew, "questions"},
	{"unknown type", `{"state":"a","questions":{"q":{"type":"bool"}}}`, notInEnum, "questions.q.type"},
	{"no type nor preset", `{"state":"a","questions":{"q":{"instructions":"x"}}}`, ir.ReasonMissingMember, "questions.q.type"},
	{"unknown role", `{"state":{"a":"x"},"roles":{"a":"system"},"questions":{"q":{"type":"noul"}}}`, notInEnum, "roles.a"},
	{"roles not an object", `{"state":"a","roles":["user"],"questions":{"q":{"type":"noul"}}}`, ir.ReasonWrongType, "roles"},
	{"two criteria spellings", `{"state":"a","questions":{"q":{"type":"choice","criteria":{"x":null},"choices":{"y":null}}}}`, ir.ReasonConflict, "questions.q.choices"},
	{"levels on a choice", `{"state":"a","questions":{"q":{"type":"choice","levels":["a","b"]}}}`, ir.ReasonUnknownMember, "questions.q.levels"},
	{"labels on a noul", `{"state":"a","questions":{"q":{"type":"noul","labels":{"x":null}}}}`, ir.ReasonUnknownMember, "questions.q.labels"},
	{"choices as an array", `{"state":"a","questions":{"q":{"type":"choice","choices":["a"]}}}`, ir.ReasonWrongType, "questions.q.choices"},
	{"score criteria as an object", `{"state":"a","questions":{"q":{"type":"score","criteria":{"a":"b"}}}}`, ir.ReasonWrongType, "questions.q.criteria"},
	{"null score level", `{"state":"a","questions":{"q":{"type":"score","levels":["a",null]}}}`, notNull, "questions.q.levels[1]"},
	{"noul key other than true or false", `{"state":"a","questions":{"q":{"type":"noul","criteria":{"yes":"y"}}}}`, ir.ReasonUnknownMember, "questions.q.criteria.yes"},
	{"criteria on a box", `{"state":"a","questions":{"q":{"type":"box","criteria":{"a":"b"}}}}`, ir.ReasonUnknownMember, "questions.q.criteria"},
	{"number description", `{"state":"a","questions":{"q":{"type":"choice","criteria":{"a":1}}}}`, ir.ReasonWrongType, "questions.q.criteria.a"},
	{"head on a choice", `{"state":"a","questions":{"q":{"type":"choice","criteria":{"a":null},"head":"router"}}}`, ir.ReasonUnknownMember, "questions.q.head"},
	{"unknown head", `{"state":"a","questions":{"q":{"type":"span","labels":{"a":null},"head":"wide"}}}`, notInEnum, "questions.q.head"},
	{"threshold above 1", `{"state":"a","questions":{"q":{"type":"set","labels":{"a":null},"threshold":1.5}}}`, aboveMax, "questions.q.threshold"},
	{"rate 3", `{"state":"a","questions":{"q":{"type":"track","rate":3}}}`, notInEnum, "questions.q.rate"},
	{"rate as a float", `{"state":"a","questions":{"q":{"type":"track","rate":1.0}}}`, ir.ReasonWrongType, "questions.q.rate"},
	{"over of numbers", `{"state":"a","questions":{"q":{"type":"noul","over":[1]}}}`, ir.ReasonWrongType, "questions.q.over[0]"},
	{"negative deadline", `{"state":"a","questions":{"q":{"type":"noul"}},"options":{"deadline_ms":0}}`, belowMin, "options.deadline_ms"},
	{"long_context not a boolean", `{"state":"a","questions":{"q":{"type":"noul"}},"options":{"long_context":"yes"}}`, ir.ReasonWrongType, "options.long_context"},
	{"assets and images", `{"state":"a","questions":{"q":{"type":"box"}},"assets":{"p":{"type":"image","format":"png","data_base64":"AA=="}},"images":{"r":{"format":"png","data_base64":"AA=="}}}`, ir.ReasonConflict, "assets"},
	{"asset without type", `{"state":"a","questions":{"q":{"type":"box"}},"assets":{"p":{"format":"png","data_base64":"AA=="}}}`, ir.ReasonMissingMember, "assets.p.type"},
	{"video under images", `{"state":"a","questions":{"q":{"type":"box"}},"images":{"p":{"type":"video","format":"mp4","data_base64":"AA=="}}}`, ir.ReasonConflict, "images.p.type"},
	{"placeholder twice", `{"state":"a","questions":{"q":{"type":"box"}},"images":{"p":{"format":"png","data_base64":"AA=="}},"videos":{"p":{"format":"mp4","data_base64":"AA=="}}}`, ir.ReasonConflict, "videos.p"},
	{"asset without format", `{"state":"a","questions":{"q":{"type":"box"}},"images":{"p":{"data_base64":"AA=="}}}`, ir.ReasonMissingMember, "images.p.format"},
	{"asset without data", `{"state":"a","questions":{"q":{"type":"box"}},"images":{"p":{"format":"png"}}}`, ir.ReasonMissingMember, "images.p.data_base64"},
	{"escaped unknown member named decoded", `{"state":"a","questions":{"q":{"type":"noul"}},"\u0078":1}`, ir.ReasonUnknownMember, "x"},
}

func TestRefusedRequestsNameWhy(t *testing.T) {
	for _, c := range refusedRequests {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := DecodeRequest([]byte(c.body))
			checkRefusal(t, err, c.reason, c.path)
		})
	}
}

var refusedBundles = []struct {
	name, body string
	reason     ir.Reason
	path       string
}{
	{"no requests", `{"model":"m"}`, ir.ReasonMissingMember, "requests"},
	{"empty requests", `{"requests":{}}`, tooFew, "requests"},
	{"unknown bundle member", `{"requests":{"a":{"state":"x","questions":{"q":{"type":"noul"}}}},"stream":true}`, ir.ReasonUnknownMember, "stream"},
	{"bundle options", `{"requests":{"a":{"state":"x","questions":{"q":{"type":"noul"}}}},"options":{}}`, ir.ReasonNotAllowedHere, "options"},
	{"items not an object", `{"requests":[]}`, ir.ReasonWrongType, "requests"},
	{"bad item", `{"requests":{"a":{"state":"x","questions":{"q":{"type":"noul","x":1}}}}}`, ir.ReasonUnknownMember, "requests.a.questions.q.x"},
}

func TestRefusedBundlesNameWhy(t *testing.T) {
	for _, c := range refusedBundles {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := DecodeBundle([]byte(c.body))
			checkRefusal(t, err, c.reason, c.path)
		})
	}
}

func checkRefusal(t *testing.T, err error, reason ir.Reason, path string) {
	t.Helper()
	var pe *ir.ProtocolError
	if !errors.As(err, &pe) {
		t.Fatalf("got %v, want a *ProtocolError", err)
	}
	if pe.Category != ir.CategoryInvalidRequest || pe.Reason != reason || pe.Path.String() != path {
		t.Fatalf("got %s %s at %s, want invalid_request %s at %s (%v)", pe.Category, pe.Reason, pe.Path, reason, path, err)
	}
	if msg := err.Error(); strings.Contains(msg, "\n") || !strings.HasPrefix(msg, path+": ") {
		t.Fatalf("error %q is not one line starting with its path", msg)
	}
}

// TestRefusalsNeverCopyValues plants a marker in every value position a
// refusal could be about and checks no message repeats it.
func TestRefusalsNeverCopyValues(t *testing.T) {
	const marker = "SECRET-VALUE"
	bodies := []string{
		`{"state":"` + marker + `","questions":{"q":{"type":"` + marker + `"}}}`,
		`{"state":{"a":"x"},"roles":{"a":"` + marker + `"},"questions":{"q":{"type":"noul"}}}`,
		`{"state":"a","questions":{"q":{"type":"span","labels":{"a":null},"head":"` + marker + `"}}}`,
		`{"state":"a","questions":{"q":{"type":"noul","overflow":"` + marker + `"}}}`,
		`{"state":"a","questions":{"q":{"type":"box"}},"assets":{"p":{"type":"` + marker + `","data_base64":"AA=="}}}`,
		`{"state":"` + marker + `,"questions":{}}`,
	}
	for _, body := range bodies {
		_, _, err := DecodeRequest([]byte(body))
		if err == nil {
			t.Fatalf("accepted %s", body)
		}
		if strings.Contains(err.Error(), marker) {
			t.Errorf("message copies a value: %v", err)
		}
	}
}
