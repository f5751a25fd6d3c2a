package testkit

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
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

// ConformanceSchemas are the schemas RunConformance accepts, in the order
// the command lists them.
var ConformanceSchemas = []table.SchemaID{table.SchemaStandard02, table.SchemaVllmSR50, table.SchemaVllmSR40}

// DefaultConformanceTimeout bounds each HTTP call when the options give no
// timeout.
const DefaultConformanceTimeout = 30 * time.Second

// maxAnswerBytes bounds how much of an answer the kit reads: every answer
// the cases provoke is far smaller.
const maxAnswerBytes = 8 << 20

// ConformanceOptions configure one run.
type ConformanceOptions struct {
	// URL is the server's root, such as http://127.0.0.1:8100; the cases
	// append the endpoint paths.
	URL string
	// Model is sent as every request's model; "" uses the first model the
	// listing names, or sends none when it names none.
	Model string
	// Schema is the schema the server claims (ConformanceSchemas).
	Schema table.SchemaID
	// APIKey, when set, is sent as a bearer token on every call. It is
	// never reported.
	APIKey string
	// Timeout bounds each HTTP call; 0 means DefaultConformanceTimeout.
	Timeout time.Duration
	// Observe, when set, is called with every exchange, in order (tests
	// validate them against an OpenAPI document).
	Observe func(ConformanceExchange)
}

// ConformanceExchange is one call a case made and the answer it got.
type ConformanceExchange struct {
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

// RunConformance runs every case of opts.Schema against opts.URL and
// reports each. The error is for options it cannot run with; a server
// that does not answer fails its cases instead.
func RunConformance(ctx context.Context, opts ConformanceOptions) (*ConformanceReport, error) {
	run, err := newConfRun(opts)
	if err != nil {
		return nil, err
	}
	report := &ConformanceReport{URL: run.base, Schema: string(opts.Schema)}
	for _, c := range conformanceCases(opts.Schema) {
		if c.applies != nil && !c.applies(run) {
			continue
		}
		report.add(run.runCase(ctx, c))
	}
	report.Model = run.model
	return report, nil
}

// confRun is the state of one run: the options and what the listing said.
type confRun struct {
	opts   ConformanceOptions
	base   string
	client *http.Client
	// model is the model the requests name; "" sends none.
	model string
	// questionTypes are the question types the model's listing card
	// declares (vllm-sr/5.0 and 4.0 listings); nil when unknown.
	questionTypes []string
}

func newConfRun(opts ConformanceOptions) (*confRun, error) {
	if !slices.Contains(ConformanceSchemas, opts.Schema) {
		var names []string
		for _, s := range ConformanceSchemas {
			names = append(names, string(s))
		}
		return nil, fmt.Errorf("unknown schema %q; the kit checks %s", opts.Schema, strings.Join(names, ", "))
	}
	u, err := url.Parse(opts.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, errors.New("the URL must be an http or https URL with a host, such as http://127.0.0.1:8100")
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultConformanceTimeout
	}
	return &confRun{opts: opts, base: strings.TrimSuffix(opts.URL, "/"), client: &http.Client{Timeout: opts.Timeout}, model: opts.Model}, nil
}

func (run *confRun) schema() table.SchemaID { return run.opts.Schema }

// extended reports whether the schema is one of vllm-sr's (5.0 or 4.0),
// whose errors carry code and reason.
func (run *confRun) extended() bool { return run.opts.Schema != table.SchemaStandard02 }

// legacy reports whether the schema is vllm-sr/4.0.
func (run *confRun) legacy() bool { return run.opts.Schema == table.SchemaVllmSR40 }

// confReply is one answer: its status, header, body and the body read as
// JSON (the zero Value when it is not JSON).
type confReply struct {
	status int
	header http.Header
	body   []byte
	json   jsonvalue.Value
	// err is why no answer came.
	err error
}

// runCase sends the case's request and checks the answer.
func (run *confRun) runCase(ctx context.Context, c confCase) ConformanceResult {
	res := ConformanceResult{Name: c.name, Method: c.method, Path: c.path}
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
	reply := run.send(ctx, c.method, c.path, header, body)
	if run.opts.Observe != nil {
		run.opts.Observe(ConformanceExchange{Case: c.name, Method: c.method, Path: c.path, Header: header.Clone(),
			Body: body, Valid: c.valid, Status: reply.status, ResponseHeader: reply.header, Answer: reply.body})
	}
	res.Status = reply.status
	if reply.err != nil {
		res.Reason = "no answer: " + reply.err.Error()
		return res
	}
	var problems []string
	if c.answer != nil {
		problems = checkSuccess(reply, func(v jsonvalue.Value) []string { return c.answer(run, v) })
	} else {
		problems = checkRefusal(run, reply, c.refuse)
	}
	res.OK = len(problems) == 0
	res.Reason = strings.Join(problems, "; ")
	return res
}

// send makes one call, bounded by the run's timeout, and reads at most
// maxAnswerBytes of the answer.
func (run *confRun) send(ctx context.Context, method, path string, header http.Header, body []byte) *confReply {
	ctx, cancel := context.WithTimeout(ctx, run.opts.Timeout)
	defer cancel()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, run.base+path, rd)
	if err != nil {
		return &confReply{err: err}
	}
	req.Header = header.Clone()
	req.Header.Set("User-Agent", "vllm-sr-conformance")
	if run.opts.APIKey != "" {
		req.Header.Set(vocab.HeaderAuthorization, "Bearer "+run.opts.APIKey)
	}
	resp, err := run.client.Do(req)
	if err != nil {
		return &confReply{err: withoutURL(err)}
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswerBytes+1))
	if err != nil {
		return &confReply{status: resp.StatusCode, header: resp.Header, err: fmt.Errorf("reading the answer: %w", err)}
	}
	if len(raw) > maxAnswerBytes {
		return &confReply{status: resp.StatusCode, header: resp.Header, err: fmt.Errorf("the answer is larger than %d bytes", maxAnswerBytes)}
	}
	reply := &confReply{status: resp.StatusCode, header: resp.Header, body: raw}
	if v, err := jsonvalue.Decode(raw, jsonvalue.Options{}); err == nil {
		reply.json = v
	}
	return reply
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

// ConformanceResult is one case's outcome.
type ConformanceResult struct {
	// Name is the case's short name, such as question/choice.
	Name   string `json:"name"`
	Method string `json:"method"`
	Path   string `json:"path"`
	OK     bool   `json:"ok"`
	// Status is the answer's HTTP status; 0 when none came.
	Status int `json:"status"`
	// Reason says why the case failed: every check that did not hold,
	// separated by "; ". Empty when it passed.
	Reason string `json:"reason,omitempty"`
}

// ConformanceReport is a run's outcome: every case in the order run.
type ConformanceReport struct {
	URL    string `json:"url"`
	Schema string `json:"schema"`
	// Model is the model the requests named; "" when they named none.
	Model   string              `json:"model"`
	Passed  int                 `json:"passed"`
	Failed  int                 `json:"failed"`
	Results []ConformanceResult `json:"cases"`
}

func (r *ConformanceReport) add(res ConformanceResult) {
	r.Results = append(r.Results, res)
	if res.OK {
		r.Passed++
	} else {
		r.Failed++
	}
}

// WriteText writes one line per case, ok or FAIL, then the method, path
// and name of its request, and the reason of a failure; then a summary
// line.
func (r *ConformanceReport) WriteText(w io.Writer) error {
	var widths [3]int
	for _, res := range r.Results {
		for i, cell := range []string{res.Method, res.Path, res.Name} {
			widths[i] = max(widths[i], len(cell))
		}
	}
	for _, res := range r.Results {
		line := fmt.Sprintf("%-4s  %-*s  %-*s  %-*s  %s", verdict(res), widths[0], res.Method, widths[1], res.Path,
			widths[2], res.Name, oneLine(res.Reason))
		if _, err := fmt.Fprintln(w, strings.TrimRight(line, " ")); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintln(w, r.Summary())
	return err
}

func verdict(res ConformanceResult) string {
	if res.OK {
		return "ok"
	}
	return "FAIL"
}

// Summary is the report's last line: the counts, the schema, the server
// and the model.
func (r *ConformanceReport) Summary() string {
	return fmt.Sprintf("%d cases: %d ok, %d FAIL (%s at %s, model %s)",
		len(r.Results), r.Passed, r.Failed, r.Schema, r.URL, cmp.Or(r.Model, "(none)"))
}

// WriteJSON writes the report as one indented JSON object.
func (r *ConformanceReport) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// oneLine keeps a failure's text on its line: an answer's own words may
// hold line breaks.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
