package openapicheck

import (
	"context"
	"errors"
	"testing"
)

const tiny = `openapi: 3.1.0
info: {title: tiny, version: "1"}
paths:
  /echo:
    post:
      requestBody:
        required: true
        content:
          application/json:
            schema: {type: object, required: [n], properties: {n: {type: integer, minimum: 1}}, additionalProperties: false}
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {type: object, required: [n], properties: {n: {type: [integer, "null"]}}}
`

func TestChecks(t *testing.T) {
	d, err := Parse([]byte(tiny))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	x := Exchange{Method: "POST", Path: "/echo", Body: []byte(`{"n":1}`), Status: 200, Answer: []byte(`{"n":null}`)}
	if err := d.CheckRequest(ctx, x); err != nil {
		t.Errorf("a valid request: %v", err)
	}
	if err := d.CheckResponse(ctx, x); err != nil {
		t.Errorf("a valid response: %v", err)
	}
	for _, body := range []string{`{"n":0}`, `{"n":1,"m":2}`, `{}`} {
		if err := d.CheckRequest(ctx, Exchange{Method: "POST", Path: "/echo", Body: []byte(body)}); err == nil {
			t.Errorf("%s was accepted", body)
		}
	}
	if err := d.CheckResponse(ctx, Exchange{Method: "POST", Path: "/echo", Body: []byte(`{"n":1}`), Status: 500, Answer: []byte(`{}`)}); err == nil {
		t.Error("a status the operation does not list was accepted")
	}
	if err := d.CheckRequest(ctx, Exchange{Method: "GET", Path: "/nowhere"}); !errors.Is(err, ErrNoRoute) {
		t.Errorf("an unknown route: %v, want ErrNoRoute", err)
	}
	if _, err := Parse([]byte("openapi: 3.1.0\ninfo: {title: x}\npaths: {}\n")); err == nil {
		t.Error("a document without info.version was accepted")
	}
}

// TestV50Loads: the repository's generated document loads and validates.
func TestV50Loads(t *testing.T) {
	d, err := V50()
	if err != nil {
		t.Fatal(err)
	}
	if !d.OpenAPI().IsOpenAPI31OrLater() {
		t.Errorf("openapi = %s, want 3.1", d.OpenAPI().OpenAPI)
	}
}
