package routerconfig

import (
	"fmt"
	"strings"
)

// Problem is one thing wrong with a configuration. Its message names the
// key path and what the configuration allows; a refused rule also names
// the rule and its deployment.
type Problem struct {
	File   string
	Line   int
	Column int
	// Path is the key path, such as deployments.gateway-d3.schema.
	Path    string
	Message string
	// Rule and Deployment are set on a refusal: a rule whose deployment
	// cannot carry or answer what it asks.
	Rule       string
	Deployment string
}

// Refusal reports whether the problem refuses a rule for its deployment.
func (p Problem) Refusal() bool { return p.Rule != "" && p.Deployment != "" }

// String is the problem on one line: file:line:column: path: message.
func (p Problem) String() string {
	out := p.File
	if p.Line > 0 && out != "" {
		out += ":"
	}
	if p.Line > 0 {
		out += fmt.Sprintf("%d:%d", p.Line, p.Column)
	}
	if out != "" {
		out += ": "
	}
	if p.Path != "" {
		out += p.Path + ": "
	}
	return out + p.Message
}

// LoadError is every problem a configuration has, in file order.
type LoadError struct {
	Problems []Problem
}

// Error is the problems, one per line.
func (e *LoadError) Error() string {
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

// Refusals returns the problems that refuse a rule.
func (e *LoadError) Refusals() []Problem {
	var out []Problem
	for _, p := range e.Problems {
		if p.Refusal() {
			out = append(out, p)
		}
	}
	return out
}
