package check

import (
	"bytes"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/runtime"
	kjson "k8s.io/apimachinery/pkg/runtime/serializer/json"
	"sigs.k8s.io/yaml"
)

// chartDir is the chart, relative to this package.
const chartDir = "../helm/vllm-sr"

var (
	helmOnce sync.Once
	helmPath string
	helmErr  error
)

// helmBinary builds the Helm CLI this module pins (go.mod's tool line)
// once per run.
func helmBinary(t *testing.T) string {
	t.Helper()
	helmOnce.Do(func() {
		dir, err := os.MkdirTemp("", "deploy-check-helm-")
		if err != nil {
			helmErr = err
			return
		}
		helmPath = filepath.Join(dir, "helm")
		if out, err := exec.Command("go", "build", "-o", helmPath, "helm.sh/helm/v3/cmd/helm").CombinedOutput(); err != nil {
			helmErr = fmt.Errorf("go build helm: %v\n%s", err, out)
		}
	})
	if helmErr != nil {
		t.Fatal(helmErr)
	}
	return helmPath
}

// helm runs the pinned Helm with a home of its own (no user's repositories
// or plugins) and returns its standard output.
func helm(t *testing.T, args ...string) string {
	t.Helper()
	return helmIn(t, "", args...)
}

// helmIn is helm run in the directory dir ("" for this package's).
func helmIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	home := t.TempDir()
	cmd := exec.Command(helmBinary(t), args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HELM_CACHE_HOME="+home+"/cache", "HELM_CONFIG_HOME="+home+"/config", "HELM_DATA_HOME="+home+"/data")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("helm %s: %v\n%s%s", strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	return stdout.String()
}

// strictDecoder decodes a manifest into the Kubernetes API types (and the
// Prometheus Operator's ServiceMonitor), refusing unknown and duplicate
// fields.
func strictDecoder(t *testing.T) *kjson.Serializer {
	t.Helper()
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{corev1.AddToScheme, appsv1.AddToScheme, policyv1.AddToScheme,
		autoscalingv2.AddToScheme, monitoringv1.AddToScheme} {
		if err := add(scheme); err != nil {
			t.Fatal(err)
		}
	}
	return kjson.NewSerializerWithOptions(kjson.DefaultMetaFactory, scheme, scheme, kjson.SerializerOptions{Yaml: true, Strict: true})
}

var docSep = regexp.MustCompile(`(?m)^---[ \t]*$`)

// rendered is a chart's output decoded: every object by "Kind/name".
type rendered map[string]runtime.Object

// decodeAll decodes every document of a manifest strictly, failing the
// test on any error (a misspelt field, a wrong type, an unknown kind).
func decodeAll(t *testing.T, dec *kjson.Serializer, manifest string) rendered {
	t.Helper()
	objs := rendered{}
	for i, doc := range docSep.Split(manifest, -1) {
		if strings.TrimSpace(stripComments(doc)) == "" {
			continue
		}
		obj, gvk, err := dec.Decode([]byte(doc), nil, nil)
		if err != nil {
			t.Errorf("document %d does not decode strictly: %v\n%s", i, err, doc)
			continue
		}
		name := obj.(interface{ GetName() string }).GetName()
		key := gvk.Kind + "/" + name
		if _, dup := objs[key]; dup {
			t.Errorf("%s rendered twice", key)
		}
		objs[key] = obj
	}
	if t.Failed() {
		t.FailNow() // every bad document is reported; nothing is read from a partial set
	}
	return objs
}

func stripComments(doc string) string {
	var b strings.Builder
	for _, line := range strings.Split(doc, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "#") {
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}

func keys(objs rendered) []string {
	var ks []string
	for k := range objs {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// TestHelmChart: `helm lint --strict` passes the chart with its defaults
// and with every option on; `helm template` renders objects that decode
// strictly into the Kubernetes API types; the Router's pod has its probes,
// checksum annotations and a non-root, read-only, unprivileged security
// context; the runtimes are wired to the Services the Router's
// configuration names; and the rendered router.yaml passes `vllm-sr
// config check` against the published schema (its key files written
// where the Secret would mount them).
func TestHelmChart(t *testing.T) {
	dec := strictDecoder(t)
	bins := binaries(t)
	for _, c := range []struct {
		name   string
		values []string
		want   []string
	}{
		{"defaults", nil, []string{"ConfigMap/r-vllm-sr-router", "Deployment/r-vllm-sr-router", "Deployment/r-vllm-sr-vela3-fast",
			"PodDisruptionBudget/r-vllm-sr-router", "Service/r-vllm-sr-router", "Service/r-vllm-sr-vela3-fast"}},
		{"everything", []string{"-f", "testdata/values-all.yaml"}, []string{"ConfigMap/r-vllm-sr-router",
			"Deployment/r-vllm-sr-llm-judge", "Deployment/r-vllm-sr-router", "Deployment/r-vllm-sr-vela3-fast",
			"HorizontalPodAutoscaler/r-vllm-sr-router", "PodDisruptionBudget/r-vllm-sr-router", "Secret/r-vllm-sr-keys",
			"Service/r-vllm-sr-llm-judge", "Service/r-vllm-sr-router", "Service/r-vllm-sr-vela3-fast", "ServiceMonitor/r-vllm-sr"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			helm(t, append([]string{"lint", "--strict", chartDir}, c.values...)...)
			keysDir := t.TempDir()
			args := append([]string{"template", "r", chartDir, "--namespace", "gateway", "--set", "router.keysDir=" + keysDir}, c.values...)
			objs := decodeAll(t, dec, helm(t, args...))
			if got := keys(objs); !slices.Equal(got, c.want) {
				t.Fatalf("rendered %v, want %v", got, c.want)
			}
			checkRouterPod(t, objs)
			config := objs["ConfigMap/r-vllm-sr-router"].(*corev1.ConfigMap).Data["router.yaml"]
			checkRuntimesWired(t, objs, config)
			checkArgsParse(t, bins, objs)
			if s, ok := objs["Secret/r-vllm-sr-keys"].(*corev1.Secret); ok {
				for file, data := range s.Data {
					if err := os.WriteFile(filepath.Join(keysDir, file), data, 0o440); err != nil {
						t.Fatal(err)
					}
				}
			}
			file := filepath.Join(t.TempDir(), "router.yaml")
			if err := os.WriteFile(file, []byte(config), 0o600); err != nil {
				t.Fatal(err)
			}
			// The published schema accepts what the chart renders too.
			out := run(t, time.Minute, "", filepath.Join(bins, "vllm-sr"), "config", "check",
				"--schema", filepath.Join("..", "..", "docs", "reference", "router-config.schema.json"), file)
			if !strings.Contains(out, "deployment vllm-sr/vela3-fast") {
				t.Errorf("config check of the chart's router.yaml: %q", out)
			}
		})
	}

	// The checksum annotation follows the configuration.
	base := helm(t, "template", "r", chartDir)
	changed := helm(t, "template", "r", chartDir, "--set", "router.config.admin_address=0.0.0.0:9091")
	sumOf := func(manifest string) string {
		d := decodeAll(t, dec, manifest)["Deployment/r-vllm-sr-router"].(*appsv1.Deployment)
		return d.Spec.Template.Annotations["checksum/config"]
	}
	if a, b := sumOf(base), sumOf(changed); a == "" || a == b {
		t.Errorf("checksum/config %q before and %q after a configuration change: want two different sums", a, b)
	}
}

// TestStrictDecodingRefusesMisspeltFields: the decoder the chart test
// uses fails on a misspelt field, so a typo in a template cannot pass.
func TestStrictDecodingRefusesMisspeltFields(t *testing.T) {
	dec := strictDecoder(t)
	good := "apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec:\n  ports: [{name: http, port: 80}]\n"
	if _, _, err := dec.Decode([]byte(good), nil, nil); err != nil {
		t.Fatalf("a good Service: %v", err)
	}
	for _, bad := range []string{
		strings.Replace(good, "ports:", "portz:", 1),
		strings.Replace(good, "port: 80", "port: eighty", 1),
		good + "  ports: []\n",
		strings.Replace(good, "kind: Service", "kind: Servise", 1),
	} {
		if _, _, err := dec.Decode([]byte(bad), nil, nil); err == nil {
			t.Errorf("decoded without an error:\n%s", bad)
		}
	}
}

// checkRouterPod checks the Router's Deployment: probes on a port the
// container has, /ready and /health; the checksum annotations; the
// security context.
func checkRouterPod(t *testing.T, objs rendered) {
	t.Helper()
	d := objs["Deployment/r-vllm-sr-router"].(*appsv1.Deployment)
	pod := d.Spec.Template.Spec
	c := pod.Containers[0]
	if r, l := c.ReadinessProbe, c.LivenessProbe; r == nil || l == nil || r.HTTPGet == nil || l.HTTPGet == nil ||
		r.HTTPGet.Path != "/ready" || l.HTTPGet.Path != "/health" {
		t.Errorf("router probes: readiness %+v liveness %+v, want /ready and /health", r, l)
	} else if !slices.ContainsFunc(c.Ports, func(p corev1.ContainerPort) bool { return p.Name == r.HTTPGet.Port.StrVal }) {
		t.Errorf("router probes port %q is none of the container's %+v", r.HTTPGet.Port.StrVal, c.Ports)
	}
	if sum := d.Spec.Template.Annotations["checksum/config"]; len(sum) != 64 {
		t.Errorf("checksum/config annotation %q", sum)
	}
	checkSecure(t, "router", pod)
	if !slices.Equal(c.Args[:3], []string{"serve", "--config", "/etc/vllm-sr/config/router.yaml"}) {
		t.Errorf("router args %q", c.Args)
	}
	if _, hpa := objs["HorizontalPodAutoscaler/r-vllm-sr-router"]; hpa != (d.Spec.Replicas == nil) {
		t.Errorf("replicas %v with an HPA %v: the Deployment must leave replicas to the HPA, and only then", d.Spec.Replicas, hpa)
	}
	if _, secret := objs["Secret/r-vllm-sr-keys"]; secret {
		var mode *int32
		for _, v := range pod.Volumes {
			if v.Secret != nil {
				mode = v.Secret.DefaultMode
			}
		}
		if mode == nil || *mode&0o007 != 0 {
			t.Errorf("the key files' mode %v: want them unreadable by other users (0440)", mode)
		}
	}
}

// checkSecure: the pod runs as non-root, each container with a read-only
// root filesystem, no privilege escalation, no capabilities.
func checkSecure(t *testing.T, name string, pod corev1.PodSpec) {
	t.Helper()
	if psc := pod.SecurityContext; psc == nil || psc.RunAsNonRoot == nil || !*psc.RunAsNonRoot || psc.RunAsUser == nil || *psc.RunAsUser == 0 {
		t.Errorf("%s: pod security context %+v: want runAsNonRoot and a non-zero runAsUser", name, psc)
	}
	for _, c := range pod.Containers {
		sc := c.SecurityContext
		if sc == nil || sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem ||
			sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation || sc.Capabilities == nil ||
			!slices.Equal(sc.Capabilities.Drop, []corev1.Capability{"ALL"}) {
			t.Errorf("%s: container %s security context %+v", name, c.Name, sc)
		}
		if c.Resources.Requests.Cpu().IsZero() || c.Resources.Requests.Memory().IsZero() {
			t.Errorf("%s: container %s requests no cpu or memory", name, c.Name)
		}
	}
}

// checkRuntimesWired: every deployment of the Router's configuration
// whose endpoint names a Service of the chart reaches that Service's port,
// whose pods run vllm-srun serve with their probes; an LLM runtime gets
// the LLM flags and its key from a Secret.
func checkRuntimesWired(t *testing.T, objs rendered, config string) {
	t.Helper()
	var cfg struct {
		Deployments map[string]struct {
			Endpoint string `json:"endpoint"`
		} `json:"deployments"`
	}
	if err := yaml.Unmarshal([]byte(config), &cfg); err != nil {
		t.Fatalf("router.yaml: %v", err)
	}
	for key, dep := range cfg.Deployments {
		u, err := url.Parse(dep.Endpoint)
		if err != nil {
			t.Errorf("deployment %s: endpoint %q: %v", key, dep.Endpoint, err)
			continue
		}
		svc, ok := objs["Service/"+u.Hostname()].(*corev1.Service)
		if !ok {
			t.Errorf("deployment %s: endpoint %s names no Service of the chart", key, dep.Endpoint)
			continue
		}
		if fmt.Sprint(svc.Spec.Ports[0].Port) != u.Port() {
			t.Errorf("deployment %s: endpoint port %s, Service %s port %d", key, u.Port(), svc.Name, svc.Spec.Ports[0].Port)
		}
		d := objs["Deployment/"+u.Hostname()].(*appsv1.Deployment)
		checkSecure(t, d.Name, d.Spec.Template.Spec)
		c := d.Spec.Template.Spec.Containers[0]
		if c.Args[0] != "serve" || c.ReadinessProbe == nil || c.ReadinessProbe.HTTPGet.Path != "/ready" || c.LivenessProbe.HTTPGet.Path != "/health" {
			t.Errorf("%s: args %q, probes %+v %+v", d.Name, c.Args, c.ReadinessProbe, c.LivenessProbe)
		}
		for k, v := range svc.Spec.Selector {
			if d.Spec.Template.Labels[k] != v {
				t.Errorf("Service %s selects %s=%s, which %s's pods lack", svc.Name, k, v, d.Name)
			}
		}
		if slices.Contains(c.Args, "--llm-url") {
			i := slices.Index(c.Args, "--llm-api-key-env")
			if i < 0 || len(c.Env) == 0 || c.Env[0].Name != c.Args[i+1] || c.Env[0].ValueFrom == nil || c.Env[0].ValueFrom.SecretKeyRef == nil {
				t.Errorf("%s: an LLM runtime's key: args %q env %+v", d.Name, c.Args, c.Env)
			}
		}
	}
}

// checkArgsParse: every container's arguments parse as the real binary's
// flags (cobra refuses an unknown flag or a bad value before --help
// prints). The LLM backend's flags are checked once the binary has them:
// they come with the LLM backend of vllm-srun serve.
func checkArgsParse(t *testing.T, bins string, objs rendered) {
	t.Helper()
	srunHelp, _ := exec.Command(filepath.Join(bins, "vllm-srun"), "serve", "--help").CombinedOutput()
	for key, obj := range objs {
		d, ok := obj.(*appsv1.Deployment)
		if !ok {
			continue
		}
		c := d.Spec.Template.Spec.Containers[0]
		bin := filepath.Join(bins, c.Name)
		if slices.Contains(c.Args, "--llm-url") && !strings.Contains(string(srunHelp), "--llm-url") {
			t.Logf("%s: this vllm-srun has no --llm-url yet; its LLM arguments %q are not checked", key, c.Args)
			continue
		}
		if out, err := exec.Command(bin, append(slices.Clone(c.Args), "--help")...).CombinedOutput(); err != nil {
			t.Errorf("%s: %s %q does not parse: %v\n%s", key, c.Name, c.Args, err, out)
		}
	}
}
