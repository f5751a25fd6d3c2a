// Package engine is the one request pipeline of the schema layer, which
// the Router (`vllm-sr serve`, `vllm-sr decide`), the model runtime
// (`vllm-srun serve`) and `vllm-sr convert` all run requests through:
//
//	read (a listener codec) → route (the server) → plan (a target codec)
//	→ deviations → call (a Caller) → reassemble → answer (the listener codec)
//
// Read turns a client's body into an Exchange with the listener codec of
// the client's schema; its batch is what gets planned (a single request is
// a batch of one, a vllm-sr/4.0 states request one item per state). The
// server then decides the Route: routing by model, pools, capabilities,
// admission and deadlines are its own concerns. Engine.Plan has the
// route's target codec plan the wire calls and the route's deviations
// rewrite them, or, for a single request the internal form reads (a
// /v1/decisions request, a vllm-sr/4.0 /v1/systemone request on a 4.0
// listener) to a vllm-sr target, plans the internal form's one call to
// its /v1/decisions, with the client's own bytes when its listener
// planned it pass-through and nothing was rewritten. Exchange.Call has the route's Caller answer the plan and
// reassembles the answer: the first failure of a fail-fast request (POST
// /v1/systemone, /v1/systemone/batch), or every item's answers with each
// failed question's error. The server writes the outcome with the listener
// codec. Engine.Run is Plan then Call.
//
// A route is answered by a Sender or a Caller. The Router's Sender sends
// each wire call over HTTP and returns its raw reply; the engine runs the
// plan's calls under a sliding window of the plan's max_concurrency and
// its deadline, and decodes each reply with the route's codec after the
// route's deviations (wire.go), so a target codec is used here only.
// vllm-srun's Caller runs its model on each item in process, with no
// target codec and so no wire calls. A server splices its spans, counts
// and credentials in with Hooks (Planning, Planned, Decoded), so that it
// calls Run once per route it tries. Convert (Engine.Translate) calls
// nothing: it reads one body, has the target codec write it alone
// (target.RequestWriter) and applies the deviations, as on a deployment.
//
// The engine looks every codec up by schema ID in the schema registry it
// is built over (registry.Schemas) and never switches on a schema ID:
// what differs between schemas is behind the codecs' seams and traits. A
// new schema or deviation in the registry needs no change here.
//
// An Engine is immutable and safe for concurrent use; an Exchange belongs
// to one request.
package engine
