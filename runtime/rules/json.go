package rules

import (
	"encoding/json"

	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/listener"
)

// ruleJSON is one rule's result as `vllm-sr decide` prints it.
type ruleJSON struct {
	Rule       string          `json:"rule"`
	Deployment string          `json:"deployment"`
	Outcome    string          `json:"outcome"`
	Match      string          `json:"match,omitempty"`
	Fired      *bool           `json:"fired,omitempty"`
	Unknown    []string        `json:"unknown"`
	Response   json.RawMessage `json:"response"`
}

// JSON writes results as `vllm-sr decide` prints them, indented:
// {"rules": [{rule, deployment, outcome, match, fired, unknown, response}]}
// (match and fired, what the rule would do on traffic, only for a rule
// with a match), each
// response in the /v1/decisions shape of codec's schema, the one a System
// One listener speaks by default, vllm-sr/5.0 (an unknown answer carries
// its error, reason and message).
func JSON(codec listener.Codec, results []Result) ([]byte, error) {
	out := struct {
		Rules []ruleJSON `json:"rules"`
	}{Rules: make([]ruleJSON, len(results))}
	for i, res := range results {
		cr := &listener.ClientRequest{Endpoint: listener.EndpointDecisions, Request: &ir.Request{}}
		body, err := codec.AnswerSuccess(cr, listener.Outcome{Response: res.Response})
		if err != nil {
			return nil, err
		}
		unknown := res.Unknown
		if unknown == nil {
			unknown = []string{}
		}
		out.Rules[i] = ruleJSON{Rule: res.Rule, Deployment: res.Deployment, Outcome: res.Outcome, Unknown: unknown, Response: body}
		if res.Match != "" {
			fired := res.Fired
			out.Rules[i].Match, out.Rules[i].Fired = res.Match, &fired
		}
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}
