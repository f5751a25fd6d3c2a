package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vllm-sr/systemone/runtime/testkit"
)

const decideConfig = `deployments:
  gateway-d3:
    provider: systemone
    endpoint: {{REC}}/v1/systemone
    model: d3
    schema: systemone/0.2
rules:
  urgent:
    deployment: gateway-d3
    input: [request, history]
    timeout_ms: 2000
    questions:
      urgent: {type: noul, instructions: "Does the user report a problem that blocks their work?"}
`

// runDecide runs the decide command in process, as main does.
func runDecide(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	root := newRoot()
	root.SetArgs(append([]string{"decide"}, args...))
	root.SetOut(&out)
	root.SetErr(&out)
	err := root.Execute()
	return out.String(), err
}

func TestDecideCommandEvaluatesUrgent(t *testing.T) {
	rec := testkit.NewRouterRecorder(t, time.Millisecond)
	path := filepath.Join(t.TempDir(), "router.yaml")
	if err := os.WriteFile(path, []byte(strings.ReplaceAll(decideConfig, "{{REC}}", rec.URL())), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := runDecide(t, "--config", path, "--rule", "urgent",
		"--input", "request=I cannot log in and my demo starts in five minutes", "--input", "history=hello")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	calls := rec.Calls()
	if len(calls) != 1 || len(rec.Refused()) > 0 {
		t.Fatalf("the standard upstream got %d calls, refused %v", len(calls), rec.Refused())
	}
	var sent struct {
		Model string
		State map[string]string
		Roles any
	}
	if err := json.Unmarshal(calls[0], &sent); err != nil {
		t.Fatal(err)
	}
	// The standard carries no roles: the state goes as the part names'
	// text, and the explicit roles the Router built are dropped.
	if sent.Model != "d3" || sent.State["request"] == "" || sent.State["history"] != "hello" || sent.Roles != nil {
		t.Fatalf("sent %s", calls[0])
	}
	testkit.GoldenCheck(t, "testdata/decide-urgent.golden", []byte(out))
}

func TestDecideCommandRefusesBadFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--config", "x.yaml", "--rule", "urgent", "--input", "request"}, "PART=TEXT"},
		{[]string{"--config", "x.yaml", "--rule", "urgent", "--input", "request=a", "--input", "request=b"}, "twice"},
		{[]string{"--config", "does-not-exist.yaml", "--rule", "urgent"}, "does-not-exist.yaml"},
	} {
		if _, err := runDecide(t, c.args...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want an error naming %q", c.args, err, c.want)
		}
	}
}
