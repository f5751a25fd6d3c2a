package drift

import (
	"slices"
	"strings"
	"testing"
)

// The fixture's one drift is found, and nothing else fails: no false
// positive on the document's spelling (anyOf content, consts, $refs, a
// discriminated oneOf, an implied one, a property without a type).
func TestFixtureHasOneDrift(t *testing.T) {
	r, err := CompareFile(repoModel(t), fixture)
	if err != nil {
		t.Fatal(err)
	}
	if r.Matches() {
		t.Fatal("the fixture's sha256 matches the spec's; it must not")
	}
	want := []string{"ModelMetadata.release_date: nullable changed from false to true"}
	if got := lines(r); !slices.Equal(got, want) {
		t.Fatalf("differences = %q, want %q", got, want)
	}
	if !r.Failed() || len(r.Known) == 0 {
		t.Errorf("failed=%v known=%d; want a failure and the known differences listed", r.Failed(), len(r.Known))
	}
}

// A document that says everything our description takes from it passes,
// and the known differences (the spec's openapi readings) are listed.
func TestMatchingDocumentPasses(t *testing.T) {
	r := compare(t, repoModel(t), cleanDoc(t))
	if r.Failed() || len(r.Differences) != 0 {
		t.Fatalf("differences = %q, want none", lines(r))
	}
	for _, want := range []string{
		`ScoreQuestion.criteria: minItems is 1 in the document, 2 in ours (known: conflict "score levels")`,
		`ChoiceQuestion.criteria: maxProperties is none in the document, 255 in ours (known: conflict "choice options")`,
		`NoulAnswer.noul: maximum is none in the document, 1 in ours (known: the spec adds it beyond the document)`,
	} {
		if !slices.Contains(knownLines(r), want) {
			t.Errorf("known differences lack %q:\n%s", want, strings.Join(knownLines(r), "\n"))
		}
	}
	if !strings.Contains(r.Summary(), "then set source.sha256 to "+r.SHA256) {
		t.Errorf("summary does not say to update the hash:\n%s", r.Summary())
	}
}

// Each kind of difference, made on the clean document, gives exactly its
// own lines.
func TestEachKindOfDifference(t *testing.T) {
	cases := []struct {
		name string
		edit func(t *testing.T, d map[string]any)
		want []string
	}{
		{"minItems 1 to 2 (the issue's case)", func(t *testing.T, d map[string]any) {
			props(t, d, "ScoreQuestion")["criteria"].(map[string]any)["minItems"] = 2
		}, []string{`ScoreQuestion.criteria: minItems changed from 1 to 2; the spec's openapi reading (conflict "score levels") no longer holds`}},
		{"maxItems added", func(t *testing.T, d map[string]any) {
			props(t, d, "ScoreQuestion")["criteria"].(map[string]any)["maxItems"] = 10
		}, []string{`ScoreQuestion.criteria: maxItems changed from none to 10; the spec's openapi reading (conflict "score levels") no longer holds`}},
		{"maximum", func(t *testing.T, d map[string]any) {
			props(t, d, "ChoiceAnswer")["confidence"].(map[string]any)["maximum"] = 100
		}, []string{"ChoiceAnswer.confidence: maximum changed from none to 100; the spec's openapi reading no longer holds"}},
		{"minimum", func(t *testing.T, d map[string]any) {
			props(t, d, "Usage")["input_tokens"].(map[string]any)["minimum"] = 1
		}, []string{"Usage.input_tokens: minimum changed from none to 1; the spec's openapi reading no longer holds"}},
		{"minProperties", func(t *testing.T, d map[string]any) {
			props(t, d, "SystemOneRequest")["questions"].(map[string]any)["minProperties"] = 2
		}, []string{"SystemOneRequest.questions: minProperties changed from 1 to 2"}},
		{"maxProperties", func(t *testing.T, d map[string]any) {
			props(t, d, "SystemOneResponse")["answers"].(map[string]any)["maxProperties"] = 64
		}, []string{"SystemOneResponse.answers: maxProperties changed from none to 64"}},
		{"enum value added", func(t *testing.T, d map[string]any) {
			p := props(t, d, "NoulQuestion")["type"].(map[string]any)
			delete(p, "const")
			p["enum"] = list("noul", "bool")
		}, []string{"NoulQuestion.type: enum value bool added"}},
		{"enum value changed", func(t *testing.T, d map[string]any) {
			props(t, d, "ChoiceAnswer")["type"].(map[string]any)["const"] = "pick"
		}, []string{
			"ChoiceAnswer.type: enum value choice removed",
			"ChoiceAnswer.type: enum value pick added",
			"SystemOneResponse.answers{}: discriminator mapping choice removed (was ChoiceAnswer)",
			"SystemOneResponse.answers{}: discriminator mapping pick added: ChoiceAnswer",
		}},
		{"enum added", func(t *testing.T, d map[string]any) {
			props(t, d, "SystemOneRequest")["model"].(map[string]any)["enum"] = list("jev-latest", "jev-preview")
		}, []string{"SystemOneRequest.model: enum added: jev-latest, jev-preview"}},
		{"required flag", func(t *testing.T, d map[string]any) {
			schema(t, d, "ChoiceQuestion")["required"] = list("type")
		}, []string{"ChoiceQuestion.criteria: required changed from true to false"}},
		{"property added", func(t *testing.T, d map[string]any) {
			props(t, d, "SystemOneRequest")["assets"] = obj("type", "object", "additionalProperties", obj("type", "string"))
		}, []string{"SystemOneRequest: property assets added: map<string>, optional; the spec describes it from the prose docs only (documented_in)"}},
		{"property removed", func(t *testing.T, d map[string]any) {
			delete(props(t, d, "NoulAnswer"), "noul")
			schema(t, d, "NoulAnswer")["required"] = list("type")
		}, []string{"NoulAnswer: property noul removed (was number, required)"}},
		{"type", func(t *testing.T, d map[string]any) {
			props(t, d, "Usage")["input_tokens"] = obj("type", "string")
		}, []string{"Usage.input_tokens: type changed from integer to string"}},
		{"nullable", func(t *testing.T, d map[string]any) {
			props(t, d, "SystemOneRequest")["model"] = obj("type", list("string", "null"))
		}, []string{"SystemOneRequest.model: nullable changed from false to true"}},
		{"items", func(t *testing.T, d map[string]any) {
			props(t, d, "ValidationError")["loc"].(map[string]any)["items"] = obj("type", "string")
		}, []string{"ValidationError.loc[]: type changed from string|integer to string"}},
		{"additionalProperties closed", func(t *testing.T, d map[string]any) {
			schema(t, d, "SystemOneRequest")["additionalProperties"] = false
		}, []string{"SystemOneRequest: additionalProperties changed from any to none"}},
		{"additionalProperties schema", func(t *testing.T, d map[string]any) {
			props(t, d, "ChoiceAnswer")["probabilities"].(map[string]any)["additionalProperties"] = obj("type", "string")
		}, []string{"ChoiceAnswer.probabilities{}: type changed from number to string"}},
		{"additionalProperties dropped", func(t *testing.T, d map[string]any) {
			delete(props(t, d, "ScoreAnswer")["legend"].(map[string]any), "additionalProperties")
		}, []string{"ScoreAnswer.legend: additionalProperties changed from string|object|array to any"}},
		{"discriminator mapping", func(t *testing.T, d map[string]any) {
			q := props(t, d, "SystemOneRequest")["questions"].(map[string]any)["additionalProperties"].(map[string]any)
			q["discriminator"].(map[string]any)["mapping"].(map[string]any)["noul"] = componentPrefix + "ChoiceQuestion"
		}, []string{
			"SystemOneRequest.questions{}: discriminator mapping NoulQuestion added: NoulQuestion",
			"SystemOneRequest.questions{}: discriminator mapping noul changed from NoulQuestion to ChoiceQuestion",
		}},
		{"discriminator property", func(t *testing.T, d map[string]any) {
			q := props(t, d, "SystemOneRequest")["questions"].(map[string]any)["additionalProperties"].(map[string]any)
			q["discriminator"] = obj("propertyName", "kind", "mapping", q["discriminator"].(map[string]any)["mapping"])
		}, []string{"SystemOneRequest.questions{}: discriminator changed from type to kind"}},
		{"union member added", func(t *testing.T, d map[string]any) {
			schemas(t, d)["BoxQuestion"] = obj("type", "object", "properties", obj("type", obj("const", "box")), "required", list("type"))
			q := props(t, d, "SystemOneRequest")["questions"].(map[string]any)["additionalProperties"].(map[string]any)
			q["oneOf"] = append(q["oneOf"].([]any), ref("BoxQuestion"))
		}, []string{
			"SystemOneRequest.questions{}: type changed from ChoiceQuestion|NoulQuestion|ScoreQuestion to BoxQuestion|ChoiceQuestion|NoulQuestion|ScoreQuestion",
			"SystemOneRequest.questions{}: discriminator mapping box added: BoxQuestion",
			"BoxQuestion: component added: object{type}, not in source.components",
		}},
		{"component removed", func(t *testing.T, d map[string]any) {
			delete(schemas(t, d), "ScoreAnswer")
			a := props(t, d, "SystemOneResponse")["answers"].(map[string]any)["additionalProperties"].(map[string]any)
			a["oneOf"] = list(ref("NoulAnswer"), ref("ChoiceAnswer"))
		}, []string{
			"ScoreAnswer: component removed",
			"SystemOneResponse.answers{}: type changed from ChoiceAnswer|NoulAnswer|ScoreAnswer to ChoiceAnswer|NoulAnswer",
			"SystemOneResponse.answers{}: discriminator mapping score removed (was ScoreAnswer)",
		}},
		{"path added", func(t *testing.T, d map[string]any) {
			get(t, d, "paths")["/v1/health"] = obj("get", obj("responses", obj("200", obj("description", "Up."))))
		}, []string{"paths: path /v1/health added: GET"}},
		{"path removed", func(t *testing.T, d map[string]any) {
			delete(get(t, d, "paths"), "/v1/models")
		}, []string{"paths: path /v1/models removed (was GET)"}},
		{"operation added", func(t *testing.T, d map[string]any) {
			get(t, d, "paths", "/v1/models")["delete"] = obj("responses", obj("204", obj("description", "Gone.")))
		}, []string{"/v1/models: operation DELETE added"}},
		{"operation removed", func(t *testing.T, d map[string]any) {
			p := get(t, d, "paths", "/v1/models")
			p["post"] = p["get"]
			delete(p, "get")
		}, []string{"/v1/models: operation GET removed", "/v1/models: operation POST added"}},
		{"response status added", func(t *testing.T, d map[string]any) {
			get(t, d, "paths", "/v1/systemone", "post", "responses")["401"] = obj("description", "No key.")
		}, []string{"POST /v1/systemone: response 401 added"}},
		{"response status removed", func(t *testing.T, d map[string]any) {
			delete(get(t, d, "paths", "/v1/models", "get", "responses"), "422")
		}, []string{"GET /v1/models: response 422 removed"}},
		{"response body", func(t *testing.T, d map[string]any) {
			get(t, d, "paths", "/v1/models", "get", "responses", "200", "content", "application/json")["schema"] = ref("ModelMetadata")
		}, []string{"GET /v1/models response 200: type changed from ModelMetadataList to ModelMetadata"}},
		{"response media type", func(t *testing.T, d map[string]any) {
			c := get(t, d, "paths", "/v1/systemone", "post", "responses", "200", "content")
			c["text/event-stream"] = obj("schema", obj("type", "string"))
		}, []string{"POST /v1/systemone response 200: content text/event-stream added: string"}},
		{"request body", func(t *testing.T, d map[string]any) {
			get(t, d, "paths", "/v1/systemone", "post", "requestBody")["required"] = false
		}, []string{"POST /v1/systemone: request body required changed from true to false"}},
		{"info.version", func(t *testing.T, d map[string]any) {
			get(t, d, "info")["version"] = "0.3.0"
		}, []string{"document: info.version changed from 0.2.0 to 0.3.0"}},
	}
	m := repoModel(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := cleanDoc(t)
			tc.edit(t, d)
			r := compare(t, m, d)
			if got := lines(r); !slices.Equal(got, tc.want) {
				t.Fatalf("differences:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			if !r.Failed() {
				t.Error("the report does not fail")
			}
		})
	}
}

// A difference at a known point drops the known line: the document no
// longer says what the reading recorded.
func TestMovedKnownPointIsNotKnown(t *testing.T) {
	m := repoModel(t)
	before := compare(t, m, cleanDoc(t))
	d := cleanDoc(t)
	props(t, d, "ScoreQuestion")["criteria"].(map[string]any)["minItems"] = 2
	after := compare(t, m, d)
	if len(after.Known) != len(before.Known)-1 {
		t.Fatalf("known %d then %d; want one fewer", len(before.Known), len(after.Known))
	}
	for _, k := range knownLines(after) {
		if strings.HasPrefix(k, "ScoreQuestion.criteria: minItems") {
			t.Errorf("the moved point is still listed as known: %s", k)
		}
	}
}
