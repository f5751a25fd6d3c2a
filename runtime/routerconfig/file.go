package routerconfig

// The file's form: one Go type per section of router.yaml, keyed by its
// yaml tags. They are the one statement of the file's keys: the loader
// takes each section's allowed and required keys from them (keysOf,
// requiredOf), and srgen reads this file (its types, tags and doc
// comments, as source: gen/configschema) to write router.yaml's JSON
// Schema and its reference page (docs/reference/router-config.*). A key
// added here is allowed by the loader and documented in the schema at
// once; its reading stays the loader's.
//
// The schema tag states what the schema can check, items separated by
// ";": required, nullable (null reads as empty), min=N and max=N (a
// number's bounds, or a list's or mapping's least and most entries),
// enum=a|b (enum=@features: the specifications' feature words, which
// srgen fills in), pattern=RE (a string's), keys=RE and keyenum=a|b (a
// mapping's keys),
// valuemin=N (the least entries of each list a mapping holds),
// nullvalues (a mapping's values may be null), excludes=KEY (not given
// with KEY), with=KEY:VALUE (given exactly when KEY is VALUE),
// oneof=number|string|strings (a value of several forms). Every string is non-empty and every
// list of strings lists each once, as the loader reads them.

// fileForm is a router.yaml: the Router's listeners, the LLM upstreams
// and System One deployments it forwards to, the pools over deployments,
// the decision rules, and tracing.
type fileForm struct {
	// AdminAddress (host:port) moves GET /health, /ready and /metrics off
	// the listeners onto an address of their own.
	AdminAddress string `yaml:"admin_address" schema:"pattern=:[0-9]+$"`
	// Listeners are the addresses the Router serves, each with the APIs it
	// serves there.
	Listeners []listenerForm `yaml:"listeners" schema:"nullable"`
	// Upstreams are the LLM servers, by name, LLM requests are forwarded to.
	Upstreams map[string]upstreamForm `yaml:"upstreams" schema:"nullable;keys=^[A-Za-z0-9][A-Za-z0-9._-]*$"`
	// Deployments are the System One models, by the model name clients
	// send, that decisions and rules are asked of.
	Deployments map[string]deploymentForm `yaml:"deployments" schema:"nullable;keys=^[A-Za-z0-9][A-Za-z0-9._/-]*$"`
	// Pools are model names that spread requests over several deployments
	// (least in flight first, the next on a failure); each lists its
	// deployments.
	Pools map[string][]string `yaml:"pools" schema:"nullable;keys=^[A-Za-z0-9][A-Za-z0-9._/-]*$;valuemin=1"`
	// Rules are the decision rules, by name: questions asked of a
	// deployment about a request, and what the answer does to it.
	Rules map[string]ruleForm `yaml:"rules" schema:"nullable;keys=^[A-Za-z0-9][A-Za-z0-9._-]*$"`
	// Tracing exports a span per request, and per upstream call, to an
	// OTLP/HTTP collector.
	Tracing tracingForm `yaml:"tracing"`
}

// listenerForm is one listener: an address and the APIs served on it.
type listenerForm struct {
	// Name names the listener in logs, metrics and problems; unique.
	Name string `yaml:"name" schema:"required;pattern=^[A-Za-z0-9][A-Za-z0-9._-]*$"`
	// Address is host:port; port 0 takes any free port.
	Address string `yaml:"address" schema:"required"`
	// APIs are the APIs served, by API name (chat_completions, openai,
	// responses, messages, anthropic, images, systemone); without it, the
	// four LLM APIs for every model, and System One off.
	APIs map[string]listenerAPIForm `yaml:"apis" schema:"min=1;nullvalues;keyenum=anthropic|chat_completions|images|messages|openai|responses|systemone"`
	// Rules are the rules run on every LLM request of the listener, before
	// those of its API.
	Rules []string `yaml:"rules" schema:"min=1"`
	// APIKeysEnv names the environment variable holding the keys clients
	// must send (one per line); not with api_keys_file.
	APIKeysEnv string `yaml:"api_keys_env" schema:"pattern=^[A-Za-z_][A-Za-z0-9_]*$;excludes=api_keys_file"`
	// APIKeysFile is the path of a file holding the keys clients must send
	// (one per line, read again at every reload); not with api_keys_env.
	APIKeysFile string `yaml:"api_keys_file"`
	// MaxInFlight bounds the requests the listener serves at once; more
	// are answered 503 (default 256).
	MaxInFlight int `yaml:"max_in_flight" schema:"min=1;max=65536"`
}

// listenerAPIForm is one API a listener serves (null: every model, the
// default schema).
type listenerAPIForm struct {
	// Schema is the schema version a versioned API (systemone) reads.
	Schema string `yaml:"schema" schema:"enum=vllm-sr/4.0|vllm-sr/5.0"`
	// Models are the models served: deployments and pools for systemone,
	// models of an upstream for an LLM API; without it, every one.
	Models []string `yaml:"models" schema:"min=1"`
	// Rules are the rules run on this API's requests (LLM APIs only).
	Rules []string `yaml:"rules" schema:"min=1"`
	// MaxDeadlineMs is the longest deadline the listener grants a System
	// One request, in milliseconds (systemone only).
	MaxDeadlineMs int `yaml:"max_deadline_ms" schema:"min=1;max=600000"`
}

// upstreamForm is one LLM server.
type upstreamForm struct {
	// APIFormat is the LLM API the upstream speaks (chat_completions,
	// responses, messages, images).
	APIFormat string `yaml:"api_format" schema:"required;enum=anthropic|chat_completions|images|messages|openai|responses"`
	// Endpoint is the upstream's base URL (http or https).
	Endpoint string `yaml:"endpoint" schema:"required;pattern=^https?://"`
	// Schema is the API's version the upstream speaks, when it has more
	// than one.
	Schema string `yaml:"schema" schema:"enum=anthropic/2023-06-01|openai/v1"`
	// Models are the models the upstream serves.
	Models []string `yaml:"models" schema:"required"`
	// APIKeyEnv names the environment variable holding the upstream's key;
	// not with api_key_file.
	APIKeyEnv string `yaml:"api_key_env" schema:"pattern=^[A-Za-z_][A-Za-z0-9_]*$;excludes=api_key_file"`
	// APIKeyFile is the path of a file holding the upstream's key; not
	// with api_key_env.
	APIKeyFile string `yaml:"api_key_file"`
}

// deploymentForm is one System One model the Router calls.
type deploymentForm struct {
	// Provider is systemone; LLM servers go under upstreams.
	Provider string `yaml:"provider" schema:"required;enum=systemone"`
	// Endpoint is the deployment's single-request URL, ending in
	// /v1/systemone.
	Endpoint string `yaml:"endpoint" schema:"required;pattern=^https?://"`
	// Model is the model name sent to the deployment.
	Model string `yaml:"model" schema:"required"`
	// Schema is the schema the deployment speaks (default systemone/0.2).
	Schema string `yaml:"schema" schema:"enum=systemone/0.2|vllm-sr/5.0"`
	// Deviations are the schema's deviations the deployment needs
	// (state_text).
	Deviations []string `yaml:"deviations" schema:"enum=state_text"`
	// MaxConcurrency bounds the calls in flight to the deployment
	// (default 8).
	MaxConcurrency int `yaml:"max_concurrency" schema:"min=1;max=1024"`
	// Capabilities declare what a model without a catalogue card answers,
	// in the listing's feature words.
	Capabilities []string `yaml:"capabilities" schema:"enum=@features"`
	// APIKeyEnv names the environment variable holding the deployment's
	// key; not with api_key_file.
	APIKeyEnv string `yaml:"api_key_env" schema:"pattern=^[A-Za-z_][A-Za-z0-9_]*$;excludes=api_key_file"`
	// APIKeyFile is the path of a file holding the deployment's key; not
	// with api_key_env.
	APIKeyFile string `yaml:"api_key_file"`
	// Required makes the Router ready only while the deployment is.
	Required bool `yaml:"required"`
	// Retries is how many times a call refused or reset before any answer
	// is sent again.
	Retries int `yaml:"retries" schema:"min=0;max=10"`
	// TimeoutMs bounds each call to the deployment, in milliseconds.
	TimeoutMs int `yaml:"timeout_ms" schema:"min=1;max=600000"`
	// Circuit stops calling the deployment after failures in a row.
	Circuit circuitForm `yaml:"circuit"`
	// Connections steer the Router's own connections to an http://
	// endpoint.
	Connections connectionsForm `yaml:"connections"`
}

// circuitForm is a deployment's circuit breaker.
type circuitForm struct {
	// Failures in a row open the circuit (default 5; 0: never).
	Failures int `yaml:"failures" schema:"min=0;max=1000"`
	// CoolDownMs is how long an open circuit stays open, in milliseconds.
	CoolDownMs int `yaml:"cool_down_ms" schema:"min=1;max=3600000"`
}

// connectionsForm steers the Router's connections to a deployment.
type connectionsForm struct {
	// Reuse keeps connections open between calls (default true).
	Reuse bool `yaml:"reuse"`
	// StrayPauseMs waits this long for a stray byte before reusing a
	// connection, in milliseconds.
	StrayPauseMs int `yaml:"stray_pause_ms" schema:"min=0;max=3600000"`
}

// ruleForm is one decision rule.
type ruleForm struct {
	// Deployment is the deployment asked (one deployment, not a pool).
	Deployment string `yaml:"deployment" schema:"required"`
	// Input are the parts of the request the deployment reads.
	Input []string `yaml:"input" schema:"required;min=1;enum=request|history|previous_turns|previous_answer|tool_results|candidate|answer|context|image|video"`
	// TimeoutMs bounds the rule's call, in milliseconds.
	TimeoutMs int `yaml:"timeout_ms" schema:"required;min=1;max=600000"`
	// OnUnknown is what a rule that gets no answer does: skip (default:
	// the request goes on), match (as if matched) or fail (the request is
	// refused).
	OnUnknown string `yaml:"on_unknown" schema:"enum=fail|match|skip"`
	// Questions are the rule's questions, by name, as in a vllm-sr/5.0
	// request (a type, instructions and criteria, or a preset).
	Questions map[string]map[string]any `yaml:"questions" schema:"required;min=1"`
	// Match is when the rule fires, by question: a P(yes) or expected
	// level at least, or a choice's option or options; default every noul
	// question at 0.5.
	Match map[string]any `yaml:"match" schema:"min=1;oneof=number|string|strings"`
	// Action is what a firing rule does: block the request, or route it.
	Action string `yaml:"action" schema:"enum=block|route"`
	// Route is where action route sends the request.
	Route routeForm `yaml:"route" schema:"with=action:route"`
}

// routeForm is where a route rule sends a request: an upstream, a model,
// or both.
type routeForm struct {
	// Upstream is the LLM upstream the request goes to.
	Upstream string `yaml:"upstream"`
	// Model replaces the request's model.
	Model string `yaml:"model"`
}

// tracingForm is the tracing section.
type tracingForm struct {
	// OTLPEndpoint is the OTLP/HTTP collector's URL (/v1/traces when it
	// has no path).
	OTLPEndpoint string `yaml:"otlp_endpoint" schema:"required;pattern=^https?://"`
	// SampleRatio is the share of requests traced, from 0 to 1 (default 1).
	SampleRatio float64 `yaml:"sample_ratio" schema:"min=0;max=1"`
}
