// Package openapicheck checks HTTP exchanges against an OpenAPI document
// srgen generates, docs/reference/vllm-sr-5.0.openapi.yaml, with
// kin-openapi's loader, validator and openapi3filter. srgen's tests
// validate example bodies with it, and a test of a running server can
// validate the server's traffic with the same document and the same
// checks.
//
// It imports only the standard library and kin-openapi (no runtime/ and
// no other gen/ package), so a test anywhere in the module may use it.
// kin-openapi validates an OpenAPI 3.1 document's bodies with its JSON
// Schema 2020-12 validator, whose errors quote the offending values: keep
// them out of logs that must not carry request data.
package openapicheck

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"
)

// V50Path is the generated vllm-sr/5.0 document in this repository, found
// from this file so a test in any package reads the same one.
var V50Path = func() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "docs", "reference", "vllm-sr-5.0.openapi.yaml")
}()

// V50 loads and validates the document at V50Path once per process.
var V50 = sync.OnceValues(func() (*Document, error) { return Load(V50Path) })

// Document is a loaded and validated OpenAPI document and its router.
type Document struct {
	doc    *openapi3.T
	router routers.Router
}

// Load reads the document at path, resolves its references and validates
// it (openapi3.T.Validate).
func Load(path string) (*Document, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromFile(path)
	if err != nil {
		return nil, fmt.Errorf("loading %s: %w", path, err)
	}
	return newDocument(loader.Context, doc)
}

// Parse is Load for a document in memory.
func Parse(data []byte) (*Document, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(data)
	if err != nil {
		return nil, fmt.Errorf("loading: %w", err)
	}
	return newDocument(loader.Context, doc)
}

func newDocument(ctx context.Context, doc *openapi3.T) (*Document, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	if err := doc.Validate(ctx); err != nil {
		return nil, fmt.Errorf("validating: %w", err)
	}
	router, err := legacy.NewRouter(doc)
	if err != nil {
		return nil, err
	}
	return &Document{doc: doc, router: router}, nil
}

// OpenAPI is the loaded document.
func (d *Document) OpenAPI() *openapi3.T { return d.doc }

// Exchange is one request to a server and the answer it got.
type Exchange struct {
	Method string
	Path   string
	// RequestHeader is sent as is; a Body without a Content-Type header is
	// sent as application/json.
	RequestHeader http.Header
	// Body is the request body; nil sends none.
	Body []byte
	// Status, Header and Answer are the response.
	Status int
	Header http.Header
	Answer []byte
}

// ErrNoRoute is returned, wrapped, for a method and path the document has
// no operation for.
var ErrNoRoute = errors.New("no operation in the document")

// input is the request side of x, routed.
func (d *Document) input(x Exchange) (*openapi3filter.RequestValidationInput, error) {
	var body io.Reader = http.NoBody
	if x.Body != nil {
		body = bytes.NewReader(x.Body)
	}
	req, err := http.NewRequest(x.Method, "http://localhost"+x.Path, body)
	if err != nil {
		return nil, err
	}
	for k, vs := range x.RequestHeader {
		req.Header[k] = append([]string(nil), vs...)
	}
	if x.Body != nil && req.Header.Get("Content-Type") == "" {
		req.Header.Set("Content-Type", "application/json")
	}
	route, params, err := d.router.FindRoute(req)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w: %v", x.Method, x.Path, ErrNoRoute, err)
	}
	return &openapi3filter.RequestValidationInput{
		Request: req, PathParams: params, Route: route,
		// The document's security requirement is optional (an empty
		// requirement first); kin-openapi needs a function to find that.
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc},
	}, nil
}

// CheckRequest validates the request of x: its route, headers and body.
func (d *Document) CheckRequest(ctx context.Context, x Exchange) error {
	in, err := d.input(x)
	if err != nil {
		return err
	}
	return openapi3filter.ValidateRequest(ctx, in)
}

// CheckResponse validates the response of x against the operation of its
// request: the status must be one the operation lists, and the body and
// headers must follow that status's response.
func (d *Document) CheckResponse(ctx context.Context, x Exchange) error {
	in, err := d.input(x)
	if err != nil {
		return err
	}
	header := x.Header
	if header == nil {
		header = http.Header{"Content-Type": {"application/json"}}
	}
	out := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in,
		Status:                 x.Status,
		Header:                 header,
		Body:                   io.NopCloser(bytes.NewReader(x.Answer)),
		Options:                &openapi3filter.Options{IncludeResponseStatus: true},
	}
	return openapi3filter.ValidateResponse(ctx, out)
}
