package drift

import (
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

var content = list(obj("type", "string"), obj("type", "object", "additionalProperties", true), obj("type", "array", "items", obj()))

// respell writes the clean document's meaning in other words: every way
// OpenAPI 3.0 and 3.1 spell nullability, unions inline and as named
// components, oneOf for anyOf, a discriminator declared or implied, an
// allOf wrapper, enum for const, $refs to shared bodies, annotations.
func respell(t *testing.T, d map[string]any) {
	s := schemas(t, d)
	s["Content"] = obj("anyOf", content)
	props(t, d, "NoulCriteria")["true"] = obj("type", list("string", "object", "array", "null"))
	props(t, d, "NoulCriteria")["false"] = obj("anyOf", list(ref("Content"), obj("type", "null")))
	props(t, d, "NoulQuestion")["instructions"] = obj("anyOf", content, "nullable", true)
	props(t, d, "ChoiceQuestion")["instructions"] = obj("oneOf", list(obj("type", "string"),
		obj("type", "object", "additionalProperties", obj()), obj("type", "array", "items", true), obj("type", "null")))
	props(t, d, "NoulQuestion")["type"] = obj("enum", list("noul"), "title", "Type")
	props(t, d, "ScoreQuestion")["criteria"].(map[string]any)["items"] = ref("Content")
	props(t, d, "ScoreAnswer")["score"] = obj("type", list("number", "integer"))
	props(t, d, "ModelMetadata")["release_date"] = obj("type", "string", "format", "date", "examples", list("2026-09-15"))

	questions := props(t, d, "SystemOneRequest")["questions"].(map[string]any)
	s["Question"] = questions["additionalProperties"]
	questions["additionalProperties"] = ref("Question")
	answers := props(t, d, "SystemOneResponse")["answers"].(map[string]any)
	s["Answer"] = obj("oneOf", list(ref("ScoreAnswer"), ref("NoulAnswer"), ref("ChoiceAnswer")),
		"discriminator", obj("propertyName", "type", "mapping", obj("noul", componentPrefix+"NoulAnswer")))
	answers["additionalProperties"] = ref("Answer")
	props(t, d, "SystemOneResponse")["usage"] = obj("allOf", list(ref("Usage")), "description", "Counts.")

	post := get(t, d, "paths", "/v1/systemone", "post")
	get(t, d, "components")["requestBodies"] = obj("Ask", post["requestBody"])
	post["requestBody"] = obj("$ref", "#/components/requestBodies/Ask")
	get(t, d, "components")["responses"] = obj("Invalid", get(t, d, "paths", "/v1/models", "get", "responses")["422"])
	get(t, d, "paths", "/v1/models", "get", "responses")["422"] = obj("$ref", "#/components/responses/Invalid")
}

// Respelling changes nothing: the same lines, whatever the spelling, in
// JSON or in YAML.
func TestSpellingIsNotADifference(t *testing.T) {
	m := repoModel(t)
	clean := compare(t, m, cleanDoc(t))
	d := cleanDoc(t)
	respell(t, d)
	r := compare(t, m, d)
	if len(r.Differences) != 0 {
		t.Fatalf("respelled document differs:\n%s", strings.Join(lines(r), "\n"))
	}
	if !slices.Equal(knownLines(r), knownLines(clean)) {
		t.Errorf("known differences changed:\n%s\nwant:\n%s", strings.Join(knownLines(r), "\n"), strings.Join(knownLines(clean), "\n"))
	}
	asYAML, err := yaml.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	// Statuses as YAML writes them by hand: unquoted, so integer keys.
	unquoted := strings.NewReplacer(`"200":`, `200:`, `"422":`, `422:`).Replace(string(asYAML))
	ry, err := Compare(m, []byte(unquoted), "respelled.yaml")
	if err != nil || len(ry.Differences) != 0 {
		t.Fatalf("as YAML: %v, differences %q", err, lines(ry))
	}
}

// Four spellings of "a string or null" are one difference from "a string".
func TestNullableSpellings(t *testing.T) {
	m := repoModel(t)
	want := []string{"ModelMetadata.release_date: nullable changed from false to true"}
	for _, spelling := range []map[string]any{
		obj("type", list("string", "null")),
		obj("anyOf", list(obj("type", "string"), obj("type", "null"))),
		obj("type", "string", "nullable", true),
		obj("oneOf", list(obj("type", "string"), obj("enum", list(nil)))),
	} {
		d := cleanDoc(t)
		props(t, d, "ModelMetadata")["release_date"] = spelling
		if got := lines(compare(t, m, d)); !slices.Equal(got, want) {
			t.Errorf("%v: differences %q, want %q", spelling, got, want)
		}
	}
}

// A union of components is the same union inline, as a named component,
// with anyOf for oneOf, and with its discriminator implied by the
// components' constants.
func TestUnionSpellings(t *testing.T) {
	m := repoModel(t)
	variants := list(ref("NoulQuestion"), ref("ChoiceQuestion"), ref("ScoreQuestion"))
	for name, spelling := range map[string]func(s map[string]any) any{
		"named":    func(s map[string]any) any { s["Q"] = obj("oneOf", variants); return ref("Q") },
		"anyOf":    func(map[string]any) any { return obj("anyOf", variants) },
		"implied":  func(map[string]any) any { return obj("oneOf", variants) },
		"unmapped": func(map[string]any) any { return obj("oneOf", variants, "discriminator", obj("propertyName", "type")) },
	} {
		d := cleanDoc(t)
		props(t, d, "SystemOneRequest")["questions"].(map[string]any)["additionalProperties"] = spelling(schemas(t, d))
		if r := compare(t, m, d); len(r.Differences) != 0 {
			t.Errorf("%s: differences %q", name, lines(r))
		}
	}
}

// A document drift cannot read is an error, never a pass.
func TestUnreadableDocuments(t *testing.T) {
	m := repoModel(t)
	cases := map[string]func(d map[string]any){
		"swagger 2": func(d map[string]any) { delete(d, "openapi"); d["swagger"] = "2.0" },
		"external $ref": func(d map[string]any) {
			props(t, d, "Usage")["input_tokens"] = obj("$ref", "other.json#/Tokens")
		},
		"not":           func(d map[string]any) { props(t, d, "Usage")["input_tokens"] = obj("not", obj("type", "string")) },
		"dangling $ref": func(d map[string]any) { delete(schemas(t, d), "Usage") },
		"constraint beside $ref": func(d map[string]any) {
			props(t, d, "SystemOneResponse")["usage"] = obj("$ref", componentPrefix+"Usage", "nullable", true)
		},
	}
	for name, edit := range cases {
		d := cleanDoc(t)
		edit(d)
		if r, err := Compare(m, encode(t, d), name); err == nil {
			t.Errorf("%s: accepted, differences %q", name, lines(r))
		}
	}
	if _, err := Compare(m, []byte("{not json"), "broken"); err == nil {
		t.Error("a broken document was accepted")
	}
	if _, err := CompareFile(m, "testdata/absent.json"); err == nil {
		t.Error("a missing file was accepted")
	}
}
