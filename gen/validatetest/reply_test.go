package validatetest_test

import (
	"testing"

	"github.com/vllm-sr/systemone/generated/validate"
	"github.com/vllm-sr/systemone/runtime/table"
)

// The reply validators: what a server answers, checked as the Router
// checks an upstream's reply before reading it. Under systemone/0.2 a
// member no schema defines is ignored, as the standard's clients ignore
// it (gateways add id, provider, usage.cost; the hosted API stats and
// assets_used); under every vllm-sr schema it is an unknown_member.

var (
	only02          = []table.SchemaID{s02}
	only50          = []table.SchemaID{s50}
	onlyInternal    = []table.SchemaID{sIn}
	fiveAndInternal = []table.SchemaID{s50, sIn}
	standardAnd50   = []table.SchemaID{s02, s50}
	legacyAndInt    = []table.SchemaID{s40, sIn}
)

// gatewayResponse is a systemone/0.2 response with the members gateways
// and the hosted API add.
const gatewayResponse = `{"id":"gen-1","provider":"gw","model":"jev-1.13.0","answers":{` +
	`"n":{"type":"noul","noul":0.82,"stats":{}},` +
	`"c":{"type":"choice","choice":"b","confidence":0.6,"probabilities":{"a":0.2,"b":0.8}},` +
	`"s":{"type":"score","score":1.3,"confidence":0.4,"probabilities":{"0":0.2,"1":0.3,"2":0.5},"legend":{"0":"lo","1":"mid","2":"hi"}},` +
	`"b":{"type":"box","confidence":0.9,"box":{"top":0.1,"bottom":0.5,"left":0.2,"right":0.7}}},` +
	`"usage":{"input_tokens":412,"output_tokens":0,"cost":0.0001},"assets_used":null}`

// response wraps answers (a JSON object's members) into a valid response.
func response(answers string) string {
	return `{"model":"m","answers":{` + answers + `},"usage":{"input_tokens":1,"output_tokens":0}}`
}

var responseCases = []requestCase{
	{"gateway members ignored on the standard", only02, gatewayResponse, nil},
	{"gateway members unknown on vllm-sr", fiveAndInternal, gatewayResponse, []string{
		"/id unknown_member", "/provider unknown_member", "/answers/n/stats unknown_member",
		"/usage/cost unknown_member", "/assets_used unknown_member"}},
	{"the standard's members are required", standardAnd50, `{"answers":{"n":{"type":"noul","noul":0.5}}}`, []string{
		"/model missing_member", "/usage missing_member"}},
	{"answers: at least one", standardAnd50, `{"model":"m","answers":{},"usage":{"input_tokens":0,"output_tokens":0}}`, []string{
		"/answers too_few 1"}},
	{"token counts are non-negative integers", everySchema, `{"model":"m","answers":{"n":{"type":"noul","noul":0}},"usage":{"input_tokens":-1,"output_tokens":1.5}}`, []string{
		"/usage/input_tokens below_minimum 0", "/usage/output_tokens wrong_type (integer)"}},
	{"answer ranges: 0 to 1", everySchema, response(
		`"n":{"type":"noul","noul":1.5},"c":{"type":"choice","choice":"a","confidence":-0.1,"probabilities":{"a":2,"b":0}},` +
			`"b":{"type":"box","confidence":1,"box":{"top":0,"bottom":1.01,"left":0,"right":1}},"s":{"type":"score","score":-1,"confidence":0,"probabilities":{"0":1},"legend":{"0":"lo"}}`), []string{
		"/answers/n/noul above_maximum 1", "/answers/c/confidence below_minimum 0", "/answers/c/probabilities/a above_maximum 1",
		"/answers/b/box/bottom above_maximum 1", "/answers/s/score below_minimum 0"}},
	{"an answer's members by its type", standardAnd50, response(
		`"n":{"type":"noul"},"c":{"type":"choice","choice":"a","probabilities":{"a":1}},"b":{"type":"box","confidence":1,"box":{"top":0,"left":0,"right":1}}`), []string{
		"/answers/n/noul missing_member", "/answers/c/confidence missing_member",
		"/answers/b/box/bottom missing_member"}},
	{"the 4.0 contract and the internal form require no answer value", legacyAndInt, response(
		`"n":{"type":"noul"},"c":{"type":"choice","choice":"a"}`), nil},
	{"wrong types in answers", only02, response(
		`"n":{"type":"noul","noul":"high"},"c":{"type":"choice","choice":1,"confidence":0.5,"probabilities":{"a":"x"}},"x":[],"t":{"type":7}`), []string{
		"/answers/n/noul wrong_type (number)", "/answers/c/choice wrong_type (string)", "/answers/c/probabilities/a wrong_type (number)",
		"/answers/x wrong_type (object)", "/answers/t/type wrong_type (string)"}},
	{"an answer type the schema does not define", only02, response(`"p":{"type":"set","noul":0.5}`), []string{
		"/answers/p/type not_in_enum (noul, choice, score or box)"}},
	{"set and track answers on vllm-sr", fiveAndInternal, response(
		`"p":{"type":"set","noul":0.5},"p.a":{"type":"noul","noul":0.5},"k":{"type":"track","track":{"rate":1,"moments":[]}}`), nil},
	{"a set answer carries its noul", only50, response(`"p":{"type":"set"}`), []string{"/answers/p/noul missing_member"}},
	{"a member another type carries is unknown on vllm-sr", only50, response(`"n":{"type":"noul","noul":0.5,"confidence":0.5}`), []string{
		"/answers/n/confidence unknown_member"}},
	{"a failed answer carries no values", fiveAndInternal, response(
		`"f":{"error":"deadline_exceeded","reason":"deadline_passed","message":"late"},"g":{"type":"choice","error":"unavailable"}`), nil},
	{"a failed answer names its question's type", fiveAndInternal, response(
		`"f":{"type":"span","error":"scan_budget_exceeded"},"g":{"type":"sets","error":"unavailable"},"h":{"type":"span","noul":0.5}`), []string{
		"/answers/g/type not_in_enum (noul, choice, score, box, set, span or track)", "/answers/h/type not_in_enum (noul, choice, score, box, set or track)"}},
	{"a failed answer's error is a question error kind", fiveAndInternal, response(
		`"f":{"error":"timeout"},"g":{"error":null,"noul":0.5}`), []string{
		"/answers/f/error not_in_enum (invalid_question, invalid_input, max_length_exceeded, scan_budget_exceeded, invalid_model_output, deadline_exceeded or unavailable)",
		"/answers/g/error not_allowed_null (string)", "/answers/g/noul unknown_member"}},
	{"input_coverage and abstain_probability", only50, response(
		`"n":{"type":"noul","noul":0.5,"abstain_probability":1.2,"input_coverage":"partial"}`), []string{
		"/answers/n/abstain_probability above_maximum 1", "/answers/n/input_coverage not_in_enum (complete)"}},
	{"extension members", fiveAndInternal, `{"model":"m","answers":{"n":{"type":"noul","noul":0.5}},"usage":{"input_tokens":1,"output_tokens":0},` +
		`"spans":{"n":[{"label":"x","start":-1,"end":2,"text":"ab","probability":2}]},"sets":{"p":{"selected":["a"],"probabilities":{"a":1.5}}},` +
		`"thresholds":{"n":-0.5},"span_heads":{"n":"wide"},"meta":{"any":1},"routing":` + routing + `}`, []string{
		"/spans/n/0/start below_minimum 0", "/spans/n/0/probability above_maximum 1", "/sets/p/probabilities/a above_maximum 1",
		"/thresholds/n below_minimum 0", "/span_heads/n not_in_enum (router or broad)"}},
	{"routing", fiveAndInternal, `{"model":"m","answers":{"n":{"type":"noul","noul":0.5}},"usage":{"input_tokens":1,"output_tokens":0},` +
		`"routing":{"recipe":"r","decision":"capability","algorithm":"first_capable_member","stage":"forward","deployment":"d","model":"m",` +
		`"calls":0,"tries":[{"deployment":"d","calls":1}]}}`, []string{
		"/routing/calls below_minimum 1", "/routing/tries/0/outcome missing_member"}},
	{"extension members are nothing to the standard", only02, `{"model":"m","answers":{"n":{"type":"noul","noul":0.5}},"usage":{"input_tokens":1,"output_tokens":0},` +
		`"thresholds":{"n":-0.5},"span_heads":{"n":"wide"}}`, nil},
}

// routing is a whole routing object, as the Router's pools write it.
const routing = `{"recipe":"r","decision":"capability","algorithm":"first_capable_member","stage":"forward","deployment":"d",` +
	`"model":"m","calls":1,"tries":[{"deployment":"d","outcome":"answered","calls":1}]}`

var batchResponseCases = []requestCase{
	{"a batch response", fiveAndInternal, `{"model":"m","responses":{"a":` + response(`"n":{"type":"noul","noul":0.5}`) + `},"usage":{"input_tokens":1,"output_tokens":0}}`, nil},
	{"a batch response's responses are checked", fiveAndInternal, `{"model":"m","responses":{"a":{"model":"m","answers":{"n":{"type":"noul","noul":2}},"usage":{"input_tokens":1,"output_tokens":0}}},"usage":{"input_tokens":1,"output_tokens":0},"extra":1}`, []string{
		"/responses/a/answers/n/noul above_maximum 1", "/extra unknown_member"}},
	{"a batch response names its responses", only50, `{"model":"m","usage":{"input_tokens":1,"output_tokens":0}}`, []string{"/responses missing_member"}},
}

var errorBodyCases = []requestCase{
	{"a string detail", everySchema, `{"detail":"Not Found"}`, nil},
	{"the standard's object detail", everySchema, `{"detail":{"error_type":"api_usage_error","message":"Unknown model"}}`, nil},
	{"the standard's 422 list", everySchema, `{"detail":[{"loc":["body","questions","q",0],"msg":"x","type":"missing","input":null,"ctx":{"min":1}}]}`, nil},
	{"a detail item's members", everySchema, `{"detail":[{"loc":["body",true],"msg":1}]}`, []string{
		"/detail/0/loc/1 wrong_type (string or integer)", "/detail/0/msg wrong_type (string)", "/detail/0/type missing_member"}},
	{"the extension's flat members", fiveAndInternal, `{"detail":"x","code":"question_failed","question":"q","state":"s","reason":"deadline_passed","limit":3}`, nil},
	{"the extension's flat members are nothing to the standard", only02, `{"detail":"x","code":1,"limit":"y","error":{"message":"m"}}`, nil},
	{"flat members' types", only50, `{"detail":"x","code":1,"limit":1.5}`, []string{"/code wrong_type (string)", "/limit wrong_type (integer)"}},
	{"4.0's error object is a removed form on 5.0", only50, `{"detail":"x","error":{"code":"c","message":"m"}}`, []string{"/error removed_form -> detail"}},
	{"4.0's error object on the internal form", onlyInternal, `{"detail":"x","error":{"code":"c","message":"m","limit":2}}`, nil},
}

var listingCases = []requestCase{
	{"a standard listing with more", only02, `{"models":[{"name":"jev-latest","description":"d","release_date":"2026-09-15","owner":"x"}],"object":"list"}`, nil},
	{"a standard listing entry's members are required", only02, `{"models":[{"name":"jev-latest"}]}`, []string{
		"/models/0/description missing_member", "/models/0/release_date missing_member"}},
	{"a vllm-sr listing", fiveAndInternal, `{"models":[{"name":"a","description":"d","version":"5.0","features":["noul"],"card":{}}]}`, nil},
	{"a vllm-sr listing's members", only50, `{"models":[{"name":"a","description":"d","features":"noul","card":[]},{"name":1,"description":"d","colour":"red"}]}`, []string{
		"/models/0/features wrong_type (array)", "/models/0/card wrong_type (object)", "/models/1/name wrong_type (string)", "/models/1/colour unknown_member"}},
}

var healthCases = []requestCase{
	{"a health reply", only50, `{"status":"ok","version":"5.0"}`, nil},
	{"a runtime's health reply", onlyInternal, `{"status":"ready","api_version":"4.0","version":"5.0"}`, nil},
	{"a runtime's 5.0 health reply", only50, `{"status":"ready","api_version":"5.0.0","version":"5.0","model":"vllm-sr/vela3-fast","schema":"vllm-sr/5.0"}`, nil},
	{"a health reply's members", only50, `{"status":1,"api_version":5,"uptime":"4.0"}`, []string{"/status wrong_type (string)", "/api_version wrong_type (string)", "/uptime unknown_member", "/version missing_member"}},
}

func TestResponseValidator(t *testing.T) {
	runCases(t, validate.Response, (responseCases))
}

func TestBatchResponseValidator(t *testing.T) {
	runCases(t, validate.BatchResponse, (batchResponseCases))
}

func TestErrorBodyValidator(t *testing.T) {
	runCases(t, validate.ErrorBody, (errorBodyCases))
}

func TestListingValidator(t *testing.T) {
	runCases(t, validate.Listing, (listingCases))
}

func TestHealthValidator(t *testing.T) {
	runCases(t, validate.Health, (healthCases))
}

// TestAnswerValidator: one answer alone is checked as it is inside a
// response.
func TestAnswerValidator(t *testing.T) {
	runCases(t, validate.Answer, ([]requestCase{
		{"a noul", everySchema, `{"type":"noul","noul":0.5}`, nil},
		{"not an object", everySchema, `[1]`, []string{" wrong_type (object)"}},
		{"no type", standardAnd50, `{"noul":0.5}`, []string{"/type missing_member"}},
		{"a failed answer", fiveAndInternal, `{"error":"invalid_model_output","reason":"no_answer","message":"m"}`, nil},
	}))
}
