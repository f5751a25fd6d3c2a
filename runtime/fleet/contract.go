package fleet

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/front"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/routerconfig"
	tc "github.com/vllm-sr/systemone/runtime/target"
)

// A vllm-sr runtime reports the model runtime contract it speaks as
// api_version in GET /health (its target codec's Traits().HealthPath); a
// Router and its model runtime come from one release, so a deployment
// whose runtime reports a contract other than the Router's
// (front.SameContract: 5.0.x) is not ready, with the named outcome
// runtime_contract_mismatch, and its requests are refused with 503
// unavailable before any call. The contract is read by the start check
// and by every readiness round; a change is logged once. A schema with no
// health path (systemone/0.2) has no contract to check, and a runtime
// that reports none (no api_version) is not refused for it. The health
// is read through its binding after its schema's generated validator
// (the codec's target.HealthDecoder): a body that breaks the schema is
// no contract of this release's, refused as another contract is, with
// the path and problem standing for the contract reported.

// maxHealthBytes bounds the health reply read: its few members.
const maxHealthBytes = 64 << 10

// maxContractBytes bounds a reported contract kept for logs and /ready.
const maxContractBytes = 32

// health is what the Router found of one deployment beyond its listing:
// the contract its runtime reports. It grows by named outcomes (outcome),
// each one making the deployment not ready and, with a refusal, its
// requests refused.
type health struct {
	// endpoint is the deployment's endpoint when it was found: a
	// configuration that gives the name another endpoint is not refused
	// for it.
	endpoint string
	// contract is the api_version reported, cut and checked to be a
	// version string (contractNotAVersion otherwise); "" for none.
	contract string
	// outcome is the named outcome that makes the deployment not ready
	// (vocab.ReasonRuntimeContractMismatch); "" for none.
	outcome string
}

// contractNotAVersion stands for a reported api_version that is no
// version string: it is the upstream's word, kept out of logs and /ready.
const contractNotAVersion = "(not a version string)"

// contractBrokenHealth begins what stands for a health reply its schema
// does not define (brokenHealth).
const contractBrokenHealth = "(a health reply its schema does not define"

// readContract GETs d's health path and returns the contract its runtime
// reports; read is false when d's schema has none, or no 200 with a JSON
// object came back (the listing check reports an upstream that is down;
// a runtime still starting answers 503 with its error body, and the next
// round reads its contract).
func (p *Prober) readContract(ctx context.Context, d *routerconfig.Deployment) (h health, read bool) {
	if d.Codec == nil || d.Codec.Traits().HealthPath == "" {
		return health{}, false
	}
	decoder, ok := d.Codec.(tc.HealthDecoder)
	if !ok {
		return health{}, false
	}
	base, err := d.Target().BaseURL()
	if err != nil {
		return health{}, false
	}
	ctx, cancel := context.WithTimeout(ctx, p.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+d.Codec.Traits().HealthPath, nil)
	if err != nil {
		return health{}, false
	}
	p.Authorize(req.Header, d.APIKey)
	resp, err := p.Client.Do(req)
	if err != nil {
		return health{}, false
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxHealthBytes))
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK {
		return health{}, false // a 503 (a runtime starting) is an error body, not a health
	}
	// Not JSON, or not an object: no health came back (as before the
	// binding). An object is read through the schema's validator, which
	// names what breaks it.
	v, err := jsonvalue.Decode(body, jsonvalue.Options{MaxDepth: 16})
	if err != nil || v.Kind() != jsonvalue.KindObject {
		return health{}, false
	}
	h.endpoint = d.Endpoint
	reported, err := decoder.DecodeHealth(body)
	switch {
	case err != nil:
		h.contract = brokenHealth(err)
	case reported.APIVersion == "":
		return h, true
	case isVersion(reported.APIVersion):
		h.contract = reported.APIVersion
	default:
		h.contract = contractNotAVersion
	}
	if !front.SameContract(h.contract) {
		h.outcome = vocab.ReasonRuntimeContractMismatch
	}
	return h, true
}

// brokenHealth stands for a health reply its schema does not define (the
// generated validator's first problem, err): its runtime does not speak
// this release's contract. It names the path and the problem, as an
// invalid_upstream_reply does, never a value.
func brokenHealth(err error) string {
	var pe *ir.ProtocolError
	if !errors.As(err, &pe) {
		return contractBrokenHealth + ")"
	}
	return contractBrokenHealth + ": " + pe.Path.Clipped(len(pe.Path)).String() + " " + string(pe.Reason) + ")"
}

// isVersion: a short string of digits, letters, '.', '+' and '-'.
func isVersion(s string) bool {
	if s == "" || len(s) > maxContractBytes {
		return false
	}
	for _, c := range []byte(s) {
		ok := c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '.' || c == '+' || c == '-'
		if !ok {
			return false
		}
	}
	return true
}

// note records h as deployment d's health and returns the health it
// replaces, and whether it changed (a first note is a change). A change
// replaces the refusals requests read.
func (c *Checks) note(d string, h health) (before health, changed bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	before, known := c.health[d]
	if known && before == h {
		return before, false
	}
	c.health[d] = h
	refused := map[string]refusal{}
	for name, x := range c.health {
		if x.outcome != "" {
			refused[name] = refusal{endpoint: x.endpoint, body: contractRefusal(name)}
		}
	}
	c.refused.Store(&refused)
	return before, true
}

// healthOf is deployment d's last health.
func (c *Checks) healthOf(d string) health {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.health[d]
}

// refusal is a deployment's refusal, for its endpoint at the time.
type refusal struct {
	endpoint string
	body     *ir.ErrorBody
}

// Refusal is what a request to deployment d is answered with while its
// health refuses it; nil when it goes on. It takes no lock: the hot path
// reads one atomic pointer. A copy: the caller may write it.
func (c *Checks) Refusal(d *routerconfig.Deployment) *ir.ErrorBody {
	refused := c.refused.Load()
	if refused == nil || len(*refused) == 0 {
		return nil
	}
	x, ok := (*refused)[d.Name]
	if !ok || x.endpoint != d.Endpoint {
		return nil
	}
	copied := *x.body
	return &copied
}

// contractRefusal is the 503 a request to deployment d gets while its
// runtime speaks another contract. It names the deployment and the
// Router's contract, never the version the upstream reported.
func contractRefusal(d string) *ir.ErrorBody {
	return listener.ErrorOf(ir.ErrorUnavailable, vocab.ReasonRuntimeContractMismatch,
		"deployment "+quote(d)+" is not ready: its model runtime reports a contract (api_version in GET /health) other than this Router's "+
			front.ContractSeries()+"; a Router and its model runtime come from one release")
}

// noteHealth records deployment d's health as a readiness round found it
// and logs a change once: a warning when its runtime reports another
// contract, an info line when it reports the Router's again.
func (c *Checks) noteHealth(ctx context.Context, log *slog.Logger, d *routerconfig.Deployment, h health) {
	before, changed := c.note(d.Name, h)
	switch {
	case !changed:
	case h.outcome != "":
		log.LogAttrs(ctx, slog.LevelWarn, contractLine(d, h), slog.String("deployment", d.Name), //vocab:not-spec log attribute key
			slog.String(vocab.HealthAPIVersion, h.contract), slog.String("outcome", h.outcome)) //vocab:not-spec log attribute key
	case before.outcome != "":
		log.LogAttrs(ctx, slog.LevelInfo, "deployment "+quote(d.Name)+": its model runtime reports this Router's contract again",
			slog.String("deployment", d.Name), slog.String(vocab.HealthAPIVersion, h.contract)) //vocab:not-spec log attribute key
	}
}

// ContractFinding is the start check's finding about d's runtime
// contract, when its runtime reports another (found; a strict finding:
// --strict refuses to start), with the health recorded so the readiness
// rounds log only a change; known: the same health was found before (a
// reload's start check), so the finding is not logged again unless it is
// an error.
func (c *Checks) ContractFinding(ctx context.Context, p *Prober, d *routerconfig.Deployment) (message string, known, found bool) {
	h, read := p.readContract(ctx, d)
	if !read {
		return "", false, false
	}
	_, changed := c.note(d.Name, h)
	if h.outcome == "" {
		return "", false, false
	}
	return contractLine(d, h), !changed, true
}

// contractLine names the deployment and both contracts: what its runtime
// reports and what the Router speaks.
func contractLine(d *routerconfig.Deployment, h health) string {
	return "deployment " + quote(d.Name) + " (" + d.Endpoint + "): its model runtime reports contract " + h.contract +
		" (api_version in GET /health), and this Router speaks " + front.ContractSeries() + " (" + front.RuntimeContract +
		"): a Router and its model runtime come from one release, so the deployment is not ready and its requests are refused"
}
