// Package upstream is the Router's transport to System One deployments:
// it sends a wire call (target.WireCall: method, URL, headers, body) and
// returns the raw reply (target.WireReply: status, headers, body, or the
// error that left none), bytes in and bytes out. It reads no reply with a
// codec, retries no call on a deployment's behalf, notes no circuit,
// counts and traces nothing: the caller does each of those with what
// Send returns.
//
// Calls to plain-HTTP upstreams go on the Transport's own kept-alive
// HTTP/1.1 connections (conns.go), written and read in the calling
// goroutine, when the Router's client is its own; everything else goes
// through the http.Client it was given, which follows no redirect
// (WithoutRedirects).
//
// Invariants:
//   - A reply is read no further than MaxReplyBytes; a larger one is
//     target.ErrReplyTooLarge, one cut short target.ErrReplyCut, a head
//     that is not HTTP target.ErrReplyMalformed (reply.go, fuzzed).
//   - Every call carries an id of its own as X-Request-Id, the request's
//     id and a number (ids.go); a reply echoing another call's id is never
//     delivered when the upstream echoes ids (IsOtherCallsReply).
//   - A connection is in the idle pool or owned by exactly one call, and
//     goes back only after a reply read whole with nothing after it;
//     bytes no call asked for close it and pause reuse for the
//     deployment's stray pause.
//   - A redirect is returned unread and never followed.
//   - A call is bounded by its context's deadline, else by
//     defaultCallTimeout.
package upstream
