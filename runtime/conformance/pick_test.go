package conformance_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/vllm-sr/systemone/runtime/conformance"
	"github.com/vllm-sr/systemone/runtime/table"
)

// routerWithADownDeployment lists a deployment nothing serves (down, at a
// port where nothing listens) before vela, a vllm-srun runtime.
const routerWithADownDeployment = `listeners:
  - name: public5
    address: 127.0.0.1:0
    apis:
      systemone: {schema: vllm-sr/5.0}
deployments:
  down:
    provider: systemone
    endpoint: http://127.0.0.1:1/v1/systemone
    model: vllm-sr/vela3-fast
    schema: vllm-sr/5.0
  vela:
    provider: systemone
    endpoint: UPSTREAM/v1/systemone
    model: vllm-sr/vela3-fast
    schema: vllm-sr/5.0
`

// Without --model the kit runs its cases on the first listed model that
// answers, not on the first listed: against a Router whose first
// deployment is down, it picks vela and every case passes.
func TestConformancePicksAReadyModel(t *testing.T) {
	url := startRouterWith(t, routerWithADownDeployment, map[string]string{"UPSTREAM": startSrun(t, "vllm-sr/vela3-fast", "vllm-sr/5.0")})
	if first := firstListed(t, url); first != "down" {
		t.Fatalf("the listing names %q first; the test needs the down deployment first", first)
	}
	var probes []int
	report, err := conformance.Run(t.Context(), conformance.Options{URL: url, Schema: table.SchemaVllmSR50,
		Observe: func(x conformance.Exchange) {
			if x.Case == "pick-model" {
				probes = append(probes, x.Status)
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	if report.Model != "vela" || len(probes) != 2 || probes[0] == http.StatusOK || probes[1] != http.StatusOK {
		t.Fatalf("model %q after probes answered %v; want vela after a failed probe of down", report.Model, probes)
	}
	wantPass(t, report)
}

func firstListed(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url + "/v1/models")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var listing struct {
		Models []struct {
			Name string `json:"name"`
		} `json:"models"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&listing); err != nil || len(listing.Models) == 0 {
		t.Fatalf("the listing: %v %+v", err, listing)
	}
	return listing.Models[0].Name
}
