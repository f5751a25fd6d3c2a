package srun

import (
	"net/http"
	"slices"
	"strings"
)

// serveMetrics answers GET /metrics with the server's Prometheus series.
func (s *Server) serveMetrics(w http.ResponseWriter, r *http.Request) {
	s.metrics.Handler().ServeHTTP(w, r)
}

// Endpoints describes every endpoint the server answers, from its route
// table, as `vllm-srun serve --help` prints it: "POST a, b and c, GET d
// and e", each method's paths sorted, POST first.
func Endpoints() string {
	byMethod := map[string][]string{}
	for path, rt := range (&Server{}).routes() { // the table only: no handler runs
		byMethod[rt.method] = append(byMethod[rt.method], path)
	}
	var out []string
	for _, method := range []string{http.MethodPost, http.MethodGet} {
		paths := byMethod[method]
		slices.Sort(paths)
		if n := len(paths); n > 1 {
			paths = append(paths[:n-2:n-2], paths[n-2]+" and "+paths[n-1])
		}
		out = append(out, method+" "+strings.Join(paths, ", "))
	}
	return strings.Join(out, ", ")
}
