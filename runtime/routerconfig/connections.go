package routerconfig

import (
	"fmt"
	"strings"
	"time"
)

// Connections is how the Router reuses its kept-alive HTTP/1.1
// connections to a deployment (the deployment's connections key), for an
// upstream whose replies it cannot tell apart: one that echoes no call
// id (systemone/0.2 servers) may send bytes late, after the Router
// checked an idle connection and wrote the next call on it, and those
// bytes would read as that call's reply (docs/router.md, "Upstream
// connections"). The zero value is the default: connections reused, no
// pause.
type Connections struct {
	// NoReuse (reuse: false): every call goes on a new connection, which
	// is closed after its reply. No reply can then be another call's, at
	// the cost of a TCP handshake per call.
	NoReuse bool
	// StrayPause (stray_pause_ms): after the deployment's host sent bytes
	// no call asked for (on an idle connection, after a reply, or a reply
	// echoing another call's id), the deployment's calls go on new
	// connections, each closed after its reply, for this long; every
	// later stray starts the pause again. 0: no pause.
	StrayPause time.Duration
}

// Bounds of the connections settings.
const (
	// maxStrayPauseMs bounds stray_pause_ms: an hour.
	maxStrayPauseMs = 3_600_000
)

// keyConnections is the deployment key connections reads.
const keyConnections = "connections" //vocab:not-spec Router config key

var connectionsKeys = keysOf(connectionsForm{})

// connections reads a deployment's connections settings, when present;
// endpoint is the deployment's URL ("" when it has problems of its own).
// The settings apply to the Router's own connections, which carry the
// calls to http:// endpoints; an https:// endpoint's calls go through
// Go's client, which the settings cannot steer, so they are refused
// there rather than ignored.
func (l *loader) connections(s section, endpoint string) Connections {
	var c Connections
	n, has := s.value(keyConnections)
	if !has {
		return c
	}
	cs, ok := l.fields(n, s.at(keyConnections), connectionsKeys, nil)
	if !ok {
		return c
	}
	if strings.HasPrefix(endpoint, "https://") {
		s.fail(keyConnections, "applies to an http:// endpoint only (the Router's own connections); an https:// endpoint's connections are Go's client's")
	}
	reuse := true
	if v, has := cs.value("reuse"); has {
		reuse, _ = l.boolean(v, cs.at("reuse"))
	}
	c.NoReuse = !reuse
	if v, has := cs.value("stray_pause_ms"); has {
		if ms, ok := l.integer(v, cs.at("stray_pause_ms"), 0, maxStrayPauseMs); ok {
			c.StrayPause = time.Duration(ms) * time.Millisecond
		}
		if c.NoReuse && c.StrayPause > 0 {
			cs.fail("stray_pause_ms", "has no effect with reuse: false (no connection is reused); remove one of them")
		}
	}
	return c
}

// connectionsText is what Describe adds for connections settings that
// are not the defaults; "" for none.
func connectionsText(c Connections) string {
	switch {
	case c.NoReuse:
		return " connections=new-per-call"
	case c.StrayPause > 0:
		return fmt.Sprintf(" stray_pause=%s", c.StrayPause)
	}
	return ""
}
