// Package bodylimit reads an HTTP request body under a byte limit and
// decides that a body is too large without reading more than the limit
// allows: a Content-Length above the limit is refused before any byte is
// read, and a body of unknown or lying length is cut off by
// http.MaxBytesReader one byte past the limit, which also makes the
// server close the connection instead of draining the rest.
//
// Two readers make the caller's choice about Content-Encoding explicit:
//
//   - ReadDecoded undoes the request's Content-Encoding (gzip, x-gzip or
//     identity) and applies the limit to the decoded size as well, so a
//     gzip bomb stops inflating one byte past the limit. Servers that
//     parse the body (System One endpoints) use it: the tolerant-server
//     guidance is to accept Content-Encoding: gzip.
//   - Read returns the bytes as sent, coding and all. Proxies that forward
//     the client's bytes unchanged (the Router's LLM pass-through) use it,
//     since the upstream undoes the coding the client chose.
//
// Memory: a body is read into chunks allocated as it arrives (fill.go),
// not a doubling buffer, so a body with a Content-Length costs its length,
// and a gzip bomb stopped one byte past the limit about the limit. gzip
// bodies inflate under a Budget, a weighted semaphore of bytes that the
// process's servers share (Shared): each chunk is reserved before it is
// allocated, and a body that finds no room within a short wait is refused
// with *OverBudgetError (servers answer 503 unavailable with
// Retry-After), so the bombs inflated at once cost at most the budget.
//
// An early refusal: when a body is refused before it was read to its end,
// the ResponseWriter is prepared for an answer written first (Connection:
// close, reads after writes); the server writes its answer and calls
// Linger, which reads and discards the rest for a bounded time and size,
// so a client that sends its whole body before reading (Python's
// http.client) reads the answer instead of a connection reset.
//
// Errors carry no byte of the body: *TooLargeError (the limit),
// *UnsupportedEncodingError (the codings that are supported),
// *CorruptGzipError and *OverBudgetError. Any other error is the
// connection's. The package knows nothing of any schema: callers turn
// these errors into their own error bodies (413 request_too_large, 400
// invalid_request, 503 unavailable on System One servers).
package bodylimit
