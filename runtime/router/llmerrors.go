package router

import (
	"encoding/json"
	"net/http"

	"github.com/vllm-sr/systemone/runtime/front"
	"github.com/vllm-sr/systemone/runtime/registry"
	"github.com/vllm-sr/systemone/runtime/routerconfig"
)

// llmFailure is an error the Router itself answers an LLM API request
// with, written in the API's own error shape (writeLLMFailure). Message
// names configuration (listeners, rules) only, never request data.
type llmFailure struct {
	Status int
	// Kind is the OpenAI error type; anthropicType is Anthropic's for the
	// same failure.
	Kind          string
	anthropicType string
	// Code is OpenAI's error code (Anthropic's shape has none).
	Code    string
	Message string
}

// The failures the Router answers LLM requests with. Codes and types are
// OpenAI's and Anthropic's own words, not System One's.
func llmInvalid(status int, code, message string) llmFailure {
	return llmFailure{Status: status, Kind: "invalid_request_error", anthropicType: "invalid_request_error", Code: code, Message: message}
}

func llmNotFound(code, message string) llmFailure {
	return llmFailure{Status: http.StatusNotFound, Kind: "invalid_request_error", anthropicType: "not_found_error", Code: code, Message: message}
}

func llmUnauthorized(message string) llmFailure {
	return llmFailure{Status: http.StatusUnauthorized, Kind: "invalid_request_error", anthropicType: "authentication_error",
		Code: "invalid_api_key", Message: message} //vocab:not-spec OpenAI's error code
}

func llmBlocked(rule string) llmFailure {
	return llmFailure{Status: http.StatusForbidden, Kind: "invalid_request_error", anthropicType: "permission_error",
		Code: "blocked_by_rule", Message: "the request was blocked by rule " + quote(rule)}
}

func llmRuleFailed(rule string) llmFailure {
	return llmFailure{Status: http.StatusServiceUnavailable, Kind: "api_error", anthropicType: "api_error",
		Code: "rule_failed", Message: "rule " + quote(rule) + " could not be evaluated and its on_unknown is fail"}
}

func llmInternal(code, message string) llmFailure {
	return llmFailure{Status: http.StatusInternalServerError, Kind: "api_error", anthropicType: "api_error", Code: code, Message: message}
}

func llmUpstreamFailed(code, message string) llmFailure {
	return llmFailure{Status: http.StatusBadGateway, Kind: "api_error", anthropicType: "api_error", Code: code, Message: message}
}

// writeLLMFailure writes f in the shape of api's listener schema:
// Anthropic's {"type": "error", "error": {type, message}} for the
// Messages API, OpenAI's {"error": {message, type, code}} for the others.
func writeLLMFailure(w http.ResponseWriter, api *routerconfig.ListenerAPI, f llmFailure) {
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
