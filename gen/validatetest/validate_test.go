package validatetest_test

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/generated/validate"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

const (
	s02 = table.SchemaStandard02
	s50 = table.SchemaVllmSR50
	s40 = table.SchemaVllmSR40
	sIn = table.SchemaInternal
)

// allSchemas are the wire schemas clients speak; everySchema adds the
// internal form, which accepts what vllm-sr/4.0 does (and roles null).
var (
	allSchemas  = []table.SchemaID{s02, s50, s40}
	everySchema = []table.SchemaID{s02, s50, s40, sIn}
)

// requestCase is one body checked under some schemas. want lists the
// problems in order, each as describe renders it; nil means valid.
type requestCase struct {
	name    string
	schemas []table.SchemaID
	body    string
	want    []string
}

// describe renders a problem as "path reason detail": the replacement of a
// removed form, the limit of a count or bound, the expectation of a type or
// enum problem.
func describe(p table.Problem) string {
	s := p.Path + " " + string(p.Reason)
	switch p.Reason {
	case table.ReasonRemovedForm:
		s += " -> " + p.Replacement
	case table.ReasonTooFew, table.ReasonTooMany, table.ReasonBelowMinimum, table.ReasonAboveMaximum:
		s += " " + strconv.FormatInt(p.Limit, 10)
	case table.ReasonWrongType, table.ReasonNotInEnum, table.ReasonNotAllowedNull, table.ReasonUnknownSchema:
		s += " (" + p.Expected + ")"
	}
	return s
}

func decode(t testing.TB, body string) jsonvalue.Value {
	t.Helper()
	v, err := jsonvalue.Decode([]byte(body), jsonvalue.Options{})
	if err != nil {
		t.Fatalf("test body is not JSON: %v\n%s", err, body)
	}
	return v
}

func runCases(t *testing.T, check func(table.SchemaID, jsonvalue.Value) []table.Problem, cases []requestCase) {
	t.Helper()
	for _, c := range cases {
		for _, schema := range c.schemas {
			t.Run(c.name+"/"+string(schema), func(t *testing.T) {
				problems := check(schema, decode(t, c.body))
				var got []string
				for _, p := range problems {
					checkInvariants(t, p)
					got = append(got, describe(p))
				}
				if !slices.Equal(c.want, got) {
					t.Errorf("problems mismatch:\nwant %s\n got %s", strings.Join(c.want, "\n      "), strings.Join(got, "\n      "))
				}
			})
		}
	}
}

// checkInvariants: a member problem names the member its path ends with,
// and a message names the path.
func checkInvariants(t *testing.T, p table.Problem) {
	t.Helper()
	switch p.Reason {
	case table.ReasonUnknownMember, table.ReasonMissingMember, table.ReasonRemovedForm:
		if !strings.HasSuffix(p.Path, "/"+p.Member) || p.Member == "" {
			t.Errorf("problem %+v: Member does not end its Path", p)
		}
	}
	if p.Path != "" && !strings.Contains(p.Message(), p.Path) {
		t.Errorf("message %q does not name path %q", p.Message(), p.Path)
	}
}

// guideRequest is the API guide's single request, with roles and options.
const guideRequest = `{
  "model": "vllm-sr/vela3-fast",
  "state": {
    "request": "Our export button fails with a 500 since this morning. Open a ticket.",
    "history": "How do I export my invoices as CSV?"
  },
  "roles": {"request": "user", "history": "context"},
  "questions": {
    "team": {
      "type": "choice",
      "instructions": "Which team should handle this request?",
      "criteria": {"billing": "Payments, invoices and refunds", "engineering": "Outages, errors and bugs", "other": "Anything else"}
    },
    "urgent": {"type": "noul", "instructions": "Does the user report a problem that blocks their work?"}
  },
  "options": {"deadline_ms": 1500}
}`

// jsSDKRequest is what the official JS SDK 0.6.0 sends.
const jsSDKRequest = `{"state":{"msg":"hi"},"questions":{"a":{"type":"noul","instructions":"Is it?"},
 "b":{"type":"choice","instructions":"Which?","criteria":{"x":null,"y":"why"}},
 "s":{"type":"score","instructions":"How?","criteria":["lo","hi"]},
 "n":{"type":"noul","instructions":null}},"model":"jev-latest"}`

// request wraps questions (a JSON object's members) into a valid request.
func request(questions string) string {
	return `{"model":"m","state":"s","questions":{` + questions + `}}`
}

// withRequest adds top-level members to a valid one-question request.
func withRequest(members string) string {
	return `{"model":"m","state":"s","questions":{"q":{"type":"noul"}},` + members + `}`
}

var standardClientCases = []requestCase{
	{"guide request without extensions", allSchemas, request(`"team":{"type":"choice","instructions":"Which?","criteria":{"billing":"Payments","other":"Anything else"}}`), nil},
	{"official JS SDK body", allSchemas, jsSDKRequest, nil},
	{"bare noul", allSchemas, request(`"q":{"type":"noul"}`), nil},
	{"noul criteria absent, null, empty, null members, content", allSchemas, request(
		`"a":{"type":"noul"},"b":{"type":"noul","criteria":null},"c":{"type":"noul","criteria":{}},` +
			`"d":{"type":"noul","criteria":{"true":null,"false":null}},"e":{"type":"noul","criteria":{"true":"yes","false":["no",1]}}`), nil},
	{"instructions null, absent, object, array", allSchemas, request(
		`"a":{"type":"noul","instructions":null},"b":{"type":"noul"},"c":{"type":"noul","instructions":{"ask":"x"}},"d":{"type":"noul","instructions":["x",{"y":1}]}`), nil},
	{"choice descriptions null, string, object, array", allSchemas, request(
		`"q":{"type":"choice","criteria":{"a":null,"b":"text","c":{"k":[1]},"d":["x"]}}`), nil},
	{"choice with a single option", allSchemas, request(`"q":{"type":"choice","criteria":{"only":null}}`), nil},
	{"score with two to ten levels", allSchemas, request(
		`"two":{"type":"score","criteria":["lo","hi"]},"ten":{"type":"score","criteria":["0","1","2","3","4","5","6","7","8","9"]}`), nil},
	{"state as object and array", allSchemas,
		`{"model":"m","state":["a",{"b":1}],"questions":{"q":{"type":"noul"}}}`, nil},
	{"box with an image asset", allSchemas,
		`{"model":"m","state":{"photo":"img-1"},"questions":{"q":{"type":"box","instructions":"the mug"}},` +
			`"assets":{"img-1":{"type":"image","format":"png","data_base64":"AAAA"}}}`, nil},
}

func TestRequestStandardClientsPass(t *testing.T) { runCases(t, validate.Request, standardClientCases) }

var extensionCases = []requestCase{
	{"guide request with roles and options", []table.SchemaID{s50, s40}, guideRequest, nil},
	{"guide request on the standard", []table.SchemaID{s02}, guideRequest, []string{
		"/roles unknown_member", "/options unknown_member"}},
	{"extension question members", []table.SchemaID{s50, s40}, request(
		`"p":{"type":"span","instructions":"PII?","criteria":{"email":null},"preset":"pii","head":"broad","over":["request"],"threshold":0.5,"overflow":"window","require_full_input":true},` +
			`"s":{"type":"set","criteria":{"a":"A","b":null},"threshold":0.4},` +
			`"c":{"type":"choice","criteria":{"a":null},"decision_adapter":true,"over":"request"},` +
			`"b":{"type":"box","at":1.5},"t":{"type":"track","rate":2}`), nil},
	{"extension question members on the standard", []table.SchemaID{s02}, request(
		`"c":{"type":"choice","criteria":{"a":null},"preset":"pii","over":"request","overflow":"window","require_full_input":true,"decision_adapter":true}`), []string{
		"/questions/c/preset unknown_member", "/questions/c/over unknown_member", "/questions/c/overflow unknown_member",
		"/questions/c/require_full_input unknown_member", "/questions/c/decision_adapter unknown_member"}},
	{"extension question types on the standard", []table.SchemaID{s02}, request(`"s":{"type":"span","criteria":{"a":null}}`), []string{
		"/questions/s/type not_in_enum (noul, choice, score or box)"}},
	{"video asset", []table.SchemaID{s50, s40}, withRequest(`"assets":{"v":{"type":"video","format":"mp4","data_base64":"AAAA"}}`), nil},
	{"video asset on the standard", []table.SchemaID{s02}, withRequest(`"assets":{"v":{"type":"video","format":"mp4","data_base64":"AAAA"}}`), []string{
		"/assets/v/type not_in_enum (image)", "/assets/v/format not_in_enum (png, jpg or jpeg)"}},
	{"all options", []table.SchemaID{s50, s40}, withRequest(`"options":{"deadline_ms":1,"return_meta":false,"max_tokens":4096}`), nil},
}

func TestRequestExtensions(t *testing.T) { runCases(t, validate.Request, extensionCases) }

var unknownMemberCases = []requestCase{
	{"request", allSchemas, withRequest(`"colour":1`), []string{"/colour unknown_member"}},
	{"question of each type", allSchemas, request(
		`"n":{"type":"noul","colour":1},"c":{"type":"choice","criteria":{"a":null},"colour":1},"s":{"type":"score","criteria":["lo","hi"],"colour":1},"b":{"type":"box","colour":1}`), []string{
		"/questions/n/colour unknown_member", "/questions/c/colour unknown_member", "/questions/s/colour unknown_member", "/questions/b/colour unknown_member"}},
	{"extension question types", []table.SchemaID{s50, s40}, request(
		`"set":{"type":"set","criteria":{"a":null},"colour":1},"span":{"type":"span","criteria":{"a":null},"colour":1},"t":{"type":"track","colour":1}`), []string{
		"/questions/set/colour unknown_member", "/questions/span/colour unknown_member", "/questions/t/colour unknown_member"}},
	{"question without a type", allSchemas, request(`"q":{"colour":1,"instructions":"x"}`), []string{
		"/questions/q/colour unknown_member", "/questions/q/type missing_member"}},
	{"noul criteria", allSchemas, request(`"q":{"type":"noul","criteria":{"true":"y","maybe":"m"}}`), []string{
		"/questions/q/criteria/maybe unknown_member"}},
	{"asset", allSchemas, withRequest(`"assets":{"img":{"type":"image","format":"png","data_base64":"AA","colour":1}}`), []string{
		"/assets/img/colour unknown_member"}},
	{"options", []table.SchemaID{s50, s40}, withRequest(`"options":{"colour":1}`), []string{"/options/colour unknown_member"}},
	{"member on a type that does not take it", []table.SchemaID{s50, s40}, request(
		`"c":{"type":"choice","criteria":{"a":null},"threshold":0.5,"head":"router","rate":1,"at":1}`), []string{
		"/questions/c/threshold unknown_member", "/questions/c/head unknown_member", "/questions/c/rate unknown_member", "/questions/c/at unknown_member"}},
	{"escaped names are decoded", allSchemas, `{"model":"m","st\u0061te":"s","questions":{"a/b~c":{"type":"noul","x":1}}}`, []string{
		"/questions/a~1b~0c/x unknown_member"}},
}

func TestRequestUnknownMemberAtEveryLevel(t *testing.T) {
	runCases(t, validate.Request, unknownMemberCases)
}

var typeCases = []requestCase{
	{"body not an object", allSchemas, `[]`, []string{" wrong_type (object)"}},
	{"body null", allSchemas, `null`, []string{" not_allowed_null (object)"}},
	{"state number, then missing members", []table.SchemaID{s02}, `{"state":42}`, []string{
		"/state wrong_type (string, object or array)", "/model missing_member", "/questions missing_member"}},
	{"5.0 and 4.0 require only questions", []table.SchemaID{s50, s40, sIn}, `{"state":42}`, []string{
		"/state wrong_type (string, object or array)", "/questions missing_member"}},
	{"state boolean and null", allSchemas, `{"model":"m","state":true,"questions":{"q":{"type":"noul"}}}`, []string{
		"/state wrong_type (string, object or array)"}},
	{"state null", allSchemas, `{"model":"m","state":null,"questions":{"q":{"type":"noul"}}}`, []string{
		"/state not_allowed_null (string, object or array)"}},
	{"model number", allSchemas, `{"model":5,"state":"s","questions":{"q":{"type":"noul"}}}`, []string{"/model wrong_type (string)"}},
	{"questions array", allSchemas, `{"model":"m","state":"s","questions":[]}`, []string{"/questions wrong_type (object)"}},
	{"question not an object", allSchemas, request(`"q":"noul"`), []string{"/questions/q wrong_type (object)"}},
	{"instructions number", allSchemas, request(`"q":{"type":"noul","instructions":5}`), []string{
		"/questions/q/instructions wrong_type (string, object, array or null)"}},
	{"choice criteria as array", allSchemas, request(`"q":{"type":"choice","criteria":["a","b"]}`), []string{
		"/questions/q/criteria wrong_type (object)"}},
	{"choice criteria null", allSchemas, request(`"q":{"type":"choice","criteria":null}`), []string{
		"/questions/q/criteria not_allowed_null (object)"}},
	{"score criteria as object, and a null level", allSchemas, request(
		`"a":{"type":"score","criteria":{"0":"lo","1":"hi"}},"b":{"type":"score","criteria":["lo",null,"hi"]}`), []string{
		"/questions/a/criteria wrong_type (array)", "/questions/b/criteria/1 not_allowed_null (string, object or array)"}},
	{"choice description number", allSchemas, request(`"q":{"type":"choice","criteria":{"a":1}}`), []string{
		"/questions/q/criteria/a wrong_type (string, object, array or null)"}},
	{"type not a string", allSchemas, request(`"q":{"type":1}`), []string{"/questions/q/type wrong_type (string)"}},
	{"roles and options not objects", []table.SchemaID{s50, s40}, withRequest(`"roles":"user","options":[1]`), []string{
		"/roles wrong_type (object)", "/options wrong_type (object)"}},
	{"option types", []table.SchemaID{s50, s40}, withRequest(`"options":{"deadline_ms":"5","return_meta":1,"max_tokens":1.5}`), []string{
		"/options/deadline_ms wrong_type (integer)", "/options/return_meta wrong_type (boolean)", "/options/max_tokens wrong_type (integer)"}},
	{"over items", []table.SchemaID{s50, s40}, request(`"q":{"type":"noul","over":["a",1]}`), []string{
		"/questions/q/over/1 wrong_type (string)"}},
}

func TestRequestTypes(t *testing.T) { runCases(t, validate.Request, typeCases) }

var enumCases = []requestCase{
	{"unknown question type", allSchemas[1:], request(`"q":{"type":"bool"}`), []string{
		"/questions/q/type not_in_enum (noul, choice, score, box, set, span or track)"}},
	{"role", []table.SchemaID{s50, s40}, withRequest(`"roles":{"a":"user","b":"admin"}`), []string{
		"/roles/b not_in_enum (user, context or answer)"}},
	{"overflow, head, rate", []table.SchemaID{s50, s40}, request(
		`"q":{"type":"noul","overflow":"clip"},"s":{"type":"span","criteria":{"a":null},"head":"narrow"},"t":{"type":"track","rate":3},"u":{"type":"track","rate":"2"}`), []string{
		"/questions/q/overflow not_in_enum (window or truncate)", "/questions/s/head not_in_enum (router or broad)",
		"/questions/t/rate not_in_enum (1 or 2)", "/questions/u/rate wrong_type (integer)"}},
	{"asset format", allSchemas, withRequest(`"assets":{"i":{"type":"image","format":"gif","data_base64":"AA"}}`), []string{
		"/assets/i/format not_in_enum (png, jpg or jpeg)"}},
}

func TestRequestEnums(t *testing.T) { runCases(t, validate.Request, enumCases) }

// many joins n JSON items made by item.
func many(n int, item func(int) string) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = item(i)
	}
	return strings.Join(parts, ",")
}

func option(i int) string { return fmt.Sprintf(`"o%d":null`, i) }

func level(i int) string { return strconv.Quote(strconv.Itoa(i)) }

var limitCases = []requestCase{
	{"no questions", allSchemas, `{"model":"m","state":"s","questions":{}}`, []string{"/questions too_few 1"}},
	{"choice options 0 and 256", allSchemas, request(
		`"a":{"type":"choice","criteria":{}},"b":{"type":"choice","criteria":{` + many(256, option) + `}}`), []string{
		"/questions/a/criteria too_few 1", "/questions/b/criteria too_many 255"}},
	{"choice options 255", allSchemas, request(`"b":{"type":"choice","criteria":{` + many(255, option) + `}}`), nil},
	{"score levels 1 and 11", allSchemas, request(
		`"a":{"type":"score","criteria":["only"]},"b":{"type":"score","criteria":[` + many(11, level) + `]}`), []string{
		"/questions/a/criteria too_few 2", "/questions/b/criteria too_many 10"}},
	{"labels 0 and 256", []table.SchemaID{s50, s40}, request(
		`"a":{"type":"set","criteria":{}},"b":{"type":"span","criteria":{` + many(256, option) + `}}`), []string{
		"/questions/a/criteria too_few 1", "/questions/b/criteria too_many 255"}},
	{"option minimums", []table.SchemaID{s50, s40}, withRequest(`"options":{"deadline_ms":0,"max_tokens":-3}`), []string{
		"/options/deadline_ms below_minimum 1", "/options/max_tokens below_minimum 1"}},
	{"box at below zero", []table.SchemaID{s50, s40}, request(`"b":{"type":"box","at":-0.5}`), []string{
		"/questions/b/at below_minimum 0"}},
	{"required members", allSchemas[:2], request(
		`"c":{"type":"choice"},"s":{"type":"score","instructions":"x"}`), []string{
		"/questions/c/criteria missing_member", "/questions/s/criteria missing_member"}},
	{"4.0 preset-only questions need no criteria", []table.SchemaID{s40}, request(
		`"c":{"type":"choice","preset":"topic"},"s":{"type":"score","preset":"tone"}`), nil},
	{"asset required members", allSchemas, withRequest(`"assets":{"i":{"type":"image"}}`), []string{
		"/assets/i/format missing_member", "/assets/i/data_base64 missing_member"}},
}

func TestRequestLimits(t *testing.T) { runCases(t, validate.Request, limitCases) }

// removedForms is every removed 4.0 request form, in a body 4.0 accepts.
// On 5.0, a form whose replacement is required also leaves that missing.
var removedForms = []struct {
	name, body, path, replacement string
	alsoMissing                   string
}{
	{"choices", request(`"q":{"type":"choice","choices":{"a":"A","b":null}}`), "/questions/q/choices", "criteria", "/questions/q/criteria"},
	{"noul choices", request(`"q":{"type":"noul","choices":{"true":"yes","false":"no"}}`), "/questions/q/choices", "criteria", ""},
	{"levels", request(`"q":{"type":"score","levels":["lo","hi"]}`), "/questions/q/levels", "criteria", "/questions/q/criteria"},
	{"labels", request(`"q":{"type":"span","labels":{"email":null}}`), "/questions/q/labels", "criteria", "/questions/q/criteria"},
	{"images", withRequest(`"images":{"img-1":{"format":"png","data_base64":"AA"}}`), "/images", "assets", ""},
	{"videos", withRequest(`"videos":{"vid-1":{"format":"mp4","data_base64":"AA"}}`), "/videos", "assets", ""},
	{"states", `{"model":"m","states":{"a":"one","b":{"x":1}},"questions":{"q":{"type":"noul"}}}`, "/states", "POST /v1/systemone/batch", "/state"},
	{"long_context", withRequest(`"options":{"long_context":true}`), "/options/long_context", "header TypeSafe-Danger-Zone-Long-Context: true", ""},
}

func TestRequestRemovedForms(t *testing.T) {
	var cases []requestCase
	for _, f := range removedForms {
		want := []string{f.path + " removed_form -> " + f.replacement}
		if f.alsoMissing != "" {
			want = append(want, f.alsoMissing+" missing_member")
		}
		cases = append(cases,
			requestCase{f.name + " accepted on 4.0", []table.SchemaID{s40}, f.body, nil},
			requestCase{f.name + " refused on 5.0", []table.SchemaID{s50}, f.body, want},
		)
	}
	runCases(t, validate.Request, cases)
	t.Run("unknown on the standard", func(t *testing.T) {
		for _, f := range removedForms[:3] {
			got := validate.Request(s02, decode(t, f.body))
			if len(got) == 0 || got[0].Path != f.path || got[0].Reason != table.ReasonUnknownMember {
				t.Errorf("%s: got %v, want an unknown_member at %s first", f.name, got, f.path)
			}
		}
	})
}

func TestRequestReportsEveryProblemInDocumentOrder(t *testing.T) {
	body := `{"zeta":1,"state":null,"questions":{"b":{"type":"choice","criteria":{},"x":1},"a":{"type":"bool"}},"alpha":2}`
	runCases(t, validate.Request, []requestCase{{"order", []table.SchemaID{s50}, body, []string{
		"/zeta unknown_member", "/state not_allowed_null (string, object or array)",
		"/questions/b/criteria too_few 1", "/questions/b/x unknown_member",
		"/questions/a/type not_in_enum (noul, choice, score, box, set, span or track)",
		"/alpha unknown_member"}}})
}

func TestRequestCapsProblems(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"model":"m","state":"s","questions":{"q":{"type":"noul"}}`)
	for i := 0; i < 3*table.MaxProblems; i++ {
		fmt.Fprintf(&b, `,"x%d":1`, i)
	}
	b.WriteString("}")
	for _, schema := range allSchemas {
		got := validate.Request(schema, decode(t, b.String()))
		if len(got) != table.MaxProblems {
			t.Errorf("%s: %d problems, want the cap %d", schema, len(got), table.MaxProblems)
		}
		if got[table.MaxProblems-1].Path != fmt.Sprintf("/x%d", table.MaxProblems-1) {
			t.Errorf("%s: last problem %v is not the 100th member", schema, got[table.MaxProblems-1])
		}
	}
}

// TestMessagesNeverCarryValues puts a marker in every value that breaks the
// schema and requires that no message, expectation or replacement holds it.
func TestMessagesNeverCarryValues(t *testing.T) {
	const marker = "SECRET-7f3a"
	body := `{"model":"m","state":"` + marker + `","roles":{"r":"` + marker + `"},"options":{"deadline_ms":"` + marker + `"},` +
		`"questions":{"q":{"type":"` + marker + `"},"c":{"type":"choice","criteria":"` + marker + `"},"o":{"type":"noul","overflow":"` + marker + `"}}}`
	for _, schema := range allSchemas {
		problems := validate.Request(schema, decode(t, body))
		if len(problems) == 0 {
			t.Fatalf("%s: no problems found", schema)
		}
		for _, p := range problems {
			if strings.Contains(p.Message(), marker) || strings.Contains(p.Expected, marker) || strings.Contains(p.Replacement, marker) {
				t.Errorf("%s: %q carries the offending value", schema, p.Message())
			}
		}
	}
}

func TestRequestUnknownSchema(t *testing.T) {
	got := validate.Request("systemone/9.9", decode(t, request(`"q":{"type":"noul"}`)))
	want := []string{" unknown_schema (systemone/0.2, vllm-sr/5.0, vllm-sr/4.0 or internal)"}
	if len(got) != 1 || describe(got[0]) != want[0] {
		t.Errorf("got %v, want %v", got, want)
	}
}
