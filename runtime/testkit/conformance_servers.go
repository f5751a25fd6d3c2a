package testkit

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/generated/catalog"
	"github.com/vllm-sr/systemone/generated/validate"
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/refscorer"
	"github.com/vllm-sr/systemone/runtime/table"
)

// ConformanceModel is the model the standard test server lists and the
// only one it answers with.
const ConformanceModel = "d3"

// ConformanceFaults are the ways a conformance test server breaks the
// standard on purpose; the zero value breaks nothing.
type ConformanceFaults struct {
	// NoulOutOfRange answers every noul with 1.7.
	NoulOutOfRange bool
	// DropProbability leaves a choice answer's last option out of its
	// probabilities.
	DropProbability bool
	// AcceptUnknown ignores members the standard does not define instead
	// of refusing them.
	AcceptUnknown bool
}

// NewConformanceServer starts a systemone/0.2 server on loopback, closed
// by t's cleanup. GET /v1/models lists ConformanceModel; POST
// /v1/systemone refuses a schema violation (the generated systemone/0.2
// validator's problems) with 422 and the standard's detail list, an
// unknown model with 400 api_usage_error, and answers the rest with the
// reference scorer. faults break it as they say.
func NewConformanceServer(t testing.TB, faults ConformanceFaults) *httptest.Server {
	s := &conformanceServer{faults: faults}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return srv
}

type conformanceServer struct {
	faults ConformanceFaults
}

func (s *conformanceServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set(vocab.HeaderRequestID, "req_conformance")
	switch {
	case r.Method == http.MethodGet && r.URL.Path == vocab.PathModels:
		writeBody(w, 200, standardListing)
	case r.Method == http.MethodPost && r.URL.Path == vocab.PathSystemone:
		s.systemOne(w, r)
	default:
		writeBody(w, 404, `{"detail":"Not Found"}`)
	}
}

func (s *conformanceServer) systemOne(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, vocab.LimitBodyBytes+1))
	if err != nil || int64(len(body)) > vocab.LimitBodyBytes {
		writeBody(w, 413, `{"detail":"Request too large"}`)
		return
	}
	root, err := jsonvalue.Decode(body, jsonvalue.Options{})
	if err != nil {
		writeValidation(w, []validationItem{{Loc: []string{"body"}, Msg: "JSON decode error", Type: "json_invalid"}})
		return
	}
	problems := validate.RequestStandard02(root)
	if s.faults.AcceptUnknown {
		root, problems = withoutUnknown(root, problems)
	}
	if len(problems) > 0 {
		writeValidation(w, validationItems(problems))
		return
	}
	if m, _ := root.Get(vocab.RequestModel); m.Str() != ConformanceModel {
		writeBody(w, 400, `{"detail":{"error_type":"api_usage_error","message":"Unknown model."}}`)
		return
	}
	out, status := scoreStandard(r, jsonvalue.Compact(root), nil)
	if status != 200 {
		writeBody(w, 500, `{"detail":"Internal Server Error"}`)
		return
	}
	if s.faults.NoulOutOfRange || s.faults.DropProbability {
		out = s.spoil(out)
	}
	writeBody(w, 200, string(out))
}

// standardListing is the GET /v1/models answer of the standard test
// servers: ConformanceModel alone.
const standardListing = `{"models":[{"name":"` + ConformanceModel + `","description":"Standard decision model","release_date":"2025-06-01"}]}`

// scoreStandard answers a body the systemone/0.2 validator took: read by
// the 5.0 listener codec, decided by the reference scorer as
// vllm-sr/decision1 under the model the body names, the response changed
// by edit when set. The status is 200, 400 for a body the codec refuses,
// or 500.
func scoreStandard(r *http.Request, body []byte, edit func(*ir.Request, *ir.Response)) ([]byte, int) {
	cr, err := listener.V50.Read(listener.EndpointSystemOne, body, r.Header)
	if err != nil {
		return nil, 400
	}
	model, _ := catalog.Model("vllm-sr/decision1")
	resp, err := (&refscorer.Scorer{}).Decide(r.Context(), model, cr.Request)
	if err != nil {
		return nil, 500
	}
	resp.Model = cr.Request.Model
	if edit != nil {
		edit(cr.Request, resp)
	}
	out, err := listener.V50.AnswerSuccess(cr, listener.Outcome{Response: resp})
	if err != nil {
		return nil, 500
	}
	return out, 200
}

// spoil rewrites each answer of a response body as the faults say.
func (s *conformanceServer) spoil(body []byte) []byte {
	v, err := jsonvalue.Decode(body, jsonvalue.Options{})
	if err != nil {
		return body
	}
	return jsonvalue.Compact(mapMember(v, vocab.ResponseAnswers, func(answers jsonvalue.Value) jsonvalue.Value {
		var ms []jsonvalue.Member
		for _, a := range answers.Members() {
			ms = append(ms, member(a.Name, s.breakAnswer(a.Value)))
		}
		return object(ms...)
	}))
}

func (s *conformanceServer) breakAnswer(a jsonvalue.Value) jsonvalue.Value {
	if s.faults.NoulOutOfRange {
		a = mapMember(a, vocab.AnswerNoul, func(jsonvalue.Value) jsonvalue.Value { return jsonvalue.Float(1.7) })
	}
	if s.faults.DropProbability {
		if t, _ := a.Get(vocab.AnswerType); t.Str() == vocab.QuestionTypeChoice {
			a = mapMember(a, vocab.AnswerProbabilities, func(p jsonvalue.Value) jsonvalue.Value {
				return object(p.Members()[:max(p.Len()-1, 0)]...)
			})
		}
	}
	return a
}

// mapMember is object v with member name's value replaced by fn of it;
// v as it is when it has no such member.
func mapMember(v jsonvalue.Value, name string, fn func(jsonvalue.Value) jsonvalue.Value) jsonvalue.Value {
	var ms []jsonvalue.Member
	for _, m := range v.Members() {
		if m.Name == name {
			m = member(m.Name, fn(m.Value))
		}
		ms = append(ms, m)
	}
	return object(ms...)
}

func object(ms ...jsonvalue.Member) jsonvalue.Value {
	v, _ := jsonvalue.Object(ms...)
	return v
}

func member(name string, v jsonvalue.Value) jsonvalue.Member {
	return jsonvalue.Member{Name: name, Value: v}
}

// withoutUnknown drops the members the unknown_member problems point at
// and returns the other problems: how a server that ignores unknown
// members reads the body.
func withoutUnknown(root jsonvalue.Value, problems []table.Problem) (jsonvalue.Value, []table.Problem) {
	var rest []table.Problem
	for _, p := range problems {
		if p.Reason != table.ReasonUnknownMember {
			rest = append(rest, p)
			continue
		}
		root = dropAt(root, pointerSegments(p.Path))
	}
	return root, rest
}

// dropAt is v without the member at path (object member names).
func dropAt(v jsonvalue.Value, path []string) jsonvalue.Value {
	if len(path) == 0 || v.Kind() != jsonvalue.KindObject {
		return v
	}
	var ms []jsonvalue.Member
	for _, m := range v.Members() {
		switch {
		case m.Name != path[0]:
			ms = append(ms, m)
		case len(path) > 1:
			ms = append(ms, member(m.Name, dropAt(m.Value, path[1:])))
		}
	}
	return object(ms...)
}

// pointerSegments splits an RFC 6901 JSON Pointer into its unescaped
// segments.
func pointerSegments(p string) []string {
	if p == "" {
		return nil
	}
	parts := strings.Split(strings.TrimPrefix(p, "/"), "/")
	for i, s := range parts {
		parts[i] = strings.NewReplacer("~1", "/", "~0", "~").Replace(s)
	}
	return parts
}

// validationItem is one item of the standard's 422 detail list.
type validationItem struct {
	Loc  []string `json:"loc"`
	Msg  string   `json:"msg"`
	Type string   `json:"type"`
}

func validationItems(problems []table.Problem) []validationItem {
	var items []validationItem
	for _, p := range problems {
		items = append(items, validationItem{Loc: append([]string{"body"}, pointerSegments(p.Path)...), Msg: p.Message(), Type: string(p.Reason)})
	}
	return items
}

func writeValidation(w http.ResponseWriter, items []validationItem) {
	out, _ := json.Marshal(struct {
		Detail []validationItem `json:"detail"`
	}{items})
	writeBody(w, 422, string(out))
}
