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
// Errors carry no byte of the body: *TooLargeError (the limit),
// *UnsupportedEncodingError (the codings that are supported) and
// *CorruptGzipError. Any other error is the connection's. The package
// knows nothing of any schema: callers turn these errors into their own
// error bodies (413 request_too_large, 400 invalid_request on System One
// servers).
package bodylimit
