package ir

import "github.com/vllm-sr/systemone/runtime/jsonvalue"

// Health is one GET /health reply: whether the server is ready (status),
// the model runtime contract a runtime speaks (APIVersion, which a Router
// refuses when it is not its own), the extension set version it answers
// with, and the model and schema a runtime serves. A field "" is a member
// the server does not report (a Router reports no APIVersion, Model or
// Schema).
type Health struct {
	Status     string
	APIVersion string
	Version    string
	Model      string
	Schema     string
	// Extra: see Response.Extra (the specs mark no health member passive
	// today; one they add is carried here).
	Extra []jsonvalue.Member
}
