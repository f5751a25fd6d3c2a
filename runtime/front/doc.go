// Package front is what both servers, vllm-srun and every listener of the
// Router, do around each request, so both behave and are observed alike:
// the request id (x-request-id and x-typesafe-request-id), the body-read
// and write deadlines (with the header, idle and shutdown ones, Timeouts,
// and the http.Server both build), the Prometheus series both expose
// (Metrics, one naming scheme, client_golang), the access log line,
// leveled by status and written through a buffered LogWriter, the build
// info, and the runtime contract a model runtime reports in GET /health
// (RuntimeContract, checked by the Router).
//
// It knows HTTP and nothing of schemas: a server's handler reads and
// answers with a runtime/listener codec inside Front.Begin and
// Front.Finish, and notes on Served what the access line and the counters
// need (the model, the error code, the cause of a cut).
package front
