// Package routertest holds the Router's test upstreams: a recording
// upstream that speaks only systemone/0.2 (Recorder), and a recording
// reverse proxy (Tap) to put in front of a runtime. Both serve on
// loopback through net/http/httptest and are closed by the test's
// cleanup.
package routertest
