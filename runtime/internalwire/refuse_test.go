package internalwire

import (
	"errors"
	"strings"
	"testing"

	sop "github.com/vllm-sr/systemone/runtime/systemoneprotocol"
)

// Each refused body names why: a fixed reason and the JSON path at fault.
var refusedRequests = []struct {
	name, body string
	reason     sop.Reason
	path       string
}{
	{"not JSON", `{"state":`, sop.ReasonInvalidJSON, "body"},
	{"duplicate member", `{"state":"a","state":"b","questions":{"q":{"type":"noul"}}}`, sop.ReasonInvalidJSON, "body"},
	{"not an object", `["state"]`, sop.ReasonWrongType, "body"},
	{"unknown request member", `{"state":"a","questions":{"q":{"type":"noul"}},"stream":true}`, sop.ReasonUnknownMember, "stream"},
	{"unknown question member", `{"state":"a","questions":{"q":{"type":"noul","choicez":{}}}}`, sop.ReasonUnknownMember, "questions.q.choicez"},
	{"unknown option", `{"state":"a","questions":{"q":{"type":"noul"}},"options":{"timeout":1}}`, sop.ReasonUnknownMember, "options.timeout"},
	{"unknown asset member", `{"state":"a","questions":{"q":{"type":"box"}},"images":{"p":{"data_base64":"AA==","url":"x"}}}`, sop.ReasonUnknownMember, "images.p.url"},
	{"no state", `{"questions":{"q":{"type":"noul"}}}`, sop.ReasonMissingMember, "state"},
	{"state and states", `{"state":"a","states":{"x":"b"},"questions":{"q":{"type":"noul"}}}`, sop.ReasonConflict, "states"},
	{"empty states", `{"states":{},"questions":{"q":{"type":"noul"}}}`, sop.ReasonEmpty, "states"},
	{"number state", `{"state":3,"questions":{"q":{"type":"noul"}}}`, sop.ReasonWrongType, "state"},
	{"null state", `{"state":null,"questions":{"q":{"type":"noul"}}}`, sop.ReasonWrongType, "state"},
	{"no questions", `{"state":"a"}`, sop.ReasonMissingMember, "questions"},
	{"empty questions", `{"state":"a","questions":{}}`, sop.ReasonEmpty, "questions"},
	{"unknown type", `{"state":"a","questions":{"q":{"type":"bool"}}}`, sop.ReasonUnknownValue, "questions.q.type"},
	{"no type nor preset", `{"state":"a","questions":{"q":{"instructions":"x"}}}`, sop.ReasonMissingMember, "questions.q.type"},
	{"unknown role", `{"state":{"a":"x"},"roles":{"a":"system"},"questions":{"q":{"type":"noul"}}}`, sop.ReasonUnknownValue, "roles.a"},
	{"roles not an object", `{"state":"a","roles":["user"],"questions":{"q":{"type":"noul"}}}`, sop.ReasonWrongType, "roles"},
	{"two criteria spellings", `{"state":"a","questions":{"q":{"type":"choice","criteria":{"x":null},"choices":{"y":null}}}}`, sop.ReasonConflict, "questions.q.choices"},
	{"levels on a choice", `{"state":"a","questions":{"q":{"type":"choice","levels":["a","b"]}}}`, sop.ReasonSpellingForType, "questions.q.levels"},
	{"labels on a noul", `{"state":"a","questions":{"q":{"type":"noul","labels":{"x":null}}}}`, sop.ReasonSpellingForType, "questions.q.labels"},
	{"choices as an array", `{"state":"a","questions":{"q":{"type":"choice","choices":["a"]}}}`, sop.ReasonWrongType, "questions.q.choices"},
	{"score criteria as an object", `{"state":"a","questions":{"q":{"type":"score","criteria":{"a":"b"}}}}`, sop.ReasonWrongType, "questions.q.criteria"},
	{"null score level", `{"state":"a","questions":{"q":{"type":"score","levels":["a",null]}}}`, sop.ReasonWrongType, "questions.q.levels[1]"},
	{"noul key other than true or false", `{"state":"a","questions":{"q":{"type":"noul","criteria":{"yes":"y"}}}}`, sop.ReasonUnknownMember, "questions.q.criteria.yes"},
	{"criteria on a box", `{"state":"a","questions":{"q":{"type":"box","criteria":{"a":"b"}}}}`, sop.ReasonNotAllowedHere, "questions.q.criteria"},
	{"number description", `{"state":"a","questions":{"q":{"type":"choice","criteria":{"a":1}}}}`, sop.ReasonWrongType, "questions.q.criteria.a"},
	{"head on a choice", `{"state":"a","questions":{"q":{"type":"choice","criteria":{"a":null},"head":"router"}}}`, sop.ReasonNotAllowedHere, "questions.q.head"},
	{"unknown head", `{"state":"a","questions":{"q":{"type":"span","labels":{"a":null},"head":"wide"}}}`, sop.ReasonUnknownValue, "questions.q.head"},
	{"threshold above 1", `{"state":"a","questions":{"q":{"type":"set","labels":{"a":null},"threshold":1.5}}}`, sop.ReasonOutOfRange, "questions.q.threshold"},
	{"rate 3", `{"state":"a","questions":{"q":{"type":"track","rate":3}}}`, sop.ReasonOutOfRange, "questions.q.rate"},
	{"rate as a float", `{"state":"a","questions":{"q":{"type":"track","rate":1.0}}}`, sop.ReasonWrongType, "questions.q.rate"},
	{"over of numbers", `{"state":"a","questions":{"q":{"type":"noul","over":[1]}}}`, sop.ReasonWrongType, "questions.q.over[0]"},
	{"negative deadline", `{"state":"a","questions":{"q":{"type":"noul"}},"options":{"deadline_ms":-1}}`, sop.ReasonOutOfRange, "options.deadline_ms"},
	{"long_context not a boolean", `{"state":"a","questions":{"q":{"type":"noul"}},"options":{"long_context":"yes"}}`, sop.ReasonWrongType, "options.long_context"},
	{"assets and images", `{"state":"a","questions":{"q":{"type":"box"}},"assets":{"p":{"type":"image","format":"png","data_base64":"AA=="}},"images":{"r":{"format":"png","data_base64":"AA=="}}}`, sop.ReasonConflict, "assets"},
	{"asset without type", `{"state":"a","questions":{"q":{"type":"box"}},"assets":{"p":{"data_base64":"AA=="}}}`, sop.ReasonMissingMember, "assets.p.type"},
	{"video under images", `{"state":"a","questions":{"q":{"type":"box"}},"images":{"p":{"type":"video","data_base64":"AA=="}}}`, sop.ReasonConflict, "images.p.type"},
	{"placeholder twice", `{"state":"a","questions":{"q":{"type":"box"}},"images":{"p":{"format":"png","data_base64":"AA=="}},"videos":{"p":{"format":"mp4","data_base64":"AA=="}}}`, sop.ReasonConflict, "videos.p"},
	{"asset without format", `{"state":"a","questions":{"q":{"type":"box"}},"images":{"p":{"data_base64":"AA=="}}}`, sop.ReasonMissingMember, "images.p.format"},
	{"asset without data", `{"state":"a","questions":{"q":{"type":"box"}},"images":{"p":{"format":"png"}}}`, sop.ReasonMissingMember, "images.p.data_base64"},
	{"escaped unknown member named decoded", `{"state":"a","questions":{"q":{"type":"noul"}},"\u0078":1}`, sop.ReasonUnknownMember, "x"},
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
	reason     sop.Reason
	path       string
}{
	{"no requests", `{"model":"m"}`, sop.ReasonMissingMember, "requests"},
	{"empty requests", `{"requests":{}}`, sop.ReasonEmpty, "requests"},
	{"unknown bundle member", `{"requests":{"a":{"state":"x","questions":{"q":{"type":"noul"}}}},"stream":true}`, sop.ReasonUnknownMember, "stream"},
	{"bundle options", `{"requests":{"a":{"state":"x","questions":{"q":{"type":"noul"}}}},"options":{}}`, sop.ReasonUnknownMember, "options"},
	{"items not an object", `{"requests":[]}`, sop.ReasonWrongType, "requests"},
	{"bad item", `{"requests":{"a":{"state":"x","questions":{"q":{"type":"noul","x":1}}}}}`, sop.ReasonUnknownMember, "requests.a.questions.q.x"},
}

func TestRefusedBundlesNameWhy(t *testing.T) {
	for _, c := range refusedBundles {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := DecodeBundle([]byte(c.body))
			checkRefusal(t, err, c.reason, c.path)
		})
	}
}

func checkRefusal(t *testing.T, err error, reason sop.Reason, path string) {
	t.Helper()
	var pe *sop.ProtocolError
	if !errors.As(err, &pe) {
		t.Fatalf("got %v, want a *ProtocolError", err)
	}
	if pe.Category != sop.CategoryInvalidRequest || pe.Reason != reason || pe.Path.String() != path {
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
