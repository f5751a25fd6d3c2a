package conformance

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

// Schemas are the schemas Run accepts, in the order the command lists
// them.
var Schemas = []table.SchemaID{table.SchemaStandard02, table.SchemaVllmSR50, table.SchemaVllmSR40}

// DefaultTimeout bounds each HTTP call when the options give none.
const DefaultTimeout = 30 * time.Second

// maxAnswerBytes bounds how much of an answer the kit reads: every answer
// the cases provoke is far smaller.
const maxAnswerBytes = 8 << 20

// Options configure one run.
type Options struct {
	// URL is the server's root, such as http://127.0.0.1:8100; the cases
	// append the endpoint paths.
	URL string
	// Model is sent as every request's model; "" uses the first model the
	// listing names that answers a question (pickModel), or sends none
	// when it names none.
	Model string
	// Schema is the schema the server claims (Schemas).
	Schema table.SchemaID
	// APIKey, when set, is sent as a bearer token on every call. It is
	// never reported.
	APIKey string
	// Timeout bounds each HTTP call; 0 means DefaultTimeout.
	Timeout time.Duration
	// Observe, when set, is called with every exchange, in order (tests
	// validate them against an OpenAPI document).
	Observe func(Exchange)
}

// Exchange is one call a case made and the answer it got.
type Exchange struct {
	Case   string
	Method string
	Path   string
	// Header is the request's header, without Authorization.
	Header http.Header
	// Body is the request body as sent; nil when none was sent.
	Body []byte
	// Valid reports whether the request follows the schema: false for the
	// cases that send a malformed, unknown or oversized request on
	// purpose, or a form the schema's successor removed.
	Valid bool
	// Status, ResponseHeader and Answer are the response; Status is 0 when
	// none came.
	Status         int
	ResponseHeader http.Header
	Answer         []byte
}

// Run runs every case of opts.Schema against opts.URL and reports each.
// The error is for options it cannot run with, or ErrNoServer wrapped
// when a connection cannot be made (the run stops at the first); a
// server that connects but does not answer fails its cases instead.
func Run(ctx context.Context, opts Options) (*Report, error) {
	run, err := newRunner(opts)
	if err != nil {
		return nil, err
	}
	report := &Report{URL: run.base, Schema: string(opts.Schema)}
	for i, c := range casesFor(opts.Schema) {
		if c.applies != nil && !c.applies(run) {
			continue
		}
		res, err := run.runCase(ctx, c)
		if err != nil {
			return nil, err
		}
		report.add(res)
		if i == 0 { // the listing: it names the models to pick from
			if err := run.pickModel(ctx); err != nil {
				return nil, err
			}
		}
	}
	report.Model = run.model
	return report, nil
}

// runner is the state of one run: the options and what the listing said.
type runner struct {
	opts   Options
	base   string
	client *http.Client
	// model is the model the requests name; "" sends none.
	model string
	// questionTypes are the question types the model's listing card
	// declares (vllm-sr/5.0 and 4.0 listings); nil when unknown.
	questionTypes []string
	// listed are the models the listing names, in its order.
	listed []listedModel
}

// listedModel is one model of the listing: its name and the question
// types its card declares.
type listedModel struct {
	name          string
	questionTypes []string
}

func newRunner(opts Options) (*runner, error) {
	if !slices.Contains(Schemas, opts.Schema) {
		var names []string
		for _, s := range Schemas {
			names = append(names, string(s))
		}
		return nil, fmt.Errorf("unknown schema %q; the kit checks %s", opts.Schema, strings.Join(names, ", "))
	}
	u, err := url.Parse(opts.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, errors.New("the URL must be an http or https URL with a host, such as http://127.0.0.1:8100")
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	return &runner{opts: opts, base: strings.TrimSuffix(opts.URL, "/"), client: &http.Client{Timeout: opts.Timeout}, model: opts.Model}, nil
}

func (run *runner) schema() table.SchemaID { return run.opts.Schema }

// extended reports whether the schema is one of vllm-sr's (5.0 or 4.0),
// whose errors carry code and reason.
func (run *runner) extended() bool { return run.opts.Schema != table.SchemaStandard02 }

// legacy reports whether the schema is vllm-sr/4.0.
func (run *runner) legacy() bool { return run.opts.Schema == table.SchemaVllmSR40 }

// reply is one answer: its status, header, body and the body read as
// JSON (the zero Value when it is not JSON).
type reply struct {
	status int
	header http.Header
	body   []byte
	json   jsonvalue.Value
	// err is why no answer came.
	err error
}

// runCase sends the case's request and checks the answer. The error is
// a connection that could not be made: every later case would fail the
// same way, so the run stops there (ErrNoServer).
func (run *runner) runCase(ctx context.Context, c testCase) (Result, error) {
	res := Result{Name: c.name, Method: c.method, Path: c.path}
	var body []byte
	if c.body != nil {
		body = c.body(run)
	}
	header := http.Header{"Accept": {"application/json"}}
	if body != nil {
		header.Set(vocab.HeaderContentType, "application/json")
	}
	for k, v := range c.header {
		header[k] = v
	}
	got := run.send(ctx, c.method, c.path, header, body)
	if run.opts.Observe != nil {
		run.opts.Observe(Exchange{Case: c.name, Method: c.method, Path: c.path, Header: header.Clone(),
			Body: body, Valid: c.valid, Status: got.status, ResponseHeader: got.header, Answer: got.body})
	}
	res.Status = got.status
	if got.err != nil {
		if err := run.unreachable(got.err); err != nil {
			return res, err
		}
		res.Reason = "no answer: " + got.err.Error()
		return res, nil
	}
	var problems []string
	if c.answer != nil {
		problems = checkSuccess(got, func(v jsonvalue.Value) []string { return c.answer(run, v) })
	} else {
		problems = checkRefusal(run, got, c.refuse)
	}
	res.OK = len(problems) == 0
	res.Reason = strings.Join(problems, "; ")
	return res, nil
}

// send makes one call, bounded by the run's timeout, and reads at most
// maxAnswerBytes of the answer.
func (run *runner) send(ctx context.Context, method, path string, header http.Header, body []byte) *reply {
	ctx, cancel := context.WithTimeout(ctx, run.opts.Timeout)
	defer cancel()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, run.base+path, rd)
	if err != nil {
		return &reply{err: err}
	}
	req.Header = header.Clone()
	req.Header.Set("User-Agent", "vllm-sr-conformance")
	if run.opts.APIKey != "" {
		req.Header.Set(vocab.HeaderAuthorization, "Bearer "+run.opts.APIKey)
	}
	resp, err := run.client.Do(req)
	if err != nil {
		return &reply{err: withoutURL(err)}
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswerBytes+1))
	if err != nil {
		return &reply{status: resp.StatusCode, header: resp.Header, err: fmt.Errorf("reading the answer: %w", err)}
	}
	if len(raw) > maxAnswerBytes {
		return &reply{status: resp.StatusCode, header: resp.Header, err: fmt.Errorf("the answer is larger than %d bytes", maxAnswerBytes)}
	}
	got := &reply{status: resp.StatusCode, header: resp.Header, body: raw}
	if v, err := jsonvalue.Decode(raw, jsonvalue.Options{}); err == nil {
		got.json = v
	}
	return got
}

// withoutURL is err without the *url.Error wrapping, whose text repeats
// the method and URL the report already shows.
func withoutURL(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}
