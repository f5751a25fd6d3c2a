package shapes

import (
	"errors"
	"strconv"
	"strings"

	"github.com/vllm-sr/systemone/generated/validate"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

// MaxDepth bounds how deeply a body nests: room for a state of the
// standard's 64 levels inside a bundle item's wrapping, and a bound on the
// decoder's recursion for anything deeper.
const MaxDepth = 72

// DecodeRequest reads one request in the internal form: decoded once,
// checked by the generated internal validator, read by the Reader with its
// layout recorded. The IR aliases body, which the caller must not modify
// afterwards. The diagnostics list the 4.0-only forms the request used.
func DecodeRequest(body []byte) (*ir.Request, ir.Diagnostics, error) {
	root, err := decodeChecked(body, validate.RequestInternal)
	if err != nil {
		return nil, nil, err
	}
	var diags ir.Diagnostics
	rd := Reader{Implicit: true, Layout: true, Diags: &diags}
	r, err := rd.Request(root, nil)
	if err != nil {
		return nil, nil, err
	}
	return r, diags, nil
}

// DecodeBundle reads a POST /v1/bundle body: several named requests in the
// internal form, each with its own options.
func DecodeBundle(body []byte) (*ir.Batch, ir.Diagnostics, error) {
	root, err := decodeChecked(body, validate.BatchRequestInternal)
	if err != nil {
		return nil, nil, err
	}
	var diags ir.Diagnostics
	rd := Reader{Implicit: true, Layout: true, Diags: &diags}
	b, err := rd.Bundle(root)
	if err != nil {
		return nil, nil, err
	}
	return b, diags, nil
}

func decodeChecked(body []byte, check func(jsonvalue.Value) []table.Problem) (jsonvalue.Value, error) {
	root, err := jsonvalue.Decode(body, jsonvalue.Options{MaxDepth: MaxDepth})
	if err != nil {
		return root, &ir.ProtocolError{Category: ir.CategoryInvalidRequest, Reason: ir.ReasonInvalidJSON, Message: notJSON(err), Cause: err}
	}
	if problems := check(root); len(problems) > 0 {
		return root, problemError(root, problems)
	}
	return root, nil
}

// notJSON is the message of a body Decode refused: the fault's reason,
// JSONPath and byte offset.
func notJSON(err error) string {
	msg := "the body is not valid JSON"
	var se *jsonvalue.SyntaxError
	if errors.As(err, &se) {
		msg += ": " + se.Reason + " at " + se.Path + " (byte " + strconv.FormatInt(se.Offset, 10) + ")"
	}
	return msg
}

// problemError is the error of a body the validator refused: the first
// problem's path and reason, and every problem's message (the first one's
// without its path, which the error carries).
func problemError(root jsonvalue.Value, problems []table.Problem) error {
	msgs := problemMessages(problems)
	msgs[0] = problems[0].What()
	return &ir.ProtocolError{Category: ir.CategoryInvalidRequest, Reason: ir.Reason(problems[0].Reason),
		Path: Locate(root, SplitPointer(problems[0].Path)), Message: strings.Join(msgs, "; ")}
}

func problemMessages(problems []table.Problem) []string {
	msgs := make([]string, len(problems))
	for i, p := range problems {
		msgs[i] = p.Message()
	}
	return msgs
}

// DecodeStandardRequest reads one systemone/0.2 request body: decoded
// once, refused with every problem the generated standard validator finds
// (each extension member among them), else read by the Reader as the
// vllm-sr/5.0 superset every standard body is. A refusal is one line,
// worded as a listener codec words its refusals: JSON pointers and paths,
// never request values.
func DecodeStandardRequest(body []byte) (*ir.Request, error) {
	root, err := jsonvalue.Decode(body, jsonvalue.Options{MaxDepth: MaxDepth})
	if err != nil {
		return nil, errors.New(notJSON(err))
	}
	if problems := validate.RequestStandard02(root); len(problems) > 0 {
		return nil, errors.New(strings.Join(problemMessages(problems), "; "))
	}
	var rd Reader
	r, err := rd.Request(root, nil)
	var pe *ir.ProtocolError
	if errors.As(err, &pe) {
		// The Reader's refusals are ir.Refuse's: a path and a message.
		return nil, errors.New(pe.Path.String() + ": " + pe.Message)
	}
	return r, err
}

// Locate turns JSON Pointer segments into a Path, telling array indexes
// from member names by walking root.
func Locate(root jsonvalue.Value, segs []string) ir.Path {
	path := make(ir.Path, 0, len(segs))
	cur := root
	for _, seg := range segs {
		if cur.Kind() == jsonvalue.KindArray {
			if i, err := strconv.Atoi(seg); err == nil && i >= 0 && i < cur.Len() {
				path = path.At(i)
				cur = cur.Items()[i]
				continue
			}
		}
		path = path.Key(seg)
		cur, _ = cur.Get(seg)
	}
	return path
}

// SplitPointer splits an RFC 6901 JSON Pointer into unescaped segments;
// "" (the whole document) has none.
func SplitPointer(p string) []string {
	if p == "" {
		return nil
	}
	segs := strings.Split(p[1:], "/")
	for i, s := range segs {
		if strings.IndexByte(s, '~') >= 0 {
			segs[i] = strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
		}
	}
	return segs
}
