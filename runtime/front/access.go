package front

import (
	"strings"
	"time"
)

// cutByShutdown is the access line's cut attribute of a request a
// shutdown cut: its handler was still serving when the shutdown timeout
// closed its connection.
const cutByShutdown = "shutdown_timeout"

// CutGrace bounds how long a shutdown that ran out of time waits, once
// it closed the connections, for the handlers of the requests it cut to
// return (their contexts are done, so they return at once unless stuck),
// so that their access lines are logged before the server ends.
const CutGrace = time.Second

// Cut records that the server is closing the connections of the
// requests in flight at now: none of them gets (the rest of) its answer,
// so Finish logs each as cut, with status 0, whatever its handler writes.
// The first cut is kept.
func (f *Front) Cut(now time.Time) { f.cutAt.CompareAndSwap(0, now.UnixNano()) }

// wasCut reports whether s was in flight when its server cut its
// requests (Cut): it started before the cut and finishes after it.
func (f *Front) wasCut(s *Served) bool {
	at := f.cutAt.Load()
	return at != 0 && s.start.UnixNano() <= at
}

// waitServed waits, at most for grace, until no request is between
// Begin and Finish.
func (f *Front) waitServed(grace time.Duration) {
	for deadline := time.Now().Add(grace); f.serving.Load() > 0 && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
}

// maxUserAgent bounds the user agent an access line carries, in bytes.
const maxUserAgent = 256

// logUserAgent is a client's User-Agent (the header's first value) as
// the access line carries it: client-supplied text, so at most
// maxUserAgent bytes, each character outside printable ASCII (a control
// character, any non-ASCII one, a byte that is not UTF-8) written as
// '?'. The log handler quotes and escapes it like any value; an ordinary
// user agent is used as it is, without a copy.
func logUserAgent(values []string) string {
	if len(values) == 0 {
		return ""
	}
	ua := values[0]
	if len(ua) > maxUserAgent {
		ua = ua[:maxUserAgent]
	}
	for i := 0; i < len(ua); i++ {
		if ua[i] < ' ' || ua[i] > '~' {
			return strings.Map(func(r rune) rune {
				if r < ' ' || r > '~' {
					return '?'
				}
				return r
			}, ua)
		}
	}
	return ua
}
