package routerconfig

import (
	"errors"
	"fmt"
	"maps"
	"net"
	"regexp"
	"slices"
	"strconv"
	"time"

	bootstrapv3 "github.com/envoyproxy/go-control-plane/envoy/config/bootstrap/v3"
	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"
	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	routerv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/router/v3"
	hcmv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/http_connection_manager/v3"
	"github.com/envoyproxy/go-control-plane/pkg/wellknown"
	yaml "go.yaml.in/yaml/v3"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/vllm-sr/systemone/generated/vocab"
)

// Envoy's side of the Router's listeners: how it connects to a replica and
// how often it asks each replica's /health.
const (
	EnvoyConnectTimeout      = 2 * time.Second
	EnvoyHealthCheckInterval = 5 * time.Second
	EnvoyHealthCheckTimeout  = 2 * time.Second
	// EnvoyUnhealthyThreshold failed checks take a replica out of its
	// cluster; EnvoyHealthyThreshold passed ones put it back.
	EnvoyUnhealthyThreshold = 2
	EnvoyHealthyThreshold   = 1
)

// EnvoyOptions say where the Router replicas run and where Envoy listens.
type EnvoyOptions struct {
	// Replicas are the hosts (names or IP addresses, no port) that run
	// `vllm-sr serve` with this configuration: each listener is reached on
	// every replica at the listener's own port. Empty: one Router at each
	// listener's own address (an unspecified host is the loopback).
	Replicas []string
	// Listen is where Envoy listens for a Router listener, by listener
	// name: an IP host:port. A listener not named listens at its own
	// address, as clients were told.
	Listen map[string]string
}

// Envoy builds an Envoy bootstrap that fronts the Router replicas of c:
// for each Router listener, an Envoy listener whose route table sends
// exactly the listener's served paths (envoy_routes.go) to one cluster of
// the replicas, health-checked on the Router's /health, and answers every
// other path itself with 404 in the listener's System One error shape.
// regs are the registries c was loaded with. The bootstrap passes Envoy's
// own generated validation, and every problem is returned at once, each
// naming the listener or option it is about.
func Envoy(c *Config, regs Registries, opts EnvoyOptions) (*bootstrapv3.Bootstrap, error) {
	var errs []error
	replicas, err := envoyReplicas(opts.Replicas)
	errs = append(errs, err...)
	for _, name := range slices.Sorted(maps.Keys(opts.Listen)) {
		if !slices.ContainsFunc(c.Listeners, func(l Listener) bool { return l.Name == name }) {
			errs = append(errs, fmt.Errorf("listen %s: the configuration has no listener %q", name, name))
		}
	}
	static := &bootstrapv3.Bootstrap_StaticResources{}
	for i := range c.Listeners {
		lst := &c.Listeners[i]
		l, cl, err := envoyListener(lst, regs, replicas, opts.Listen[lst.Name], c.AdminAddress)
		if err != nil {
			errs = append(errs, fmt.Errorf("listener %q: %w", lst.Name, err))
			continue
		}
		static.Listeners = append(static.Listeners, l)
		static.Clusters = append(static.Clusters, cl)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	b := &bootstrapv3.Bootstrap{StaticResources: static}
	if err := b.ValidateAll(); err != nil {
		return nil, fmt.Errorf("envoy: the bootstrap fails Envoy's validation: %w", err)
	}
	return b, nil
}

// envoyReplicas checks the replica hosts: each a name or IP address with
// no port, given once.
func envoyReplicas(hosts []string) ([]string, []error) {
	var errs []error
	var out []string
	for _, h := range hosts {
		host := h
		if len(h) >= 2 && h[0] == '[' && h[len(h)-1] == ']' {
			host = h[1 : len(h)-1]
		}
		switch {
		case host == "":
			errs = append(errs, errors.New("replica: empty host"))
		case isUnspecified(host):
			errs = append(errs, fmt.Errorf("replica %q: is no address to connect to; give the replica's host", h))
		case net.ParseIP(host) == nil && !hostnamePattern.MatchString(host):
			errs = append(errs, fmt.Errorf("replica %q: must be a host name or an IP address, without a port (each listener's port comes from the configuration)", h))
		case slices.Contains(out, host):
			errs = append(errs, fmt.Errorf("replica %q: given twice", h))
		default:
			out = append(out, host)
		}
	}
	return out, errs
}

// envoyListener builds the Envoy listener and cluster of one Router
// listener. admin is the configuration's admin address ("" for none).
func envoyListener(lst *Listener, regs Registries, replicas []string, listen, admin string) (*listenerv3.Listener, *clusterv3.Cluster, error) {
	host, port, err := splitListenerAddress(lst.Address)
	if err != nil {
		return nil, nil, err
	}
	hosts := endpointHosts(host, replicas)
	health, err := healthTarget(host, port, admin, hosts, len(replicas) == 0)
	if err != nil {
		return nil, nil, err
	}
	bindHost, bindPort, err := envoyBind(lst, host, port, listen, hosts)
	if err != nil {
		return nil, nil, err
	}
	cluster := envoyCluster("vllm-sr-"+lst.Name, port, hosts, health)
	hcm, err := connectionManager(lst, regs, cluster.Name)
	if err != nil {
		return nil, nil, err
	}
	l := &listenerv3.Listener{
		Name:    lst.Name,
		Address: socketAddress(bindHost, bindPort),
		FilterChains: []*listenerv3.FilterChain{{Filters: []*listenerv3.Filter{{
			Name: wellknown.HTTPConnectionManager, ConfigType: &listenerv3.Filter_TypedConfig{TypedConfig: hcm},
		}}}},
	}
	return l, cluster, nil
}

// envoyBind is where Envoy listens for lst: listen, else the listener's
// own address (an unspecified host: every interface). Envoy binds an IP
// address, and must not take the port it forwards to on its own machine
// (a replica on the loopback, or at the very address), where a Router
// listens or Envoy would send requests to itself.
func envoyBind(lst *Listener, host string, port uint32, listen string, hosts []string) (string, uint32, error) {
	bindHost, bindPort := host, port
	if listen != "" {
		var err error
		if bindHost, bindPort, err = splitListenerAddress(listen); err != nil {
			return "", 0, fmt.Errorf("listen %w", err)
		}
	}
	if bindHost == "" {
		bindHost = "0.0.0.0"
	}
	if net.ParseIP(bindHost) == nil {
		return "", 0, fmt.Errorf("Envoy listens on an IP address, and %q is a name; give one with --listen %s=IP:PORT", bindHost, lst.Name)
	}
	if bindPort == port && slices.ContainsFunc(hosts, func(h string) bool { return isLoopback(h) || h == bindHost }) {
		return "", 0, fmt.Errorf("Envoy would listen on port %d, where it reaches a Router on its own machine; "+
			"give the replicas' hosts (--replica), or another address with --listen %s=IP:PORT", port, lst.Name)
	}
	return bindHost, bindPort, nil
}

// connectionManager is the listener's HTTP connection manager, packed:
// its route table and Envoy's router filter.
func connectionManager(lst *Listener, regs Registries, cluster string) (*anypb.Any, error) {
	routes, err := envoyRoutes(lst, regs, cluster)
	if err != nil {
		return nil, err
	}
	routerFilter, err := anypb.New(&routerv3.Router{})
	if err != nil {
		return nil, err
	}
	m := &hcmv3.HttpConnectionManager{
		StatPrefix:     lst.Name,
		CodecType:      hcmv3.HttpConnectionManager_AUTO,
		RouteSpecifier: &hcmv3.HttpConnectionManager_RouteConfig{RouteConfig: routes},
		HttpFilters: []*hcmv3.HttpFilter{{Name: wellknown.Router,
			ConfigType: &hcmv3.HttpFilter_TypedConfig{TypedConfig: routerFilter}}},
		// Paths are matched exactly, so they are normalized first: /v1/./systemone
		// and /v1//systemone reach the route /v1/systemone has.
		NormalizePath: wrapperspb.Bool(true),
		MergeSlashes:  true,
		// Envoy is the edge: the client's address is the connection's.
		UseRemoteAddress: wrapperspb.Bool(true),
	}
	// The bootstrap's validation stops at a packed message, so the
	// connection manager and its route table are validated here.
	if err := m.ValidateAll(); err != nil {
		return nil, fmt.Errorf("the connection manager fails Envoy's validation: %w", err)
	}
	return anypb.New(m)
}

// endpointHosts are the hosts a listener is reached on: every replica, or
// the Router at the listener's own address.
func endpointHosts(host string, replicas []string) []string {
	if len(replicas) == 0 {
		return []string{connectHost(host)}
	}
	return replicas
}

// healthTarget checks that Envoy can reach the listener and the admin
// address on every endpoint host, and says where Envoy asks each
// endpoint's /health: nil for the listener's own port; the admin
// address's port when the configuration has one (the listeners then do
// not serve /health); the admin address itself for a single Router
// (single: the hosts are the Router at the listener's own address, not
// replicas) whose admin address is another host than the one Envoy
// reaches it at.
func healthTarget(host string, port uint32, admin string, hosts []string, single bool) (*endpointv3.Endpoint_HealthCheckConfig, error) {
	remote := slices.ContainsFunc(hosts, func(h string) bool { return !isLoopback(h) })
	if remote && isLoopback(host) {
		return nil, fmt.Errorf("listens on the loopback (%s), so a replica on another host cannot be reached there; listen on 0.0.0.0 or the host's address", host)
	}
	if admin == "" {
		return nil, nil
	}
	adminHost, adminPort, err := splitListenerAddress(admin)
	if err != nil {
		return nil, fmt.Errorf("admin %w", err)
	}
	switch {
	case remote && isLoopback(adminHost):
		return nil, fmt.Errorf("the admin address %s is on the loopback, so Envoy cannot check the health of a Router on another host there", admin)
	case single && !isUnspecified(adminHost) && adminHost != hosts[0]:
		return &endpointv3.Endpoint_HealthCheckConfig{Address: socketAddress(adminHost, adminPort)}, nil
	case adminPort != port:
		return &endpointv3.Endpoint_HealthCheckConfig{PortValue: adminPort}, nil
	}
	return nil, nil
}

// envoyCluster is the cluster of one listener: port on every host,
// least-request balanced, each endpoint health-checked on the Router's
// /health. Endpoints given by name are resolved by DNS.
func envoyCluster(name string, port uint32, hosts []string, health *endpointv3.Endpoint_HealthCheckConfig) *clusterv3.Cluster {
	discovery := clusterv3.Cluster_STATIC
	var endpoints []*endpointv3.LbEndpoint
	for _, h := range hosts {
		if net.ParseIP(h) == nil {
			discovery = clusterv3.Cluster_STRICT_DNS
		}
		e := &endpointv3.Endpoint{Address: socketAddress(h, port), HealthCheckConfig: health}
		endpoints = append(endpoints, &endpointv3.LbEndpoint{HostIdentifier: &endpointv3.LbEndpoint_Endpoint{Endpoint: e}})
	}
	c := &clusterv3.Cluster{
		Name:                 name,
		ClusterDiscoveryType: &clusterv3.Cluster_Type{Type: discovery},
		ConnectTimeout:       durationpb.New(EnvoyConnectTimeout),
		// A System One or LLM request holds its replica for its whole
		// deadline, so the replica with the fewest in flight gets the next.
		LbPolicy: clusterv3.Cluster_LEAST_REQUEST,
		LoadAssignment: &endpointv3.ClusterLoadAssignment{ClusterName: name,
			Endpoints: []*endpointv3.LocalityLbEndpoints{{LbEndpoints: endpoints}}},
		HealthChecks: []*corev3.HealthCheck{{
			Timeout:            durationpb.New(EnvoyHealthCheckTimeout),
			Interval:           durationpb.New(EnvoyHealthCheckInterval),
			UnhealthyThreshold: wrapperspb.UInt32(EnvoyUnhealthyThreshold),
			HealthyThreshold:   wrapperspb.UInt32(EnvoyHealthyThreshold),
			HealthChecker: &corev3.HealthCheck_HttpHealthCheck_{HttpHealthCheck: &corev3.HealthCheck_HttpHealthCheck{
				Path: vocab.PathHealth,
			}},
		}},
	}
	if discovery == clusterv3.Cluster_STRICT_DNS {
		c.DnsLookupFamily = clusterv3.Cluster_V4_PREFERRED
	}
	return c
}

// splitListenerAddress splits host:port; Envoy needs the port as a number.
func splitListenerAddress(addr string) (string, uint32, error) {
	host, p, err := net.SplitHostPort(addr)
	if err != nil {
		return "", 0, fmt.Errorf("address %q: must be host:port", addr)
	}
	port, err := strconv.ParseUint(p, 10, 16)
	if err != nil || port == 0 {
		return "", 0, fmt.Errorf("address %q: Envoy needs the port as a number from 1 to 65535", addr)
	}
	return host, uint32(port), nil
}

// connectHost is where a Router listening on host is reached on its own
// machine: an unspecified host (all interfaces) through the loopback.
func connectHost(host string) string {
	switch {
	case !isUnspecified(host):
		return host
	case host == "" || net.ParseIP(host).To4() != nil:
		return "127.0.0.1"
	}
	return "::1"
}

// isUnspecified: host is every interface ("" or 0.0.0.0 or ::).
func isUnspecified(host string) bool {
	ip := net.ParseIP(host)
	return host == "" || ip != nil && ip.IsUnspecified()
}

// hostnamePattern is a DNS name: dot-separated labels of letters, digits
// and inner hyphens.
var hostnamePattern = regexp.MustCompile(`^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$`)

func isLoopback(host string) bool {
	if ip := net.ParseIP(host); ip != nil {
		return ip.IsLoopback()
	}
	return host == "localhost"
}

func socketAddress(host string, port uint32) *corev3.Address {
	return &corev3.Address{Address: &corev3.Address_SocketAddress{SocketAddress: &corev3.SocketAddress{
		Address: host, PortSpecifier: &corev3.SocketAddress_PortValue{PortValue: port},
	}}}
}

// EnvoyYAML writes b as YAML, the form Envoy's --config-path reads: the
// proto3 JSON mapping of Envoy's own types (protojson), re-encoded as
// block YAML in field order, so the same bootstrap always writes the same
// bytes.
func EnvoyYAML(b *bootstrapv3.Bootstrap) ([]byte, error) {
	data, err := protojson.MarshalOptions{UseProtoNames: true}.Marshal(b)
	if err != nil {
		return nil, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	blockStyle(&doc)
	// No line width: a 404 body is one line, as Envoy answers it.
	return dump(&doc, true)
}

// blockStyle drops the JSON flow style the document was read in, so the
// encoder writes block YAML (quoting a string only where YAML needs it).
func blockStyle(n *yaml.Node) {
	n.Style = 0
	for _, c := range n.Content {
		blockStyle(c)
	}
}
