// Package bodylimit reads an HTTP request body under a byte limit and
// decides that a body is too large without reading more than the limit
// allows: a Content-Length above the limit is refused before any byte is
// read, and a body of unknown or lying length is cut off by
// http.MaxBytesReader one byte past the limit, which also makes the
// server close the connection instead of draining the rest.
//
// It knows nothing of any schema: callers turn ErrTooLarge into their own
// error body (413 request_too_large on System One servers).
package bodylimit
