package routerconfig

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	bootstrapv3 "github.com/envoyproxy/go-control-plane/envoy/config/bootstrap/v3"
	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	routerv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/router/v3"
	hcmv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/http_connection_manager/v3"
	yaml "go.yaml.in/yaml/v3"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/registry"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

const (
	replicasConfig = "../../docs/examples/replicas.yaml"
	exampleConfig  = "../../docs/examples/router.yaml"
)

// envoyDoc is a written bootstrap as Envoy reads it back.
type envoyDoc struct {
	boot     *bootstrapv3.Bootstrap
	hcm      map[string]*hcmv3.HttpConnectionManager // by listener name
	clusters map[string]*clusterv3.Cluster
}

// readEnvoy parses written YAML into Envoy's own types as Envoy's
// --config-path does (YAML read as the proto3 JSON mapping) and runs their
// generated validation (protoc-gen-validate) on the bootstrap and on what
// is packed inside it, which the bootstrap's Validate does not unpack.
func readEnvoy(t *testing.T, data []byte) envoyDoc {
	t.Helper()
	var tree any
	if err := yaml.Unmarshal(data, &tree); err != nil {
		t.Fatal(err)
	}
	js, err := json.Marshal(tree)
	if err != nil {
		t.Fatal(err)
	}
	doc := envoyDoc{boot: &bootstrapv3.Bootstrap{}, hcm: map[string]*hcmv3.HttpConnectionManager{}, clusters: map[string]*clusterv3.Cluster{}}
	if err := protojson.Unmarshal(js, doc.boot); err != nil {
		t.Fatalf("the output is no Envoy bootstrap: %v", err)
	}
	if err := doc.boot.ValidateAll(); err != nil {
		t.Fatalf("the bootstrap fails validation: %v", err)
	}
	for _, l := range doc.boot.GetStaticResources().GetListeners() {
		filters := l.GetFilterChains()[0].GetFilters()
		m := &hcmv3.HttpConnectionManager{}
		if err := filters[0].GetTypedConfig().UnmarshalTo(m); err != nil {
			t.Fatalf("listener %s: %v", l.GetName(), err)
		}
		if err := m.ValidateAll(); err != nil {
			t.Fatalf("listener %s: the connection manager fails validation: %v", l.GetName(), err)
		}
		r := &routerv3.Router{}
		if err := m.GetHttpFilters()[0].GetTypedConfig().UnmarshalTo(r); err != nil {
			t.Fatalf("listener %s: %v", l.GetName(), err)
		}
		if err := r.ValidateAll(); err != nil {
			t.Fatalf("listener %s: the router filter fails validation: %v", l.GetName(), err)
		}
		doc.hcm[l.GetName()] = m
	}
	for _, c := range doc.boot.GetStaticResources().GetClusters() {
		doc.clusters[c.GetName()] = c
	}
	return doc
}

// buildEnvoy loads path and writes its bootstrap with opts.
func buildEnvoy(t *testing.T, path string, opts EnvoyOptions) (*Config, []byte) {
	t.Helper()
	c, err := LoadFile(path, builtin())
	if err != nil {
		t.Fatal(err)
	}
	b, err := Envoy(c, builtin(), opts)
	if err != nil {
		t.Fatal(err)
	}
	out, err := EnvoyYAML(b)
	if err != nil {
		t.Fatal(err)
	}
	return c, out
}

var twoReplicas = EnvoyOptions{Replicas: []string{"192.0.2.11", "192.0.2.12"}}

// TestEnvoyGolden pins the bootstrap of two replicas, and that writing it
// twice gives the same bytes.
func TestEnvoyGolden(t *testing.T) {
	_, out := buildEnvoy(t, replicasConfig, twoReplicas)
	_, again := buildEnvoy(t, replicasConfig, twoReplicas)
	if string(out) != string(again) {
		t.Fatal("two builds wrote different bytes")
	}
	testkit.GoldenCheck(t, "testdata/envoy/replicas.envoy.yaml", out)
}

// TestEnvoyRoutesExactlyTheServedPaths: on every listener, each path the
// Router serves there (an API of its apis, by registry.API.ServesPath, and
// GET /v1/models) goes to the listener's cluster with its timeout, and
// every other path is Envoy's own 404 in the System One error shape.
func TestEnvoyRoutesExactlyTheServedPaths(t *testing.T) {
	cases := []struct {
		file string
		opts EnvoyOptions
	}{
		{replicasConfig, twoReplicas},
		// One Router on this machine, Envoy on other ports.
		{exampleConfig, EnvoyOptions{Listen: map[string]string{
			"public": "0.0.0.0:9080", "internal": "127.0.0.1:9081", "decisions": "127.0.0.1:9082"}}},
	}
	regs := builtin()
	for _, tc := range cases {
		c, out := buildEnvoy(t, tc.file, tc.opts)
		doc := readEnvoy(t, out)
		if len(doc.hcm) != len(c.Listeners) || len(doc.clusters) != len(c.Listeners) {
			t.Fatalf("%s: %d listeners and %d clusters for %d Router listeners", tc.file, len(doc.hcm), len(doc.clusters), len(c.Listeners))
		}
		for i := range c.Listeners {
			lst := &c.Listeners[i]
			m := doc.hcm[lst.Name]
			if m == nil {
				t.Fatalf("%s: no Envoy listener %q", tc.file, lst.Name)
			}
			routes := m.GetRouteConfig().GetVirtualHosts()[0].GetRoutes()
			for _, path := range probePaths(regs) {
				checkRoute(t, lst, regs, routes, path)
			}
		}
	}
}

// probePaths are every registered API path (a "/*" path by one path below
// it), the paths around them, and paths no API has.
func probePaths(regs Registries) []string {
	out := []string{"/", "/nope", "/metrics", vocab.PathHealth, vocab.PathModels, vocab.PathBundle, "/V1/systemone"}
	for _, api := range regs.APIs.All() {
		for _, p := range api.Paths {
			if prefix, ok := strings.CutSuffix(p, "/*"); ok {
				out = append(out, prefix, prefix+"/", prefix+"/generations", prefix+"/a/b")
				continue
			}
			out = append(out, p, p+"/", p+"x")
		}
	}
	return out
}

func checkRoute(t *testing.T, lst *Listener, regs Registries, routes []*routev3.Route, path string) {
	t.Helper()
	r := envoyRoute(t, routes, path)
	if r == nil {
		t.Errorf("listener %s: no route takes %s", lst.Name, path)
		return
	}
	api, served := servedAPI(lst, path)
	if served {
		a := r.GetRoute()
		if a == nil || a.GetCluster() != "vllm-sr-"+lst.Name {
			t.Errorf("listener %s: %s is served but not sent to its cluster: %v", lst.Name, path, r)
			return
		}
		want := EnvoyDefaultRouteTimeout
		if ms, ok := api.Setting(registry.MaxDeadlineSetting); ok {
			want = time.Duration(ms)*time.Millisecond + EnvoyDeadlineGrace
		}
		if got := a.GetTimeout().AsDuration(); got != want {
			t.Errorf("listener %s: %s has timeout %s, want %s", lst.Name, path, got, want)
		}
		return
	}
	reason := vocab.ReasonUnknownPath
	if _, _, known := regs.APIs.ByPath(path); known {
		reason = vocab.ReasonAPINotServed
	}
	d := r.GetDirectResponse()
	if d == nil || d.GetStatus() != 404 {
		t.Errorf("listener %s: %s is not served but not answered 404: %v", lst.Name, path, r)
		return
	}
	var body map[string]any
	if err := json.Unmarshal([]byte(d.GetBody().GetInlineString()), &body); err != nil {
		t.Fatalf("listener %s: the 404 of %s is not JSON: %v", lst.Name, path, err)
	}
	if body[vocab.ErrorCode] != vocab.CodeNotFound || body[vocab.ErrorReason] != reason ||
		!strings.Contains(body[vocab.ErrorDetail].(string), `listener "`+lst.Name+`"`) {
		t.Errorf("listener %s: the 404 of %s is %s, want code %s, reason %s and the listener named", lst.Name, path,
			d.GetBody().GetInlineString(), vocab.CodeNotFound, reason)
	}
	h := r.GetResponseHeadersToAdd()
	if len(h) != 1 || h[0].GetHeader().GetKey() != "content-type" || h[0].GetHeader().GetValue() != "application/json" {
		t.Errorf("listener %s: the 404 of %s is not sent as JSON: %v", lst.Name, path, h)
	}
}

// servedAPI is the entry of lst that serves path: the Router's own view,
// from the registry, with GET /v1/models answered on every listener.
func servedAPI(lst *Listener, path string) (*ListenerAPI, bool) {
	for i := range lst.APIs {
		if lst.APIs[i].API.ServesPath(path) {
			return &lst.APIs[i], true
		}
	}
	return &ListenerAPI{}, path == vocab.PathModels
}

// envoyRoute is the route Envoy takes for path: the first that matches it
// exactly, by prefix, or by a regex over the whole path (Go's regexp is
// RE2, as Envoy's safe_regex).
func envoyRoute(t *testing.T, routes []*routev3.Route, path string) *routev3.Route {
	t.Helper()
	for _, r := range routes {
		m := r.GetMatch()
		switch spec := m.GetPathSpecifier().(type) {
		case *routev3.RouteMatch_Path:
			if spec.Path == path {
				return r
			}
		case *routev3.RouteMatch_Prefix:
			if strings.HasPrefix(path, spec.Prefix) {
				return r
			}
		case *routev3.RouteMatch_SafeRegex:
			if regexp.MustCompile(`^(?:` + spec.SafeRegex.GetRegex() + `)$`).MatchString(path) {
				return r
			}
		default:
			t.Fatalf("a route matches by %T, which this test does not read", spec)
		}
	}
	return nil
}

// TestEnvoyClusters: one cluster per listener, with the listener's port on
// every replica, health-checked on /health; replicas by name are resolved
// by DNS; an admin address moves the health checks to its port.
func TestEnvoyClusters(t *testing.T) {
	c, out := buildEnvoy(t, replicasConfig, EnvoyOptions{Replicas: []string{"router-1", "192.0.2.12"}})
	doc := readEnvoy(t, out)
	for _, lst := range c.Listeners {
		cl := doc.clusters["vllm-sr-"+lst.Name]
		if cl.GetType() != clusterv3.Cluster_STRICT_DNS || cl.GetDnsLookupFamily() != clusterv3.Cluster_V4_PREFERRED {
			t.Errorf("cluster %s: %v %v, want STRICT_DNS V4_PREFERRED", cl.GetName(), cl.GetType(), cl.GetDnsLookupFamily())
		}
		_, port, _ := strings.Cut(lst.Address, ":")
		if got, want := endpointsOf(cl), []string{"router-1:" + port, "192.0.2.12:" + port}; !slices.Equal(got, want) {
			t.Errorf("cluster %s: endpoints %v, want %v", cl.GetName(), got, want)
		}
		if hc := cl.GetHealthChecks(); len(hc) != 1 || hc[0].GetHttpHealthCheck().GetPath() != vocab.PathHealth {
			t.Errorf("cluster %s: health checks %v", cl.GetName(), hc)
		}
	}

	c.AdminAddress = "0.0.0.0:9090"
	b, err := Envoy(c, builtin(), twoReplicas)
	if err != nil {
		t.Fatal(err)
	}
	for _, cl := range b.GetStaticResources().GetClusters() {
		for _, e := range cl.GetLoadAssignment().GetEndpoints()[0].GetLbEndpoints() {
			if got := e.GetEndpoint().GetHealthCheckConfig().GetPortValue(); got != 9090 {
				t.Errorf("cluster %s: health checked on port %d, want the admin port 9090", cl.GetName(), got)
			}
		}
	}
}

func endpointsOf(cl *clusterv3.Cluster) []string {
	var out []string
	for _, e := range cl.GetLoadAssignment().GetEndpoints()[0].GetLbEndpoints() {
		sa := e.GetEndpoint().GetAddress().GetSocketAddress()
		out = append(out, sa.GetAddress()+":"+itoa(sa.GetPortValue()))
	}
	return out
}

func itoa(n uint32) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestEnvoyRefusals: every problem is reported at once, each naming the
// listener or option it is about.
func TestEnvoyRefusals(t *testing.T) {
	c, err := LoadFile(exampleConfig, builtin())
	if err != nil {
		t.Fatal(err)
	}
	_, err = Envoy(c, builtin(), EnvoyOptions{
		Replicas: []string{"192.0.2.11", "192.0.2.11", "router-2:8080", "0.0.0.0"},
		Listen:   map[string]string{"nope": "192.0.2.1:80", "public": "envoy.example:80"},
	})
	if err == nil {
		t.Fatal("accepted")
	}
	for _, want := range []string{
		`replica "192.0.2.11": given twice`,
		`replica "router-2:8080": must be a host name or an IP address, without a port`,
		`replica "0.0.0.0": is no address to connect to`,
		`listen nope: the configuration has no listener "nope"`,
		`listener "public": Envoy listens on an IP address, and "envoy.example" is a name`,
		`listener "internal": listens on the loopback (127.0.0.1), so a replica on another host cannot be reached there`,
		`listener "decisions": listens on the loopback (127.0.0.1)`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error lacks %q:\n%v", want, err)
		}
	}

	// One Router on this machine and Envoy on its ports: Envoy would take
	// the Router's port, or send requests to itself.
	_, err = Envoy(c, builtin(), EnvoyOptions{})
	if err == nil || !strings.Contains(err.Error(), `listener "public": Envoy would listen on port 8080, where it reaches a Router on its own machine`) {
		t.Errorf("got %v", err)
	}
}

// TestEnvoyHealthTarget: the health checks go to the admin address's port
// on each replica, or to the admin address itself for a single Router it
// is another address of; a loopback Envoy cannot reach is refused.
func TestEnvoyHealthTarget(t *testing.T) {
	onPort := func(p uint32) *endpointv3.Endpoint_HealthCheckConfig {
		return &endpointv3.Endpoint_HealthCheckConfig{PortValue: p}
	}
	for _, tc := range []struct {
		listener, admin string
		replicas        []string
		want            *endpointv3.Endpoint_HealthCheckConfig // nil: the listener's own port
		err             string
	}{
		{listener: "0.0.0.0:8080", want: nil},
		{listener: "0.0.0.0:8080", admin: "0.0.0.0:9090", replicas: []string{"192.0.2.11"}, want: onPort(9090)},
		{listener: "0.0.0.0:8080", admin: "127.0.0.1:9090", want: onPort(9090)},
		{listener: "192.0.2.5:8080", admin: "0.0.0.0:9090", want: onPort(9090)},
		{listener: "192.0.2.5:8080", admin: "192.0.2.6:9090", want: &endpointv3.Endpoint_HealthCheckConfig{Address: socketAddress("192.0.2.6", 9090)}},
		{listener: "0.0.0.0:8080", admin: "127.0.0.1:9090", replicas: []string{"192.0.2.11"}, err: "the admin address 127.0.0.1:9090 is on the loopback"},
		{listener: "127.0.0.1:8080", replicas: []string{"192.0.2.11"}, err: "listens on the loopback (127.0.0.1)"},
		{listener: "0.0.0.0:8080", admin: "0.0.0.0:x", err: `admin address "0.0.0.0:x": Envoy needs the port as a number`},
	} {
		host, port, _ := splitListenerAddress(tc.listener)
		got, err := healthTarget(host, port, tc.admin, endpointHosts(host, tc.replicas), len(tc.replicas) == 0)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s admin %q replicas %v: got %v, want %q", tc.listener, tc.admin, tc.replicas, err, tc.err)
		case tc.err == "" && (err != nil || !proto.Equal(got, tc.want)):
			t.Errorf("%s admin %q replicas %v: got %+v %v, want %+v", tc.listener, tc.admin, tc.replicas, got, err, tc.want)
		}
	}
}
