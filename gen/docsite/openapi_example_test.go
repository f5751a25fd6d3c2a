package docsite

import (
	"strings"
	"testing"
)

// exampleDoc is a small document: a POST with a body whose members keep
// their document order, a oneOf by type and a constraint alternative, and
// a GET with two responses.
const exampleDoc = `openapi: 3.1.0
info: {title: t, version: "1"}
x-srgen-schema: small/1.0
paths:
  /v1/ask:
    post:
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Ask'}
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Answer'}
  /v1/list:
    get:
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {type: array, items: {type: string, format: date}, minItems: 2}
        "404":
          description: no
components:
  schemas:
    Ask:
      type: object
      required: [zeta, alpha, questions]
      properties:
        zeta: {type: string, minLength: 6}
        alpha: {type: integer, minimum: 3}
        optional: {type: boolean}
        questions:
          type: object
          minProperties: 1
          additionalProperties:
            oneOf:
              - {type: object, required: [type], properties: {type: {type: string, const: "first"}}}
              - {type: object, required: [type, other], properties: {type: {type: string, const: "second"}, other: {type: string}}}
    Answer:
      type: object
      required: [type]
      anyOf: [{required: [p]}, {required: [error]}]
      properties:
        type: {type: string, enum: ["first", "second"]}
        p: {type: number, minimum: 0, maximum: 1}
        error: {type: string}
`

// Every operation page shows its request as it goes on the wire and an
// example of each response body: made from the schema, in the document's
// member order, and valid against the schema (the example checks itself).
func TestOperationPagesShowExamples(t *testing.T) {
	d, err := loadAPIDoc("small-1.0.openapi.yaml", []byte(exampleDoc), "")
	if err != nil {
		t.Fatal(err)
	}
	files, _, err := d.pages()
	if err != nil {
		t.Fatal(err)
	}
	pages := map[string]string{}
	for _, f := range files {
		pages[f.Path] = string(f.Data)
	}
	post := pages["reference/small-1.0-openapi/operations/post-v1-ask.md"]
	for _, want := range []string{
		"## Example request\n\n```http\nPOST /v1/ask\nContent-Type: application/json\n\n{\n  \"zeta\": \"textxx\",\n  \"alpha\": 3,\n  \"questions\": {\n    \"key_1\": {\n      \"type\": \"first\"\n    }\n  }\n}\n```",
		"Example response body (`application/json`):\n\n```json\n{\n  \"type\": \"first\",\n  \"p\": 0\n}\n```",
	} {
		if !strings.Contains(post, want) {
			t.Errorf("the POST page lacks\n%s\n\n%s", want, post)
		}
	}
	get := pages["reference/small-1.0-openapi/operations/get-v1-list.md"]
	if !strings.Contains(get, "```http\nGET /v1/list\n```") || !strings.Contains(get, "[\n  \"2026-07-01\",\n  \"2026-07-01\"\n]") ||
		strings.Count(get, "Example response body") != 1 {
		t.Errorf("the GET page: %s", get)
	}
}

// A schema no example made from it can meet (a pattern the example's
// text breaks) fails the pages, naming the operation and the body.
func TestOperationExampleThatBreaksItsSchemaFails(t *testing.T) {
	doc := strings.Replace(exampleDoc, "zeta: {type: string, minLength: 6}", "zeta: {type: string, pattern: '^[0-9]+$'}", 1)
	d, err := loadAPIDoc("small-1.0.openapi.yaml", []byte(doc), "")
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = d.pages()
	if err == nil || !strings.Contains(err.Error(), "POST /v1/ask: the request body: the example") {
		t.Fatalf("got %v; want the example refused", err)
	}
}
