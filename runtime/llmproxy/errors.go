package llmproxy

import (
	"encoding/json"
	"net/http"

	"github.com/vllm-sr/systemone/runtime/front"
	"github.com/vllm-sr/systemone/runtime/registry"
	"github.com/vllm-sr/systemone/runtime/routerconfig"
)

// Failure is an error the Router itself answers an LLM API request
// with, written in the API's own error shape (WriteFailure). Message
// names configuration (listeners, rules) only, never request data.
type Failure struct {
	Status int
	// Kind is the OpenAI error type; anthropicType is Anthropic's for the
	// same failure.
	Kind          string
	anthropicType string
	// Code is OpenAI's error code (Anthropic's shape has none).
	Code    string
	Message string
}

// The failures the Router answers LLM requests with (Invalid, NotFound,
// Unauthorized, Blocked, RuleFailed, Internal, UpstreamFailed). Codes and types are
// OpenAI's and Anthropic's own words, not System One's.
func Invalid(status int, code, message string) Failure {
	return Failure{Status: status, Kind: "invalid_request_error", anthropicType: "invalid_request_error", Code: code, Message: message}
}

func NotFound(code, message string) Failure {
	return Failure{Status: http.StatusNotFound, Kind: "invalid_request_error", anthropicType: "not_found_error", Code: code, Message: message}
}

func Unauthorized(message string) Failure {
	return Failure{Status: http.StatusUnauthorized, Kind: "invalid_request_error", anthropicType: "authentication_error",
		Code: "invalid_api_key", Message: message} //vocab:not-spec OpenAI's error code
}

func Blocked(rule string) Failure {
	return Failure{Status: http.StatusForbidden, Kind: "invalid_request_error", anthropicType: "permission_error",
		Code: "blocked_by_rule", Message: "the request was blocked by rule " + quote(rule)}
}

func RuleFailed(rule string) Failure {
	return Failure{Status: http.StatusServiceUnavailable, Kind: "api_error", anthropicType: "api_error",
		Code: "rule_failed", Message: "rule " + quote(rule) + " could not be evaluated and its on_unknown is fail"}
}

func Internal(code, message string) Failure {
	return Failure{Status: http.StatusInternalServerError, Kind: "api_error", anthropicType: "api_error", Code: code, Message: message}
}

func Overloaded(status int, code, message string) Failure {
	return Failure{Status: status, Kind: "api_error", anthropicType: "overloaded_error", Code: code, Message: message} //vocab:not-spec Anthropic's error type word
}

func UpstreamFailed(code, message string) Failure {
	return Failure{Status: http.StatusBadGateway, Kind: "api_error", anthropicType: "api_error", Code: code, Message: message}
}

// WriteFailure writes f in the shape of api's listener schema:
// Anthropic's {"type": "error", "error": {type, message}} for the
// Messages API, OpenAI's {"error": {message, type, code}} for the others.
func WriteFailure(w http.ResponseWriter, api *routerconfig.ListenerAPI, f Failure) {
	var body []byte
	if api != nil && api.Schema == registry.SchemaAnthropic01 {
		body, _ = json.Marshal(anthropicError{Type: "error", Error: anthropicErrorBody{Type: f.anthropicType, Message: f.Message}}) //vocab:not-spec Anthropic's error type word
	} else {
		body, _ = json.Marshal(openAIError{Error: openAIErrorBody{Message: f.Message, Type: f.Kind, Code: f.Code}})
	}
	front.WriteJSON(w, f.Status, body)
}

type openAIError struct {
	Error openAIErrorBody `json:"error"`
}

type openAIErrorBody struct {
	Message string `json:"message"`
	Type    string `json:"type"`
	Code    string `json:"code"`
}

type anthropicError struct {
	Type  string             `json:"type"`
	Error anthropicErrorBody `json:"error"`
}

type anthropicErrorBody struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

// quote is s in double quotes: a configuration name in a message.
func quote(s string) string { return `"` + s + `"` }
