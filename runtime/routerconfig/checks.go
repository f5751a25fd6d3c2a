package routerconfig

import (
	"net"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/vllm-sr/systemone/generated/catalog"
	"github.com/vllm-sr/systemone/runtime/registry"
	"github.com/vllm-sr/systemone/runtime/table"
)

// address is a listener's (or the admin) address, read and checked.
type address struct {
	host string
	port int
	at   *yaml.Node
	path string
}

// readAddress reads host:port with a numeric port from 0 to 65535 (0
// picks a free port, for tests); the host may be empty or a wildcard. A
// good address is kept for checkAddresses.
func (l *loader) readAddress(n *yaml.Node, path string) string {
	addr, ok := l.str(n, path)
	if !ok {
		return ""
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		l.fail(n, path, "must be host:port")
		return addr
	}
	p, err := strconv.Atoi(port)
	if err != nil || p < 0 || p > 65535 {
		l.fail(n, path, "the port must be a number from 1 to 65535 (0: any free port)")
		return addr
	}
	l.addresses = append(l.addresses, &address{host: host, port: p, at: n, path: path})
	return addr
}

// overlaps reports whether two addresses cannot both be listened on: the
// same port (other than 0) on the same host, or on any host when either
// is every interface.
func (a *address) overlaps(b *address) bool {
	if a.port == 0 || a.port != b.port {
		return false
	}
	return isUnspecified(a.host) || isUnspecified(b.host) || strings.EqualFold(a.host, b.host)
}

// checkAddresses refuses two listeners (or a listener and the admin
// address) on one address, naming the other one's key path.
func (l *loader) checkAddresses(addrs []*address) {
	for i, a := range addrs {
		for _, b := range addrs[:i] {
			if a.overlaps(b) {
				l.fail(a.at, a.path, "%s already listens on this port", b.path)
				break
			}
		}
	}
}

// llmEndpointPath refuses an LLM upstream endpoint whose path p ends in
// one of the LLM APIs' own paths: the endpoint is the upstream's base URL,
// which the Router continues with the request's path.
func (l *loader) llmEndpointPath(s section, p string) {
	for _, api := range l.regs.APIs.All() {
		if api.Kind != registry.KindLLM {
			continue
		}
		for _, apiPath := range api.Paths {
			if strings.HasSuffix(p, strings.TrimSuffix(apiPath, "/*")) {
				s.fail("endpoint", "must be the upstream's base URL (for example https://api.openai.com/v1), not the %s API's path, which the Router appends", api.Name)
				return
			}
		}
	}
}

// catalogueNamespace is the prefix of the catalogue's model names: a
// deployment model in it names a vllm-sr model, which the catalogue must
// know.
const catalogueNamespace = "vllm-sr/"

// catalogueCard returns the catalogue's card of model, and refuses a
// vllm-sr model the catalogue does not know, naming the closest one it
// does.
func catalogueCard(s section, model string) *table.Card {
	if m, known := catalog.Model(model); known {
		return &m.Card
	}
	if !strings.HasPrefix(model, catalogueNamespace) {
		return nil
	}
	var names []string
	for _, m := range catalog.Models() {
		names = append(names, m.Name)
	}
	s.fail("model", "%q is not a model of the catalogue; did you mean %q? known: %s", model, closest(model, names), strings.Join(names, ", ")) //vocab:not-spec Router config key
	return nil
}

// closest is the name nearest to s by edit distance, the first of equals.
func closest(s string, names []string) string {
	best, bestD := "", -1
	for _, name := range names {
		if d := editDistance(s, name); bestD < 0 || d < bestD {
			best, bestD = name, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
