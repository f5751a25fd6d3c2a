// Package apiregistry is the one registry of the APIs the Router speaks,
// on its listeners and to its upstreams: chat_completions, responses,
// messages, images and systemone. Each entry declares its name, its paths,
// its schema IDs and their defaults, its settings, the kind of model it
// serves and, for an API the Router reads itself (systemone), the listener
// codec of each schema.
//
// APIs are named by the API, not the vendor: openai and anthropic, the names
// earlier configurations used, are aliases of chat_completions and messages,
// resolved wherever an API is named.
//
// A Registry is an immutable value validated when it is built (New); its
// accessors return sorted copies, so no caller can change it. Builtin is
// the registry the Router runs with. A new API is one entry; a new version
// of one is a schema ID and its codec. Neither changes a caller.
package apiregistry
